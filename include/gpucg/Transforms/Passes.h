//===- Passes.h - gpucg transformation passes -------------------*- C++ -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_TRANSFORMS_PASSES_H
#define GPUCG_TRANSFORMS_PASSES_H

#include "gpucg/Transforms/LoweringStrategy.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

namespace mlir {
namespace gpucg {

#define GEN_PASS_DECL
#include "gpucg/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gpucg/Transforms/Passes.h.inc"

/// Options of the named tensor-core pipelines (`gpucg-matmul-tensorcore`,
/// `gpucg-matmul-mma-sync`).
struct TensorCorePipelineOptions
    : public PassPipelineOptions<TensorCorePipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target chip (e.g. sm_80); the "
                                          "module's gpucg.target if empty"),
                           llvm::cl::init("")};
  Option<unsigned> depth{
      *this, "depth",
      llvm::cl::desc("Software-pipelining depth and workgroup-buffer count "
                     "(0: the strategy's pipeline_depth)"),
      llvm::cl::init(0)};
  Option<int64_t> padding{
      *this, "padding",
      llvm::cl::desc("Bits of bank-conflict padding per workgroup-memory row "
                     "(negative: the MMA family's default, 128 for WMMA and 0 for "
                     "mma.sync, which swizzles instead; 0: none)"),
      llvm::cl::init(-1)};
  Option<PipelineSchedule> schedule{
      *this, "schedule",
      llvm::cl::desc("Software-pipelining schedule"),
      llvm::cl::init(PipelineSchedule::LoadGlobalStage0),
      llvm::cl::values(
          clEnumValN(PipelineSchedule::LoadGlobalStage0, "load-global-stage0",
                     "global-to-workgroup copies in stage 0"),
          clEnumValN(PipelineSchedule::NvidiaTensorCore, "nvidia-tensorcore",
                     "also workgroup-to-register loads one stage early"))};
  Option<bool> epiloguePeeling{
      *this, "epilogue-peeling",
      llvm::cl::desc("Peel the software-pipelining epilogue"),
      llvm::cl::init(true)};
  Option<int64_t> workgroupGroupSize{
      *this, "workgroup-group-size",
      llvm::cl::desc("Start the workgroup loop's tiles in groups of this "
                     "many rows, column by column, for L2 reuse "
                     "(gpucg-reorder-workgroups); 0 or 1: row by row"),
      llvm::cl::init(0)};
};

/// Options of the named SIMT pipelines (`gpucg-simt`, `gpucg-matmul-simt`).
struct SimtPipelineOptions : public PassPipelineOptions<SimtPipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target chip (e.g. sm_80); the "
                                          "module's gpucg.target if empty"),
                           llvm::cl::init("")};
  Option<bool> deterministicReductions{
      *this, "deterministic-reductions",
      llvm::cl::desc("Never split a row of a floating-point sum "
                     "across workgroups (gpucg-select-lowering-strategy)"),
      llvm::cl::init(false)};
};

/// Options of the named warpgroup-MMA pipeline (`gpucg-matmul-wgmma`).
struct WgmmaPipelineOptions : public PassPipelineOptions<WgmmaPipelineOptions> {
  Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("Target chip; the module's gpucg.target if empty (the "
                     "pipeline needs sm_90a)"),
      llvm::cl::init("")};
  Option<bool> persistent{
      *this, "persistent",
      llvm::cl::desc("Warp-specialized kernels loop over their tiles on at "
                     "most `persistent-workgroups` workgroups "
                     "(gpucg-lower-matmul-to-wgmma's option)"),
      llvm::cl::init(false)};
  Option<int64_t> persistentWorkgroups{
      *this, "persistent-workgroups",
      llvm::cl::desc("Workgroups of a persistent grid; 0: the target's SM "
                     "count"),
      llvm::cl::init(0)};
  Option<bool> stagedStore{
      *this, "staged-store",
      llvm::cl::desc("Kernels without a fused epilogue store C through the "
                     "staging buffer with 16-byte stores when the ring holds "
                     "it (gpucg-lower-matmul-to-wgmma's option)"),
      llvm::cl::init(false)};
  Option<int64_t> clusterM{
      *this, "cluster-m",
      llvm::cl::desc("Workgroups of a thread-block cluster along M, sharing "
                     "B's tile by TMA multicast (gpucg-lower-matmul-to-wgmma's "
                     "option)"),
      llvm::cl::init(1)};
  Option<int64_t> clusterN{
      *this, "cluster-n",
      llvm::cl::desc("Workgroups of a thread-block cluster along N, sharing "
                     "A's tile by TMA multicast"),
      llvm::cl::init(1)};
  Option<int64_t> workgroupGroupSize{
      *this, "workgroup-group-size",
      llvm::cl::desc("Start the workgroup loop's tiles in groups of this "
                     "many rows, column by column, for L2 reuse "
                     "(gpucg-reorder-workgroups); 0 or 1: row by row"),
      llvm::cl::init(0)};
};

/// Adds gpucg's bufferization of kernels to `pm` (on a `builtin.module`):
/// one-shot bufferization with function boundaries (identity layouts at the
/// boundaries), dropping results equivalent to an argument, CSE and
/// canonicalization.
void buildBufferizePipeline(OpPassManager &pm);

/// Adds the stages every gpucg pipeline starts with to `pm` (on a
/// `builtin.module`): on tensors, gpucg-select-lowering-strategy with
/// `strategy`, gpucg-tile-and-distribute-to-workgroups and, with a
/// `workgroupGroupSize` other than 0 and 1, gpucg-reorder-workgroups on each
/// function; then buildBufferizePipeline.
void buildWorkgroupFrontPipeline(OpPassManager &pm,
                                 const SelectLoweringStrategyOptions &strategy,
                                 int64_t workgroupGroupSize = 0);

/// Adds the whole tensor-core pipeline of MMA family `kind` to `pm` (on a
/// `builtin.module`): from kernels on tensors through strategy, workgroup
/// tiling, bufferization, specialization, warp distribution,
/// multi-buffering, vectorization, copy distribution, bank-conflict padding,
/// tensor-core ops, software pipelining and shared-memory packing.
void buildTensorCorePipeline(OpPassManager &pm, MmaKind kind,
                             const TensorCorePipelineOptions &options);

/// Test only: the stages of the CPU lowerings (`gpucg-test-lower-to-cpu`,
/// `gpucg-test-emulate-on-cpu`) before the LLVM conversion: workgroup
/// loops, linalg ops and N-D vector transfers and reductions to loops and
/// 1-D vector ops.
void buildTestCpuLoopStages(OpPassManager &pm);

/// Test only: the LLVM conversion of the CPU lowerings, for the host (and
/// on the CPU everything is the host).
void buildTestCpuLLVMStages(OpPassManager &pm);

/// Registers gpucg's named pass pipelines, each on a `builtin.module`:
///  - `gpucg-matmul-tensorcore` and `gpucg-matmul-mma-sync`
///    (buildTensorCorePipeline);
///  - `gpucg-simt` and `gpucg-matmul-simt` (buildSimtPipeline);
///  - `gpucg-vectorize` (buildVectorizePipeline);
///  - `gpucg-warp-reduction` (buildWarpReductionPipeline);
///  - `gpucg-bufferize` (buildBufferizePipeline);
///  - `gpucg-test-lower-to-cpu`: test only; lowers a (workgroup-tiled)
///    kernel and its caller to LLVM for the CPU, running the workgroup
///    `scf.forall` as sequential loops, so `mlir-runner` can check numerics.
/// A pipeline nested in another op, or given an invalid option, is a
/// pipeline error, not an abort.
/// Adds the in-workgroup stages of the tensor-core pipeline of `kind` (from a
/// bufferized, workgroup-tiled kernel to packed workgroup memory) to `fpm`, a
/// pass manager on func.func.
void buildTensorCoreWorkgroupPipeline(OpPassManager &fpm, MmaKind kind,
                                      const TensorCorePipelineOptions &options);

/// Adds the whole SIMT pipeline to `pm` (on a `builtin.module`): strategy,
/// workgroup tiling and bufferization, then buildSimtWorkgroupPipeline.
/// Kernels the strategy plans for another pipeline are re-planned as
/// SimtDistribute (gpucg-simt-fallback), so every kernel the strategy takes
/// gets a correct, if not fast, SIMT lowering.
void buildSimtPipeline(OpPassManager &pm, const SimtPipelineOptions &options);

/// Adds the in-workgroup stages of the SIMT pipelines (SimtDistribute,
/// Vectorize, MatmulSimt, and WarpReduction re-planned as SimtDistribute)
/// to `fpm`, a pass manager on func.func: re-planning, workgroup
/// specialization, thread distribution (with A/B promotion for
/// multi-warp MatmulSimt workgroups), single-iteration loop removal,
/// distribution of workgroup-memory copies, linalg to loops, alias
/// folding, LICM and shared-memory packing.
void buildSimtWorkgroupPipeline(OpPassManager &fpm);

/// Adds the whole vectorizing SIMT pipeline to `pm` (on a `builtin.module`):
/// strategy, workgroup tiling and bufferization, then
/// buildVectorizeWorkgroupPipeline.
void buildVectorizePipeline(OpPassManager &pm,
                            const SimtPipelineOptions &options);

/// Adds the in-workgroup stages of the vectorizing SIMT pipeline (Vectorize
/// kernels; any other kernel as buildSimtWorkgroupPipeline distributes it)
/// to `fpm`, a pass manager on func.func: re-planning, workgroup
/// specialization, thread distribution, single-iteration loop removal,
/// distribution of workgroup-memory copies, vectorization of each thread's
/// static tile, alias folding, accumulators hoisted into registers and
/// store-to-load forwarding, linalg to loops for what stayed scalar, LICM
/// and shared-memory packing.
void buildVectorizeWorkgroupPipeline(OpPassManager &fpm);

/// Adds the whole warp-reduction pipeline to `pm` (on a `builtin.module`):
/// strategy, workgroup tiling and bufferization, then
/// buildWarpReductionWorkgroupPipeline.
void buildWarpReductionPipeline(OpPassManager &pm,
                                const SimtPipelineOptions &options);

/// Adds the in-workgroup stages of the warp-reduction pipeline
/// (WarpReduction kernels; others are left to the clean-ups) to `fpm`, a
/// pass manager on func.func: each row split over the workgroup's threads
/// (gpucg-distribute-reduction), the threads' steps vectorized with their
/// partials in registers, loops for what stayed scalar, shared-memory
/// packing.
void buildWarpReductionWorkgroupPipeline(OpPassManager &fpm);

/// Adds the whole warpgroup-MMA pipeline to `pm` (on a `builtin.module`): the
/// front stages with the MatmulWgmma strategy required (an error says why a
/// kernel cannot take it), then buildWgmmaWorkgroupPipeline.
void buildWgmmaPipeline(OpPassManager &pm, const WgmmaPipelineOptions &options);

/// Adds the in-workgroup stages of pipeline MatmulWgmma to `fpm` (on a
/// `func.func`, after workgroup tiling and bufferization):
/// gpucg-lower-matmul-to-wgmma (with `options`), canonicalization and CSE.
void buildWgmmaWorkgroupPipeline(OpPassManager &fpm,
                                 const LowerMatmulToWgmmaOptions &options = {});

void registerGpucgPassPipelines();

namespace detail {
/// Whether pipeline options `Options` can check their values before the
/// pipeline is built (`std::string validate() const`: an error, or empty).
template <typename Options, typename = void>
struct HasValidate : std::false_type {};
template <typename Options>
struct HasValidate<Options,
                   std::void_t<decltype(std::declval<const Options &>()
                                            .validate())>>
    : std::true_type {};
} // namespace detail

/// Registers pipeline `name`, built by `builder`, for pass managers on a
/// `builtin.module` (or on any op), checking its options first where they
/// say how (detail::HasValidate). Unlike upstream's
/// `PassPipelineRegistration`, it refuses other nestings with an ordinary
/// pipeline error: adding the pipeline's module passes to, say, a
/// `func.func` pass manager would otherwise abort the process.
template <typename Options>
inline void registerModulePipeline(
    StringRef name, StringRef description,
    std::function<void(OpPassManager &, const Options &)> builder) {
  registerPassPipeline(
      name, description,
      [name = name.str(), builder](
          OpPassManager &pm, StringRef text,
          function_ref<LogicalResult(const Twine &)> errorHandler)
          -> LogicalResult {
        Options options;
        if (failed(options.parseFromString(text)))
          return errorHandler("invalid options for pipeline '" + name + "'");
        // A value the lowering would refuse only at its end, after every
        // kernel's pipeline ran (and printed the IR), is refused here.
        if constexpr (detail::HasValidate<Options>::value) {
          std::string error = options.validate();
          if (!error.empty())
            return errorHandler("invalid options for pipeline '" + name +
                                "': " + error);
        }
        StringRef anchor = pm.getOpAnchorName();
        if (anchor != ModuleOp::getOperationName() &&
            anchor != OpPassManager::getAnyOpAnchorName())
          return errorHandler("pipeline '" + name +
                              "' runs on a builtin.module, but is nested in '" +
                              anchor + "'; write builtin.module(" + name +
                              ")");
        builder(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optionHandler) {
        optionHandler(Options());
      });
}


} // namespace gpucg
} // namespace mlir

#endif // GPUCG_TRANSFORMS_PASSES_H
