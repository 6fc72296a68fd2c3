//===- WorkgroupSpecialization.cpp - Static full-tile path ----------------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A workgroup loop whose tile does not divide the problem computes its tile
// sizes as affine.min(tile, remainder). Everything downstream (vectorization,
// tensor cores, shared-memory promotion) wants static shapes, which all but
// the last workgroup along each dimension have. This pass gives them a
// static copy of the body behind `scf.if (every min == its tile)`.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_WORKGROUPSPECIALIZATION
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

/// Returns the constant tile size `minOp` is bounded by, if it is a tile-size
/// computation of `forallOp`: one constant result, and operands that are
/// induction variables of the loop or defined above it.
static std::optional<int64_t> getTileSizeBound(affine::AffineMinOp minOp,
                                               scf::ForallOp forallOp) {
  std::optional<int64_t> bound;
  for (AffineExpr expr : minOp.getAffineMap().getResults()) {
    if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
      if (bound)
        return std::nullopt;
      bound = constant.getValue();
    }
  }
  if (!bound || minOp.getAffineMap().getNumResults() < 2)
    return std::nullopt;
  bool usesInductionVar = false;
  for (Value operand : minOp.getOperands()) {
    if (llvm::is_contained(forallOp.getInductionVars(), operand)) {
      usesInductionVar = true;
      continue;
    }
    if (forallOp->isAncestor(operand.getParentRegion()->getParentOp()))
      return std::nullopt;
  }
  if (!usesInductionVar)
    return std::nullopt;
  return bound;
}

LogicalResult mlir::gpucg::specializeWorkgroupTile(RewriterBase &rewriter,
                                                   scf::ForallOp forallOp) {
  if (forallOp->getNumResults() != 0)
    return failure();
  Block *body = forallOp.getBody();
  SmallVector<std::pair<affine::AffineMinOp, int64_t>> tileSizes;
  for (auto minOp : body->getOps<affine::AffineMinOp>())
    if (std::optional<int64_t> bound = getTileSizeBound(minOp, forallOp))
      tileSizes.emplace_back(minOp, *bound);
  if (tileSizes.empty())
    return failure();

  // At the top of the body: the mins again, the constants, the condition.
  Location loc = forallOp.getLoc();
  rewriter.setInsertionPointToStart(body);
  Value isFullTile;
  IRMapping staticSizes;
  llvm::SmallDenseMap<int64_t, Value> constants;
  for (auto [minOp, bound] : tileSizes) {
    Value size = affine::AffineMinOp::create(rewriter, minOp.getLoc(),
                                             minOp.getAffineMap(),
                                             minOp.getOperands());
    Value &constant = constants[bound];
    if (!constant)
      constant = arith::ConstantIndexOp::create(rewriter, loc, bound);
    Value isFull = arith::CmpIOp::create(rewriter, loc,
                                         arith::CmpIPredicate::eq, size,
                                         constant);
    isFullTile = isFullTile ? arith::AndIOp::create(rewriter, loc, isFullTile,
                                                    isFull)
                                  .getResult()
                            : isFull;
    staticSizes.map(minOp.getResult(), constant);
  }
  auto ifOp = scf::IfOp::create(rewriter, loc, isFullTile,
                                /*withElseRegion=*/true);
  // Later passes (vector-to-GPU) tell the paths apart by this attribute.
  forallOp->getContext()
      ->getOrLoadDialect<GpucgDialect>()
      ->getWorkgroupSpecializationAttrHelper()
      .setAttr(ifOp, rewriter.getUnitAttr());

  // The original body goes to the else branch unchanged.
  Operation *terminator = body->getTerminator();
  Block *elseBlock = ifOp.elseBlock();
  for (Operation &op : llvm::make_early_inc_range(
           llvm::make_range(std::next(ifOp->getIterator()),
                            terminator->getIterator())))
    rewriter.moveOpBefore(&op, elseBlock->getTerminator());

  // The then branch is a copy in which each tile size is its constant.
  rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  for (Operation &op : elseBlock->without_terminator()) {
    auto minOp = dyn_cast<affine::AffineMinOp>(op);
    if (minOp && staticSizes.contains(minOp.getResult()))
      continue;
    rewriter.clone(op, staticSizes);
  }
  canonicalizeRegion(ifOp.getThenRegion());
  return success();
}

namespace {
struct WorkgroupSpecializationPass
    : public gpucg::impl::WorkgroupSpecializationBase<
          WorkgroupSpecializationPass> {
  void runOnOperation() override {
    SmallVector<scf::ForallOp> workgroupLoops;
    getOperation().walk([&](scf::ForallOp forallOp) {
      if (isWorkgroupLoop(forallOp))
        workgroupLoops.push_back(forallOp);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp forallOp : workgroupLoops)
      (void)specializeWorkgroupTile(rewriter, forallOp);
  }
};
} // namespace
