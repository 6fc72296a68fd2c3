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

void mlir::gpucg::registerGpucgPassPipelines() {
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
