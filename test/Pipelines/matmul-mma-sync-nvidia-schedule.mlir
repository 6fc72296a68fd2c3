// The nvidia-tensorcore schedule (loads from workgroup memory one stage
// ahead of the MMAs) with a predicated epilogue, on the seed (depth 4).
// RUN: gpucg-opt %s --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80 schedule=nvidia-tensorcore epilogue-peeling=false})' \
// RUN:   | FileCheck %s

/// Not peeled: the K loop runs all 4 steps of 32; with loads one stage ahead
/// only depth - 2 = 2 groups stay in flight; the ldmatrix results of the
/// next step are carried into the loop.
// CHECK-LABEL: func.func @seed_f16
//       CHECK:   nvgpu.ldmatrix
//       CHECK:   scf.for {{.+}} = %c0 to %c128 step %c32 iter_args(
//       CHECK:     nvgpu.device_async_copy
//       CHECK:     nvgpu.device_async_create_group %{{.+}}
//       CHECK:     nvgpu.device_async_wait %{{.+}} {numGroups = 2 : i32}
//       CHECK:     gpu.barrier
//       CHECK:     nvgpu.ldmatrix
//       CHECK:     nvgpu.mma.sync
//       CHECK:     scf.yield
func.func @seed_f16(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}
