//===- Passes.h - gpucg transformation passes -------------------*- C++ -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_TRANSFORMS_PASSES_H
#define GPUCG_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace gpucg {

#define GEN_PASS_DECL
#include "gpucg/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gpucg/Transforms/Passes.h.inc"

} // namespace gpucg
} // namespace mlir

#endif // GPUCG_TRANSFORMS_PASSES_H
