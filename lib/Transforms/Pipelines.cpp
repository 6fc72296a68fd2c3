//===- Pipelines.cpp - gpucg's named pass pipelines -----------------------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pipelines are compositions of registered passes, written as the
// pipeline strings a user would type, so `--dump-pass-pipeline` and the docs
// show exactly what runs.
//
//===----------------------------------------------------------------------===//

#include "gpucg/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// One-shot bufferization of kernels: function boundaries included (kernel
/// arguments become memrefs with identity layouts), results that alias an
/// argument dropped (the kernel writes into its output argument).
static constexpr llvm::StringLiteral kBufferizePipeline =
    "one-shot-bufferize{bufferize-function-boundaries=true "
    "function-boundary-type-conversion=identity-layout-map},"
    "drop-equivalent-buffer-results,cse,canonicalize";

/// Test only: runs the threads of each workgroup, then the workgroups, one
/// after another, and lowers everything to LLVM for the CPU.
static constexpr llvm::StringLiteral kTestLowerToCpuPipeline =
    "func.func(gpucg-test-serialize-threads),scf-forall-to-for,"
    "func.func(convert-linalg-to-loops),expand-strided-metadata,"
    "lower-affine,convert-scf-to-cf,convert-to-llvm,"
    "reconcile-unrealized-casts,gpucg-strip-attributes";

static void addPipeline(OpPassManager &pm, StringRef pipeline) {
  // The strings above only name upstream passes that gpucg-opt and mlir-opt
  // both register; a failure here is a bug in this file.
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    llvm::report_fatal_error("gpucg: invalid built-in pass pipeline");
}

namespace {
/// Options of the named tensor-core pipelines.
struct TensorCorePipelineOptions
    : public PassPipelineOptions<TensorCorePipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target chip (e.g. sm_80); the "
                                          "module's gpucg.target if empty"),
                           llvm::cl::init("")};
  Option<unsigned> depth{
      *this, "depth",
      llvm::cl::desc("Software-pipelining depth (0: the strategy's)"),
      llvm::cl::init(0)};
  Option<unsigned> padding{
      *this, "padding",
      llvm::cl::desc("Bits of bank-conflict padding per workgroup-memory row "
                     "(0: none)"),
      llvm::cl::init(128)};
  Option<std::string> schedule{
      *this, "schedule",
      llvm::cl::desc("Software-pipelining schedule: load-global-stage0 or "
                     "nvidia-tensorcore"),
      llvm::cl::init("load-global-stage0")};
  Option<bool> epiloguePeeling{
      *this, "epilogue-peeling",
      llvm::cl::desc("Peel the software-pipelining epilogue"),
      llvm::cl::init(true)};
};
} // namespace

/// The whole tensor-core pipeline for one MMA family, from kernels on
/// tensors: the front half, then IREE's LLVMGPUMatmulTensorCore order.
static std::string getTensorCorePipeline(StringRef mma,
                                         const TensorCorePipelineOptions &o) {
  std::string chipOption =
      o.chip.empty() ? "" : (" chip=" + o.chip.getValue());
  std::string depthOption =
      o.depth == 0 ? "" : (" num-buffers=" + std::to_string(o.depth));
  std::string pipelineDepth =
      o.depth == 0 ? "" : (" depth=" + std::to_string(o.depth));
  std::string pipeline;
  llvm::raw_string_ostream os(pipeline);
  os << "func.func(gpucg-select-lowering-strategy{require-tensor-cores=true "
     << "mma=" << mma << chipOption
     << "},gpucg-tile-and-distribute-to-workgroups),"
     << kBufferizePipeline << ","
     << "func.func(gpucg-workgroup-specialization,"
     << "gpucg-tile-and-distribute{distribute-to-warp=true},"
     << "gpucg-remove-single-iteration-loop,"
     << "gpucg-multi-buffering{" << depthOption << "},"
     << "canonicalize,cse,"
     << "gpucg-tensor-core-vectorization{mma=" << mma << "},"
     << "fold-memref-alias-ops,"
     << "gpucg-distribute-shared-memory-copy,"
     << "gpucg-reduce-bank-conflicts{padding-bits=" << o.padding << "},"
     << "gpucg-vector-to-gpu{mma=" << mma << "},"
     << "loop-invariant-code-motion,"
     << "gpucg-software-pipelining{schedule=" << o.schedule.getValue()
     << " epilogue-peeling=" << (o.epiloguePeeling ? "true" : "false")
     << pipelineDepth << "},"
     << "gpucg-pack-shared-memory-alloc,canonicalize,cse)";
  return pipeline;
}

void mlir::gpucg::registerGpucgPassPipelines() {
  PassPipelineRegistration<TensorCorePipelineOptions>(
      "gpucg-matmul-tensorcore",
      "Tensor-core (WMMA) pipeline for matmul kernels on tensors: strategy, "
      "workgroup tiling, bufferization, specialization, warp distribution, "
      "multi-buffering, vectorization, copy distribution, bank-conflict "
      "padding, WMMA, software pipelining, shared-memory packing",
      [](OpPassManager &pm, const TensorCorePipelineOptions &options) {
        addPipeline(pm, getTensorCorePipeline("wmma", options));
      });
  PassPipelineRegistration<TensorCorePipelineOptions>(
      "gpucg-matmul-mma-sync",
      "Tensor-core (mma.sync + ldmatrix) pipeline for matmul kernels on "
      "tensors; the stages of gpucg-matmul-tensorcore",
      [](OpPassManager &pm, const TensorCorePipelineOptions &options) {
        addPipeline(pm, getTensorCorePipeline("mma-sync", options));
      });
  PassPipelineRegistration<>(
      "gpucg-bufferize",
      "Bufferize gpucg kernels with one-shot bufferization (function "
      "boundaries included, identity layouts)",
      [](OpPassManager &pm) { addPipeline(pm, kBufferizePipeline); });
  PassPipelineRegistration<>(
      "gpucg-test-lower-to-cpu",
      "Test only: lower a (workgroup-tiled) kernel and its caller to LLVM "
      "for the CPU, workgroup loops run sequentially",
      [](OpPassManager &pm) {
        addPipeline(pm, kBufferizePipeline);
        addPipeline(pm, kTestLowerToCpuPipeline);
      });
}
