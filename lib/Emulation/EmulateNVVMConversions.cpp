//===- EmulateNVVMConversions.cpp - NVVM f8 conversions on the CPU --------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Test only. gpucg-expand-small-floats{nvvm-float8=true} lowers 8-bit float
// conversions to NVVM's f8x2 conversion ops, which only a GPU runs; here
// they become calls of the emulator runtime's models of the PTX
// instructions, so that the selects around them (and the pairing of values)
// run, and are checked, on the CPU.
//
//===----------------------------------------------------------------------===//

#include "EmulatorRuntime.h"
#include "gpucg/Conversion/Passes.h"
#include "gpucg/Emulation/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_TESTEMULATENVVMCONVERSIONS
#include "gpucg/Emulation/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;

/// The emulator's code of an 8-bit float type, or nullopt.
static std::optional<int32_t> getEmulatorFloat8Code(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return static_cast<int32_t>(gpucg::EmulatorType::F8E4M3);
  if (isa<Float8E5M2Type>(type))
    return static_cast<int32_t>(gpucg::EmulatorType::F8E5M2);
  return std::nullopt;
}

/// The declaration of runtime function `function` in `module`, added if
/// missing.
static func::FuncOp getOrDeclare(ModuleOp module,
                                 gpucg::EmulatorFunction function) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(function.name))
    return existing;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto decl = func::FuncOp::create(b, module.getLoc(), function.name,
                                   function.getType(module.getContext()));
  decl.setPrivate();
  return decl;
}

namespace {
struct TestEmulateNVVMConversionsPass
    : public gpucg::impl::TestEmulateNVVMConversionsBase<
          TestEmulateNVVMConversionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    Type i16 = IntegerType::get(ctx, 16), i32 = IntegerType::get(ctx, 32);
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<NVVM::ConvertF32x2ToF8x2Op, NVVM::ConvertF8x2ToF16x2Op>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      if (auto toF8 = dyn_cast<NVVM::ConvertF32x2ToF8x2Op>(op)) {
        std::optional<int32_t> code = getEmulatorFloat8Code(toF8.getDstTy());
        if (!code || !toF8.getType().isInteger(16) ||
            toF8.getRnd() != NVVM::FPRoundingMode::RN ||
            toF8.getSat() != NVVM::SaturationMode::SATFINITE ||
            toF8.getRelu()) {
          op->emitOpError()
              << "has no emulator model: it models e4m3 and e5m2 results in "
                 "an i16, rounded to nearest with satfinite, without relu";
          return signalPassFailure();
        }
        func::FuncOp callee = getOrDeclare(
            module, GPUCG_EMULATOR_FUNCTION(gpucg_emu_cvt_f32x2_to_f8x2));
        Value type = arith::ConstantIntOp::create(b, loc, i32, *code);
        Value packed =
            func::CallOp::create(b, loc, callee,
                                 ValueRange{toF8.getA(), toF8.getB(), type})
                .getResult(0);
        op->getResult(0).replaceAllUsesWith(
            arith::TruncIOp::create(b, loc, i16, packed));
        op->erase();
        continue;
      }
      auto toF16 = cast<NVVM::ConvertF8x2ToF16x2Op>(op);
      std::optional<int32_t> code = getEmulatorFloat8Code(toF16.getSrcType());
      if (!code || toF16.getRelu()) {
        op->emitOpError() << "has no emulator model: it models e4m3 and e5m2 "
                             "sources, without relu";
        return signalPassFailure();
      }
      func::FuncOp callee = getOrDeclare(
          module, GPUCG_EMULATOR_FUNCTION(gpucg_emu_cvt_f8x2_to_f16x2));
      // The vector<2xi8>'s element 0 is the lower byte.
      Value bytes = vector::BitCastOp::create(b, loc, VectorType::get({1}, i16),
                                              toF16.getSrc());
      Value word = arith::ExtUIOp::create(
          b, loc, i32, vector::ExtractOp::create(b, loc, bytes, 0));
      Value type = arith::ConstantIntOp::create(b, loc, i32, *code);
      Value halves =
          func::CallOp::create(b, loc, callee, ValueRange{word, type})
              .getResult(0);
      Value vector = vector::BitCastOp::create(
          b, loc, VectorType::get({2}, Float16Type::get(ctx)),
          vector::BroadcastOp::create(b, loc, VectorType::get({1}, i32),
                                      halves));
      op->getResult(0).replaceAllUsesWith(vector);
      op->erase();
    }
  }
};
} // namespace
