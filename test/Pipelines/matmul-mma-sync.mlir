// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80})' \
// RUN:   | FileCheck %s

/// The seed through the mma.sync pipeline: ldmatrix from padded, swizzled
/// workgroup memory, m16n8k16 mma.sync on register accumulators, the K loop
/// pipelined over async copies.
// CHECK-LABEL: func.func @seed_f16
//       CHECK:   memref.alloc() {alignment = 16 : i64} : memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>>
//       CHECK:   scf.forall
//       CHECK:     scf.for {{.+}} iter_args(
//       CHECK:       nvgpu.device_async_copy
//       CHECK:       nvgpu.device_async_create_group %{{.+}}
//       CHECK:       nvgpu.device_async_wait %{{.+}} {numGroups = 2 : i32}
//       CHECK:       nvgpu.ldmatrix {{.+}} {numTiles = 4 : i32, transpose = false}
//       CHECK:       nvgpu.ldmatrix {{.+}} transpose = true
//       CHECK:       nvgpu.mma.sync({{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
//       CHECK:       scf.yield
//       CHECK:   } {mapping = [#gpu.block<y>, #gpu.block<x>]}
func.func @seed_f16(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

/// Unaligned shapes: mma.sync on the full tiles, scalar remainder.
// CHECK-LABEL: func.func @unaligned_f16
//       CHECK:     scf.if
//       CHECK:       nvgpu.mma.sync
//       CHECK:     } else {
//       CHECK:       linalg.matmul
func.func @unaligned_f16(%a: tensor<100x64xf16>, %b: tensor<64x72xf16>, %c: tensor<100x72xf32>) -> tensor<100x72xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<100x64xf16>, tensor<64x72xf16>) outs(%c : tensor<100x72xf32>) -> tensor<100x72xf32>
  return %0 : tensor<100x72xf32>
}

// -----

/// The pipeline says why it cannot use tensor cores.
func.func @matmul_f32(%a: tensor<256x64xf32>, %b: tensor<64x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  // expected-error @+1 {{cannot run on tensor cores, which this pipeline requires: MLIR 22 lowers no tensor-core operation of the requested family for f32 operands (mma.sync: f16, i8; WMMA: f16, f32)}}
  %0 = linalg.matmul ins(%a, %b : tensor<256x64xf32>, tensor<64x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
