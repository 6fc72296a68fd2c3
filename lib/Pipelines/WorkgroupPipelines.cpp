//===- WorkgroupPipelines.cpp - From kernels on tensors to threads --------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The named pipelines are compositions of registered passes, built from the
// passes' own objects and option structs (never from pipeline text, where a
// user's odd option value would change the pipeline's meaning or abort).
// `--dump-pass-pipeline` shows exactly what runs.
//
//===----------------------------------------------------------------------===//

#include "gpucg/Pipelines/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::gpucg;

//===----------------------------------------------------------------------===//
// Stages shared by the pipelines
//===----------------------------------------------------------------------===//

void mlir::gpucg::buildBufferizePipeline(OpPassManager &pm) {
  bufferization::OneShotBufferizePassOptions options;
  options.bufferizeFunctionBoundaries = true;
  options.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(options));
  pm.addPass(bufferization::createDropEquivalentBufferResultsPass());
  // A returned new tensor: an output argument the caller allocates.
  pm.addPass(createResultsToOutParams());
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
}

//===----------------------------------------------------------------------===//
// Strategy inputs the pipelines share
//===----------------------------------------------------------------------===//

// The descriptions are gpucg-select-lowering-strategy's (check-docs.py
// compares them).

PipelineDepthOptions::PipelineDepthOptions(::mlir::detail::PassOptions &owner)
    : depth(owner, "depth",
            llvm::cl::desc("Software-pipelining depth and workgroup-buffer "
                           "count of every kernel planned for a tensor-core "
                           "pipeline, at most one per K step, budgeted by "
                           "the strategy (gpucg-select-lowering-strategy's "
                           "pipeline-depth); 0: the strategy's choice"),
            llvm::cl::init(0)) {}

void PipelineDepthOptions::applyTo(
    SelectLoweringStrategyOptions &strategy) const {
  strategy.pipelineDepth = depth;
}

WorkgroupOrderOptions::WorkgroupOrderOptions(::mlir::detail::PassOptions &owner)
    : workgroupGroupSize(
          owner, "workgroup-group-size",
          llvm::cl::desc("Start the workgroup loop's tiles in groups of this "
                         "many rows, column by column, for L2 reuse "
                         "(workgroup_group_size, gpucg-reorder-workgroups); "
                         "1: row by row; 0: the strategy's default, groups "
                         "of 8 rows for a wgmma matmul of more than one wave"),
          llvm::cl::init(0)),
      splitK(owner, "split-k",
             llvm::cl::desc(
                 "Split the K loop of each output tile of "
                 "MatmulTensorCoreMmaSync and MatmulWgmma kernels into this "
                 "many parts, one workgroup each on grid z (split_k): the "
                 "parts meet in a workspace, added in a fixed order by the "
                 "last workgroup of the tile; 1: no split; 0: the "
                 "strategy's default, the fewest parts that give a "
                 "workgroup to every SM where the tiles alone are fewer "
                 "than the SMs"),
             llvm::cl::init(0)) {}

void WorkgroupOrderOptions::applyTo(
    SelectLoweringStrategyOptions &strategy) const {
  strategy.workgroupGroupSize = workgroupGroupSize;
  strategy.splitK = splitK;
}

std::string WorkgroupOrderOptions::validate() const {
  LaunchRequest request;
  request.workgroupGroupSize = workgroupGroupSize;
  request.splitK = splitK;
  return whyInvalidLaunchRequest(request);
}

WgmmaLaunchOptions::WgmmaLaunchOptions(::mlir::detail::PassOptions &owner)
    : persistent(
          owner, "wgmma-persistent",
          llvm::cl::desc("Warp-specialized MatmulWgmma kernels with more tiles "
                         "than `wgmma-persistent-workgroups` loop over them on "
                         "that many workgroups (persistent_workgroups)"),
          llvm::cl::init(false)),
      persistentWorkgroups(
          owner, "wgmma-persistent-workgroups",
          llvm::cl::desc("Workgroups of a persistent MatmulWgmma grid; 0: "
                         "the target's SM count"),
          llvm::cl::init(0)),
      streamK(owner, "wgmma-stream-k",
              llvm::cl::desc(
                  "Warp-specialized MatmulWgmma kernels with a static K "
                  "run stream-K on the persistent grid (which this takes): "
                  "the last waves' K steps split evenly over its "
                  "workgroups, a tile's parts added in workgroup order by "
                  "the workgroup that completes it (stream_k)"),
              llvm::cl::init(false)),
      stagedStore(
          owner, "wgmma-staged-store",
          llvm::cl::desc("MatmulWgmma kernels without a fused epilogue store C "
                         "through the staging buffer with 16-byte stores where "
                         "the ring of stages holds it (staged_store)"),
          llvm::cl::init(false)),
      clusterM(owner, "wgmma-cluster-m",
               llvm::cl::desc(
                   "Warp-specialized MatmulWgmma kernels run in thread-block "
                   "clusters of this many workgroups along M, sharing B's "
                   "tile by TMA multicast, where the tiles divide (cluster)"),
               llvm::cl::init(1)),
      clusterN(owner, "wgmma-cluster-n",
               llvm::cl::desc("Workgroups of a MatmulWgmma thread-block "
                              "cluster along N, sharing A's tile by TMA "
                              "multicast"),
               llvm::cl::init(1)) {}

void WgmmaLaunchOptions::applyTo(
    SelectLoweringStrategyOptions &strategy) const {
  strategy.wgmmaPersistent = persistent;
  strategy.wgmmaPersistentWorkgroups = persistentWorkgroups;
  strategy.wgmmaStreamK = streamK;
  strategy.wgmmaStagedStore = stagedStore;
  strategy.wgmmaClusterM = clusterM;
  strategy.wgmmaClusterN = clusterN;
}

std::string WgmmaLaunchOptions::validate() const {
  LaunchRequest request;
  request.wgmmaPersistent = persistent;
  request.wgmmaPersistentWorkgroups = persistentWorkgroups;
  request.wgmmaStreamK = streamK;
  request.wgmmaStagedStore = stagedStore;
  request.wgmmaClusterM = clusterM;
  request.wgmmaClusterN = clusterN;
  return whyInvalidLaunchRequest(request);
}

//===----------------------------------------------------------------------===//
// Front stages
//===----------------------------------------------------------------------===//

void mlir::gpucg::buildWorkgroupFrontPipeline(
    OpPassManager &pm, const SelectLoweringStrategyOptions &strategy) {
  OpPassManager &onTensors = pm.nest<func::FuncOp>();
  // Ops with a decomposition (linalg.softmax) are no LinalgOp: as they are,
  // the strategy would make no kernel of them.
  onTensors.addPass(createDecomposeAggregateOps());
  // An elementwise kernel's rows that no 128-bit vector divides, as one
  // run of elements that takes such vectors.
  onTensors.addPass(createCollapseElementwiseDims());
  onTensors.addPass(createSelectLoweringStrategy(strategy));
  onTensors.addPass(createTileAndDistributeToWorkgroups());
  // Each kernel's workgroup_group_size (the strategy's plan; 1 leaves the
  // launch order).
  onTensors.addPass(createReorderWorkgroups());
  buildBufferizePipeline(pm);
  // The buffers of split-K kernels (split_k), which their workgroups share.
  pm.addPass(createCreateSplitKWorkspace());
}

void mlir::gpucg::buildTensorCorePipeline(
    OpPassManager &pm, MmaKind kind, const TensorCorePipelineOptions &options) {
  MmaPreference mma =
      kind == MmaKind::Wmma ? MmaPreference::Wmma : MmaPreference::MmaSync;

  pm.addPass(createSetTarget(SetTargetOptions{/*chip=*/options.chip}));
  SelectLoweringStrategyOptions strategy;
  strategy.mma = mma;
  strategy.requireTensorCores = true;
  options.pipelineDepth.applyTo(strategy);
  options.workgroupOrder.applyTo(strategy);
  buildWorkgroupFrontPipeline(pm, strategy);
  buildTensorCoreWorkgroupPipeline(pm.nest<func::FuncOp>(), kind, options);
}

void mlir::gpucg::buildTensorCoreWorkgroupPipeline(
    OpPassManager &fpm, MmaKind kind,
    const TensorCorePipelineOptions &options) {
  MmaPreference mma =
      kind == MmaKind::Wmma ? MmaPreference::Wmma : MmaPreference::MmaSync;
  // A split-K plan's parts of K on grid z (split_k), before anything
  // depends on the tile's K.
  fpm.addPass(createSplitKAcrossWorkgroups());
  // Inside the workgroup: IREE's LLVMGPUMatmulTensorCore order.
  fpm.addPass(createWorkgroupSpecialization());
  // Run-time row pitches (a dynamic K or N): a copy of the body for
  // 16-byte-aligned rows, whose copies into workgroup memory are cp.async.
  fpm.addPass(createRowPitchSpecialization());
  fpm.addPass(createTileAndDistribute(
      TileAndDistributeOptions{/*distributeToWarp=*/true}));
  fpm.addPass(createRemoveSingleIterationLoop());
  // Buffers and stages: each kernel's pipeline_depth.
  fpm.addPass(createMultiBuffering());
  fpm.addPass(createCanonicalizerPass());
  fpm.addPass(createCSEPass());
  fpm.addPass(createTensorCoreVectorization(
      TensorCoreVectorizationOptions{/*mma=*/mma}));
  fpm.addPass(memref::createFoldMemRefAliasOpsPass());
  fpm.addPass(createDistributeSharedMemoryCopy());
  // Padding or swizzling against bank conflicts, per MMA family; a user's
  // padding replaces the swizzle (vector-to-GPU leaves padded buffers be).
  int64_t padding = options.padding >= 0
                        ? options.padding.getValue()
                        : getDefaultBankConflictPaddingBits(kind);
  fpm.addPass(createReduceBankConflicts(ReduceBankConflictsOptions{
      /*paddingBits=*/static_cast<unsigned>(padding)}));
  VectorToGPUOptions toGpu;
  toGpu.mma = mma;
  toGpu.swizzle = swizzlesWorkgroupMemory(kind);
  fpm.addPass(createVectorToGPU(toGpu));
  fpm.addPass(createLoopInvariantCodeMotionPass());
  // The parts' sums meet after the K loop, which the accumulators leave as
  // vectors here (and software pipelining leaves alone).
  fpm.addPass(createCombineSplitK());
  SoftwarePipeliningOptions pipelining;
  pipelining.epiloguePeeling = options.epiloguePeeling;
  pipelining.schedule = options.schedule;
  fpm.addPass(createSoftwarePipelining(pipelining));
  fpm.addPass(createPackSharedMemoryAlloc());
  // Global accesses whose rows have a run-time pitch: wide where a run-time
  // check finds them aligned. Last, so that the staged copies' reads are
  // still plain reads for the pipelining.
  fpm.addPass(createVersionVectorAlignment());
  fpm.addPass(createCanonicalizerPass());
  fpm.addPass(createCSEPass());
}

/// The module's target from `options.chip`, the front stages, then
/// `workgroupStages` on each function.
static void buildSimtFamilyPipeline(OpPassManager &pm,
                                    const SimtPipelineOptions &options,
                                    void (*workgroupStages)(OpPassManager &)) {
  pm.addPass(createSetTarget(SetTargetOptions{/*chip=*/options.chip}));
  SelectLoweringStrategyOptions strategy;
  strategy.deterministicReductions = options.deterministicReductions;
  buildWorkgroupFrontPipeline(pm, strategy);
  workgroupStages(pm.nest<func::FuncOp>());
}

/// The SIMT distribution: re-planning, specialization, thread distribution
/// (A and B of a multi-warp MatmulSimt promoted) and the copies to and from
/// workgroup memory spread over all threads. With `specializeRowPitch`
/// (threads that read vectors), run-time row pitches get a copy of the body
/// for 16-byte-aligned rows, whose vector reads need no check of their own.
static void
addThreadDistributionStages(OpPassManager &fpm,
                            const SimtFallbackOptions &fallback = {},
                            bool multiBuffer = false,
                            bool specializeRowPitch = false) {
  fpm.addPass(createSimtFallback(fallback));
  fpm.addPass(createWorkgroupSpecialization());
  if (specializeRowPitch)
    fpm.addPass(createRowPitchSpecialization());
  fpm.addPass(createTileAndDistribute(
      TileAndDistributeOptions{/*distributeToWarp=*/false}));
  fpm.addPass(createRemoveSingleIterationLoop());
  // A pipelined MatmulSimt kernel's A and B buffers, one per stage (the
  // translation_info's pipeline_depth; hoisting alone otherwise).
  if (multiBuffer)
    fpm.addPass(createMultiBuffering());
  fpm.addPass(createCanonicalizerPass());
  fpm.addPass(createCSEPass());
  fpm.addPass(createDistributeSharedMemoryCopy());
}

/// Each thread's tile as vectors: vectorization, then transfers that index
/// the kernel's buffers directly, so that an accumulator's read and write
/// are seen to be loop-invariant and leave the loop.
static void addThreadVectorizationStages(OpPassManager &fpm) {
  fpm.addPass(createGenericVectorization());
  fpm.addPass(memref::createFoldMemRefAliasOpsPass());
  fpm.addPass(createOptimizeVectorTransfers());
}

/// What stays linalg (the partial-tile path, or everything in gpucg-simt)
/// as scalar loops, then clean-ups and one workgroup buffer.
static void addScalarLoopAndPackingStages(OpPassManager &fpm) {
  // A thread's temporaries on its stack, not in a device malloc.
  fpm.addPass(createPromoteThreadBuffers());
  fpm.addPass(createConvertLinalgToLoopsPass());
  fpm.addPass(memref::createFoldMemRefAliasOpsPass());
  fpm.addPass(createLoopInvariantCodeMotionPass());
  fpm.addPass(createPackSharedMemoryAlloc());
  fpm.addPass(createCanonicalizerPass());
  fpm.addPass(createCSEPass());
}

void mlir::gpucg::buildSimtPipeline(OpPassManager &pm,
                                    const SimtPipelineOptions &options) {
  buildSimtFamilyPipeline(pm, options, buildSimtWorkgroupPipeline);
}

void mlir::gpucg::buildSimtWorkgroupPipeline(OpPassManager &fpm) {
  // Inside the workgroup: IREE's LLVMGPUDistribute order, with the
  // workgroup-memory copies of a promoted matmul spread over the threads.
  addThreadDistributionStages(fpm);
  addScalarLoopAndPackingStages(fpm);
}

void mlir::gpucg::buildVectorizePipeline(OpPassManager &pm,
                                         const SimtPipelineOptions &options) {
  buildSimtFamilyPipeline(pm, options, buildVectorizeWorkgroupPipeline);
}

void mlir::gpucg::buildVectorizeWorkgroupPipeline(OpPassManager &fpm) {
  // Inside the workgroup: IREE's GPUVectorization order on gpucg's stages.
  // The SIMT distribution first, then each thread's tile as vectors.
  addThreadDistributionStages(fpm, {}, /*multiBuffer=*/true,
                              /*specializeRowPitch=*/true);
  addThreadVectorizationStages(fpm);
  // A MatmulSimt kernel with pipeline_depth > 1: its copies to workgroup
  // memory as cp.async, the K loop pipelined over them (no-ops otherwise).
  fpm.addPass(createVectorToGPU());
  fpm.addPass(createLoopInvariantCodeMotionPass());
  fpm.addPass(createSoftwarePipelining());
  // Global accesses whose rows have a run-time pitch (a dynamic inner
  // size): wide where a run-time check finds them aligned, as in the
  // tensor-core pipelines.
  fpm.addPass(createVersionVectorAlignment());
  addScalarLoopAndPackingStages(fpm);
}

void mlir::gpucg::buildWarpReductionPipeline(
    OpPassManager &pm, const SimtPipelineOptions &options) {
  buildSimtFamilyPipeline(pm, options, buildWarpReductionWorkgroupPipeline);
}

void mlir::gpucg::buildWarpReductionWorkgroupPipeline(OpPassManager &fpm) {
  // Each row split over its workgroup's threads; then the threads' steps as
  // vectors, like gpucg-vectorize's, with the partials in registers.
  fpm.addPass(createSplitRowsAcrossWorkgroups());
  // Rows of a run-time size (and pitch): a copy of the row program for
  // 16-byte-aligned rows, whose steps need no alignment check of their own.
  fpm.addPass(createRowPitchSpecialization());
  fpm.addPass(createDistributeReduction());
  fpm.addPass(createRemoveSingleIterationLoop());
  fpm.addPass(createCanonicalizerPass());
  fpm.addPass(createCSEPass());
  // Kernels the strategy did not plan as WarpReduction (rows too short, not
  // a reduction; only the named pipeline sees them) take the SIMT thread
  // distribution, which leaves WarpReduction kernels alone: undistributed,
  // every thread would compute, and read-modify-write, the whole tile.
  SimtFallbackOptions fallback;
  fallback.keepWarpReduction = true;
  addThreadDistributionStages(fpm, fallback);
  addThreadVectorizationStages(fpm);
  // Steps along a row of a run-time size (its pitch one too): wide where a
  // run-time check finds them aligned.
  fpm.addPass(createVersionVectorAlignment());
  addScalarLoopAndPackingStages(fpm);
}

void mlir::gpucg::buildWgmmaPipeline(OpPassManager &pm,
                                     const WgmmaPipelineOptions &options) {
  pm.addPass(createSetTarget(SetTargetOptions{/*chip=*/options.chip}));
  SelectLoweringStrategyOptions strategy;
  strategy.mma = MmaPreference::Wgmma;
  strategy.requireTensorCores = true;
  options.pipelineDepth.applyTo(strategy);
  options.wgmmaLaunch.applyTo(strategy);
  options.workgroupOrder.applyTo(strategy);
  buildWorkgroupFrontPipeline(pm, strategy);
  buildWgmmaWorkgroupPipeline(pm.nest<func::FuncOp>());
}

void mlir::gpucg::buildWgmmaWorkgroupPipeline(OpPassManager &fpm) {
  // The whole workgroup program is one rewrite: TMA ring, wgmma loop, store
  // (or staging and a fused epilogue's 16-byte pieces per thread, which
  // become vectors here; an element type vectors cannot hold, loops). A
  // split-K plan's parts of K on grid z first (split_k).
  fpm.addPass(createSplitKAcrossWorkgroups());
  fpm.addPass(createLowerMatmulToWgmma());
  addThreadVectorizationStages(fpm);
  fpm.addPass(createConvertLinalgToLoopsPass());
  fpm.addPass(createCanonicalizerPass());
  fpm.addPass(createCSEPass());
}
