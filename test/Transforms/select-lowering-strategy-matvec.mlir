// Matrix-vector products (a matmul with M = 1 or N = 1 whose operands both
// run along K, its innermost loop) are planned as WarpReduction: one
// workgroup per output element, the whole row of K products in 128-bit
// steps of a warp's threads. Others keep the matmul plans: B along N (nn),
// M = 2, rows shorter than a warp's 128-bit step, 64-bit accumulators
// (32-bit shuffles), and every plan asked for by an `mma` preference. On
// sm_90a a B[n, k] with M = 1 whose rows are too short for the reduction
// takes the transposed wgmma tile (M as wgmma's N) instead of MatmulSimt,
// and nn (B[k, n]) one padded 64-row wgmma tile (the matrix-vector product
// is bound by reading B; the padding costs tensor-core time).
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_90a},func.func(gpucg-select-lowering-strategy))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefixes=CHECK,SM90A
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefixes=CHECK,SM80
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy{mma=mma-sync}))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=MMA
// MMA-NOT: WarpReduction

// CHECK-LABEL: func.func @m1_nt_bf16
//  CHECK-SAME:   pipeline = WarpReduction, workgroup_size = [512, 1, 1]
//       CHECK:   tile_sizes = {{\[}}[1, 1, 4096], [0, 0, 8]]
// CHECK-LABEL: func.func @n1_nt_f16
//  CHECK-SAME:   pipeline = WarpReduction, workgroup_size = [512, 1, 1]
//       CHECK:   tile_sizes = {{\[}}[1, 1, 4096], [0, 0, 8]]
// 14336 / 4 = 3584 threads' worth of vectors: 896 threads, four steps each.
// CHECK-LABEL: func.func @m1_nt_f32
//  CHECK-SAME:   pipeline = WarpReduction, workgroup_size = [896, 1, 1]
//       CHECK:   tile_sizes = {{\[}}[1, 1, 14336], [0, 0, 4]]
// CHECK-LABEL: func.func @m1_nn_bf16
//  SM80-SAME:    pipeline = MatmulSimt
//  SM90A-SAME:   pipeline = MatmulWgmma, workgroup_size = [256, 1, 1]
//  SM90A:        tile_sizes = {{\[}}[64, 64, 64]]
// CHECK-LABEL: func.func @m2_nt_bf16
//   CHECK-NOT:   WarpReduction
//       CHECK:   return
// CHECK-LABEL: func.func @m1_nt_short
//  SM80-SAME:    pipeline = MatmulSimt
//  SM90A-SAME:   pipeline = MatmulWgmma, workgroup_size = [256, 1, 1]
//  SM90A:        tile_sizes = {{\[}}[8, 64, 64]]
// CHECK-LABEL: func.func @m1_nt_i8
//  CHECK-SAME:   pipeline = WarpReduction, workgroup_size = [256, 1, 1]
//       CHECK:   tile_sizes = {{\[}}[1, 1, 4096], [0, 0, 16]]
// CHECK-LABEL: func.func @batch_m1_nt
//  CHECK-SAME:   pipeline = WarpReduction, workgroup_size = [512, 1, 1]
//       CHECK:   tile_sizes = {{\[}}[1, 1, 1, 4096], [0, 0, 0, 8]]
// CHECK-LABEL: func.func @m1_nt_f64
//  CHECK-SAME:   pipeline = MatmulSimt

#nt = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
func.func @m1_nt_bf16(%a: tensor<1x4096xbf16>, %b: tensor<4096x4096xbf16>, %c: tensor<1x4096xf32>) -> tensor<1x4096xf32> {
  %0 = linalg.matmul indexing_maps = #nt ins(%a, %b : tensor<1x4096xbf16>, tensor<4096x4096xbf16>) outs(%c : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  return %0 : tensor<1x4096xf32>
}
func.func @n1_nt_f16(%a: tensor<8192x4096xf16>, %b: tensor<1x4096xf16>, %c: tensor<8192x1xf32>) -> tensor<8192x1xf32> {
  %0 = linalg.matmul indexing_maps = #nt ins(%a, %b : tensor<8192x4096xf16>, tensor<1x4096xf16>) outs(%c : tensor<8192x1xf32>) -> tensor<8192x1xf32>
  return %0 : tensor<8192x1xf32>
}
func.func @m1_nt_f32(%a: tensor<1x14336xf32>, %b: tensor<4096x14336xf32>, %c: tensor<1x4096xf32>) -> tensor<1x4096xf32> {
  %0 = linalg.matmul indexing_maps = #nt ins(%a, %b : tensor<1x14336xf32>, tensor<4096x14336xf32>) outs(%c : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  return %0 : tensor<1x4096xf32>
}
func.func @m1_nn_bf16(%a: tensor<1x4096xbf16>, %b: tensor<4096x4096xbf16>, %c: tensor<1x4096xf32>) -> tensor<1x4096xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<1x4096xbf16>, tensor<4096x4096xbf16>) outs(%c : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  return %0 : tensor<1x4096xf32>
}
func.func @m2_nt_bf16(%a: tensor<2x4096xbf16>, %b: tensor<4096x4096xbf16>, %c: tensor<2x4096xf32>) -> tensor<2x4096xf32> {
  %0 = linalg.matmul indexing_maps = #nt ins(%a, %b : tensor<2x4096xbf16>, tensor<4096x4096xbf16>) outs(%c : tensor<2x4096xf32>) -> tensor<2x4096xf32>
  return %0 : tensor<2x4096xf32>
}
func.func @m1_nt_short(%a: tensor<1x64xbf16>, %b: tensor<4096x64xbf16>, %c: tensor<1x4096xf32>) -> tensor<1x4096xf32> {
  %0 = linalg.matmul indexing_maps = #nt ins(%a, %b : tensor<1x64xbf16>, tensor<4096x64xbf16>) outs(%c : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  return %0 : tensor<1x4096xf32>
}
func.func @m1_nt_i8(%a: tensor<1x4096xi8>, %b: tensor<4096x4096xi8>, %c: tensor<1x4096xi32>) -> tensor<1x4096xi32> {
  %0 = linalg.matmul indexing_maps = #nt ins(%a, %b : tensor<1x4096xi8>, tensor<4096x4096xi8>) outs(%c : tensor<1x4096xi32>) -> tensor<1x4096xi32>
  return %0 : tensor<1x4096xi32>
}
func.func @batch_m1_nt(%a: tensor<4x1x4096xf16>, %b: tensor<4x1024x4096xf16>, %c: tensor<4x1x1024xf32>) -> tensor<4x1x1024xf32> {
  %0 = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%a, %b : tensor<4x1x4096xf16>, tensor<4x1024x4096xf16>) outs(%c : tensor<4x1x1024xf32>) -> tensor<4x1x1024xf32>
  return %0 : tensor<4x1x1024xf32>
}
func.func @m1_nt_f64(%a: tensor<1x4096xf64>, %b: tensor<256x4096xf64>, %c: tensor<1x256xf64>) -> tensor<1x256xf64> {
  %0 = linalg.matmul indexing_maps = #nt ins(%a, %b : tensor<1x4096xf64>, tensor<256x4096xf64>) outs(%c : tensor<1x256xf64>) -> tensor<1x256xf64>
  return %0 : tensor<1x256xf64>
}
