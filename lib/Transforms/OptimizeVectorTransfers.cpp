//===- OptimizeVectorTransfers.cpp - Accumulators in registers ------------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Vectorized loops read and write their accumulators through memory every
// iteration (linalg ops on buffers have no other way to carry them). Moving
// each loop-invariant read/write pair out of its loop carries the value in
// registers instead; the tensor-core and the SIMT vector pipelines both
// rely on it. Forwarding stores to later loads and dropping dead stores
// (upstream's transferOpflowOpt) finishes the job where no thread reads
// what another wrote, i.e. in kernels without barriers.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_OPTIMIZEVECTORTRANSFERS
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

/// Moves one read/write pair of `loop` on the same loop-invariant location
/// out of the loop, carrying the vector in iter_args. The location must be a
/// view of a distinct buffer (isDistinctBuffer) that nothing else in the
/// loop touches.
/// Upstream's linalg::hoistRedundantVectorTransfers gives up on any buffer
/// that has views, which every warp's part of a promoted accumulator and
/// every thread's part of a reduction's result are.
static FailureOr<scf::ForOp> hoistOneAccumulator(RewriterBase &rewriter,
                                                 scf::ForOp loop) {
  Block *body = loop.getBody();
  for (auto read : body->getOps<vector::TransferReadOp>()) {
    if (read.getMask() || !loop.isDefinedOutsideOfLoop(read.getBase()) ||
        !llvm::all_of(read.getIndices(), [&](Value index) {
          return loop.isDefinedOutsideOfLoop(index);
        }))
      continue;
    vector::TransferWriteOp write;
    for (auto candidate : body->getOps<vector::TransferWriteOp>())
      if (candidate.getBase() == read.getBase() &&
          candidate.getIndices() == read.getIndices() &&
          candidate.getVectorType() == read.getVectorType() &&
          candidate.getPermutationMap() == read.getPermutationMap() &&
          !candidate.getMask() && read->isBeforeInBlock(candidate))
        write = candidate;
    if (!write)
      continue;
    Value root = getRootMemref(read.getBase());
    if (!isDistinctBuffer(root))
      continue;
    bool conflict = false;
    body->walk([&](Operation *op) {
      if (op == read || op == write || isa<ViewLikeOpInterface>(op))
        return;
      // The other pieces of the same accumulator, when provably disjoint.
      if (auto transfer = dyn_cast<VectorTransferOpInterface>(op))
        if (transfer.getBase() == read.getBase() &&
            vector::isDisjointTransferSet(
                transfer, cast<VectorTransferOpInterface>(read.getOperation())))
          return;
      if (hasUnknownMemoryEffects(op))
        conflict = true;
      for (Value operand : op->getOperands())
        if (isa<MemRefType>(operand.getType()) &&
            getRootMemref(operand) == root)
          conflict = true;
    });
    if (conflict)
      continue;

    rewriter.moveOpBefore(read, loop);
    FailureOr<LoopLikeOpInterface> newLoop =
        cast<LoopLikeOpInterface>(loop.getOperation())
            .replaceWithAdditionalYields(
                rewriter, read.getResult(),
                /*replaceInitOperandUsesInLoop=*/true,
                [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
                  return SmallVector<Value>{write.getVector()};
                });
    if (failed(newLoop))
      return failure();
    auto forOp = cast<scf::ForOp>(newLoop->getOperation());
    rewriter.moveOpAfter(write, forOp);
    rewriter.modifyOpInPlace(write, [&] {
      write.getValueToStoreMutable().assign(forOp->getResults().back());
    });
    return forOp;
  }
  return failure();
}

void mlir::gpucg::hoistLoopInvariantTransfers(RewriterBase &rewriter,
                                              Operation *root) {
  SmallVector<scf::ForOp> loops;
  root->walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops) {
    // A warp's or thread's view of an accumulator is loop-invariant once
    // thread ids and subviews are out of the loop.
    moveLoopInvariantCode(cast<LoopLikeOpInterface>(loop.getOperation()));
    FailureOr<scf::ForOp> current = loop;
    while (succeeded(current))
      if (FailureOr<scf::ForOp> next = hoistOneAccumulator(rewriter, *current);
          succeeded(next))
        current = next;
      else
        break;
  }
}

LogicalResult mlir::gpucg::optimizeVectorTransfers(RewriterBase &rewriter,
                                                   FunctionOpInterface funcOp) {
  {
    // One 1-D access per transfer: a thread's row of an elementwise tile is
    // vector<1x4xf32>, read and written as vector<4xf32>. (Not upstream's
    // populateVectorTransferDropUnitDimsPatterns as well: in MLIR 22 it
    // crashes in TransferWriteOp::create on the transfers of the @forwarded
    // case of test/Transforms/optimize-vector-transfers.mlir.)
    RewritePatternSet patterns(funcOp.getContext());
    vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
    if (failed(applyPatternsGreedily(funcOp, std::move(patterns))))
      return funcOp.emitOpError()
             << "casting away unit vector dimensions did not converge";
  }
  // Reads and writes are paired by their index values: folded views repeat
  // the same index arithmetic per access.
  DominanceInfo domInfo(funcOp);
  eliminateCommonSubExpressions(rewriter, domInfo, funcOp);
  hoistLoopInvariantTransfers(rewriter, funcOp);
  // Forwarding assumes that only this thread writes what it reads between
  // its own write and read; across a barrier another thread may have.
  bool hasBarrier =
      funcOp.walk([](gpu::BarrierOp) { return WalkResult::interrupt(); })
          .wasInterrupted();
  if (!hasBarrier)
    vector::transferOpflowOpt(rewriter, funcOp);
  return success();
}

namespace {
struct OptimizeVectorTransfersPass
    : public gpucg::impl::OptimizeVectorTransfersBase<
          OptimizeVectorTransfersPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    if (failed(optimizeVectorTransfers(rewriter, getOperation())))
      signalPassFailure();
  }
};
} // namespace
