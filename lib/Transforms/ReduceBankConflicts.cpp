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
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

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
             vector::StoreOp, memref::LoadOp, memref::StoreOp,
             memref::CopyOp, linalg::LinalgOp, nvgpu::LdMatrixOp,
             nvgpu::DeviceAsyncCopyOp, gpu::SubgroupMmaLoadMatrixOp,
             gpu::SubgroupMmaStoreMatrixOp>(user);
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

LogicalResult mlir::gpucg::padWorkgroupAllocations(RewriterBase &rewriter,
                                                   FunctionOpInterface funcOp,
                                                   unsigned paddingBits) {
  SmallVector<memref::AllocOp> allocs;
  funcOp.walk([&](memref::AllocOp alloc) {
    MemRefType type = alloc.getType();
    if (isWorkgroupMemory(type) && type.hasStaticShape() && type.getRank() >= 2 &&
        type.getLayout().isIdentity() &&
        type.getElementType().isIntOrFloat())
      allocs.push_back(alloc);
  });
  for (memref::AllocOp alloc : allocs) {
    MemRefType type = alloc.getType();
    unsigned bits = type.getElementType().getIntOrFloatBitWidth();
    if (paddingBits % bits != 0 || !canRewriteUses(alloc.getResult()))
      continue; // Leave alone what cannot be rewritten.
    SmallVector<int64_t> paddedShape(type.getShape());
    paddedShape.back() += paddingBits / bits;
    auto paddedType = MemRefType::get(paddedShape, type.getElementType(),
                                      MemRefLayoutAttrInterface{},
                                      type.getMemorySpace());
    rewriter.setInsertionPoint(alloc);
    auto padded = memref::AllocOp::create(rewriter, alloc.getLoc(), paddedType,
                                          alloc.getAlignmentAttr());
    // What earlier passes said of the buffer (gpucg.num_buffers) still holds.
    padded->setDiscardableAttrs(alloc->getDiscardableAttrDictionary());
    SmallVector<OpFoldResult> zeros(type.getRank(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> ones(type.getRank(), rewriter.getIndexAttr(1));
    SmallVector<OpFoldResult> sizes =
        getAsIndexOpFoldResult(rewriter.getContext(), type.getShape());
    auto view = memref::SubViewOp::create(rewriter, alloc.getLoc(), padded,
                                          zeros, sizes, ones);
    replaceAndPropagate(rewriter, alloc.getResult(), view);
    rewriter.eraseOp(alloc);
  }
  return success();
}

namespace {
struct ReduceBankConflictsPass
    : public gpucg::impl::ReduceBankConflictsBase<ReduceBankConflictsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (paddingBits == 0)
      return;
    IRRewriter rewriter(&getContext());
    if (failed(padWorkgroupAllocations(rewriter, getOperation(), paddingBits)))
      return signalPassFailure();
  }
};
} // namespace
