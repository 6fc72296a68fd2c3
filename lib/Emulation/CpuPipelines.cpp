//===- CpuPipelines.cpp - Test-only pipelines to the CPU ------------------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gpucg-test-lower-to-cpu (every thread and workgroup one after another) and
// gpucg-test-emulate-on-cpu (each gpu.launch run by libgpucg_emulator), the
// two ways gpucg's tests check a kernel's numerics without a GPU.
//
//===----------------------------------------------------------------------===//

#include "gpucg/Emulation/Passes.h"
#include "gpucg/Pipelines/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::gpucg;

void mlir::gpucg::buildTestCpuLoopStages(OpPassManager &pm) {
  pm.addPass(createForallToForLoopPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  // Vectorized threads: N-D transfers and reductions to the 1-D vector ops
  // the LLVM conversion takes.
  VectorTransferToSCFOptions transfers;
  transfers.enableFullUnroll();
  pm.addNestedPass<func::FuncOp>(createConvertVectorToSCFPass(transfers));
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMultiReductionPass());
}

void mlir::gpucg::buildTestCpuLLVMStages(OpPassManager &pm) {
  // As gpucg-convert-to-nvvm does: LLVM has no small-float conversions.
  pm.addPass(createExpandSmallFloats());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  // Contractions as outer products, as gpucg-convert-to-nvvm lowers them
  // (the default dot lowering leaves mixed-precision ones behind).
  ConvertVectorToLLVMPassOptions vectorOptions;
  vectorOptions.vectorContractLowering =
      vector::VectorContractLowering::OuterProduct;
  pm.addPass(createConvertVectorToLLVMPass(vectorOptions));
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

/// Test only: runs the threads of each workgroup, then the workgroups, one
/// after another, and lowers everything to LLVM for the CPU.
static void buildTestLowerToCpuPipeline(OpPassManager &pm) {
  buildBufferizePipeline(pm);
  pm.addNestedPass<func::FuncOp>(createTestSerializeThreads());
  buildTestCpuLoopStages(pm);
  buildTestCpuLLVMStages(pm);
  pm.addPass(createStripAttributes());
}

void mlir::gpucg::buildTestEmulateOnCpuPipeline(
    OpPassManager &pm, const TestEmulateOnCpuPipelineOptions &options) {
  pm.addNestedPass<func::FuncOp>(createBuildGPULaunch());
  buildTestCpuLoopStages(pm);
  pm.addPass(createTestEmulateGpu(
      TestEmulateGpuOptions{/*checkRaces=*/options.checkRaces}));
  pm.addPass(createTestEmulateNVVMConversions());
  buildTestCpuLLVMStages(pm);
  pm.addPass(createTestEmulateLaunches());
  pm.addPass(createStripAttributes());
}

void mlir::gpucg::registerGpucgEmulationPipelines() {
  registerModulePipeline<EmptyPipelineOptions>(
      "gpucg-test-lower-to-cpu",
      "Test only: lower a (workgroup-tiled) kernel and its caller to LLVM "
      "for the CPU, workgroup loops run sequentially",
      [](OpPassManager &pm, const EmptyPipelineOptions &) {
        buildTestLowerToCpuPipeline(pm);
      });
  registerModulePipeline<TestEmulateOnCpuPipelineOptions>(
      "gpucg-test-emulate-on-cpu",
      "Test only: run a workgroup pipeline's output (distributed kernels and "
      "their callers) on the CPU with the GPU emulator runtime: gpu.launch "
      "construction, loops, GPU ops as emulator calls, LLVM conversion, "
      "fiber launches (docs/Emulation.md)",
      buildTestEmulateOnCpuPipeline);
}
