//===- RemoveSingleIterationLoop.cpp - Inline loops that run once ---------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Distribution to workgroups, warps and threads leaves loops such as
//   scf.for %i = %tid to %c64 step %c64
// that every thread runs exactly once. Upstream canonicalization only folds
// loops with constant trip counts; this pass proves the trip count with
// ValueBoundsOpInterface instead, using the workgroup size recorded in
// gpucg.translation_info to bound the thread ids.
//
//===----------------------------------------------------------------------===//

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_REMOVESINGLEITERATIONLOOP
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

using Cmp = ValueBoundsConstraintSet::ComparisonOperator;
using Variable = ValueBoundsConstraintSet::Variable;

/// Returns true if a loop dimension with these index-typed bounds provably
/// executes exactly once: `lb < ub` (at least once) and `ub <= lb + step` (at
/// most once).
static bool isProvenSingleIteration(OpFoldResult lb, OpFoldResult ub,
                                    OpFoldResult step, MLIRContext *context) {
  if (!ValueBoundsConstraintSet::compare(Variable(lb), Cmp::LT, Variable(ub)))
    return false;
  AffineExpr lbExpr, stepExpr;
  bindDims(context, lbExpr, stepExpr);
  Variable lbPlusStep(AffineMap::get(2, 0, lbExpr + stepExpr),
                      ArrayRef<Variable>{Variable(lb), Variable(step)});
  return ValueBoundsConstraintSet::compare(Variable(ub), Cmp::LE, lbPlusStep);
}

namespace {
/// Inlines the body of an `scf.for` proven to run exactly once.
struct RemoveSingleIterationFor : public OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ForOp forOp,
                                PatternRewriter &rewriter) const override {
    if (!runsExactlyOnce(forOp))
      return rewriter.notifyMatchFailure(forOp, "not proven to run once");

    Block *body = forOp.getBody();
    auto yieldOp = cast<scf::YieldOp>(body->getTerminator());
    SmallVector<Value> blockArgs = {forOp.getLowerBound()};
    llvm::append_range(blockArgs, forOp.getInitArgs());
    rewriter.inlineBlockBefore(body, forOp, blockArgs);
    // Read the yielded values only now: a yielded iter_arg has just been
    // replaced by its init value.
    SmallVector<Value> results(yieldOp.getOperands());
    rewriter.eraseOp(yieldOp);
    rewriter.replaceOp(forOp, results);
    return success();
  }

private:
  static bool runsExactlyOnce(scf::ForOp forOp) {
    // Signed index bounds are what value-bounds analysis reasons about; any
    // other loop needs a constant trip count.
    if (!forOp.getInductionVar().getType().isIndex() || forOp.getUnsignedCmp()) {
      std::optional<APInt> tripCount = forOp.getStaticTripCount();
      return tripCount && tripCount->isOne();
    }
    return isProvenSingleIteration(forOp.getLowerBound(),
                                   forOp.getUpperBound(), forOp.getStep(),
                                   forOp.getContext());
  }
};

/// Inlines the body of an unmapped `scf.forall` whose every dimension is
/// proven to run exactly once.
struct RemoveSingleIterationForall : public OpRewritePattern<scf::ForallOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ForallOp forallOp,
                                PatternRewriter &rewriter) const override {
    // A mapped forall assigns its iterations to GPU processors; inlining it
    // would make every processor run the body. Leave it to distribution.
    if (forallOp.getMapping())
      return rewriter.notifyMatchFailure(forallOp, "mapped to processors");
    for (auto [lb, ub, step] : llvm::zip_equal(forallOp.getMixedLowerBound(),
                                               forallOp.getMixedUpperBound(),
                                               forallOp.getMixedStep())) {
      if (!isProvenSingleIteration(lb, ub, step, forallOp.getContext()))
        return rewriter.notifyMatchFailure(forallOp, "not proven to run once");
    }
    scf::promote(rewriter, forallOp);
    return success();
  }
};

struct RemoveSingleIterationLoopPass
    : public gpucg::impl::RemoveSingleIterationLoopBase<
          RemoveSingleIterationLoopPass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    registerSingleIterationLoopDependencies(registry);
  }

  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    if (TranslationInfoAttr info = getTranslationInfo(funcOp))
      setThreadIdUpperBounds(funcOp, info.getWorkgroupSize());

    RewritePatternSet patterns(&getContext());
    populateRemoveSingleIterationLoopPatterns(patterns);
    // Only the loops themselves are rewritten; folding unrelated ops is left
    // to the canonicalizer so that this pass's effect stays easy to read.
    GreedyRewriteConfig config;
    config.enableFolding(false);
    if (failed(applyPatternsGreedily(funcOp, std::move(patterns), config)))
      return signalPassFailure();
  }
};
} // namespace

void mlir::gpucg::setThreadIdUpperBounds(Operation *root,
                                         ArrayRef<int64_t> workgroupSize) {
  if (workgroupSize.empty())
    return;
  Builder b(root->getContext());
  root->walk([&](gpu::ThreadIdOp threadId) {
    auto dim = static_cast<unsigned>(threadId.getDimension());
    if (dim >= workgroupSize.size())
      return;
    int64_t bound = workgroupSize[dim];
    if (std::optional<APInt> existing = threadId.getUpperBound())
      if (existing->getSExtValue() <= bound)
        return;
    threadId.setUpperBoundAttr(b.getIndexAttr(bound));
  });
}

void mlir::gpucg::populateRemoveSingleIterationLoopPatterns(
    RewritePatternSet &patterns) {
  patterns.add<RemoveSingleIterationFor, RemoveSingleIterationForall>(
      patterns.getContext());
}

void mlir::gpucg::registerSingleIterationLoopDependencies(
    DialectRegistry &registry) {
  registry.insert<affine::AffineDialect, arith::ArithDialect, gpu::GPUDialect,
                  memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect>();
  affine::registerValueBoundsOpInterfaceExternalModels(registry);
  arith::registerValueBoundsOpInterfaceExternalModels(registry);
  gpu::registerValueBoundsOpInterfaceExternalModels(registry);
  memref::registerValueBoundsOpInterfaceExternalModels(registry);
  scf::registerValueBoundsOpInterfaceExternalModels(registry);
  tensor::registerValueBoundsOpInterfaceExternalModels(registry);
}
