//===- InitGpucg.h - Register gpucg with an MLIR tool -----------*- C++ -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One place that says what a tool must register to use gpucg: gpucg-opt, the
// mlir-opt plugin and the C API all call these.
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_INITGPUCG_H
#define GPUCG_INITGPUCG_H

#include "gpucg/Conversion/Passes.h"
#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Emulation/Passes.h"
#include "gpucg/Pipelines/Passes.h"
#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"

namespace mlir {
namespace gpucg {

/// Adds the gpucg dialect, and the dialects and interface models gpucg's
/// passes rely on, to `registry`.
inline void registerGpucgDialects(DialectRegistry &registry) {
  registry.insert<GpucgDialect>();
  registerSingleIterationLoopDependencies(registry);
  // gpucg-lower-to-nvvm serializes gpu.modules: the #nvvm.target and the
  // LLVM IR translations of the dialects a lowered kernel holds.
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

/// Registers every gpucg pass and named pass pipeline, the test-only ones
/// included, with the global pass registry.
inline void registerAllGpucgPasses() {
  registerGpucgPasses();
  registerGpucgConversionPasses();
  registerGpucgPipelinesPasses();
  registerGpucgEmulationPasses();
  registerGpucgPipelines();
  registerGpucgEmulationPipelines();
}

} // namespace gpucg
} // namespace mlir

#endif // GPUCG_INITGPUCG_H
