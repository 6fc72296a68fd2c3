//===- Registration.cpp - gpucg's named pipelines, by name ----------------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The table of the named pipelines: the name and summary of each, and the
// builder it calls (WorkgroupPipelines.cpp, CompilePipelines.cpp).
//
//===----------------------------------------------------------------------===//

#include "gpucg/Pipelines/Passes.h"

using namespace mlir;
using namespace mlir::gpucg;

void mlir::gpucg::registerGpucgPipelines() {
  registerModulePipeline<TensorCorePipelineOptions>(
      "gpucg-matmul-tensorcore",
      "Tensor-core (WMMA) pipeline for matmul kernels on tensors: strategy, "
      "workgroup tiling, bufferization, specialization, warp distribution, "
      "multi-buffering, vectorization, copy distribution, bank-conflict "
      "padding, WMMA, software pipelining, shared-memory packing",
      [](OpPassManager &pm, const TensorCorePipelineOptions &options) {
        buildTensorCorePipeline(pm, MmaKind::Wmma, options);
      });
  registerModulePipeline<TensorCorePipelineOptions>(
      "gpucg-matmul-mma-sync",
      "Tensor-core (mma.sync + ldmatrix) pipeline for matmul kernels on "
      "tensors; the stages of gpucg-matmul-tensorcore",
      [](OpPassManager &pm, const TensorCorePipelineOptions &options) {
        buildTensorCorePipeline(pm, MmaKind::MmaSync, options);
      });
  registerModulePipeline<WgmmaPipelineOptions>(
      "gpucg-matmul-wgmma",
      "Warpgroup-MMA pipeline for matmul kernels on tensors (sm_90a): "
      "strategy, workgroup tiling, bufferization, then one warpgroup per "
      "workgroup multiplying tiles that TMA loads into a ring of stages "
      "completing on mbarriers, the accumulator in registers",
      buildWgmmaPipeline);
  registerModulePipeline<SimtPipelineOptions>(
      "gpucg-simt",
      "SIMT pipeline for any kernel on tensors, the always-correct fallback: "
      "strategy, workgroup tiling, bufferization, re-planning as "
      "SimtDistribute of kernels not distributed over threads, "
      "specialization, thread distribution, copy distribution, loops, "
      "shared-memory packing",
      buildSimtPipeline);
  registerModulePipeline<SimtPipelineOptions>(
      "gpucg-matmul-simt",
      "SIMT (CUDA-core) pipeline for matmul kernels on tensors: A and B "
      "promoted to workgroup memory for multi-warp MatmulSimt workgroups, "
      "copied with cp.async and software-pipelined where pipeline_depth > "
      "1, each thread's outputs in registers, its K steps as "
      "vector.contract (the stages of gpucg-vectorize)",
      buildVectorizePipeline);
  registerModulePipeline<SimtPipelineOptions>(
      "gpucg-vectorize",
      "SIMT pipeline with each thread's tile as vectors, for elementwise "
      "and row-reduction kernels on tensors: strategy, workgroup tiling, "
      "bufferization, specialization, thread distribution, vectorization "
      "(reductions as vector.multi_reduction), accumulators hoisted into "
      "registers, store-to-load forwarding, scalar loops for the partial "
      "tiles",
      buildVectorizePipeline);
  registerModulePipeline<SimtPipelineOptions>(
      "gpucg-warp-reduction",
      "Pipeline for reductions over long innermost rows on tensors: "
      "strategy, workgroup tiling, bufferization, each row split over its "
      "workgroup's threads as vectors, combined with gpu.subgroup_reduce "
      "within warps and through workgroup memory across them",
      buildWarpReductionPipeline);
  registerModulePipeline<EmptyPipelineOptions>(
      "gpucg-bufferize",
      "Bufferize gpucg kernels with one-shot bufferization (function "
      "boundaries included, identity layouts)",
      [](OpPassManager &pm, const EmptyPipelineOptions &) {
        buildBufferizePipeline(pm);
      });
  registerModulePipeline<LowerToNVVMPipelineOptions>(
      "gpucg-lower-to-nvvm",
      "From distributed kernels (the output of gpucg's workgroup pipelines) "
      "to GPU binaries: gpu.launch construction, outlining, conversion to "
      "NVVM, target attachment, serialization",
      buildLowerToNVVMPipeline);
  registerModulePipeline<CompilePipelineOptions>(
      "gpucg-compile",
      "From a module of linalg kernels on tensors to GPU binaries: strategy, "
      "workgroup tiling, bufferization, each kernel's pipeline by its "
      "translation_info, gpucg-lower-to-nvvm, and the kernels' ABI files",
      buildCompilePipeline);
}
