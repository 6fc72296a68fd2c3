//===- CompilePipelines.cpp - gpucg-lower-to-nvvm and gpucg-compile -------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The named pipelines from distributed kernels (gpucg-lower-to-nvvm) and from
// kernels on tensors (gpucg-compile) to GPU binaries, built from typed pass
// objects.
//
//===----------------------------------------------------------------------===//

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Pipelines/Passes.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVM/NVVM/Utils.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::gpucg;

/// The CUDA toolkit whose libdevice the kernels link: the one upstream
/// finds (CUDA_ROOT, CUDA_HOME, CUDA_PATH, then the path MLIR was built
/// with) when it has libdevice, else the one gpucg's build found. Empty
/// leaves the choice to upstream.
static std::string getLibdeviceToolkitPath() {
  auto hasLibdevice = [](StringRef root) {
    SmallString<256> path(root);
    llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
    return !root.empty() && llvm::sys::fs::exists(path);
  };
  if (hasLibdevice(NVVM::getCUDAToolkitPath()))
    return NVVM::getCUDAToolkitPath().str();
#ifdef GPUCG_CUDA_TOOLKIT_ROOT
  if (hasLibdevice(GPUCG_CUDA_TOOLKIT_ROOT))
    return GPUCG_CUDA_TOOLKIT_ROOT;
#endif
  return std::string();
}

/// The passes of gpucg-lower-to-nvvm after its entry (gpucg-set-target).
static void buildLowerToNVVMStages(OpPassManager &pm,
                                   const LowerToNVVMPipelineOptions &options) {
  pm.addNestedPass<func::FuncOp>(createBuildGPULaunch());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertToNVVM(
      ConvertToNVVMOptions{/*indexBitwidth=*/64,
                           /*useBarePointers=*/options.barePointers,
                           /*nvvmFloat8=*/options.nvvmFloat8}));
  AttachNVVMTargetOptions target;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createAttachNVVMTarget(target));
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget =
      stringifyCompilationTarget(options.format.getValue()).lower();
  // gpu-module-to-binary spells them offload, assembly, binary, fatbin; its
  // parser also takes isa and bin.
  binary.toolkitPath = getLibdeviceToolkitPath();
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void mlir::gpucg::buildLowerToNVVMPipeline(
    OpPassManager &pm, const LowerToNVVMPipelineOptions &options) {
  pm.addPass(createSetTarget(SetTargetOptions{/*chip=*/options.chip}));
  buildLowerToNVVMStages(pm, options);
}

void mlir::gpucg::buildCompilePipeline(OpPassManager &pm,
                                       const CompilePipelineOptions &options) {
  // The chip becomes the module's gpucg.target here, once; every pass below
  // reads it from the IR.
  pm.addPass(createSetTarget(SetTargetOptions{/*chip=*/options.chip}));
  SelectLoweringStrategyOptions strategy;
  strategy.deterministicReductions = options.deterministicReductions;
  strategy.f32Precision = options.f32Precision;
  strategy.report = options.report;
  options.wgmmaLaunch.applyTo(strategy);
  options.workgroupOrder.applyTo(strategy);
  buildWorkgroupFrontPipeline(pm, strategy);
  pm.addNestedPass<func::FuncOp>(createLowerWorkgroup());

  LowerToNVVMPipelineOptions lowering;
  lowering.features = options.features.getValue();
  lowering.format = options.format.getValue();
  lowering.optLevel = options.optLevel.getValue();
  lowering.barePointers = options.barePointers.getValue();
  lowering.nvvmFloat8 = options.nvvmFloat8.getValue();
  buildLowerToNVVMStages(pm, lowering);
  pm.addPass(createExportKernels(
      ExportKernelsOptions{/*outputDir=*/options.outputDir,
                           /*useBarePointers=*/options.barePointers,
                           /*report=*/options.report}));
}
