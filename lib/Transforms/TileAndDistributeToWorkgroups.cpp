//===- TileAndDistributeToWorkgroups.cpp - Workgroup tiling ---------------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/CSE.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_TILEANDDISTRIBUTETOWORKGROUPS
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

linalg::LinalgOp mlir::gpucg::getFusedElementwiseConsumer(Value value) {
  if (!value.hasOneUse())
    return {};
  auto user = dyn_cast<linalg::LinalgOp>(*value.getUsers().begin());
  if (!user || !user.hasPureTensorSemantics() || !linalg::isElementwise(user) ||
      user->getNumResults() != 1)
    return {};
  for (OpOperand &operand : user->getOpOperands())
    if (operand.get() == value &&
        !user.getMatchingIndexingMap(&operand).isIdentity())
      return {};
  if (!user.getIndexingMapMatchingResult(user->getResult(0)).isIdentity())
    return {};
  return user;
}

/// If the one user of `value` (computed with `resultMap` in `rootOp`'s
/// loops) is an all-parallel op on tensors over the root's own loops (the
/// same static ranges, dynamic where the root's are: a row of a run-time
/// size, which linalg requires its operands to agree on) that reads
/// `value` with `resultMap` once per row and writes its result with the
/// identity, returns it: the normalization of a row by its reduction
/// (softmax's division, RMSNorm's scaling).
static linalg::LinalgOp getRowConsumer(Value value, linalg::LinalgOp rootOp,
                                       AffineMap resultMap) {
  if (!value.hasOneUse())
    return {};
  auto user = dyn_cast<linalg::LinalgOp>(*value.getUsers().begin());
  if (!user || !user.hasPureTensorSemantics() || user->getNumResults() != 1 ||
      user.getNumParallelLoops() != user.getNumLoops() ||
      user.getNumLoops() != rootOp.getNumLoops() ||
      user.getStaticLoopRanges() != rootOp.getStaticLoopRanges() ||
      !user.getIndexingMapMatchingResult(user->getResult(0)).isIdentity())
    return {};
  for (OpOperand &operand : user->getOpOperands())
    if (operand.get() == value &&
        user.getMatchingIndexingMap(&operand) != resultMap)
      return {};
  return user;
}

std::pair<linalg::LinalgOp, SmallVector<int64_t>>
mlir::gpucg::getWorkgroupTilingTarget(linalg::LinalgOp rootOp,
                                      ArrayRef<int64_t> rootTileSizes) {
  SmallVector<int64_t> tileSizes(rootTileSizes);
  for (auto [pos, type] : llvm::enumerate(rootOp.getIteratorTypesArray()))
    if (type == utils::IteratorType::reduction)
      tileSizes[pos] = 0;
  if (!rootOp.hasPureTensorSemantics() || rootOp->getNumResults() != 1)
    return {rootOp, tileSizes};

  // The consumers' loops are the root's result dims: d -> root loop.
  AffineMap resultMap =
      rootOp.getIndexingMapMatchingResult(rootOp->getResult(0));
  SmallVector<int64_t> consumerTileSizes;
  for (AffineExpr expr : resultMap.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      return {rootOp, tileSizes};
    consumerTileSizes.push_back(tileSizes[dim.getPosition()]);
  }
  // Every parallel loop tiled at the root must survive into the result, or
  // the consumer would tile less than the root asked for.
  int64_t tiledInRoot = llvm::count_if(tileSizes, [](int64_t s) { return s; });
  int64_t tiledInResult =
      llvm::count_if(consumerTileSizes, [](int64_t s) { return s; });
  if (tiledInRoot != tiledInResult)
    return {rootOp, tileSizes};

  linalg::LinalgOp target = rootOp;
  while (linalg::LinalgOp user =
             getFusedElementwiseConsumer(target->getResult(0)))
    target = user;
  // Back in the root's loops: every loop the root tiles, its reductions
  // whole (the row program of a WarpReduction kernel).
  if (linalg::LinalgOp rowUser =
          getRowConsumer(target->getResult(0), rootOp, resultMap)) {
    target = rowUser;
    while (linalg::LinalgOp user =
               getFusedElementwiseConsumer(target->getResult(0)))
      target = user;
    return {target, tileSizes};
  }
  if (target == rootOp)
    return {rootOp, tileSizes};
  return {target, consumerTileSizes};
}

/// `#gpu.block<x>` for the innermost tiled loop, then y and z outwards.
static SmallVector<Attribute> getBlockMapping(MLIRContext *ctx,
                                              int64_t numTiledLoops) {
  SmallVector<Attribute> mapping;
  for (int64_t i = 0; i < numTiledLoops; ++i)
    mapping.push_back(gpu::GPUBlockMappingAttr::get(
        ctx, static_cast<gpu::MappingId>(numTiledLoops - 1 - i)));
  return mapping;
}

/// Grid size per dimension [x, y, z] of `forallOp`, when static.
static std::optional<SmallVector<int32_t>> getStaticGrid(scf::ForallOp forallOp) {
  SmallVector<int32_t> grid = {1, 1, 1};
  for (auto [lb, ub, step, mapping] :
       llvm::zip_equal(forallOp.getMixedLowerBound(),
                       forallOp.getMixedUpperBound(), forallOp.getMixedStep(),
                       forallOp.getMappingAttr())) {
    std::optional<int64_t> lbConst = getConstantIntValue(lb),
                           ubConst = getConstantIntValue(ub),
                           stepConst = getConstantIntValue(step);
    if (!lbConst || !ubConst || !stepConst || *stepConst <= 0)
      return std::nullopt;
    auto dim = cast<gpu::GPUBlockMappingAttr>(mapping).getMappingId();
    grid[dim] = llvm::divideCeil(*ubConst - *lbConst, *stepConst);
  }
  return grid;
}

/// Fails, with an error on `target`, when more than three of its loops are
/// tiled (`tileSizes`) and more than kMaxGridSizeTerms of those beyond the
/// innermost two, which share grid z (linearizeOuterWorkgroupDims), are
/// dynamic: the ABI's grid formulas count a constant times at most that
/// many run-time sizes.
static LogicalResult verifyGridZLoops(linalg::LinalgOp target,
                                      ArrayRef<int64_t> tileSizes) {
  SmallVector<unsigned> tiled;
  for (auto [pos, size] : llvm::enumerate(tileSizes))
    if (size != 0)
      tiled.push_back(pos);
  if (tiled.size() <= 3)
    return success();
  SmallVector<int64_t> ranges = target.getStaticLoopRanges();
  SmallVector<unsigned> dynamic;
  for (unsigned pos : ArrayRef(tiled).drop_back(2))
    if (ShapedType::isDynamic(ranges[pos]))
      dynamic.push_back(pos);
  if (static_cast<int64_t>(dynamic.size()) <= kMaxGridSizeTerms)
    return success();
  InFlightDiagnostic diag = target.emitOpError();
  diag << "tiles " << tiled.size()
       << " parallel loops across workgroups; a grid has 3 dimensions, so "
          "the outer "
       << tiled.size() - 2
       << " share grid z, whose workgroups are counted as a constant times "
          "at most "
       << kMaxGridSizeTerms << " run-time sizes, and loops ";
  llvm::interleaveComma(dynamic, diag);
  return diag << " are dynamic (give all but " << kMaxGridSizeTerms
              << " a static size, or pass the batches as fewer dimensions)";
}

/// `forallOp`, a workgroup loop of more than 3 dimensions of which at most
/// kMaxGridSizeTerms outer dimensions have a dynamic trip count
/// (verifyGridZLoops), as one
/// of 3: its outer dimensions (all but the innermost two) linearized into
/// one mapped to grid z, whose index each iteration delinearizes back into
/// theirs (`affine.delinearize_index`, outermost first), so that the loop
/// fits a grid and its body is unchanged. Grid z is then the product of the
/// trip counts: a constant, or a constant times the dynamic ones.
static FailureOr<scf::ForallOp>
linearizeOuterWorkgroupDims(RewriterBase &rewriter, scf::ForallOp forallOp) {
  int64_t numDims = forallOp.getRank();
  int64_t numOuter = numDims - 2;
  SmallVector<OpFoldResult> lbs = forallOp.getMixedLowerBound();
  SmallVector<OpFoldResult> ubs = forallOp.getMixedUpperBound();
  SmallVector<OpFoldResult> steps = forallOp.getMixedStep();
  MLIRContext *ctx = rewriter.getContext();
  Location loc = forallOp.getLoc();
  rewriter.setInsertionPoint(forallOp);
  AffineExpr ub;
  bindSymbols(ctx, ub);
  SmallVector<OpFoldResult> trips;
  int64_t numDynamic = 0;
  for (int64_t dim = 0; dim < numOuter; ++dim) {
    if (std::optional<int64_t> count = getStaticTripCount(forallOp, dim)) {
      trips.push_back(rewriter.getIndexAttr(*count));
      continue;
    }
    // Unreachable after verifyGridZLoops: a tiled static loop has a static
    // trip count, and at most kMaxGridSizeTerms are dynamic; workgroup
    // tiling's bounds and steps are constants but for a dynamic size.
    std::optional<int64_t> lower = getConstantIntValue(lbs[dim]);
    std::optional<int64_t> stride = getConstantIntValue(steps[dim]);
    if (++numDynamic > kMaxGridSizeTerms || !lower || !stride || *stride <= 0)
      return forallOp.emitOpError()
             << "has a dynamic trip count along dimension " << dim
             << " that cannot share grid z (more than " << kMaxGridSizeTerms
             << " are dynamic, or its bound or step is)";
    trips.push_back(affine::makeComposedFoldedAffineApply(
        rewriter, loc, (ub - *lower).ceilDiv(*stride), {ubs[dim]}));
  }
  AffineExpr product = getAffineConstantExpr(1, ctx);
  for (int64_t dim = 0; dim < numOuter; ++dim)
    product = product * getAffineSymbolExpr(dim, ctx);
  OpFoldResult count = affine::makeComposedFoldedAffineApply(
      rewriter, loc, AffineMap::get(0, numOuter, product), trips);
  SmallVector<OpFoldResult> newLbs = {rewriter.getIndexAttr(0)};
  SmallVector<OpFoldResult> newUbs = {count};
  SmallVector<OpFoldResult> newSteps = {rewriter.getIndexAttr(1)};
  llvm::append_range(newLbs, ArrayRef(lbs).drop_front(numOuter));
  llvm::append_range(newUbs, ArrayRef(ubs).drop_front(numOuter));
  llvm::append_range(newSteps, ArrayRef(steps).drop_front(numOuter));
  auto linearized = scf::ForallOp::create(
      rewriter, loc, newLbs, newUbs, newSteps, forallOp.getOutputs(),
      rewriter.getArrayAttr(
          {gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimZ),
           gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimY),
           gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimX)}));
  Block *body = linearized.getBody();
  rewriter.eraseOp(body->getTerminator());
  rewriter.setInsertionPointToStart(body);
  ValueRange ivs = linearized.getInductionVars();
  // (The dynamic trip count is defined above the loop: a basis value.)
  auto delinearized = affine::AffineDelinearizeIndexOp::create(
      rewriter, loc, ivs[0], trips, /*hasOuterBound=*/true);
  // Each outer dimension's induction variable: lb + index * step.
  SmallVector<Value> replacements;
  AffineExpr index, lb, step;
  bindDims(ctx, index);
  bindSymbols(ctx, lb, step);
  for (int64_t dim = 0; dim < numOuter; ++dim)
    replacements.push_back(getValueOrCreateConstantIndexOp(
        rewriter, loc,
        affine::makeComposedFoldedAffineApply(
            rewriter, loc, index * step + lb,
            {delinearized.getResult(dim), lbs[dim], steps[dim]})));
  llvm::append_range(replacements, ivs.drop_front());
  llvm::append_range(replacements, linearized.getRegionIterArgs());
  rewriter.mergeBlocks(forallOp.getBody(), body, replacements);
  rewriter.replaceOp(forallOp, linearized.getResults());
  return linearized;
}

FailureOr<scf::ForallOp>
mlir::gpucg::tileAndDistributeToWorkgroups(RewriterBase &rewriter,
                                           linalg::LinalgOp rootOp) {
  auto config = rootOp->getAttrOfType<LoweringConfigAttr>(
      "gpucg.lowering_config");
  if (!config)
    return rootOp.emitOpError() << "has no gpucg.lowering_config";
  ArrayRef<int64_t> level0 = config.getTileSizes(0);
  if (level0.size() != rootOp.getNumLoops())
    return rootOp.emitOpError()
           << "lowering_config level 0 has " << level0.size()
           << " tile sizes, but the op has " << rootOp.getNumLoops()
           << " loops";

  // Upstream's tiling crashes on a zero-trip loop (MLIR 22.1,
  // linalg::computeTileSizes), and such a kernel has no workgroup to run.
  for (auto [pos, size] : llvm::enumerate(rootOp.getStaticLoopRanges()))
    if (size == 0)
      return rootOp.emitOpError()
             << "has an empty iteration space (loop " << pos
             << " has 0 iterations): there is no workgroup to launch";

  auto [target, tileSizes] = getWorkgroupTilingTarget(rootOp, level0);
  int64_t numTiled = llvm::count_if(tileSizes, [](int64_t s) { return s; });
  if (numTiled == 0)
    return scf::ForallOp();

  if (failed(verifyGridZLoops(target, tileSizes)))
    return failure();

  MLIRContext *ctx = rootOp->getContext();
  scf::SCFTilingOptions tilingOptions;
  tilingOptions.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp)
      .setTileSizes(getAsIndexOpFoldResult(ctx, tileSizes))
      .setMapping(getBlockMapping(ctx, numTiled));
  auto tilingTarget = cast<TilingInterface>(target.getOperation());
  rewriter.setInsertionPoint(target);

  if (!target.hasPureTensorSemantics()) {
    FailureOr<scf::SCFTilingResult> tiled =
        scf::tileUsingSCF(rewriter, tilingTarget, tilingOptions);
    // Unreachable for linalg ops because MLIR 22's TilingInterface model
    // for them never fails and these options (sizes and a mapping, no
    // interchange or thread counts) are valid; kept so that a future
    // upstream change fails loudly rather than crashing.
    if (failed(tiled))
      return target.emitOpError() << "could not be tiled to workgroups";
    rewriter.eraseOp(target);
    auto forallOp = cast<scf::ForallOp>(tiled->loops.front().getOperation());
    if (numTiled > 3)
      return linearizeOuterWorkgroupDims(rewriter, forallOp);
    return forallOp;
  }

  // Upstream's tile-and-fuse tiles an op on tensors through its results
  // (and would fail on one without any); such an op computes nothing.
  if (target->getNumResults() == 0)
    return target.emitOpError()
           << "is a linalg op on tensors without results (no outs): it "
              "computes nothing a kernel could write, and workgroup tiling "
              "tiles an op on tensors through its results";
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tilingOptions);
  FailureOr<scf::SCFTileAndFuseResult> tiled =
      scf::tileConsumerAndFuseProducersUsingSCF(rewriter, tilingTarget,
                                                options);
  // Unreachable with results: as for tileUsingSCF above (a producer that
  // cannot be fused is left outside, which verifyNothingLeftOutside
  // reports).
  if (failed(tiled))
    return target.emitOpError() << "could not be tiled to workgroups";
  for (OpResult result : target->getResults())
    if (Value replacement = tiled->replacements.lookup(result))
      rewriter.replaceAllUsesWith(result, replacement);
  // The untiled producers stay alive through slices that fusion left behind
  // until dead code is removed (the pass canonicalizes).
  if (target->use_empty())
    rewriter.eraseOp(target);
  auto forallOp = cast<scf::ForallOp>(tiled->loops.front().getOperation());
  // Fusion computes a producer once per use of its result: softmax's row
  // maximum twice (for the sum and for the division). On tensors those
  // copies are equal values; one of each is enough.
  if (target != rootOp && target.getNumLoops() == rootOp.getNumLoops()) {
    DominanceInfo dominance;
    eliminateCommonSubExpressions(rewriter, dominance, forallOp);
  }
  if (numTiled > 3)
    return linearizeOuterWorkgroupDims(rewriter, forallOp);
  return forallOp;
}

/// Fails, with an error on the op, when a linalg (or other tileable) op of
/// `funcOp` is left outside `forallOp`, the kernel's workgroup loop. A kernel
/// runs only its workgroup loop, which holds the root, its producers and the
/// chain of consumers getWorkgroupTilingTarget fuses; an op outside it has
/// no workgroup to run on, and later stages would vectorize it as if it were
/// part of a tile (an sm_80 mma.sync kernel then failed in the vector-to-GPU
/// conversion).
static LogicalResult verifyNothingLeftOutside(func::FuncOp funcOp,
                                              scf::ForallOp forallOp,
                                              StringRef rootName) {
  WalkResult result = funcOp.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == forallOp.getOperation())
      return WalkResult::skip();
    if (!isa<linalg::LinalgOp, TilingInterface>(op))
      return WalkResult::advance();
    InFlightDiagnostic diag = op->emitOpError();
    diag << "is outside the workgroup loop of the kernel's root '" << rootName
         << "'; the loop fuses the root's producers and a chain of "
            "elementwise consumers, each the only user of the value before "
            "it";
    for (Value operand : op->getOperands()) {
      auto loopResult = dyn_cast<OpResult>(operand);
      if (!loopResult || loopResult.getOwner() != forallOp.getOperation())
        continue;
      int64_t numUses = llvm::range_size(loopResult.getUses());
      diag << ", and this op reads the loop's result #"
           << loopResult.getResultNumber() << ", which has " << numUses
           << " uses";
      // The only user, yet not fused: it is not a link
      // getFusedElementwiseConsumer takes.
      if (numUses == 1)
        diag << "; a link of the chain is an elementwise linalg op on "
                "tensors (parallel loops, permutation maps, a payload of "
                "scalar elementwise ops) that reads the value before it and "
                "writes its one result with identity maps, and this op is not";
      break;
    }
    diag << " (compute it in a function of its own)";
    diag.attachNote(forallOp.getLoc()) << "the workgroup loop";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

namespace {
struct TileAndDistributeToWorkgroupsPass
    : public gpucg::impl::TileAndDistributeToWorkgroupsBase<
          TileAndDistributeToWorkgroupsPass> {
  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    TranslationInfoAttr info = getTranslationInfo(funcOp);
    if (!info || info.getPipeline() == Pipeline::None)
      return;

    SmallVector<linalg::LinalgOp> roots;
    funcOp.walk([&](linalg::LinalgOp op) {
      if (op->hasAttr("gpucg.lowering_config"))
        roots.push_back(op);
    });
    if (roots.size() != 1) {
      funcOp.emitOpError()
          << "has a gpucg.translation_info and " << roots.size()
          << " ops with a gpucg.lowering_config; expected exactly one root "
             "op (run gpucg-select-lowering-strategy first)";
      return signalPassFailure();
    }

    IRRewriter rewriter(&getContext());
    std::string rootName = roots.front()->getName().getStringRef().str();
    FailureOr<scf::ForallOp> forallOp =
        tileAndDistributeToWorkgroups(rewriter, roots.front());
    if (failed(forallOp))
      return signalPassFailure();
    // Fusion leaves slices of the untiled ops behind, which keep them alive,
    // and index arithmetic that folds; clean up as IREE's pass did.
    canonicalizeRegion(funcOp.getBody());
    if (*forallOp &&
        failed(verifyNothingLeftOutside(funcOp, *forallOp, rootName)))
      return signalPassFailure();

    // Record the launch shape where upstream's GPU analyses read it.
    auto *gpuDialect = getContext().getLoadedDialect<gpu::GPUDialect>();
    Builder b(&getContext());
    if (!info.getWorkgroupSize().empty()) {
      SmallVector<int32_t> block = llvm::map_to_vector(
          info.getWorkgroupSize(), [](int64_t s) { return int32_t(s); });
      gpuDialect->getKnownBlockSizeAttrHelper().setAttr(
          funcOp, b.getDenseI32ArrayAttr(block));
    }
    std::optional<SmallVector<int32_t>> grid =
        *forallOp ? getStaticGrid(*forallOp) : SmallVector<int32_t>{1, 1, 1};
    if (grid)
      gpuDialect->getKnownGridSizeAttrHelper().setAttr(
          funcOp, b.getDenseI32ArrayAttr(*grid));
  }
};
} // namespace
