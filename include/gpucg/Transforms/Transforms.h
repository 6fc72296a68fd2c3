//===- Transforms.h - Reusable gpucg transformations ------------*- C++ -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The transformations behind gpucg's passes, for use by other passes, pass
// pipelines and transform scripts.
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_TRANSFORMS_TRANSFORMS_H
#define GPUCG_TRANSFORMS_TRANSFORMS_H

#include "mlir/Support/LLVM.h"

namespace mlir {
class DialectRegistry;
class Operation;
class RewritePatternSet;

namespace gpucg {

/// Records `workgroupSize` ([x, y, z]) as the `upper_bound` of every
/// `gpu.thread_id` nested under `root`, keeping an existing tighter bound, so
/// that value-bounds analysis knows the range of each thread id.
void setThreadIdUpperBounds(Operation *root, ArrayRef<int64_t> workgroupSize);

/// Adds patterns that inline `scf.for` and unmapped `scf.forall` ops proven,
/// with `ValueBoundsOpInterface`, to execute exactly one iteration.
void populateRemoveSingleIterationLoopPatterns(RewritePatternSet &patterns);

/// Registers the external `ValueBoundsOpInterface` models the single-iteration
/// proofs rely on (affine, arith, gpu, memref, scf, tensor).
void registerSingleIterationLoopDependencies(DialectRegistry &registry);

} // namespace gpucg
} // namespace mlir

#endif // GPUCG_TRANSFORMS_TRANSFORMS_H
