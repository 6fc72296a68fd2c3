// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80})' \
// RUN:   | gpucg-opt -split-input-file --mlir-print-local-scope | FileCheck %s

/// The seed through the mma.sync pipeline: C read once, straight into the
/// mma.sync accumulators (64-bit loads, each a whole 32-byte sector);
/// ldmatrix from swizzled workgroup memory, m16n8k16 mma.sync on register
/// accumulators, the K loop (4 steps of 32) pipelined over async copies at
/// depth 4, so wholly peeled; after a barrier the accumulators go through
/// the staging buffer (in the bytes of A and B) to 128-bit global stores.
// CHECK-LABEL: func.func @seed_f16
//       CHECK:   %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<16384xi8, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c0][] {{.+}} to memref<4x32x32xf16, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c8192][] {{.+}} to memref<4x32x32xf16, #gpu.address_space<workgroup>>
//   CHECK-DAG:   %[[C_SMEM:.+]] = memref.view %[[BUF]][%c0][] {{.+}} to memref<32x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   scf.forall
//       CHECK:     vector.load %arg2[%{{.+}}, %{{.+}}] : memref<512x512xf32>, vector<2xf32>
//       CHECK:     nvgpu.device_async_copy
//       CHECK:     nvgpu.device_async_create_group %{{.+}}
//       CHECK:     nvgpu.device_async_wait %{{.+}} {numGroups = 3 : i32}
//       CHECK:     nvgpu.ldmatrix {{.+}} {numTiles = 4 : i32, transpose = false}
//       CHECK:     nvgpu.ldmatrix {{.+}} transpose = true
//       CHECK:     nvgpu.mma.sync({{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
//       CHECK:     nvgpu.device_async_wait %{{.+}} {numGroups = 0 : i32}
//       CHECK:     nvgpu.mma.sync
//       CHECK:     gpu.barrier
//   CHECK-NOT:     %arg2[
//       CHECK:     vector.store %{{.+}}, %[[C_SMEM]][%{{.+}}, %{{.+}}] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<2xf32>
//       CHECK:     gpu.barrier
//       CHECK:     %[[ROW:.+]] = vector.load %[[C_SMEM]][%{{.+}}, %{{.+}}] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
//       CHECK:     vector.transfer_write %[[ROW]], %arg2[%{{.+}}, %{{.+}}] {in_bounds = [true]} : vector<4xf32>, memref<512x512xf32>
//       CHECK:   } {mapping = [#gpu.block<y>, #gpu.block<x>]}
func.func @seed_f16(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

/// Unaligned shapes: mma.sync on the full tiles and on the partial ones,
/// whose operands are copied with a source size (zero-filled past the
/// matrix) and whose C is stored where it lies inside the matrix (a masked
/// store on the edge); no linalg op is left.
// CHECK-LABEL: func.func @unaligned_f16
//       CHECK:     scf.if
//       CHECK:       nvgpu.mma.sync
//       CHECK:     } else {
//       CHECK:       nvgpu.device_async_copy {{.+}}, 8, %{{.+}} {bypassL1}
//       CHECK:       nvgpu.mma.sync
//       CHECK:       scf.if
//       CHECK:         vector.transfer_write %{{.+}}, %arg2[%{{.+}}, %{{.+}}] {in_bounds = [true]}
//       CHECK:       } else {
//       CHECK:         vector.transfer_write %{{.+}}, %arg2[%{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true]}
//   CHECK-NOT:     linalg.
//       CHECK:   } {mapping
func.func @unaligned_f16(%a: tensor<100x64xf16>, %b: tensor<64x72xf16>, %c: tensor<100x72xf32>) -> tensor<100x72xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<100x64xf16>, tensor<64x72xf16>) outs(%c : tensor<100x72xf32>) -> tensor<100x72xf32>
  return %0 : tensor<100x72xf32>
}

// -----

/// The pipeline says why it cannot use tensor cores.
func.func @matmul_f32(%a: tensor<256x64xf32>, %b: tensor<64x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  // expected-error @+1 {{cannot run on tensor cores, which this pipeline requires: gpucg lowers no tensor-core operation of the requested family for f32 operands (mma.sync: f16, bf16, i8; WMMA: f16, f32)}}
  %0 = linalg.matmul ins(%a, %b : tensor<256x64xf32>, tensor<64x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

/// The 4096^3 f16 -> f32 matmul with C produced by a fill, at the strategy's
/// choice for it on sm_80 (128x128x32 tiles on 2x2 warps of 64x64, depth
/// 4), pinned. The accumulators start as zero fragments in registers; C is
/// never read or filled in memory, only written, once, in 128-bit rows by
/// the copy-out. The staged C (64 KiB) is packed into the bytes of the four
/// A and B buffers (4 x 16 KiB), dead once the K loop is done: 65536 bytes
/// in all, against 131072 with a staging buffer of its own.
// CHECK-LABEL: func.func @matmul_4096_filled
//   CHECK-DAG:   %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<2x2xf32>
//   CHECK-DAG:   %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<65536xi8, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c0][] {{.+}} to memref<4x32x128xf16, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c32768][] {{.+}} to memref<4x128x32xf16, #gpu.address_space<workgroup>>
//   CHECK-DAG:   %[[C_SMEM:.+]] = memref.view %[[BUF]][%c0][] {{.+}} to memref<128x128xf32, #gpu.address_space<workgroup>>
//       CHECK:   scf.forall
//   CHECK-NOT:     %arg2[
//       CHECK:     scf.for {{.+}} iter_args(%{{.+}} = %[[ZERO]], %{{.+}} = %[[ZERO]],
//   CHECK-NOT:     %arg2[
//       CHECK:     nvgpu.device_async_wait %{{.+}} {numGroups = 0 : i32}
//   CHECK-NOT:     %arg2[
//       CHECK:     gpu.barrier
//   CHECK-NOT:     %arg2[
//       CHECK:     vector.store %{{.+}}, %[[C_SMEM]]{{.+}}, vector<2xf32>
//   CHECK-NOT:     %arg2[
//       CHECK:     gpu.barrier
//       CHECK:     scf.for
//       CHECK:       %[[ROW:.+]] = vector.load %[[C_SMEM]][%{{.+}}, %{{.+}}] : memref<128x128xf32, #gpu.address_space<workgroup>>, vector<4xf32>
//       CHECK:       vector.transfer_write %[[ROW]], %arg2[%{{.+}}, %{{.+}}] {in_bounds = [true]} : vector<4xf32>, memref<4096x4096xf32>
//       CHECK:   } {mapping = [#gpu.block<y>, #gpu.block<x>]}
func.func @matmul_4096_filled(%a: tensor<4096x4096xf16>, %b: tensor<4096x4096xf16>, %c: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 32]]>,
      translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], pipeline_depth = 4>>}
    ins(%a, %b : tensor<4096x4096xf16>, tensor<4096x4096xf16>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}

// -----

/// bf16 x bf16 -> f32: ldmatrix and mma.sync on bf16 fragments, from zero
/// accumulators.
// CHECK-LABEL: func.func @matmul_bf16
//       CHECK:   scf.forall
//       CHECK:     nvgpu.device_async_copy {{.+}} : memref<1024x1024xbf16> to memref<{{.+}}xbf16, #gpu.address_space<workgroup>>
//       CHECK:     scf.for {{.+}} iter_args(%{{.+}} = %[[ZERO:[a-z0-9_]+]],
//       CHECK:       nvgpu.ldmatrix {{.+}} -> vector<4x2xbf16>
//       CHECK:       nvgpu.mma.sync({{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
//   CHECK-NOT:   vector<4x2xf16>
func.func @matmul_bf16(%a: tensor<1024x1024xbf16>, %b: tensor<1024x1024xbf16>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<1024x1024xbf16>, tensor<1024x1024xbf16>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

// -----

/// A batch matmul: each workgroup takes one batch's tile (z over batches);
/// the same mma.sync kernel inside, C staged in the bytes of A and B.
// CHECK-LABEL: func.func @batch_matmul_f16
//       CHECK:   memref.view %{{.+}}[%c0][] {{.+}} to memref<1x{{[0-9]+}}x{{[0-9]+}}xf32, #gpu.address_space<workgroup>>
//       CHECK:   scf.forall ({{.+}}) = (0, 0, 0) to (4, 512, 512)
//       CHECK:     nvgpu.device_async_copy
//       CHECK:     scf.for {{.+}} iter_args(
//       CHECK:       nvgpu.ldmatrix
//       CHECK:       nvgpu.mma.sync({{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
//       CHECK:     vector.transfer_write {{.+}} : vector<4xf32>, memref<4x512x512xf32>
//       CHECK:   } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
func.func @batch_matmul_f16(%a: tensor<4x512x256xf16>, %b: tensor<4x256x512xf16>, %c: tensor<4x512x512xf32>) -> tensor<4x512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<4x512x512xf32>) -> tensor<4x512x512xf32>
  %0 = linalg.batch_matmul ins(%a, %b : tensor<4x512x256xf16>, tensor<4x256x512xf16>) outs(%f : tensor<4x512x512xf32>) -> tensor<4x512x512xf32>
  return %0 : tensor<4x512x512xf32>
}

// -----

/// B transposed through indexing_maps (an N x K buffer): B's rows are K,
/// which is what mma.sync takes, so its ldmatrix does not transpose.
// CHECK-LABEL: func.func @matmul_transpose_b_f16
//       CHECK:   scf.for
//   CHECK-DAG:     nvgpu.ldmatrix {{.+}} {numTiles = 4 : i32, transpose = false} {{.+}} -> vector<4x2xf16>
//   CHECK-DAG:     nvgpu.ldmatrix {{.+}} transpose = false} {{.+}} -> vector<2x2xf16>
//       CHECK:     nvgpu.mma.sync
//   CHECK-NOT:   transpose = true
func.func @matmul_transpose_b_f16(%a: tensor<1024x1024xf16>, %b: tensor<1024x1024xf16>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : tensor<1024x1024xf16>, tensor<1024x1024xf16>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

// -----

/// bf16 with B transposed.
// CHECK-LABEL: func.func @matmul_transpose_b_bf16
//       CHECK:   scf.for
//       CHECK:     nvgpu.mma.sync({{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
func.func @matmul_transpose_b_bf16(%a: tensor<1024x1024xbf16>, %b: tensor<1024x1024xbf16>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : tensor<1024x1024xbf16>, tensor<1024x1024xbf16>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

// -----

/// A generic contraction with B indexed (n, k) and an f16 accumulator (the
/// pipeline refused it before generic contractions' broadcast reads were
/// folded into the contraction): f16 mma.sync fragments all the way.
// CHECK-LABEL: func.func @generic_transpose_b_f16_acc
//       CHECK:   nvgpu.mma.sync({{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
//   CHECK-NOT:   vector.contract
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @generic_transpose_b_f16_acc(%a: tensor<64x32xf16>, %b: tensor<64x32xf16>, %c: tensor<64x64xf16>) -> tensor<64x64xf16> {
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<64x32xf16>, tensor<64x32xf16>) outs(%c : tensor<64x64xf16>) {
    ^bb0(%x: f16, %y: f16, %acc: f16):
      %p = arith.mulf %x, %y : f16
      %s = arith.addf %acc, %p : f16
      linalg.yield %s : f16
    } -> tensor<64x64xf16>
    return %r : tensor<64x64xf16>
  }
}
