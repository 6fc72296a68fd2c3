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

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/IR/DialectRegistry.h"

namespace mlir {
namespace gpucg {

/// Adds the gpucg dialect, and the dialects and interface models gpucg's
/// passes rely on, to `registry`.
inline void registerGpucgDialects(DialectRegistry &registry) {
  registry.insert<GpucgDialect>();
  registerSingleIterationLoopDependencies(registry);
}

/// Registers every gpucg pass (and, as they arrive, pass pipeline) with the
/// global pass registry.
inline void registerAllGpucgPasses() {
  registerGpucgPasses();
  registerGpucgPassPipelines();
}

} // namespace gpucg
} // namespace mlir

#endif // GPUCG_INITGPUCG_H
