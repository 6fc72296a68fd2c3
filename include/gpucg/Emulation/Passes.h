//===- Passes.h - gpucg's GPU emulator, compiler side -----------*- C++ -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Test only: the passes and pipelines that run gpucg's kernels on the CPU,
// serially (gpucg-test-lower-to-cpu) or with every GPU thread a fiber of
// libgpucg_emulator (gpucg-test-emulate-on-cpu, docs/Emulation.md). The
// calls they emit are the runtime's C API, runtime/include/gpucg_emulator.h.
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_EMULATION_PASSES_H
#define GPUCG_EMULATION_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace gpucg {

#define GEN_PASS_DECL
#include "gpucg/Emulation/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gpucg/Emulation/Passes.h.inc"

/// Test only: the stages of the CPU lowerings (`gpucg-test-lower-to-cpu`,
/// `gpucg-test-emulate-on-cpu`) before the LLVM conversion: workgroup
/// loops, linalg ops and N-D vector transfers and reductions to loops and
/// 1-D vector ops.
void buildTestCpuLoopStages(OpPassManager &pm);

/// Test only: the LLVM conversion of the CPU lowerings, for the host (and
/// on the CPU everything is the host).
void buildTestCpuLLVMStages(OpPassManager &pm);

/// Options of the test-only `gpucg-test-emulate-on-cpu`.
struct TestEmulateOnCpuPipelineOptions
    : public PassPipelineOptions<TestEmulateOnCpuPipelineOptions> {
  Option<bool> checkRaces{
      *this, "check-races",
      llvm::cl::desc("Report every workgroup-memory access to the emulator's "
                     "race detector"),
      llvm::cl::init(true)};
};

/// Test only: adds `gpucg-test-emulate-on-cpu` to `pm` (on builtin.module):
/// from the output of a workgroup pipeline to LLVM for the CPU, each
/// gpu.launch run by libgpucg_emulator (docs/Emulation.md).
void buildTestEmulateOnCpuPipeline(
    OpPassManager &pm, const TestEmulateOnCpuPipelineOptions &options);

/// Registers the test-only `gpucg-test-lower-to-cpu` (lowers a
/// workgroup-tiled kernel and its caller to LLVM for the CPU, running the
/// workgroup `scf.forall` and each workgroup's threads as sequential loops, so
/// that `mlir-runner` can check numerics) and `gpucg-test-emulate-on-cpu`.
void registerGpucgEmulationPipelines();

} // namespace gpucg
} // namespace mlir

#endif // GPUCG_EMULATION_PASSES_H
