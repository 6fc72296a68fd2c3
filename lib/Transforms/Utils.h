//===- Utils.h - Helpers shared by gpucg's passes ---------------*- C++ -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_LIB_TRANSFORMS_UTILS_H
#define GPUCG_LIB_TRANSFORMS_UTILS_H

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/LoweringStrategy.h"

#include "mlir/Support/LLVM.h"

namespace mlir {
class Operation;
class Region;
class RewritePatternSet;
class Type;

namespace gpucg {

/// Adds the canonicalization patterns of every loaded dialect and registered
/// op to `patterns`: what the `canonicalize` pass applies.
void populateAllCanonicalizationPatterns(RewritePatternSet &patterns);

/// Applies the canonicalization patterns of every loaded dialect and
/// registered op to `region` (what `canonicalize` does, on one region), and
/// erases the ops left dead. Best effort: IR that does not reach a fixed
/// point is still correct.
void canonicalizeRegion(Region &region);

/// Whether `type` is a memref in workgroup (shared) memory. Any other type,
/// memref or not, is not.
bool isWorkgroupMemory(Type type);

/// Checks a pass's `mma` option against the MMA family of `info`, a
/// tensor-core pipeline's translation info. Emits an error on `op` and fails
/// when the option contradicts the pipeline (or the pipeline has no MMA
/// family).
LogicalResult verifyMmaOption(Operation *op, TranslationInfoAttr info,
                              MmaPreference mma);

} // namespace gpucg
} // namespace mlir

#endif // GPUCG_LIB_TRANSFORMS_UTILS_H
