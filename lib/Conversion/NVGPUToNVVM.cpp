//===- NVGPUToNVVM.cpp - gpucg's nvgpu-to-NVVM patterns ----------------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream's nvgpu-to-NVVM conversion deduces the PTX type of mma.sync
// multiplicands from f16, f32 (tf32), f64, i8 and i4 only: a bf16
// `nvgpu.mma.sync` gets a diagnostic and stays, although NVVM has bf16
// mma.sync (m16n8k8 and m16n8k16, f32 accumulators). This file adds that
// lowering, written as an upstream pattern would be, and the
// `gpucg-convert-nvgpu-to-nvvm` pass, which runs it with upstream's patterns
// and reports every nvgpu op that is left.
//
//===----------------------------------------------------------------------===//

#include "gpucg/Conversion/NVGPUToNVVM.h"
#include "gpucg/Conversion/Passes.h"

#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_CONVERTNVGPUTONVVM
#include "gpucg/Conversion/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;

//===----------------------------------------------------------------------===//
// NVVM mma.sync variants
//===----------------------------------------------------------------------===//

namespace {
/// The PTX types and integer overflow behaviour of the `nvvm.mma.sync` an
/// `nvgpu.mma.sync` lowers to (layouts are always row x col).
struct NVVMMmaSyncVariant {
  NVVM::MMATypes multiplicandType;
  NVVM::MMATypes accumulatorType;
  std::optional<NVVM::MMAIntOverflow> overflow;
};
} // namespace

/// Returns the PTX type of multiplicands of element type `type`, as
/// upstream's lowering deduces it, plus bf16.
static std::optional<NVVM::MMATypes> getMultiplicandPtxType(Type type,
                                                            bool tf32Enabled) {
  if (type.isBF16())
    return NVVM::MMATypes::bf16;
  if (type.isF16())
    return NVVM::MMATypes::f16;
  if (type.isF32() && tf32Enabled)
    return NVVM::MMATypes::tf32;
  if (type.isF64())
    return NVVM::MMATypes::f64;
  if (type.isInteger(8))
    return NVVM::MMATypes::s8;
  if (type.isInteger(4))
    return NVVM::MMATypes::s4;
  return std::nullopt;
}

/// Returns the NVVM mma.sync variant `op` lowers to, or failure when NVVM has
/// none (no PTX type for its elements, or no intrinsic for its shape and
/// types); then writes why to `reason` if given.
static FailureOr<NVVMMmaSyncVariant>
getNVVMMmaSyncVariant(nvgpu::MmaSyncOp op, llvm::raw_ostream *reason) {
  Type aType = op.getMatrixA().getType().getElementType();
  Type bType = op.getMatrixB().getType().getElementType();
  Type cType = op.getMatrixC().getType().getElementType();
  bool tf32Enabled = op.getTf32Enabled().value_or(false);
  std::array<int64_t, 3> shape = op.getMmaShapeAsArray();

  if (aType.isF32() && !tf32Enabled) {
    if (reason)
      *reason << "f32 multiplicands need the tf32Enabled attribute "
                 "(mma.sync multiplies f32 only as tf32)";
    return failure();
  }
  std::optional<NVVM::MMATypes> multiplicand =
      getMultiplicandPtxType(aType, tf32Enabled);
  std::optional<NVVM::MMATypes> accumulator =
      NVVM::MmaOp::inferOperandMMAType(cType, /*isAccumulator=*/true);
  if (aType != bType || !multiplicand || !accumulator) {
    if (reason)
      *reason << "element types " << aType << " x " << bType << " -> " << cType
              << " have no NVVM mma.sync PTX types";
    return failure();
  }

  NVVMMmaSyncVariant variant{*multiplicand, *accumulator, std::nullopt};
  if (isa<IntegerType>(aType))
    variant.overflow = NVVM::MMAIntOverflow::satfinite;
  llvm::Intrinsic::ID intrinsic = NVVM::MmaOp::getIntrinsicID(
      shape[0], shape[1], shape[2], /*b1Op=*/std::nullopt, variant.overflow,
      NVVM::MMALayout::row, NVVM::MMALayout::col, *multiplicand, *multiplicand,
      *accumulator, *accumulator);
  if (intrinsic == llvm::Intrinsic::not_intrinsic) {
    if (reason) {
      *reason << "NVVM has no mma.sync for " << aType << " x " << bType
              << " -> " << cType << " with mmaShape [" << shape[0] << ", "
              << shape[1] << ", " << shape[2] << "]";
    }
    return failure();
  }
  return variant;
}

//===----------------------------------------------------------------------===//
// bf16 mma.sync
//===----------------------------------------------------------------------===//

/// Bitcasts each 32-bit row of the converted fragment `operand` (an
/// `!llvm.array<N x vector<2xbf16>>`) to the i32 register `nvvm.mma.sync`
/// takes.
static SmallVector<Value> packRowsToI32(ImplicitLocOpBuilder &b,
                                        Value operand) {
  auto arrayType = cast<LLVM::LLVMArrayType>(operand.getType());
  SmallVector<Value> registers;
  for (unsigned i = 0, e = arrayType.getNumElements(); i < e; ++i) {
    Value row = LLVM::ExtractValueOp::create(b, operand, i);
    registers.push_back(LLVM::BitcastOp::create(b, b.getI32Type(), row));
  }
  return registers;
}

/// Returns the scalars of the converted fragment `operand` (an
/// `!llvm.array<N x vector<2xf32>>`) in row-major order, as
/// `nvvm.mma.sync` takes an f32 accumulator.
static SmallVector<Value> unpackRowsToScalars(ImplicitLocOpBuilder &b,
                                              Value operand) {
  auto arrayType = cast<LLVM::LLVMArrayType>(operand.getType());
  auto rowType = cast<VectorType>(arrayType.getElementType());
  SmallVector<Value> scalars;
  for (unsigned i = 0, e = arrayType.getNumElements(); i < e; ++i) {
    Value row = LLVM::ExtractValueOp::create(b, operand, i);
    for (int64_t j = 0, n = rowType.getNumElements(); j < n; ++j) {
      Value index =
          LLVM::ConstantOp::create(b, b.getI32Type(), b.getI32IntegerAttr(j));
      scalars.push_back(LLVM::ExtractElementOp::create(b, row, index));
    }
  }
  return scalars;
}

/// Repacks the struct of scalars `nvvm.mma.sync` returns into `resultType`,
/// an `!llvm.array<N x vector<2xf32>>`, row-major.
static Value packScalarsToRows(ImplicitLocOpBuilder &b, Value intrinsicResult,
                               LLVM::LLVMArrayType resultType) {
  auto rowType = cast<VectorType>(resultType.getElementType());
  int64_t rowSize = rowType.getNumElements();
  Value result = LLVM::PoisonOp::create(b, resultType);
  for (unsigned i = 0, e = resultType.getNumElements(); i < e; ++i) {
    Value row = LLVM::PoisonOp::create(b, rowType);
    for (int64_t j = 0; j < rowSize; ++j) {
      Value scalar =
          LLVM::ExtractValueOp::create(b, intrinsicResult, i * rowSize + j);
      Value index =
          LLVM::ConstantOp::create(b, b.getI32Type(), b.getI32IntegerAttr(j));
      row = LLVM::InsertElementOp::create(b, row, scalar, index);
    }
    result = LLVM::InsertValueOp::create(b, result, row, i);
  }
  return result;
}

namespace {
/// Lowers a bf16 `nvgpu.mma.sync` (m16n8k8 or m16n8k16, f32 accumulator) to
/// `nvvm.mma.sync`: each `vector<2xbf16>` row of A and B is one i32
/// register, the accumulator is passed as f32 scalars, and the struct of f32
/// the intrinsic returns is repacked into `vector<2xf32>` rows. Takes
/// precedence over upstream's mma.sync pattern, which rejects bf16.
struct MmaSyncBF16OpToNVVM : public ConvertOpToLLVMPattern<nvgpu::MmaSyncOp> {
  explicit MmaSyncBF16OpToNVVM(const LLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern<nvgpu::MmaSyncOp>(converter, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(nvgpu::MmaSyncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getMatrixA().getType().getElementType().isBF16())
      return rewriter.notifyMatchFailure(op, "multiplicands are not bf16");
    FailureOr<NVVMMmaSyncVariant> variant =
        getNVVMMmaSyncVariant(op, /*reason=*/nullptr);
    if (failed(variant))
      return rewriter.notifyMatchFailure(op, "no NVVM mma.sync variant");
    auto resultType = dyn_cast_or_null<LLVM::LLVMArrayType>(
        typeConverter->convertType(op.getType()));
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "unconvertible result type");

    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    SmallVector<Value> matA = packRowsToI32(b, adaptor.getMatrixA());
    SmallVector<Value> matB = packRowsToI32(b, adaptor.getMatrixB());
    SmallVector<Value> matC = unpackRowsToScalars(b, adaptor.getMatrixC());
    Type intrinsicResultType = LLVM::LLVMStructType::getLiteral(
        getContext(), SmallVector<Type>(matC.size(), rewriter.getF32Type()));
    Value intrinsicResult = NVVM::MmaOp::create(
        b, intrinsicResultType, matA, matB, matC, op.getMmaShapeAsArray(),
        /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
        /*multiplicandPtxTypes=*/
        std::array<NVVM::MMATypes, 2>{variant->multiplicandType,
                                      variant->multiplicandType},
        /*multiplicandLayouts=*/
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    rewriter.replaceOp(op, packScalarsToRows(b, intrinsicResult, resultType));
    return success();
  }
};

/// CUtensorMapDataType's unsigned integer codes (cuda.h), by element width.
constexpr int64_t kTensorMapUInt8 = 0;
constexpr int64_t kTensorMapUInt16 = 1;

/// The CUtensorMapDataType gpucg gives elements of `type` that upstream's
/// lowering has no code for: 8-bit floats (every one: TMA copies their
/// bytes) and signless or signed 8- and 16-bit integers, as unsigned integers of their width (TMA copies bits;
/// the kernel ABI's runtime encodes them the same way). Upstream reaches
/// llvm_unreachable for them, which a release build turns into BFLOAT16:
/// elements of 2 bytes, a wrong tensor map. std::nullopt for the types
/// upstream encodes.
static std::optional<int64_t> getTensorMapBitsDataType(Type type) {
  if (type.isUnsignedInteger())
    return std::nullopt;
  if ((isa<FloatType>(type) || type.isInteger()) &&
      type.getIntOrFloatBitWidth() == 8)
    return kTensorMapUInt8;
  if (type.isInteger(16))
    return kTensorMapUInt16;
  return std::nullopt;
}

/// nvgpu.tma.create.descriptor of elements getTensorMapBitsDataType encodes
/// (benefit 2, ahead of upstream's pattern): the same host call,
/// `mgpuTensorMapEncodeTiledMemref(rank, descriptor, dataType, interleave,
/// swizzle, l2promo, oob, box)`, with the box in a 5-element stack array.
struct TmaCreateDescriptorOfBitsToLLVM
    : public ConvertOpToLLVMPattern<nvgpu::TmaCreateDescriptorOp> {
  explicit TmaCreateDescriptorOfBitsToLLVM(const LLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern(converter, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(nvgpu::TmaCreateDescriptorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> dataType =
        getTensorMapBitsDataType(op.getTensor().getType().getElementType());
    if (!dataType)
      return rewriter.notifyMatchFailure(op, "upstream encodes this type");
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    MLIRContext *ctx = op.getContext();
    auto pointerType = LLVM::LLVMPointerType::get(ctx);
    Type i64 = b.getI64Type();
    auto constant = [&](int64_t value) -> Value {
      return LLVM::ConstantOp::create(b, i64, b.getI64IntegerAttr(value));
    };
    auto module = op->getParentOfType<ModuleOp>();
    if (!module)
      return rewriter.notifyMatchFailure(op, "not inside a module");
    // The unranked memref as its rank and a pointer to its ranked
    // descriptor on the stack.
    SmallVector<Value, 4> memref = getTypeConverter()->promoteOperands(
        op.getLoc(), op.getTensor(), adaptor.getTensor(), b);
    Value box = LLVM::AllocaOp::create(b, pointerType, i64, constant(5));
    for (auto [index, size] : llvm::enumerate(adaptor.getBoxDimensions())) {
      Value slot = LLVM::GEPOp::create(
          b, pointerType, i64, box,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(index)});
      LLVM::StoreOp::create(b, size, slot);
    }
    nvgpu::TensorMapDescriptorType mapType = op.getTensorMap().getType();
    SmallVector<Value> arguments = {
        memref[0],
        memref[1],
        constant(*dataType),
        constant(static_cast<int64_t>(mapType.getInterleave())),
        constant(static_cast<int64_t>(mapType.getSwizzle())),
        constant(static_cast<int64_t>(mapType.getL2promo())),
        constant(static_cast<int64_t>(mapType.getOob())),
        box};
    SmallVector<Type> argumentTypes = {i64, pointerType, i64, i64,
                                       i64, i64,         i64, pointerType};
    FailureOr<LLVM::LLVMFuncOp> encode = LLVM::lookupOrCreateFn(
        rewriter, module, "mgpuTensorMapEncodeTiledMemref", argumentTypes,
        pointerType);
    if (failed(encode))
      return rewriter.notifyMatchFailure(
          op, "mgpuTensorMapEncodeTiledMemref is declared with another type");
    rewriter.replaceOpWithNewOp<LLVM::CallOp>(op, *encode, arguments);
    return success();
  }
};
} // namespace

void mlir::gpucg::populateGpucgNVGPUToNVVMConversionPatterns(
    const LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<MmaSyncBF16OpToNVVM, TmaCreateDescriptorOfBitsToLLVM>(converter);
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

/// Emits an error on every nvgpu op under `root`, saying why it was not
/// converted where that is known. Returns failure if there was one.
static LogicalResult reportUnconvertedOps(Operation *root) {
  bool found = false;
  root->walk([&](Operation *op) {
    if (!isa_and_nonnull<nvgpu::NVGPUDialect>(op->getDialect()))
      return;
    found = true;
    InFlightDiagnostic diag = op->emitOpError("was not converted to NVVM");
    if (auto mma = dyn_cast<nvgpu::MmaSyncOp>(op)) {
      std::string reason;
      llvm::raw_string_ostream os(reason);
      if (failed(getNVVMMmaSyncVariant(mma, &os)))
        diag << ": " << reason;
    }
  });
  return failure(found);
}

namespace {
struct ConvertNVGPUToNVVMPass
    : public gpucg::impl::ConvertNVGPUToNVVMBase<ConvertNVGPUToNVVMPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    LLVMTypeConverter converter(ctx);
    nvgpu::populateCommonGPUTypeAndAttributeConversions(converter);
    RewritePatternSet patterns(ctx);
    gpucg::populateGpucgNVGPUToNVVMConversionPatterns(converter, patterns);
    populateNVGPUToNVVMConversionPatterns(converter, patterns);

    LLVMConversionTarget target(*ctx);
    target.addLegalDialect<NVVM::NVVMDialect>();
    // An mma.sync NVVM has no variant for is legal, i.e. left alone to be
    // reported below: upstream's pattern would build an invalid
    // `nvvm.mma.sync` for some (e.g. f16 m16n8k32). Other nvgpu ops are of
    // unknown legality: what no pattern converts is reported below too.
    target.addDynamicallyLegalOp<nvgpu::MmaSyncOp>(
        [](nvgpu::MmaSyncOp op) -> std::optional<bool> {
          if (failed(getNVVMMmaSyncVariant(op, /*reason=*/nullptr)))
            return true;
          return std::nullopt;
        });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
    if (failed(reportUnconvertedOps(getOperation())))
      signalPassFailure();
  }
};
} // namespace
