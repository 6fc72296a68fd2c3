//===- Passes.td - gpucg pipeline passes -------------------*- tablegen -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_PIPELINES_PASSES_TD
#define GPUCG_PIPELINES_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerWorkgroup : Pass<"gpucg-lower-workgroup", "func::FuncOp"> {
  let summary = "Run each kernel's in-workgroup pipeline, chosen by its "
                "translation_info";
  let description = [{
    gpucg's counterpart of IREE's `LowerExecutableTarget`: on a bufferized,
    workgroup-tiled kernel, reads the `gpucg.translation_info` and runs the
    in-workgroup stages of that pipeline: for `MatmulTensorCore` and
    `MatmulTensorCoreMmaSync`, specialization, warp distribution,
    multi-buffering, vectorization, copy distribution, bank conflicts,
    vector-to-GPU, software pipelining, packing; for `Vectorize` and
    `MatmulSimt`, the stages of `gpucg-vectorize`
    (`buildVectorizeWorkgroupPipeline`: thread distribution, each thread's
    tile as vectors, accumulators in registers); for `WarpReduction`, the
    stages of `gpucg-warp-reduction` (`buildWarpReductionWorkgroupPipeline`:
    each row over the workgroup's threads, combined with
    `gpu.subgroup_reduce`); for `SimtDistribute`, the SIMT stages
    (`buildSimtWorkgroupPipeline`: thread distribution, loops). Functions
    without a
    `translation_info` are left alone; pipeline `None` is an error.
  }];
  let options = [
    Option<"padding", "padding", "int64_t", "-1",
           "Bank-conflict padding bits (negative: the MMA family's default)">
  ];
}

#endif // GPUCG_PIPELINES_PASSES_TD
