//===- LoweringStrategy.h - Kernel strategy selection -----------*- C++ -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// How gpucg decides to cut a kernel up: which op is its root, which pipeline
// lowers it, and with which tile and workgroup sizes; and the verifier that
// checks such a decision (gpucg's own or a user's) against the target.
//
// Tiling levels of a root op's lowering_config:
//   level 0: workgroup tile, one size per loop (reduction loops: the K tile
//            of the in-workgroup reduction loop, 0 for untiled);
//   level 1: per-warp (tensor-core pipelines) or per-thread (SIMT pipelines)
//            tile of the parallel loops, 0 for reduction loops;
//   level 2: tensor-core pipelines only: the MMA instruction shape, M N K at
//            the positions of the m, n, k loops.
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_TRANSFORMS_LOWERINGSTRATEGY_H
#define GPUCG_TRANSFORMS_LOWERINGSTRATEGY_H

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir {
namespace gpucg {

/// The decision for one kernel.
struct LoweringStrategy {
  TranslationInfoAttr translationInfo;
  LoweringConfigAttr loweringConfig;
};

/// Which MMA family tensor-core strategies use.
enum class MmaPreference {
  /// mma.sync on sm_80 and newer for f16, bf16 and i8 operands; WMMA before
  /// sm_80 and for f32 (TF32) operands.
  Auto,
  Wmma,
  MmaSync,
  /// Warpgroup MMA fed by TMA (pipeline MatmulWgmma, sm_90a) and nothing
  /// else: a kernel it cannot take gets no tensor-core strategy.
  Wgmma,
};

/// How a contraction of f32 operands multiplies them.
enum class F32Precision {
  /// On tensor cores as TF32 (10-bit mantissas, f32 accumulation), where a
  /// tensor-core plan takes the kernel: Triton's default (`tl.dot`), and 8x
  /// the SIMT f32 rate on an A100.
  Tf32,
  /// In IEEE f32 on the SIMT cores (tensor cores multiply f32 only as TF32):
  /// PyTorch's and cuBLAS's default.
  Ieee,
};

/// The launch shape a caller asks for. Each kernel takes what it can use
/// (applyLaunchRequest) and its translation_info records what it took.
struct LaunchRequest {
  /// Start the workgroup loop's tiles in groups of this many rows, column
  /// by column (`workgroup_group_size`); 1: the launch order; 0: the
  /// strategy's default for the plans it chooses
  /// (getDefaultWorkgroupOrder).
  int64_t workgroupGroupSize = 0;
  /// Warp-specialized MatmulWgmma kernels loop over their tiles on a
  /// persistent grid of `wgmmaPersistentWorkgroups` workgroups (0: the
  /// target's SM count) where they have more tiles than that.
  bool wgmmaPersistent = false;
  int64_t wgmmaPersistentWorkgroups = 0;
  /// Warp-specialized MatmulWgmma kernels run stream-K (`stream_k`) on the
  /// persistent grid, which this asks for as `wgmmaPersistent` does: the
  /// last waves' K steps split evenly over its workgroups.
  bool wgmmaStreamK = false;
  /// MatmulWgmma kernels without a fused epilogue store their accumulator
  /// through the staging buffer where the ring of stages holds it.
  bool wgmmaStagedStore = false;
  /// Warp-specialized MatmulWgmma kernels run in thread-block clusters of
  /// `wgmmaClusterM x wgmmaClusterN` workgroups where the tiles divide.
  int64_t wgmmaClusterM = 1;
  int64_t wgmmaClusterN = 1;
  /// MatmulTensorCoreMmaSync and MatmulWgmma kernels split each output
  /// tile's K loop into this many parts, one workgroup each (`split_k`); 1:
  /// no split; 0: the strategy's default for the plans it chooses
  /// (getDefaultSplitK), which also shapes the small-M tiles.
  int64_t splitK = 0;

  /// Whether a plan the strategy chooses takes its default split
  /// (getDefaultSplitK): none was asked for, nor a launch shape that
  /// excludes it (a persistent grid, clusters).
  bool takesDefaultSplitK() const {
    return splitK == 0 && !wgmmaPersistent && !wgmmaStreamK &&
           wgmmaClusterM * wgmmaClusterN == 1;
  }
};

/// Why `request` asks for a launch shape no kernel has, in words (a group
/// size or workgroup count below 0 or above a grid's 2^31 - 1, a cluster of
/// less than 1 or more than 8 workgroups); empty when it is one a kernel may
/// take.
std::string whyInvalidLaunchRequest(const LaunchRequest &request);

/// What a caller asks of the strategy beyond the kernel and its target.
struct StrategyOptions {
  MmaPreference mma = MmaPreference::Auto;
  /// Never split a row of a floating-point sum across workgroups
  /// (whyRowsCannotSplit).
  bool deterministicReductions = false;
  F32Precision f32Precision = F32Precision::Tf32;
  /// Stages of the software-pipelined K loop of a tensor-core plan
  /// (`pipeline_depth`; at most one per K step) instead of the strategy's
  /// own choice; 0: its own.
  int64_t pipelineDepth = 0;
  LaunchRequest launch;
};

/// Why `op`'s operands may not go to tensor cores under `options`, in words
/// for a diagnostic; empty when they may. Tensor cores multiply f32 only as
/// TF32, which F32Precision::Ieee rules out.
std::string whyPrecisionRulesOutTensorCores(linalg::LinalgOp op,
                                            const StrategyOptions &options);

/// Whether `pipeline` runs its matmul on tensor cores (WMMA, mma.sync or
/// warpgroup MMA).
bool isTensorCorePipeline(Pipeline pipeline);

/// Whether `target` executes warpgroup MMA (`wgmma.mma_async`) and TMA, which
/// PTX allows on sm_90a only.
bool hasWarpgroupMma(TargetAttr target);

/// Why matmul root `op` cannot take pipeline MatmulWgmma on `target`, in
/// words for a diagnostic; empty when it can. The pipeline loads A and B
/// with TMA from tensor maps the host builds on the kernel's arguments and
/// stores the warpgroup's f32 accumulator straight to C.
std::string whyNoWgmma(linalg::LinalgOp op, TargetAttr target);

/// Returns the root op of kernel `funcOp`: the op that carries a
/// `gpucg.compilation_info` or `gpucg.lowering_config`, else the only linalg
/// op with reduction loops, else the last of several reductions of the same
/// rows (isReductionOfSameRows: softmax, LayerNorm), else the last linalg op.
/// Returns null when the function has no linalg op, and emits an error and
/// returns failure when it has other sets of ops with reduction loops or
/// more than one op with a compilation_info / lowering_config.
FailureOr<linalg::LinalgOp> getKernelRootOp(FunctionOpInterface funcOp);

/// Whether `op` and `other` both reduce their innermost loop into one
/// element per row (matchRowReduction; inputs read along the row or once per
/// row) over the same static loop ranges: reductions one WarpReduction
/// workgroup computes one after the other on its row.
bool isReductionOfSameRows(linalg::LinalgOp op, linalg::LinalgOp other);

/// Whether root `rootOp` reduces rows that other ops of its kernel read
/// again in the same workgroup tile: other reductions of the same rows, or
/// an op over the root's own loops that reads its result once per row
/// (softmax, RMSNorm, LayerNorm). Only pipeline WarpReduction distributes
/// such a tile.
bool isRowProgramRoot(linalg::LinalgOp rootOp);

/// Why the rows of WarpReduction root `op` cannot be split across
/// workgroups, in words for a diagnostic; empty when they can. A split row's
/// workgroups each combine the total of their part into the accumulator
/// with an atomic read-modify-write, so the root must be the kernel's only
/// linalg op, its accumulator a kernel argument that isAtomicallyCombinable
/// with its combiner, its
/// parallel loops at most two (the split takes the next grid dimension),
/// its inputs viewable at a part of the row (findInputNotViewableAlongRow),
/// and, with `deterministicReductions`, its combiner not a floating-point
/// add (whose rounding would depend on the workgroups' order).
std::string whyRowsCannotSplit(linalg::LinalgOp op,
                               bool deterministicReductions);

/// Picks the pipeline, workgroup size, pipeline depth and tile sizes for a
/// kernel with root op `rootOp` on `target` (its limits, registers and SM
/// count included). Never fails: a kernel that fits no specialised pipeline
/// gets a SimtDistribute strategy.
/// `options` says which MMA family to prefer, whether floating-point sums
/// may be split across workgroups, how f32 operands are multiplied, and how
/// many stages a tensor-core plan's K loop takes, and which grid a
/// MatmulWgmma plan is made for: a persistent grid or stream-K asked for
/// in its launch request, which the plan's own tile cannot take for want of
/// room beside its ring, is planned for with a tile that can, and a note
/// in `notes` says so (the launch shape itself is applyLaunchRequest's).
LoweringStrategy
selectLoweringStrategy(linalg::LinalgOp rootOp, TargetAttr target,
                       const StrategyOptions &options = {},
                       SmallVectorImpl<std::string> *notes = nullptr);

/// `strategy` with the launch shape `request` asks for, as far as the
/// kernel whose root is `rootOp` can take it on `target`, recorded in its
/// translation_info: the workgroup group size (any pipeline; not with a
/// cluster, whose workgroups must be neighbours in the launch order), and
/// for MatmulWgmma a cluster, a persistent grid and a staged store. A plan
/// that already has a launch shape (a user's) is returned as it is. Each
/// part asked for but not taken gets a reason in `notTaken`, in words.
/// Expects a strategy verifyLoweringStrategy accepts and a request
/// whyInvalidLaunchRequest accepts.
LoweringStrategy applyLaunchRequest(linalg::LinalgOp rootOp,
                                    const LoweringStrategy &strategy,
                                    TargetAttr target,
                                    const LaunchRequest &request,
                                    SmallVectorImpl<std::string> *notTaken);

/// Rows of tiles in a group of the default workgroup order (Triton's
/// GROUP_M).
constexpr int64_t kDefaultWorkgroupGroupRows = 8;

/// The default split-K (getDefaultSplitK) splits K into at most this many
/// parts, each of at least this many K steps: the last workgroup of a tile
/// reads every part's partial sum, and a part of few steps spends more of
/// its time filling the pipeline and publishing its sum than multiplying.
constexpr int64_t kDefaultMaxSplitK = 16;
constexpr int64_t kDefaultMinSplitKSteps = 4;

/// The K of each part when a tile's K loop of `k` elements, in steps of
/// `tileK`, is split into `parts` (split_k); 0 where no such split exists.
/// mma.sync (`wholeSteps` false): `k / parts`, where `parts` divides `k`.
/// MatmulWgmma (`wholeSteps`): whole K steps, `ceil(ceil(k / tileK) /
/// parts)` of them, every part as long and the last ending past K, where
/// TMA reads zeros as in an unsplit kernel's K tail (a part's box must not
/// read the next part's K, so parts are whole steps); 0 where the last part
/// would start at or past K.
int64_t getSplitKPart(int64_t k, int64_t parts, int64_t tileK, bool wholeSteps);

/// The workgroup group size the strategy gives a MatmulWgmma plan it
/// chooses when no group size is asked for, and why, in words (empty with
/// a group size of 1). In the launch order the workgroups resident at one time
/// take whole rows of tiles, each reading every column block of B, so a grid of
/// more than one wave (more workgroups than `target`'s SMs) with two or more
/// rows and columns of tiles starts them in groups of
/// kDefaultWorkgroupGroupRows rows (fewer where it has fewer), column by
/// column (gpucg-reorder-workgroups), as measured on an H100
/// (docs/passes/select-lowering-strategy.md). Other pipelines keep the
/// launch order. `strategy` is a plan
/// verifyLoweringStrategy accepts.
struct WorkgroupOrder {
  int64_t groupSize = 1;
  std::string reason;
};
WorkgroupOrder getDefaultWorkgroupOrder(linalg::LinalgOp rootOp,
                                        const LoweringStrategy &strategy,
                                        TargetAttr target);

/// Why the kernel whose root is `rootOp`, planned `strategy`, cannot split
/// the K loop of each output tile into `splitK` parts (`split_k`), in words
/// for a diagnostic; empty when it can. The parts run on grid z and meet in
/// a workspace (gpucg-combine-split-k, or MatmulWgmma's consumers), so the
/// plan must be MatmulTensorCoreMmaSync or MatmulWgmma (warp specialized,
/// staged, one tile per workgroup), the root an unbatched matmul on tensors
/// with static sizes whose A and B are function arguments and whose accumulator
/// starts from a fill of zero, and each part `K / splitK` elements, a whole
/// number of 16-byte vectors of each operand and at least two K steps.
std::string whyNoSplitK(linalg::LinalgOp rootOp,
                        const LoweringStrategy &strategy, int64_t splitK);

/// The split-K of a plan the strategy chooses: a MatmulTensorCoreMmaSync or
/// MatmulWgmma kernel with fewer output tiles than `target` has SMs splits
/// each tile's K loop into the fewest parts (at most kDefaultMaxSplitK)
/// that give at least one workgroup per SM, or into as many as it can, each
/// part keeping at least kDefaultMinSplitKSteps K steps; `reason` says why.
/// Other kernels keep one part.
struct SplitK {
  int64_t parts = 1;
  std::string reason;
};
SplitK getDefaultSplitK(linalg::LinalgOp rootOp,
                        const LoweringStrategy &strategy, TargetAttr target);

/// `strategy`, the plan of the kernel whose root is `rootOp`, in words for
/// people: `plan of @F: pipeline P (MMA instruction), workgroup X x Y x Z
/// threads, tiles ..., N stages`, its launch shape, for a contraction off the
/// tensor cores why (explainNoTensorCoreStrategy), and `launchNotes`, why
/// parts of the launch shape asked for were not taken (applyLaunchRequest).
std::string describePlan(linalg::LinalgOp rootOp,
                         const LoweringStrategy &strategy, TargetAttr target,
                         const StrategyOptions &options,
                         ArrayRef<std::string> launchNotes = {});

/// Why all-parallel `rootOp` (no contraction) gets no Vectorize plan on
/// `target`, in words (an odd innermost size whose loops cannot be merged,
/// elements of no whole bytes); empty where it gets one or is no such op.
/// The strategy's report adds it to a SimtDistribute plan, and
/// gpucg-select-lowering-strategy warns with it.
std::string whyNoElementwiseVectors(linalg::LinalgOp rootOp, TargetAttr target);

/// Why `rootOp` gets no tensor-core strategy on `target`, in words (for
/// diagnostics).
std::string explainNoTensorCoreStrategy(linalg::LinalgOp rootOp,
                                        TargetAttr target,
                                        const StrategyOptions &options);

/// Checks `strategy` for `rootOp` against the rules of its pipeline and the
/// limits of `target`. On failure, emits an error on `rootOp` naming the
/// numbers and the limit.
/// `options.deterministicReductions` refuses rows of floating-point sums
/// split across workgroups, `options.f32Precision` = Ieee f32 operands on
/// tensor cores.
LogicalResult verifyLoweringStrategy(linalg::LinalgOp rootOp,
                                     const LoweringStrategy &strategy,
                                     TargetAttr target,
                                     const StrategyOptions &options = {});

/// Returns `strategy` with the tiling levels that a verified user strategy
/// may leave out filled in from the others: the warp tile (level 1) and the
/// instruction shape (level 2) of tensor-core pipelines, the thread tile
/// (level 1) of MatmulSimt and Vectorize (each thread an equal share of
/// the workgroup tile). Expects a strategy that verifyLoweringStrategy
/// accepted.
LoweringStrategy completeLoweringStrategy(linalg::LinalgOp rootOp,
                                          const LoweringStrategy &strategy,
                                          TargetAttr target);

} // namespace gpucg
} // namespace mlir

#endif // GPUCG_TRANSFORMS_LOWERINGSTRATEGY_H
