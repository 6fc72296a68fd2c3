//===- GenericVectorization.cpp - Vectorize each thread's linalg ops ------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// After gpucg-tile-and-distribute each thread of a SIMT kernel owns small,
// statically shaped linalg ops (its elements of an elementwise kernel, its
// rows and K step of a reduction). Upstream's linalg::vectorize turns each
// into whole-tile vector reads, the body on vectors (reductions as
// vector.multi_reduction) and one write, which the NVVM lowering makes
// 128-bit accesses where the alignment is known. Everything else stays
// linalg and becomes scalar loops later: vectorization here is an
// optimization, never a requirement.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_GENERICVECTORIZATION
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

/// The number of points of `op`'s iteration space, or nothing when a loop
/// is dynamic.
static std::optional<int64_t> getStaticIterationSpaceSize(linalg::LinalgOp op) {
  int64_t size = 1;
  for (int64_t range : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range))
      return std::nullopt;
    // Saturate: only the comparison with the limit matters.
    if (range != 0 && size > std::numeric_limits<int64_t>::max() / range)
      return std::numeric_limits<int64_t>::max();
    size *= range;
  }
  return size;
}

/// Whether `op` is a thread's op that vectorizeThreadTiles takes, perhaps
/// after tiling its reduction loops (its iteration space may be larger than
/// `maxVectorElements`).
static bool isVectorizableThreadTile(linalg::LinalgOp op) {
  std::optional<int64_t> size = getStaticIterationSpaceSize(op);
  // An empty iteration space has no vector form (vector<0xf32> is invalid)
  // and nothing to do.
  if (!size || *size == 0)
    return false;
  if (isWorkgroupCopy(op))
    return false;
  for (OpOperand &operand : op->getOpOperands())
    if (!VectorType::isValidElementType(
            getElementTypeOrSelf(operand.get().getType())))
      return false;
  return succeeded(linalg::vectorizeOpPrecondition(op));
}

/// Tile sizes for `op`'s reduction loops (0 for the parallel ones) that
/// bring its iteration space within `maxVectorElements`, innermost loops
/// kept longest: for each, the largest power of two dividing it that fits
/// (128-bit vectors of contiguous elements where the innermost loop is
/// contiguous), else its largest divisor that fits. Nothing when the
/// parallel loops alone are too many points, or no loop needs tiling.
static std::optional<SmallVector<int64_t>>
getReductionTileSizes(linalg::LinalgOp op, int64_t maxVectorElements) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  int64_t budget = maxVectorElements;
  for (auto [range, iterator] : llvm::zip_equal(ranges, iterators))
    if (iterator == utils::IteratorType::parallel) {
      if (range > budget)
        return std::nullopt;
      budget /= range;
    }
  SmallVector<int64_t> tiles(ranges.size(), 0);
  bool tiled = false;
  for (int64_t d = static_cast<int64_t>(ranges.size()) - 1; d >= 0; --d) {
    if (iterators[d] != utils::IteratorType::reduction)
      continue;
    int64_t range = ranges[d], tile = 1;
    if (range <= budget) {
      budget /= range;
      continue;
    }
    for (int64_t p = 1; p <= budget && range % p == 0; p *= 2)
      tile = p;
    if (tile == 1)
      for (int64_t divisor = std::min(range, budget); divisor > 1; --divisor)
        if (range % divisor == 0) {
          tile = divisor;
          break;
        }
    tiles[d] = tile;
    tiled = true;
    budget /= tile;
  }
  if (!tiled)
    return std::nullopt;
  return tiles;
}

void mlir::gpucg::vectorizeThreadTiles(RewriterBase &rewriter,
                                       FunctionOpInterface funcOp,
                                       int64_t maxVectorElements) {
  SmallVector<linalg::LinalgOp> candidates;
  funcOp.walk([&](linalg::LinalgOp op) {
    if (isVectorizableThreadTile(op))
      candidates.push_back(op);
  });
  bool vectorized = false;
  for (linalg::LinalgOp op : candidates) {
    // Too large: its reduction loops become serial loops over pieces that
    // fit (a thread's 4x4 outputs over K steps of 4), if that is enough.
    if (*getStaticIterationSpaceSize(op) > maxVectorElements) {
      std::optional<SmallVector<int64_t>> tiles =
          getReductionTileSizes(op, maxVectorElements);
      if (!tiles || !op.hasPureBufferSemantics())
        continue;
      linalg::LinalgTilingOptions options;
      options.setTileSizes(*tiles).setLoopType(
          linalg::LinalgTilingLoopType::Loops);
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::TiledLinalgOp> tiled =
          linalg::tileLinalgOp(rewriter, op, options);
      if (failed(tiled))
        continue;
      rewriter.eraseOp(op);
      op = tiled->op;
      if (*getStaticIterationSpaceSize(op) > maxVectorElements ||
          !isVectorizableThreadTile(op))
        continue;
    }
    rewriter.setInsertionPoint(op);
    // Contractions (a thread's matmul) as one vector.contract, which the
    // NVVM lowering makes outer products of FMAs, rather than a broadcast
    // product and a multi_reduction.
    FailureOr<linalg::VectorizationResult> result = linalg::vectorize(
        rewriter, op, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
        /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
        /*assumeDynamicDimsMatchVecSizes=*/false,
        /*createNamedContraction=*/true);
    // The precondition held; an op the vectorizer still refuses keeps its
    // scalar form.
    if (failed(result))
      continue;
    if (op->getNumResults() == 0)
      rewriter.eraseOp(op);
    else
      rewriter.replaceOp(op, result->replacements);
    vectorized = true;
  }
  // The vectorizer reads every output and leaves its transfers' in_bounds
  // to folding: drop the reads no one uses and mark the static transfers
  // in bounds, which their lowering to plain loads needs.
  if (vectorized)
    canonicalizeRegion(funcOp.getFunctionBody());
}

namespace {
struct GenericVectorizationPass
    : public gpucg::impl::GenericVectorizationBase<GenericVectorizationPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    if (maxVectorElements <= 0) {
      funcOp.emitOpError() << "gpucg-generic-vectorization needs a positive "
                              "max-vector-elements, got "
                           << maxVectorElements.getValue();
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    vectorizeThreadTiles(rewriter, funcOp, maxVectorElements);
  }
};
} // namespace
