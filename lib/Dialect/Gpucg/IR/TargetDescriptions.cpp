//===- TargetDescriptions.cpp - Known NVIDIA chips ------------------------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The limits of the chips gpucg knows by name. Sources:
//  - CUDA C++ Programming Guide, "Compute Capabilities", table "Technical
//    Specifications per Compute Capability": threads per block, 32-bit
//    registers per block and per thread, shared memory per block (48 KB
//    static; the opt-in maximum is 64 KB on 7.5, 163 KB on 8.0/8.7, 99 KB on
//    8.6/8.9 and 227 KB on 9.0).
//  - The data sheets of each chip's largest data-center part for the number
//    of SMs (which depends on the part, not on the compute capability).
//  - PTX ISA, "Warp Level Matrix Multiply-Accumulate Instructions": the
//    wmma shapes (sm_70+ f16, sm_72+ i8, sm_80+ bf16/tf32/f64) and the
//    mma.sync shapes (sm_75: m16n8k8 f16, m8n8k16 i8; sm_80+: m16n8k16 and
//    m16n8k8 f16/bf16, m16n8k8 and m16n8k4 tf32, m16n8k32/m16n8k16 i8,
//    m8n8k4 f64; sm_89+: m16n8k32 e4m3/e5m2).
//
//===----------------------------------------------------------------------===//

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::gpucg;

namespace {
/// The limits of one chip that differ between chips.
struct ChipLimits {
  StringLiteral chip;
  int64_t computeCapability;
  int64_t maxSharedMemoryPerBlockOptin;
  /// SMs of the chip's largest data-center part (a grid-size hint only).
  int64_t numSms;
  /// Warpgroup MMA (`wgmma.mma_async`), TMA and `setmaxnreg`: PTX's
  /// architecture-specific `a` features of sm_90, which no other chip (and
  /// no binary for plain sm_90) may use.
  bool warpgroupMma = false;
};

// Keep sorted by name; getKnownChips() returns the names in this order.
// SM counts: T4 (sm_75) 40, A100 (sm_80) 108, A40 (sm_86) 84, Jetson AGX
// Orin (sm_87) 16, L40S (sm_89) 142, H100 SXM5 (sm_90) 132.
constexpr ChipLimits kKnownChips[] = {
    {"sm_75", 75, 64 * 1024, 40},
    {"sm_80", 80, 163 * 1024, 108},
    {"sm_86", 86, 99 * 1024, 84},
    {"sm_87", 87, 163 * 1024, 16},
    {"sm_89", 89, 99 * 1024, 142},
    {"sm_90", 90, 227 * 1024, 132},
    {"sm_90a", 90, 227 * 1024, 132, /*warpgroupMma=*/true},
};

// The same on every chip above.
constexpr int64_t kWarpSize = 32;
constexpr int64_t kMaxThreadsPerBlock = 1024;
constexpr int64_t kMaxStaticSharedMemoryPerBlock = 48 * 1024;
constexpr int64_t kMaxRegistersPerBlock = 64 * 1024;
constexpr int64_t kMaxRegistersPerThread = 255;

/// Builds the list of MMA shapes a chip of compute capability `cc` executes.
class MmaShapeListBuilder {
public:
  MmaShapeListBuilder(MLIRContext *context) : context(context), b(context) {}

  void add(MmaKind kind, int64_t m, int64_t n, int64_t k, Type ab, Type c) {
    shapes.push_back(MmaShapeAttr::get(context, kind, m, n, k, ab, ab, c));
  }

  SmallVector<MmaShapeAttr> build(int64_t cc) {
    Type f16 = b.getF16Type(), bf16 = b.getBF16Type(), f32 = b.getF32Type(),
         f64 = b.getF64Type(), i8 = b.getI8Type(), i32 = b.getI32Type();
    // WMMA: f16 since sm_70, i8 since sm_72.
    for (Type acc : {f16, f32})
      for (auto [m, n, k] : kWmmaShapes16)
        add(MmaKind::Wmma, m, n, k, f16, acc);
    for (auto [m, n, k] : kWmmaShapes16)
      add(MmaKind::Wmma, m, n, k, i8, i32);
    if (cc >= 80) {
      for (auto [m, n, k] : kWmmaShapes16)
        add(MmaKind::Wmma, m, n, k, bf16, f32);
      add(MmaKind::Wmma, 16, 16, 8, f32, f32); // TF32
      add(MmaKind::Wmma, 8, 8, 4, f64, f64);
    }

    // mma.sync.
    if (cc < 80) {
      for (Type acc : {f16, f32})
        add(MmaKind::MmaSync, 16, 8, 8, f16, acc);
      add(MmaKind::MmaSync, 8, 8, 16, i8, i32);
      return std::move(shapes);
    }
    for (Type acc : {f16, f32}) {
      add(MmaKind::MmaSync, 16, 8, 16, f16, acc);
      add(MmaKind::MmaSync, 16, 8, 8, f16, acc);
    }
    add(MmaKind::MmaSync, 16, 8, 16, bf16, f32);
    add(MmaKind::MmaSync, 16, 8, 8, bf16, f32);
    add(MmaKind::MmaSync, 16, 8, 8, f32, f32); // TF32
    add(MmaKind::MmaSync, 16, 8, 4, f32, f32); // TF32
    add(MmaKind::MmaSync, 16, 8, 32, i8, i32);
    add(MmaKind::MmaSync, 16, 8, 16, i8, i32);
    add(MmaKind::MmaSync, 8, 8, 16, i8, i32);
    add(MmaKind::MmaSync, 8, 8, 4, f64, f64);
    if (cc >= 89) {
      add(MmaKind::MmaSync, 16, 8, 32, b.getType<Float8E4M3FNType>(), f32);
      add(MmaKind::MmaSync, 16, 8, 32, b.getType<Float8E5M2Type>(), f32);
    }
    return std::move(shapes);
  }

private:
  static constexpr std::tuple<int64_t, int64_t, int64_t> kWmmaShapes16[] = {
      {16, 16, 16}, {32, 8, 16}, {8, 32, 16}};

  MLIRContext *context;
  Builder b;
  SmallVector<MmaShapeAttr> shapes;
};
} // namespace

TargetAttr TargetAttr::getForChip(MLIRContext *context, StringRef chip) {
  const auto *it = llvm::find_if(kKnownChips, [&](const ChipLimits &limits) {
    return limits.chip == chip;
  });
  if (it == std::end(kKnownChips))
    return {};
  // Callers (pass options, the C API) may run before any gpucg attribute was
  // parsed; the attributes below need the dialect loaded.
  context->getOrLoadDialect<GpucgDialect>();
  SmallVector<MmaShapeAttr> mmaShapes =
      MmaShapeListBuilder(context).build(it->computeCapability);
  return TargetAttr::get(
      context, it->chip, kWarpSize, kMaxThreadsPerBlock,
      kMaxStaticSharedMemoryPerBlock, it->maxSharedMemoryPerBlockOptin,
      kMaxRegistersPerBlock, kMaxRegistersPerThread, it->numSms, mmaShapes);
}

bool TargetAttr::hasWarpgroupMma() const {
  const auto *it = llvm::find_if(kKnownChips, [&](const ChipLimits &limits) {
    return limits.chip == getChip();
  });
  return it != std::end(kKnownChips) && it->warpgroupMma;
}

ArrayRef<StringRef> TargetAttr::getKnownChips() {
  static const SmallVector<StringRef> names = llvm::map_to_vector(
      kKnownChips,
      [](const ChipLimits &limits) -> StringRef { return limits.chip; });
  return names;
}
