//===- SimtFallback.cpp - Re-plan kernels as SimtDistribute ---------------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gpucg's SIMT pipeline distributes each workgroup's tile over threads, one
// level-1 tile per thread. Kernels planned for a pipeline whose own
// in-workgroup lowering gpucg does not have (WarpReduction) or that runs on
// warps (the tensor-core pipelines) are re-planned here as SimtDistribute on
// the same workgroups, so that the SIMT stages lower them correctly.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_SIMTFALLBACK
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

bool mlir::gpucg::isDistributedOverThreads(Pipeline pipeline) {
  return pipeline == Pipeline::SimtDistribute ||
         pipeline == Pipeline::Vectorize || pipeline == Pipeline::MatmulSimt;
}

/// The level-1 sizes that give each thread one element of `op`'s parallel
/// loops tiled at level 0 (the innermost three of them; the others, and the
/// reductions, are not distributed).
static SmallVector<int64_t> getPerThreadTileSizes(linalg::LinalgOp op,
                                                  ArrayRef<int64_t> level0) {
  SmallVector<int64_t> level1(level0.size(), 0);
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  int distributed = 0;
  for (int64_t d = static_cast<int64_t>(level0.size()) - 1;
       d >= 0 && distributed < 3; --d) {
    if (iterators[d] != utils::IteratorType::parallel || level0[d] == 0)
      continue;
    level1[d] = 1;
    ++distributed;
  }
  return level1;
}

LogicalResult mlir::gpucg::replanAsSimtDistribute(FunctionOpInterface funcOp) {
  TranslationInfoAttr info = getTranslationInfo(funcOp);
  if (!info || info.getPipeline() == Pipeline::None ||
      isDistributedOverThreads(info.getPipeline()))
    return success();
  if (info.getWorkgroupSize().empty())
    return funcOp.emitOpError()
           << "has no workgroup_size in its gpucg.translation_info";

  MLIRContext *ctx = funcOp.getContext();
  auto *dialect = ctx->getLoadedDialect<GpucgDialect>();
  auto configHelper = dialect->getLoweringConfigAttrHelper();
  FailureOr<SmallVector<linalg::LinalgOp>> roots =
      getWorkgroupTileRoots(funcOp);
  if (failed(roots))
    return failure();
  for (linalg::LinalgOp root : *roots) {
    // A row program (softmax: a second reduction, or ops that read the row
    // again after its reduction) has no SIMT distribution: each thread
    // would need the whole row's results.
    if (info.getPipeline() == Pipeline::WarpReduction) {
      for (Operation &it : *root->getBlock()) {
        auto other = dyn_cast<linalg::LinalgOp>(&it);
        if (!other || other == root ||
            other.getStaticLoopRanges() != root.getStaticLoopRanges() ||
            (other.getNumReductionLoops() == 0 && other->isBeforeInBlock(root)))
          continue;
        InFlightDiagnostic diag =
            root.emitOpError()
            << "has a WarpReduction workgroup tile with another op over its "
               "rows after it or a second reduction of them (softmax, "
               "RMSNorm, LayerNorm); only pipeline WarpReduction "
               "(gpucg-warp-reduction, gpucg-compile) distributes it, not "
               "SimtDistribute";
        diag.attachNote(other.getLoc()) << "other op here";
        return diag;
      }
    }
    LoweringConfigAttr config = configHelper.getAttr(root);
    ArrayRef<int64_t> level0 = config.getTileSizes(0);
    if (level0.size() != root.getNumLoops())
      return root.emitOpError()
             << "has " << level0.size() << " level-0 tile sizes for "
             << root.getNumLoops() << " loops";
    SmallVector<int64_t> level1 = getPerThreadTileSizes(root, level0);
    configHelper.setAttr(
        root, LoweringConfigAttr::get(
                  ctx, ArrayRef<SmallVector<int64_t>>{
                           SmallVector<int64_t>(level0), level1}));
  }
  dialect->getTranslationInfoAttrHelper().setAttr(
      funcOp, TranslationInfoAttr::get(ctx, Pipeline::SimtDistribute,
                                       info.getWorkgroupSize(), std::nullopt,
                                       1, 1, std::nullopt));
  return success();
}

namespace {
struct SimtFallbackPass
    : public gpucg::impl::SimtFallbackBase<SimtFallbackPass> {
  using Base::Base;

  void runOnOperation() override {
    TranslationInfoAttr info = getTranslationInfo(getOperation());
    if (keepWarpReduction && info &&
        info.getPipeline() == Pipeline::WarpReduction)
      return;
    if (failed(replanAsSimtDistribute(getOperation())))
      signalPassFailure();
  }
};
} // namespace
