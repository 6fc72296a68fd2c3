// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpucg-simt-fallback))' --mlir-print-local-scope | FileCheck %s

/// A WarpReduction kernel becomes SimtDistribute on the same workgroup: one
/// row per thread, the reduction not distributed.
// CHECK-LABEL: func.func @warp_reduction
// CHECK-SAME: #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [1024, 1, 1]>
// CHECK: tile_sizes = {{\[}}[1, 4096], [1, 0]]
func.func @warp_reduction(%a: memref<1x4096xf32>, %c: memref<1xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [1024, 1, 1], subgroup_size = 32>} {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%a : memref<1x4096xf32>) outs(%c : memref<1xf32>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 4096], [0, 4]]>} {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  }
  return
}

// -----

/// A tensor-core kernel (per-warp level 1, an instruction level) becomes one
/// element of C per thread; the K tile stays.
// CHECK-LABEL: func.func @tensor_core
// CHECK-SAME: #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [64, 2, 1]>
// CHECK: tile_sizes = {{\[}}[32, 32, 16], [1, 1, 0]]
func.func @tensor_core(%a: memref<32x16xf16>, %b: memref<16x32xf16>, %c: memref<32x32xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = wmma>} {
  linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16], [16, 16, 0], [16, 16, 8]]>} ins(%a, %b : memref<32x16xf16>, memref<16x32xf16>) outs(%c : memref<32x32xf32>)
  return
}

// -----

/// Kernels already distributed over threads are left alone.
// CHECK-LABEL: func.func @negative_vectorize
// CHECK-SAME: pipeline = Vectorize
// CHECK: tile_sizes = {{\[}}[1, 512], [1, 4]]
func.func @negative_vectorize(%a: memref<1x512xf32>, %b: memref<1x512xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = Vectorize, workgroup_size = [128, 1, 1]>} {
  linalg.add {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 512], [1, 4]]>} ins(%a, %a : memref<1x512xf32>, memref<1x512xf32>) outs(%b : memref<1x512xf32>)
  return
}
