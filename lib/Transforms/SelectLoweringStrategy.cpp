//===- SelectLoweringStrategy.cpp - Choose and verify kernel strategies ---===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/LoweringStrategy.h"
#include "gpucg/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_SELECTLOWERINGSTRATEGY
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

/// Refuses an op of the linalg dialect that is no structured op
/// (LinalgOp): it would get no plan, stay on the host, and the function
/// would compile to no kernel without a word. One with a decomposition
/// (linalg.softmax) says which pass decomposes it.
static LogicalResult verifyStructuredLinalgOps(func::FuncOp funcOp) {
  WalkResult result = funcOp.walk([&](Operation *op) {
    if (!isa<linalg::LinalgDialect>(op->getDialect()) ||
        isa<linalg::LinalgOp, linalg::YieldOp, linalg::IndexOp>(op))
      return WalkResult::advance();
    InFlightDiagnostic diag = op->emitOpError();
    if (isa<linalg::AggregatedOpInterface>(op))
      diag << "is no structured linalg op and was not decomposed: run "
              "gpucg-decompose-aggregate-ops before "
              "gpucg-select-lowering-strategy (gpucg-compile does)";
    else
      diag << "is no structured linalg op (LinalgOp) and has no "
              "decomposition: gpucg makes no kernel of it; write it as "
              "linalg.generic or a named structured op";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// Says so when gpucg planned mma.sync for a matmul on chip sm_90 that it
/// plans as a wgmma kernel on sm_90a (unless mma.sync was asked for): every
/// sm_90 GPU (H100, H200, GH200) has the `a` features, but a binary for
/// sm_90 may not use them, and the mma.sync kernel is the slower plan (on an
/// H100 on 2026-11-27, 4096^3 f16: 0.50 of cuBLAS, against 0.70 with wgmma;
/// docs/performance.md).
static void warnAboutMmaSyncOnSm90(linalg::LinalgOp root, TargetAttr target,
                                   TranslationInfoAttr plan,
                                   const StrategyOptions &options) {
  // An sm_90 chip without the architecture-specific features.
  if (target.getComputeCapability() != 90 || target.hasWarpgroupMma() ||
      plan.getPipeline() != Pipeline::MatmulTensorCoreMmaSync ||
      options.mma == MmaPreference::MmaSync)
    return;
  TargetAttr sm90a = TargetAttr::getForChip(root.getContext(), "sm_90a");
  if (!sm90a || selectLoweringStrategy(root, sm90a, options)
                        .translationInfo.getPipeline() != Pipeline::MatmulWgmma)
    return;
  root.emitWarning()
      << "runs on mma.sync for chip " << target.getChip()
      << ", which has no warpgroup MMA; for chip sm_90a this matmul is a wgmma "
         "kernel (about 1.4x faster on an "
         "H100: docs/performance.md). A binary for sm_90a runs on sm_90 GPUs "
         "only (H100, H200, GH200), one for sm_90 on sm_90 and later";
}

/// Says so, and why, when gpucg planned another tensor-core pipeline for a
/// matmul on a chip with warpgroup MMA (sm_90a) where the user asked for no
/// MMA family: the mma.sync and WMMA kernels are the slower plans there (on
/// an H100 on 2026-11-27, 4096^3 f16: 0.50 of cuBLAS with mma.sync, 0.70
/// with wgmma; TF32 on WMMA 0.30; docs/performance.md), and whyNoWgmma
/// names what MatmulWgmma does not take yet.
static void warnAboutNoWgmma(linalg::LinalgOp root, TargetAttr target,
                             TranslationInfoAttr plan,
                             const StrategyOptions &options) {
  Pipeline pipeline = plan.getPipeline();
  if (!target.hasWarpgroupMma() || options.mma != MmaPreference::Auto ||
      pipeline == Pipeline::MatmulWgmma || !isTensorCorePipeline(pipeline))
    return;
  std::string reason = whyNoWgmma(root, target);
  if (reason.empty())
    return;
  root.emitWarning() << "runs on "
                     << (plan.getTensorCoreMmaKind() == MmaKind::MmaSync
                             ? "mma.sync"
                             : "WMMA")
                     << " tensor cores for chip " << target.getChip()
                     << ", not on warpgroup MMA (a MatmulWgmma kernel, about "
                        "1.4x faster on an H100: docs/performance.md): "
                     << reason;
}

/// Says so, and why, when gpucg planned one element per thread
/// (SimtDistribute) for an all-parallel op that is no contraction (a plan
/// of its own choosing, not a user's): such an op is bound by memory, and
/// 128-bit accesses (Vectorize) move its bytes in a quarter to an eighth
/// of the instructions.
static void warnAboutScalarElementwise(linalg::LinalgOp root, TargetAttr target,
                                       TranslationInfoAttr plan) {
  if (plan.getPipeline() != Pipeline::SimtDistribute)
    return;
  std::string reason = whyNoElementwiseVectors(root, target);
  if (reason.empty())
    return;
  root.emitWarning() << "runs one element per thread (pipeline "
                        "SimtDistribute), not in 128-bit vectors: "
                     << reason;
}

namespace {
struct SelectLoweringStrategyPass
    : public gpucg::impl::SelectLoweringStrategyBase<
          SelectLoweringStrategyPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    if (funcOp.isExternal())
      return;
    if (failed(verifyStructuredLinalgOps(funcOp)))
      return signalPassFailure();
    FailureOr<linalg::LinalgOp> root = getKernelRootOp(funcOp);
    if (failed(root))
      return signalPassFailure();
    if (!*root)
      return; // Not a kernel: no linalg op.

    TargetAttr target = getTarget(funcOp);
    if (!target) {
      funcOp.emitOpError()
          << "has no GPU target: put a gpucg.target on an enclosing module or "
             "give a chip: the chip=<sm_XY> option of gpucg-compile and of "
             "the other pipelines (gpucg.compile(..., chip=\"sm_XY\") in "
             "Python), or gpucg-set-target{chip=sm_XY} before this pass";
      return signalPassFailure();
    }

    auto *dialect = getContext().getLoadedDialect<GpucgDialect>();
    auto compilationInfoHelper = dialect->getCompilationInfoAttrHelper();
    auto loweringConfigHelper = dialect->getLoweringConfigAttrHelper();
    auto translationInfoHelper = dialect->getTranslationInfoAttrHelper();

    StrategyOptions options;
    options.mma = mma;
    options.deterministicReductions = deterministicReductions;
    options.f32Precision = f32Precision;
    options.pipelineDepth = pipelineDepth;
    options.launch.workgroupGroupSize = workgroupGroupSize;
    options.launch.wgmmaPersistent = wgmmaPersistent;
    options.launch.wgmmaPersistentWorkgroups = wgmmaPersistentWorkgroups;
    options.launch.wgmmaStreamK = wgmmaStreamK;
    options.launch.wgmmaStagedStore = wgmmaStagedStore;
    options.launch.wgmmaClusterM = wgmmaClusterM;
    options.launch.wgmmaClusterN = wgmmaClusterN;
    options.launch.splitK = splitK;
    std::string invalid = whyInvalidLaunchRequest(options.launch);
    if (!invalid.empty()) {
      funcOp.emitOpError() << "gpucg-select-lowering-strategy: " << invalid;
      return signalPassFailure();
    }
    LoweringStrategy strategy;
    // Whether the strategy chose the plan (not a user's or an earlier run's).
    bool chosenHere = false;
    // What the strategy says about the plan it chooses
    // (selectLoweringStrategy).
    SmallVector<std::string> planNotes;
    TranslationInfoAttr existingInfo = translationInfoHelper.getAttr(funcOp);
    LoweringConfigAttr existingConfig = loweringConfigHelper.getAttr(*root);
    if (CompilationInfoAttr user = compilationInfoHelper.getAttr(*root)) {
      strategy = {user.getTranslationInfo(), user.getLoweringConfig()};
    } else if (existingInfo && existingConfig) {
      // Already decided (by an earlier run or by hand): verify only.
      strategy = {existingInfo, existingConfig};
    } else if (existingInfo || existingConfig) {
      root->emitOpError()
          << (existingConfig ? "has a gpucg.lowering_config, but its "
                               "function has no gpucg.translation_info"
                             : "has no gpucg.lowering_config, but its "
                               "function has a gpucg.translation_info")
          << "; give both together as a gpucg.compilation_info on the root op";
      return signalPassFailure();
    } else {
      strategy = selectLoweringStrategy(*root, target, options, &planNotes);
      chosenHere = true;
      warnAboutMmaSyncOnSm90(*root, target, strategy.translationInfo, options);
      warnAboutNoWgmma(*root, target, strategy.translationInfo, options);
      warnAboutScalarElementwise(*root, target, strategy.translationInfo);
      if (requireTensorCores &&
          !isTensorCorePipeline(strategy.translationInfo.getPipeline())) {
        root->emitOpError()
            << "cannot run on tensor cores, which this pipeline requires: "
            << explainNoTensorCoreStrategy(*root, target, options);
        return signalPassFailure();
      }
    }

    // A user's (or an earlier run's) plan for another pipeline: the named
    // tensor-core pipelines would leave such a kernel without MMA (and
    // gpucg-matmul-wgmma runs no other tensor-core pipeline's stages).
    Pipeline planned = strategy.translationInfo.getPipeline();
    bool wantsWgmma = mma == MmaPreference::Wgmma;
    if (requireTensorCores &&
        (wantsWgmma ? planned != Pipeline::MatmulWgmma
                    : !strategy.translationInfo.getTensorCoreMmaKind())) {
      root->emitOpError()
          << "is planned for pipeline "
          << stringifyPipeline(strategy.translationInfo.getPipeline())
          << " by its "
          << (compilationInfoHelper.isAttrPresent(*root)
                  ? "gpucg.compilation_info"
                  : "gpucg.lowering_config and gpucg.translation_info")
          << ", but this pipeline requires "
          << (wantsWgmma ? "pipeline MatmulWgmma"
                         : "tensor cores (pipeline MatmulTensorCore or "
                           "MatmulTensorCoreMmaSync)");
      return signalPassFailure();
    }
    if (failed(verifyLoweringStrategy(*root, strategy, target, options)))
      return signalPassFailure();
    strategy = completeLoweringStrategy(*root, strategy, target);
    // The launch shape asked for, where the plan has none of its own; a
    // plan chosen here, with no group size or cluster asked for, takes the
    // default workgroup order.
    SmallVector<std::string> launchNotes = std::move(planNotes);
    LaunchRequest request = options.launch;
    if (chosenHere && request.workgroupGroupSize == 0 &&
        request.wgmmaClusterM * request.wgmmaClusterN == 1) {
      WorkgroupOrder order = getDefaultWorkgroupOrder(*root, strategy, target);
      request.workgroupGroupSize = order.groupSize;
      if (!order.reason.empty())
        launchNotes.push_back(order.reason);
    }
    // The default split, where no launch shape that excludes it (a
    // persistent grid, clusters) was asked for.
    if (chosenHere && request.takesDefaultSplitK()) {
      SplitK split = getDefaultSplitK(*root, strategy, target);
      request.splitK = split.parts;
      if (!split.reason.empty())
        launchNotes.push_back(split.reason);
    }
    strategy =
        applyLaunchRequest(*root, strategy, target, request, &launchNotes);

    if (report)
      root->emitRemark() << describePlan(*root, strategy, target, options,
                                         launchNotes);
    if (compilationInfoHelper.isAttrPresent(*root))
      compilationInfoHelper.removeAttr(*root);
    loweringConfigHelper.setAttr(*root, strategy.loweringConfig);
    translationInfoHelper.setAttr(funcOp, strategy.translationInfo);
  }
};
} // namespace
