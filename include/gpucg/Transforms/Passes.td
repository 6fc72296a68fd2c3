//===- Passes.td - gpucg transformation passes -------------*- tablegen -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_TRANSFORMS_PASSES_TD
#define GPUCG_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def RemoveSingleIterationLoop
    : Pass<"gpucg-remove-single-iteration-loop", "func::FuncOp"> {
  let summary = "Inline scf.for and scf.forall loops proven to run exactly once";
  let description = [{
    Removes every `scf.for` and unmapped `scf.forall` that provably executes
    exactly one iteration, inlining its body with the induction variables
    replaced by the lower bounds and the results by the yielded values.

    A loop runs exactly once when `lb < ub` and `ub <= lb + step` (for each
    dimension of an `scf.forall`). Both are proven with upstream's
    `ValueBoundsOpInterface`, so bounds may be constants, `affine.apply` /
    `affine.min` / arith expressions, or GPU ids. When the function carries a
    `gpucg.translation_info` with a `workgroup_size`, the pass first records
    that size as the `upper_bound` of every `gpu.thread_id` in the function
    (keeping a tighter bound already present), which is what makes the loops
    that distribution creates over thread ids provable.

    Loops that cannot be proven are left alone, as are `scf.forall` ops with a
    `mapping` (their iterations are a distribution decision, not a loop) and
    loops with unsigned or non-index bounds whose trip count is not a
    constant.

    Before, in a function with `workgroup_size = [64, 2, 1]`:

    ```mlir
    %tid = gpu.thread_id x
    %r = scf.for %i = %tid to %c64 step %c64 iter_args(%acc = %init) -> (f32) {
      %v = memref.load %buf[%i] : memref<64xf32>
      %s = arith.addf %acc, %v : f32
      scf.yield %s : f32
    }
    ```

    After:

    ```mlir
    %tid = gpu.thread_id x upper_bound 64
    %v = memref.load %buf[%tid] : memref<64xf32>
    %r = arith.addf %init, %v : f32
    ```
  }];
}

#endif // GPUCG_TRANSFORMS_PASSES_TD
