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

/// Whether `op` is a thread's op that vectorizeThreadTiles takes.
static bool isVectorizableThreadTile(linalg::LinalgOp op,
                                     int64_t maxVectorElements) {
  std::optional<int64_t> size = getStaticIterationSpaceSize(op);
  // An empty iteration space has no vector form (vector<0xf32> is invalid)
  // and nothing to do.
  if (!size || *size == 0 || *size > maxVectorElements)
    return false;
  if (isWorkgroupCopy(op))
    return false;
  for (OpOperand &operand : op->getOpOperands())
    if (!VectorType::isValidElementType(
            getElementTypeOrSelf(operand.get().getType())))
      return false;
  return succeeded(linalg::vectorizeOpPrecondition(op));
}

void mlir::gpucg::vectorizeThreadTiles(RewriterBase &rewriter,
                                       FunctionOpInterface funcOp,
                                       int64_t maxVectorElements) {
  SmallVector<linalg::LinalgOp> candidates;
  funcOp.walk([&](linalg::LinalgOp op) {
    if (isVectorizableThreadTile(op, maxVectorElements))
      candidates.push_back(op);
  });
  for (linalg::LinalgOp op : candidates) {
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::VectorizationResult> result =
        linalg::vectorize(rewriter, op);
    // The precondition held; an op the vectorizer still refuses keeps its
    // scalar form.
    if (failed(result))
      continue;
    if (op->getNumResults() == 0)
      rewriter.eraseOp(op);
    else
      rewriter.replaceOp(op, result->replacements);
  }
  // The vectorizer reads every output and leaves its transfers' in_bounds
  // to folding: drop the reads no one uses and mark the static transfers
  // in bounds, which their lowering to plain loads needs.
  if (!candidates.empty())
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
