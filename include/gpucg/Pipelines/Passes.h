//===- Passes.h - gpucg's named pipelines and their dispatch ----*- C++ -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The layer above the passes: every named pipeline (the in-workgroup ones of
// each translation_info pipeline, the whole ones from kernels on tensors, and
// gpucg-lower-to-nvvm and gpucg-compile down to binaries), each a
// composition of typed pass objects, and gpucg-lower-workgroup, the pass that
// picks a kernel's in-workgroup pipeline by its translation_info.
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_PIPELINES_PASSES_H
#define GPUCG_PIPELINES_PASSES_H

#include "gpucg/Conversion/Passes.h"
#include "gpucg/Transforms/Passes.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

namespace mlir {
namespace gpucg {

#define GEN_PASS_DECL
#include "gpucg/Pipelines/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gpucg/Pipelines/Passes.h.inc"

//===----------------------------------------------------------------------===//
// Strategy inputs the pipelines share
//===----------------------------------------------------------------------===//

// The launch shape a user asks for (LaunchRequest) is a set of options of
// gpucg-select-lowering-strategy. The pipelines take the same options under
// the same names, declared once here, each group a member of the options of
// every pipeline that takes it (`WgmmaLaunchOptions wgmmaLaunch{*this};`).
// check-docs.py holds these declarations and the strategy pass's together.

/// The stages of a tensor-core kernel's K loop: `depth`.
struct PipelineDepthOptions {
  template <typename T> using Option = ::mlir::detail::PassOptions::Option<T>;

  explicit PipelineDepthOptions(::mlir::detail::PassOptions &owner);

  Option<unsigned> depth;

  /// Sets the strategy pass's `pipeline-depth`.
  void applyTo(SelectLoweringStrategyOptions &strategy) const;
};

/// The tile schedule: the workgroup order (`workgroup-group-size`) and the
/// split of K across workgroups (`split-k`).
struct WorkgroupOrderOptions {
  template <typename T> using Option = ::mlir::detail::PassOptions::Option<T>;

  explicit WorkgroupOrderOptions(::mlir::detail::PassOptions &owner);

  Option<int64_t> workgroupGroupSize;
  Option<int64_t> splitK;

  /// Sets the strategy pass's options of the same names.
  void applyTo(SelectLoweringStrategyOptions &strategy) const;
  /// What the strategy would refuse, said before the pipeline is built: an
  /// error message (whyInvalidLaunchRequest), or empty.
  std::string validate() const;
};

/// The launch shape of MatmulWgmma kernels: `wgmma-persistent`,
/// `wgmma-persistent-workgroups`, `wgmma-stream-k`, `wgmma-staged-store`,
/// `wgmma-cluster-m`, `wgmma-cluster-n`.
struct WgmmaLaunchOptions {
  template <typename T> using Option = ::mlir::detail::PassOptions::Option<T>;

  explicit WgmmaLaunchOptions(::mlir::detail::PassOptions &owner);

  Option<bool> persistent;
  Option<int64_t> persistentWorkgroups;
  Option<bool> streamK;
  Option<bool> stagedStore;
  Option<int64_t> clusterM;
  Option<int64_t> clusterN;

  /// Sets the strategy pass's options of the same names.
  void applyTo(SelectLoweringStrategyOptions &strategy) const;
  /// What the strategy would refuse, said before the pipeline is built: an
  /// error message (whyInvalidLaunchRequest), or empty.
  std::string validate() const;
};

//===----------------------------------------------------------------------===//
// Kernels on tensors to distributed kernels
//===----------------------------------------------------------------------===//

/// Options of the named tensor-core pipelines (`gpucg-matmul-tensorcore`,
/// `gpucg-matmul-mma-sync`).
struct TensorCorePipelineOptions
    : public PassPipelineOptions<TensorCorePipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target chip (e.g. sm_80); the "
                                          "module's gpucg.target if empty"),
                           llvm::cl::init("")};
  PipelineDepthOptions pipelineDepth{*this};
  Option<int64_t> padding{
      *this, "padding",
      llvm::cl::desc(
          "Bits of bank-conflict padding per workgroup-memory row "
          "(negative: the MMA family's default, 128 for WMMA and 0 for "
          "mma.sync, which swizzles instead; 0: none)"),
      llvm::cl::init(-1)};
  Option<PipelineSchedule> schedule{
      *this, "schedule", llvm::cl::desc("Software-pipelining schedule"),
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
  WorkgroupOrderOptions workgroupOrder{*this};
  std::string validate() const { return workgroupOrder.validate(); }
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
  PipelineDepthOptions pipelineDepth{*this};
  WgmmaLaunchOptions wgmmaLaunch{*this};
  WorkgroupOrderOptions workgroupOrder{*this};
  std::string validate() const {
    std::string error = wgmmaLaunch.validate();
    return error.empty() ? workgroupOrder.validate() : error;
  }
};

/// Adds gpucg's bufferization of kernels to `pm` (on a `builtin.module`):
/// one-shot bufferization with function boundaries (identity layouts at the
/// boundaries), dropping results equivalent to an argument, CSE and
/// canonicalization.
void buildBufferizePipeline(OpPassManager &pm);

/// Adds the stages every gpucg pipeline starts with to `pm` (on a
/// `builtin.module`): on tensors, gpucg-select-lowering-strategy with
/// `strategy`, gpucg-tile-and-distribute-to-workgroups and
/// gpucg-reorder-workgroups (each kernel's workgroup_group_size) on each
/// function; then buildBufferizePipeline.
void buildWorkgroupFrontPipeline(OpPassManager &pm,
                                 const SelectLoweringStrategyOptions &strategy);

/// Adds the whole tensor-core pipeline of MMA family `kind` to `pm` (on a
/// `builtin.module`): from kernels on tensors through strategy, workgroup
/// tiling, bufferization, specialization, warp distribution,
/// multi-buffering, vectorization, copy distribution, bank-conflict padding,
/// tensor-core ops, software pipelining and shared-memory packing.
void buildTensorCorePipeline(OpPassManager &pm, MmaKind kind,
                             const TensorCorePipelineOptions &options);

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
/// gpucg-lower-matmul-to-wgmma (the launch shape of each kernel's
/// translation_info), vectorization of the epilogue, canonicalization and
/// CSE.
void buildWgmmaWorkgroupPipeline(OpPassManager &fpm);

namespace detail {
/// Whether pipeline options `Options` can check their values before the
/// pipeline is built (`std::string validate() const`: an error, or empty).
template <typename Options, typename = void>
struct HasValidate : std::false_type {};
template <typename Options>
struct HasValidate<
    Options, std::void_t<decltype(std::declval<const Options &>().validate())>>
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
      [name = name.str(),
       builder](OpPassManager &pm, StringRef text,
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
                              anchor + "'; write builtin.module(" + name + ")");
        builder(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optionHandler) {
        optionHandler(Options());
      });
}

//===----------------------------------------------------------------------===//
// Distributed kernels to binaries
//===----------------------------------------------------------------------===//

/// The options that say what binary to make, shared by `gpucg-lower-to-nvvm`
/// and `gpucg-compile` (CRTP over PassPipelineOptions, so that each pipeline
/// keeps its own options type).
template <typename Derived>
struct BinaryPipelineOptions : public PassPipelineOptions<Derived> {
  template <typename T> using Option = ::mlir::detail::PassOptions::Option<T>;

  Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("Target chip (e.g. sm_80); if empty, the module's "
                     "gpucg.target (gpucg-compile needs one of the two; "
                     "gpucg-lower-to-nvvm falls back to sm_80)"),
      llvm::cl::init("")};
  Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features (e.g. +ptx80); if empty, LLVM's default "
                     "for the chip (the lowest PTX version it supports)"),
      llvm::cl::init("")};
  Option<gpu::CompilationTarget> format{
      *this, "format", llvm::cl::desc("What gpu-module-to-binary produces"),
      llvm::cl::init(gpu::CompilationTarget::Binary),
      llvm::cl::values(
          clEnumValN(gpu::CompilationTarget::Assembly, "isa", "PTX"),
          clEnumValN(gpu::CompilationTarget::Binary, "bin",
                     "a cubin (runs ptxas)"),
          clEnumValN(gpu::CompilationTarget::Fatbin, "fatbin",
                     "a fatbin (runs ptxas and fatbinary)"),
          // The names of the files, the C API and Python.
          clEnumValN(gpu::CompilationTarget::Assembly, "ptx",
                     "PTX (the same as isa)"),
          clEnumValN(gpu::CompilationTarget::Binary, "cubin",
                     "a cubin (the same as bin)"))};
  Option<unsigned> optLevel{*this, "opt-level",
                            llvm::cl::desc("LLVM optimization level (0-3)"),
                            llvm::cl::init(3)};
  Option<bool> barePointers{
      *this, "bare-pointers",
      llvm::cl::desc("Pass memref kernel arguments as bare pointers where "
                     "every memref argument of the kernel has a static shape "
                     "and an identity layout; memref descriptors otherwise"),
      llvm::cl::init(true)};
  /// What the lowering would refuse at its end, said before it starts:
  /// an error message, or empty.
  std::string validate() const {
    if (optLevel > 3)
      return "opt-level=" + std::to_string(optLevel) +
             " is not an LLVM optimization level (0 to 3)";
    return "";
  }

  Option<bool> nvvmFloat8{
      *this, "nvvm-float8",
      llvm::cl::desc("Convert f8E4M3FN and f8E5M2 with NVVM's cvt "
                     "instructions (sm_89+) instead of integer arithmetic; "
                     "off until checked on a GPU"),
      llvm::cl::init(false)};
};

/// Options of `gpucg-lower-to-nvvm`: from distributed kernels to binaries.
struct LowerToNVVMPipelineOptions
    : public BinaryPipelineOptions<LowerToNVVMPipelineOptions> {};

/// Options of `gpucg-compile`: a module of kernels on tensors to binaries
/// and their ABI files.
struct CompilePipelineOptions
    : public BinaryPipelineOptions<CompilePipelineOptions> {
  Option<std::string> outputDir{
      *this, "output-dir",
      llvm::cl::desc("Write each kernel's binary and .abi file here (nothing "
                     "written if empty)"),
      llvm::cl::init("")};
  Option<bool> deterministicReductions{
      *this, "deterministic-reductions",
      llvm::cl::desc("Never split a row of a floating-point sum "
                     "across workgroups (gpucg-select-lowering-strategy)"),
      llvm::cl::init(false)};
  Option<F32Precision> f32Precision{
      *this, "f32-precision",
      llvm::cl::desc("How contractions of f32 operands multiply them "
                     "(gpucg-select-lowering-strategy)"),
      llvm::cl::init(F32Precision::Tf32),
      llvm::cl::values(
          clEnumValN(F32Precision::Tf32, "tf32",
                     "on tensor cores as TF32 (10-bit mantissas, f32 "
                     "accumulation) where a tensor-core plan takes them"),
          clEnumValN(F32Precision::Ieee, "ieee",
                     "in IEEE f32 on the SIMT cores (pipeline MatmulSimt)"))};
  Option<bool> report{
      *this, "report",
      llvm::cl::desc("Say each kernel's plan in a remark (`plan of @F: ...`: "
                     "pipeline, MMA instruction, workgroup, tiles, stages, "
                     "and why a contraction is off the tensor cores; "
                     "gpucg-select-lowering-strategy's report)"),
      llvm::cl::init(false)};
  WgmmaLaunchOptions wgmmaLaunch{*this};
  WorkgroupOrderOptions workgroupOrder{*this};
  std::string validate() const {
    for (std::string error :
         {BinaryPipelineOptions::validate(), wgmmaLaunch.validate(),
          workgroupOrder.validate()})
      if (!error.empty())
        return error;
    return "";
  }
};

/// Adds the passes of `gpucg-lower-to-nvvm` to `pm` (anchored on
/// builtin.module): gpu.launch construction, outlining, conversion to NVVM,
/// target attachment and serialization.
void buildLowerToNVVMPipeline(OpPassManager &pm,
                              const LowerToNVVMPipelineOptions &options);

/// Adds the passes of `gpucg-compile` to `pm` (anchored on builtin.module).
void buildCompilePipeline(OpPassManager &pm,
                          const CompilePipelineOptions &options);

/// Registers gpucg's named pass pipelines, each on a `builtin.module`:
///  - `gpucg-matmul-tensorcore` and `gpucg-matmul-mma-sync`
///    (buildTensorCorePipeline);
///  - `gpucg-matmul-wgmma` (buildWgmmaPipeline);
///  - `gpucg-simt` (buildSimtPipeline);
///  - `gpucg-matmul-simt` and `gpucg-vectorize` (buildVectorizePipeline);
///  - `gpucg-warp-reduction` (buildWarpReductionPipeline);
///  - `gpucg-bufferize` (buildBufferizePipeline);
///  - `gpucg-lower-to-nvvm` (buildLowerToNVVMPipeline) and `gpucg-compile`
///    (buildCompilePipeline).
/// A pipeline nested in another op, or given an invalid option, is a
/// pipeline error, not an abort.
void registerGpucgPipelines();

} // namespace gpucg
} // namespace mlir

#endif // GPUCG_PIPELINES_PASSES_H
