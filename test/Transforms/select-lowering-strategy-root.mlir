// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy))' \
// RUN:   | FileCheck %s

/// A user's compilation_info wins: it becomes the function's translation_info
/// and the root's lowering_config, completed with the warp tile (16x16 for
/// 2x2 warps) and the WMMA instruction (16x16x16).
// CHECK-LABEL: func.func @user_config_wins
//  CHECK-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], pipeline_depth = 2>
//       CHECK:   linalg.matmul
//  CHECK-SAME:     gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[32, 32, 16], [16, 16, 0], [16, 16, 16]]>
//   CHECK-NOT:     gpucg.compilation_info
func.func @user_config_wins(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>,
      translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

/// The op with reduction loops is the root, not its producer (fill) or its
/// elementwise consumers (bias add, ReLU).
// CHECK-LABEL: func.func @matmul_bias_relu
//       CHECK:   linalg.fill
//   CHECK-NOT:     gpucg.lowering_config
//       CHECK:   linalg.matmul
//  CHECK-SAME:     gpucg.lowering_config
//       CHECK:   linalg.generic
//   CHECK-NOT:     gpucg.lowering_config
//       CHECK:   return
func.func @matmul_bias_relu(%a: tensor<128x64xf16>, %b: tensor<64x128xf16>, %bias: tensor<128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %m = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x128xf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
    ins(%m, %bias : tensor<128x128xf32>, tensor<128xf32>) outs(%e : tensor<128x128xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    %relu = arith.maximumf %s, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

/// Without reduction loops, the last op is the root.
// CHECK-LABEL: func.func @elementwise_chain
//       CHECK:   linalg.add
//   CHECK-NOT:     gpucg.lowering_config
//       CHECK:   linalg.mul
//  CHECK-SAME:     gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[1, 512], [1, 4]]>
func.func @elementwise_chain(%a: tensor<64x1024xf32>, %b: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %e = tensor.empty() : tensor<64x1024xf32>
  %0 = linalg.add ins(%a, %b : tensor<64x1024xf32>, tensor<64x1024xf32>) outs(%e : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %1 = linalg.mul ins(%0, %b : tensor<64x1024xf32>, tensor<64x1024xf32>) outs(%e : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  return %1 : tensor<64x1024xf32>
}

// -----

/// Kernels on memrefs get a strategy too.
// CHECK-LABEL: func.func @memref_matmul
//  CHECK-SAME:   pipeline = MatmulTensorCoreMmaSync
//       CHECK:   linalg.matmul
//  CHECK-SAME:     gpucg.lowering_config
func.func @memref_matmul(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

/// A generic contraction (A transposed through its indexing map) is a matmul;
/// f32 takes WMMA TF32 (16x16x8).
// CHECK-LABEL: func.func @generic_contraction
//  CHECK-SAME:   pipeline = MatmulTensorCore,
//       CHECK:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[32, 32, 16], [16, 16, 0], [16, 16, 8]]>
func.func @generic_contraction(%a: tensor<16x64xf32>, %b: tensor<16x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : tensor<16x64xf32>, tensor<16x64xf32>) outs(%c : tensor<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
