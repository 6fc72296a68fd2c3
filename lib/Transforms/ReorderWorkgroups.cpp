//===- ReorderWorkgroups.cpp - Group the workgroup loop's tiles for L2 ----===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Workgroups start in the order of their linear id (x fastest), so the ones
// resident together take whole rows of a matmul's tiles: every column of B
// for a few rows of A. Grouping G rows and walking them column by column
// makes the resident set a G-row block with both operands' tiles reused in
// L2. The rewrite is a permutation of the tile indices at the top of the
// workgroup loop's body; nothing else changes.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/CheckedArithmetic.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_REORDERWORKGROUPS
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

namespace {
/// One static dimension of a workgroup loop: its induction variable,
/// `lower + index * step` for index in [0, count).
struct GridDim {
  Value iv;
  int64_t lower;
  int64_t step;
  int64_t count;
};
} // namespace

/// The dimension of `forallOp` mapped to `#gpu.block<id>`, when its bounds
/// and step are static.
static std::optional<GridDim> getStaticGridDim(scf::ForallOp forallOp,
                                               gpu::MappingId id) {
  for (auto [pos, attr] : llvm::enumerate(*forallOp.getMapping())) {
    if (cast<gpu::GPUBlockMappingAttr>(attr).getBlock() != id)
      continue;
    // Bounds far apart enough to overflow are no grid to reorder.
    std::optional<int64_t> count = getStaticTripCount(forallOp, pos);
    if (!count || *count == 0)
      return std::nullopt;
    return GridDim{forallOp.getInductionVars()[pos],
                   *getConstantIntValue(forallOp.getMixedLowerBound()[pos]),
                   *getConstantIntValue(forallOp.getMixedStep()[pos]), *count};
  }
  return std::nullopt;
}

bool mlir::gpucg::reorderWorkgroups(RewriterBase &rewriter,
                                    scf::ForallOp forallOp, int64_t groupSize) {
  if (groupSize < 2 || !isWorkgroupLoop(forallOp))
    return false;
  std::optional<GridDim> x = getStaticGridDim(forallOp, gpu::MappingId::DimX);
  std::optional<GridDim> y = getStaticGridDim(forallOp, gpu::MappingId::DimY);
  if (!x || !y || x->count < 2 || y->count < 2)
    return false;
  // Groups are whole: the largest divisor of the rows not above
  // `groupSize`. The order then stays affine, with no division by a
  // group's row count (which would be a dynamic arith.divui in the indices of
  // the tile's loads, where the mma.sync conversion takes it for a matrix
  // op).
  int64_t rowsPerGroup = std::min(groupSize, y->count);
  while (y->count % rowsPerGroup != 0)
    --rowsPerGroup;
  std::optional<int64_t> perGroup = llvm::checkedMul(rowsPerGroup, x->count);
  if (rowsPerGroup < 2 || !perGroup)
    return false;

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(forallOp.getBody());
  Location loc = forallOp.getLoc();
  MLIRContext *ctx = forallOp.getContext();
  SmallPtrSet<Operation *, 16> created;
  auto apply = [&](AffineExpr expr, ValueRange operands) -> Value {
    auto op = affine::AffineApplyOp::create(
        rewriter, loc, AffineMap::get(operands.size(), 0, expr), operands);
    created.insert(op);
    return op;
  };
  AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx);

  // The launch order: linear = row * cols + col.
  Value linear = apply(((d0 - y->lower).floorDiv(y->step)) * x->count +
                           (d1 - x->lower).floorDiv(x->step),
                       {y->iv, x->iv});
  Value row =
      apply(d0.floorDiv(*perGroup) * rowsPerGroup + d0 % rowsPerGroup, linear);
  Value col = apply((d0 % *perGroup).floorDiv(rowsPerGroup), linear);
  Value newY = apply(d0 * y->step + y->lower, row);
  Value newX = apply(d0 * x->step + x->lower, col);

  auto outsideCreated = [&](OpOperand &use) {
    return !created.contains(use.getOwner());
  };
  rewriter.replaceUsesWithIf(y->iv, newY, outsideCreated);
  rewriter.replaceUsesWithIf(x->iv, newX, outsideCreated);
  return true;
}

namespace {
struct ReorderWorkgroupsPass
    : public gpucg::impl::ReorderWorkgroupsBase<ReorderWorkgroupsPass> {
  using Base::Base;

  void runOnOperation() override {
    TranslationInfoAttr info = getTranslationInfo(getOperation());
    if (!info || info.getWorkgroupGroupSize() < 2)
      return;
    IRRewriter rewriter(&getContext());
    getOperation().walk([&](scf::ForallOp forallOp) {
      reorderWorkgroups(rewriter, forallOp, info.getWorkgroupGroupSize());
    });
  }
};
} // namespace
