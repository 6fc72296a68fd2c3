// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(gpucg-matmul-tensorcore{chip=sm_80})' \
// RUN:   | FileCheck %s

/// The seed, 512x128 * 128x512 f16 -> f32, through the whole WMMA pipeline:
/// 32x32 workgroup tiles, 2x2 warps of 16x16 (one WMMA 16x16x16 each), A, B
/// and the staged C in one packed, padded workgroup buffer (C in the bytes
/// of A and B, dead by the time it is written), the K loop (4 steps of 32)
/// software-pipelined over async copies at depth 4, so wholly peeled. C is
/// read once, straight into the accumulator; after a barrier the result goes
/// through the staging buffer to 128-bit global stores.
// CHECK-LABEL: func.func @seed_f16
//  CHECK-SAME:   gpu.known_block_size = array<i32: 64, 2, 1>
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 16, 16, 1>
//       CHECK:   %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<20480xi8, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c0][] {{.+}} to memref<4x32x40xf16, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c10240][] {{.+}} to memref<4x32x40xf16, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c0][] {{.+}} to memref<32x36xf32, #gpu.address_space<workgroup>>
//       CHECK:   scf.forall
//       CHECK:     gpu.subgroup_mma_load_matrix %arg2[{{.+}}] {leadDimension = 512 : index} : memref<512x512xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
//       CHECK:     nvgpu.device_async_copy {{.+}} 8 {bypassL1}
//       CHECK:     nvgpu.device_async_create_group %{{.+}}
//       CHECK:     nvgpu.device_async_wait %{{.+}} {numGroups = 3 : i32}
//       CHECK:     gpu.barrier
//       CHECK:     gpu.subgroup_mma_load_matrix {{.+}} -> !gpu.mma_matrix<16x16xf16, "AOp">
//       CHECK:     gpu.subgroup_mma_compute
//       CHECK:     nvgpu.device_async_wait %{{.+}} {numGroups = 0 : i32}
//       CHECK:     gpu.subgroup_mma_compute
//       CHECK:     gpu.barrier
//  CHECK-NEXT:     gpu.subgroup_mma_store_matrix {{.+}} #gpu.address_space<workgroup>>
//  CHECK-NEXT:     gpu.barrier
//       CHECK:     vector.transfer_read {{.+}}#gpu.address_space<workgroup>>, vector<4xf32>
//       CHECK:     vector.transfer_write {{.+}} : vector<4xf32>, memref<4xf32
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

/// Unaligned (100x72x64): full and partial tiles both take the WMMA path,
/// a partial tile on zero-padded full-tile buffers (copied with a source
/// size) and storing C only inside the matrix; no scalar linalg op is left.
// CHECK-LABEL: func.func @unaligned_f16
//       CHECK:   scf.forall
//       CHECK:     scf.if
//       CHECK:       gpu.subgroup_mma_compute
//       CHECK:     } else {
//       CHECK:       nvgpu.device_async_copy {{.+}}, 8, %{{.+}} {bypassL1}
//       CHECK:       gpu.subgroup_mma_compute
//       CHECK:       vector.transfer_write %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true]} : vector<4xf32>, memref<?x?xf32
//   CHECK-NOT:       linalg.
//       CHECK:     } {gpucg.workgroup_specialization}
func.func @unaligned_f16(%a: tensor<100x64xf16>, %b: tensor<64x72xf16>, %c: tensor<100x72xf32>) -> tensor<100x72xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<100x64xf16>, tensor<64x72xf16>) outs(%c : tensor<100x72xf32>) -> tensor<100x72xf32>
  return %0 : tensor<100x72xf32>
}

// -----

/// The pipeline says why it cannot use tensor cores.
func.func @bf16(%a: tensor<128x64xbf16>, %b: tensor<64x128xbf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  // expected-error @+1 {{cannot run on tensor cores, which this pipeline requires: gpucg lowers no tensor-core operation of the requested family for bf16 operands (mma.sync: f16, bf16, i8; WMMA: f16, f32)}}
  %0 = linalg.matmul ins(%a, %b : tensor<128x64xbf16>, tensor<64x128xbf16>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %0 : tensor<128x128xf32>
}
