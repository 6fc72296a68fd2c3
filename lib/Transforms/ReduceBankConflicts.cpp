//===- ReduceBankConflicts.cpp - Pad workgroup allocations ----------------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Rows of a workgroup tile whose size is a multiple of 128 bytes put the
// same column of consecutive rows in the same shared-memory bank; the
// column reads of ldmatrix / WMMA loads then serialize. Padding the
// innermost dimension by a few elements shifts each row to another bank.
// gpucg pads for WMMA, whose loads take any leading dimension; mma.sync
// buffers are swizzled instead (gpucg-vector-to-gpu), which costs no memory.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/Support/CheckedArithmetic.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_REDUCEBANKCONFLICTS
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

/// Whether `user` accepts a memref of any strided layout in place of
/// `value`: an access, a copy or a structured op (not, say, a call).
static bool acceptsAnyLayout(Operation *user) {
  return isa<vector::TransferReadOp, vector::TransferWriteOp, vector::LoadOp,
             vector::StoreOp, memref::LoadOp, memref::StoreOp, memref::CopyOp,
             linalg::LinalgOp, nvgpu::LdMatrixOp, nvgpu::DeviceAsyncCopyOp,
             gpu::SubgroupMmaLoadMatrixOp, gpu::SubgroupMmaStoreMatrixOp>(user);
}

/// Whether every use of `value`, through subviews, can take a new layout.
static bool canRewriteUses(Value value) {
  for (Operation *user : value.getUsers()) {
    if (auto subview = dyn_cast<memref::SubViewOp>(user)) {
      if (!canRewriteUses(subview.getResult()))
        return false;
      continue;
    }
    if (!acceptsAnyLayout(user))
      return false;
  }
  return true;
}

/// Replaces `oldValue` by `newValue` (same shape, another layout) in all its
/// users, re-creating the subviews on the way with their inferred types.
static void replaceAndPropagate(RewriterBase &rewriter, Value oldValue,
                                Value newValue) {
  for (OpOperand &use : llvm::make_early_inc_range(oldValue.getUses())) {
    Operation *user = use.getOwner();
    if (auto subview = dyn_cast<memref::SubViewOp>(user)) {
      rewriter.setInsertionPoint(subview);
      auto resultType = cast<MemRefType>(subview.getType());
      MemRefType newType;
      if (resultType.getRank() == subview.getSourceType().getRank())
        newType = memref::SubViewOp::inferResultType(
            cast<MemRefType>(newValue.getType()), subview.getMixedOffsets(),
            subview.getMixedSizes(), subview.getMixedStrides());
      else
        newType = memref::SubViewOp::inferRankReducedResultType(
            resultType.getShape(), cast<MemRefType>(newValue.getType()),
            subview.getMixedOffsets(), subview.getMixedSizes(),
            subview.getMixedStrides());
      auto newSubview = memref::SubViewOp::create(
          rewriter, subview.getLoc(), newType, newValue,
          subview.getMixedOffsets(), subview.getMixedSizes(),
          subview.getMixedStrides());
      replaceAndPropagate(rewriter, subview.getResult(), newSubview);
      rewriter.eraseOp(subview);
      continue;
    }
    rewriter.modifyOpInPlace(user, [&] { use.set(newValue); });
  }
}

int64_t mlir::gpucg::getDefaultBankConflictPaddingBits(MmaKind kind) {
  // 16 bytes shift each row by four banks: the eight 16-byte rows a WMMA
  // load (or ldmatrix) reads at once then cover all 32 banks.
  return swizzlesWorkgroupMemory(kind) ? 0 : 128;
}

bool mlir::gpucg::isPaddedWorkgroupAllocation(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  if (!isWorkgroupMemory(type) || !type.hasStaticShape() ||
      type.getRank() < 2 || !type.getLayout().isIdentity() ||
      !alloc->hasOneUse())
    return false;
  auto view = dyn_cast<memref::SubViewOp>(*alloc->user_begin());
  if (!view || view.getType().getRank() != type.getRank() ||
      !llvm::all_of(view.getMixedOffsets(), isZeroInteger) ||
      !llvm::all_of(view.getMixedStrides(), isOneInteger))
    return false;
  ArrayRef<int64_t> sizes = view.getStaticSizes();
  ArrayRef<int64_t> shape = type.getShape();
  return sizes.drop_back() == shape.drop_back() &&
         !ShapedType::isDynamic(sizes.back()) && sizes.back() < shape.back();
}

/// Whether the data layout can size `type` without a fatal error: integers,
/// floats, index, complex numbers and fixed-size vectors of those, and
/// types that implement DataLayoutTypeInterface. (MLIR 22 divides by the
/// alignment of a complex number's parts, 0 for complex<i0>.)
static bool hasDataLayoutSize(Type type) {
  if (type.isIntOrIndexOrFloat() || isa<DataLayoutTypeInterface>(type))
    return true;
  if (auto complex = dyn_cast<ComplexType>(type))
    return complex.getElementType().getIntOrFloatBitWidth() != 0;
  if (auto vector = dyn_cast<VectorType>(type))
    return !vector.isScalable() && hasDataLayoutSize(vector.getElementType());
  return false;
}

/// The padded type of `type` (rank >= 2, static, identity layout) with
/// `paddingBits` more per row, elements of `elementBytes` bytes. Emits an
/// error on `alloc` and fails when the padding is not a whole number of
/// elements or the padded size overflows.
static FailureOr<MemRefType> getPaddedType(memref::AllocOp alloc,
                                           uint64_t elementBytes,
                                           uint64_t paddingBits) {
  MemRefType type = alloc.getType();
  if (paddingBits % 8 != 0 || (paddingBits / 8) % elementBytes != 0)
    return alloc.emitOpError()
           << "cannot pad the rows of " << type << " by " << paddingBits
           << " bits: not a whole number of its " << elementBytes
           << "-byte elements";
  SmallVector<int64_t> paddedShape(type.getShape());
  std::optional<int64_t> paddedRow = llvm::checkedAdd<int64_t>(
      paddedShape.back(), static_cast<int64_t>(paddingBits / 8 / elementBytes));
  std::optional<int64_t> bytes = static_cast<int64_t>(elementBytes);
  if (paddedRow) {
    paddedShape.back() = *paddedRow;
    for (int64_t size : paddedShape)
      bytes = bytes ? llvm::checkedMul(*bytes, size) : std::nullopt;
  }
  if (!paddedRow || !bytes)
    return alloc.emitOpError()
           << "cannot pad the rows of " << type << " by " << paddingBits
           << " bits: the padded size overflows 64 bits";
  return MemRefType::get(paddedShape, type.getElementType(),
                         MemRefLayoutAttrInterface{}, type.getMemorySpace());
}

/// Replaces `alloc` by an allocation of `paddedType`, with the same
/// attributes (e.g. gpucg.num_buffers), and a view of it with the original
/// shape.
static void padAllocation(RewriterBase &rewriter, memref::AllocOp alloc,
                          MemRefType paddedType) {
  MemRefType type = alloc.getType();
  rewriter.setInsertionPoint(alloc);
  auto padded = memref::AllocOp::create(rewriter, alloc.getLoc(), paddedType,
                                        alloc.getAlignmentAttr());
  padded->setDiscardableAttrs(alloc->getDiscardableAttrDictionary());
  SmallVector<OpFoldResult> zeros(type.getRank(), rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> ones(type.getRank(), rewriter.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes =
      getAsIndexOpFoldResult(rewriter.getContext(), type.getShape());
  auto view = memref::SubViewOp::create(rewriter, alloc.getLoc(), padded, zeros,
                                        sizes, ones);
  replaceAndPropagate(rewriter, alloc.getResult(), view);
  rewriter.eraseOp(alloc);
}

LogicalResult mlir::gpucg::padWorkgroupAllocations(RewriterBase &rewriter,
                                                   FunctionOpInterface funcOp,
                                                   uint64_t paddingBits) {
  if (paddingBits == 0)
    return success();
  SmallVector<memref::AllocOp> allocs;
  funcOp.walk([&](memref::AllocOp alloc) {
    MemRefType type = alloc.getType();
    if (isWorkgroupMemory(type) && type.hasStaticShape() &&
        type.getRank() >= 2 && type.getLayout().isIdentity() &&
        hasDataLayoutSize(type.getElementType()) &&
        !isPaddedWorkgroupAllocation(alloc) &&
        canRewriteUses(alloc.getResult()))
      allocs.push_back(alloc);
  });
  // Check every allocation before padding any: a failure leaves the IR as
  // it was.
  DataLayout layout = DataLayout::closest(funcOp);
  SmallVector<std::pair<memref::AllocOp, MemRefType>> paddings;
  for (memref::AllocOp alloc : allocs) {
    llvm::TypeSize elementBytes =
        layout.getTypeSize(alloc.getType().getElementType());
    // Zero-sized elements (i0) occupy no bank.
    if (elementBytes.isScalable() || elementBytes.getFixedValue() == 0)
      continue;
    FailureOr<MemRefType> paddedType =
        getPaddedType(alloc, elementBytes.getFixedValue(), paddingBits);
    if (failed(paddedType))
      return failure();
    paddings.emplace_back(alloc, *paddedType);
  }
  for (auto [alloc, paddedType] : paddings)
    padAllocation(rewriter, alloc, paddedType);
  return success();
}

namespace {
struct ReduceBankConflictsPass
    : public gpucg::impl::ReduceBankConflictsBase<ReduceBankConflictsPass> {
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    if (failed(padWorkgroupAllocations(rewriter, getOperation(), paddingBits)))
      return signalPassFailure();
  }
};
} // namespace
