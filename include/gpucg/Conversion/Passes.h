//===- Passes.h - gpucg conversion passes -----------------------*- C++ -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The passes that take gpucg's distributed kernels to NVVM and binaries. The
// named pipelines built from them are in gpucg/Pipelines/Passes.h.
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_CONVERSION_PASSES_H
#define GPUCG_CONVERSION_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

#include "gpucg/Transforms/LoweringStrategy.h"

namespace mlir {
namespace gpucg {

#define GEN_PASS_DECL
#include "gpucg/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gpucg/Conversion/Passes.h.inc"

} // namespace gpucg
} // namespace mlir

#endif // GPUCG_CONVERSION_PASSES_H
