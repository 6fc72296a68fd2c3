//===- DecomposeAggregateOps.cpp - Decompose linalg aggregate ops ---------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Replaces each op implementing upstream's linalg::AggregatedOpInterface
// (linalg.softmax: max, exp of the difference, sum, division) by the
// structured ops its decomposeOperation builds, so that the lowering
// strategy sees ops it can make kernels of. Without this, such an op is no
// LinalgOp: it stayed on the host and the function compiled to no kernel.
//
//===----------------------------------------------------------------------===//

#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_DECOMPOSEAGGREGATEOPS
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;

LogicalResult
mlir::gpucg::decomposeAggregateOps(RewriterBase &rewriter,
                                   FunctionOpInterface funcOp) {
  SmallVector<linalg::AggregatedOpInterface> aggregates;
  funcOp.walk([&](linalg::AggregatedOpInterface op) {
    aggregates.push_back(op);
  });
  for (linalg::AggregatedOpInterface op : aggregates) {
    rewriter.setInsertionPoint(op);
    FailureOr<SmallVector<Value>> results = op.decomposeOperation(rewriter);
    // Unreachable for MLIR 22, whose only such op (linalg.softmax) always
    // decomposes; kept so that a future one that cannot fails loudly rather
    // than staying on the host.
    if (failed(results))
      return op->emitOpError()
             << "could not be decomposed into structured linalg ops "
                "(AggregatedOpInterface::decomposeOperation failed), which "
                "gpucg needs to make kernels of it";
    rewriter.replaceOp(op, *results);
  }
  return success();
}

namespace {
struct DecomposeAggregateOpsPass
    : public gpucg::impl::DecomposeAggregateOpsBase<
          DecomposeAggregateOpsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    if (failed(gpucg::decomposeAggregateOps(rewriter, getOperation())))
      signalPassFailure();
  }
};
} // namespace
