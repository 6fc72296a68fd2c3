//===- Passes.h - gpucg transformation passes -------------------*- C++ -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_TRANSFORMS_PASSES_H
#define GPUCG_TRANSFORMS_PASSES_H

#include "gpucg/Transforms/LoweringStrategy.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

namespace mlir {
namespace gpucg {

#define GEN_PASS_DECL
#include "gpucg/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gpucg/Transforms/Passes.h.inc"

} // namespace gpucg
} // namespace mlir

#endif // GPUCG_TRANSFORMS_PASSES_H
