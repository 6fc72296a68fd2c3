// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(gpucg-matmul-tensorcore{chip=sm_80})' \
// RUN:   | FileCheck %s

/// The seed, 512x128 * 128x512 f16 -> f32, through the whole WMMA pipeline:
/// 64x64 workgroup tiles, 2x2 warps of 32x32 (2x2 WMMA 16x16x16 each), A, B
/// and C in one packed, padded workgroup buffer, the K loop (4 steps of 32)
/// software-pipelined over async copies.
// CHECK-LABEL: func.func @seed_f16
//  CHECK-SAME:   gpu.known_block_size = array<i32: 64, 2, 1>
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 8, 8, 1>
//       CHECK:   %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]]{{.+}} to memref<3x64x40xf16, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]]{{.+}} to memref<3x32x72xf16, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]]{{.+}} to memref<64x68xf32, #gpu.address_space<workgroup>>
//       CHECK:   scf.forall
//       CHECK:     gpu.subgroup_mma_load_matrix {{.+}} -> !gpu.mma_matrix<16x16xf32, "COp">
//       CHECK:     nvgpu.device_async_copy {{.+}} 8 {bypassL1}
//       CHECK:     nvgpu.device_async_create_group %{{.+}}
//       CHECK:     scf.for {{.+}} iter_args(
//       CHECK:       gpu.barrier
//       CHECK:       nvgpu.device_async_copy
//       CHECK:       nvgpu.device_async_create_group %{{.+}}
//       CHECK:       nvgpu.device_async_wait %{{.+}} {numGroups = 2 : i32}
//       CHECK:       gpu.barrier
//       CHECK:       gpu.subgroup_mma_load_matrix {{.+}} -> !gpu.mma_matrix<16x16xf16, "AOp">
//       CHECK:       gpu.subgroup_mma_compute
//       CHECK:     nvgpu.device_async_wait %{{.+}} {numGroups = 1 : i32}
//       CHECK:     nvgpu.device_async_wait %{{.+}} {numGroups = 0 : i32}
//       CHECK:     gpu.subgroup_mma_store_matrix
//       CHECK:   } {mapping = [#gpu.block<y>, #gpu.block<x>]}
//   CHECK-NOT:   linalg.matmul
func.func @seed_f16(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

/// f32 runs as TF32: WMMA m16n16k8 operands.
// CHECK-LABEL: func.func @matmul_f32
//       CHECK:   gpu.subgroup_mma_compute {{.+}} : !gpu.mma_matrix<16x8xf32, "AOp">, !gpu.mma_matrix<8x16xf32, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
func.func @matmul_f32(%a: tensor<256x64xf32>, %b: tensor<64x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<256x64xf32>, tensor<64x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

/// Unaligned (100x72x64): full tiles take the tensor-core path, partial ones
/// the remainder path with scalar linalg ops; both paths' buffers share the
/// packed buffer.
// CHECK-LABEL: func.func @unaligned_f16
//       CHECK:   scf.forall
//       CHECK:     scf.if
//       CHECK:       gpu.subgroup_mma_compute
//       CHECK:     } else {
//       CHECK:       linalg.matmul {{.+}} outs(%{{.+}} : memref<?x?xf32
func.func @unaligned_f16(%a: tensor<100x64xf16>, %b: tensor<64x72xf16>, %c: tensor<100x72xf32>) -> tensor<100x72xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<100x64xf16>, tensor<64x72xf16>) outs(%c : tensor<100x72xf32>) -> tensor<100x72xf32>
  return %0 : tensor<100x72xf32>
}

// -----

/// The pipeline says why it cannot use tensor cores.
func.func @bf16(%a: tensor<128x64xbf16>, %b: tensor<64x128xbf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  // expected-error @+1 {{cannot run on tensor cores, which this pipeline requires: MLIR 22 lowers no tensor-core operation of the requested family for bf16 operands (mma.sync: f16, i8; WMMA: f16, f32)}}
  %0 = linalg.matmul ins(%a, %b : tensor<128x64xbf16>, tensor<64x128xbf16>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %0 : tensor<128x128xf32>
}
