// mma.sync kernels avoid bank conflicts by swizzling the A and B buffers
// (gpucg-vector-to-gpu), not by padding them: with padding=0 every async
// copy into them and every ldmatrix from them indexes the column through an
// arith.xori; with padding, the padded buffers are left unswizzled.
// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80 padding=0})' \
// RUN:   | gpucg-opt -split-input-file --mlir-print-local-scope | FileCheck %s
// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80 padding=128})' \
// RUN:   | gpucg-opt -split-input-file --mlir-print-local-scope | FileCheck %s --check-prefix=PADDED

/// The seed: A in 64x32 f16 tiles (64-byte rows), B in 32x64 f16 tiles
/// (128-byte rows), three buffers each. The swizzle's index computations
/// are hoisted, so each access is matched to the xori defining its column.
// CHECK-LABEL: func.func @seed_f16
//   CHECK-DAG:   %[[A:.+]] = memref.view {{.+}} to memref<3x64x32xf16, #gpu.address_space<workgroup>>
//   CHECK-DAG:   %[[B:.+]] = memref.view {{.+}} to memref<3x32x64xf16, #gpu.address_space<workgroup>>
//   CHECK-DAG:   nvgpu.device_async_copy %{{.+}}, %[[A]][%{{.+}}, %{{.+}}, %[[ACOPY:[a-z0-9_]+]]], 8 {bypassL1}
//   CHECK-DAG:   %[[ACOPY]] = arith.xori
//   CHECK-DAG:   nvgpu.device_async_copy %{{.+}}, %[[B]][%{{.+}}, %{{.+}}, %[[BCOPY:[a-z0-9_]+]]], 8 {bypassL1}
//   CHECK-DAG:   %[[BCOPY]] = arith.xori
//   CHECK-DAG:   nvgpu.ldmatrix %[[A]][%{{.+}}, %{{.+}}, %[[ALOAD:[a-z0-9_]+]]] {numTiles = 4 : i32, transpose = false}
//   CHECK-DAG:   %[[ALOAD]] = arith.xori
//   CHECK-DAG:   nvgpu.ldmatrix %[[B]][%{{.+}}, %{{.+}}, %[[BLOAD:[a-z0-9_]+]]] {numTiles = 2 : i32, transpose = true}
//   CHECK-DAG:   %[[BLOAD]] = arith.xori
//       CHECK:   nvgpu.mma.sync
// PADDED-LABEL: func.func @seed_f16
//   PADDED-DAG:   memref.view {{.+}} to memref<3x64x40xf16, #gpu.address_space<workgroup>>
//   PADDED-DAG:   memref.view {{.+}} to memref<3x32x72xf16, #gpu.address_space<workgroup>>
//   PADDED-NOT:   arith.xori
//       PADDED:   return
func.func @seed_f16(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

/// Unaligned shapes: the full-tile path's buffers are swizzled; the
/// remainder path (scalar linalg ops on views) keeps its buffers as they
/// are, and its views do not stop the swizzle of the others.
// CHECK-LABEL: func.func @unaligned_f16
//       CHECK:     scf.if
//   CHECK-DAG:       nvgpu.ldmatrix %{{.+}}[%{{.+}}, %{{.+}}, %[[ALOAD:[a-z0-9_]+]]] {numTiles = 4 : i32, transpose = false}
//   CHECK-DAG:       %[[ALOAD]] = arith.xori
//       CHECK:       nvgpu.mma.sync
//       CHECK:     } else {
//       CHECK:       linalg.matmul
// PADDED-LABEL: func.func @unaligned_f16
//   PADDED-NOT:   arith.xori
//       PADDED:   return
func.func @unaligned_f16(%a: tensor<100x64xf16>, %b: tensor<64x72xf16>, %c: tensor<100x72xf32>) -> tensor<100x72xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<100x64xf16>, tensor<64x72xf16>) outs(%c : tensor<100x72xf32>) -> tensor<100x72xf32>
  return %0 : tensor<100x72xf32>
}
