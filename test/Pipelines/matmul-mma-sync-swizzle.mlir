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

/// The seed: A and B in 32x32 f16 tiles (64-byte rows), four buffers each,
/// and the staged 32x32 f32 accumulator (128-byte rows). The swizzle's index
/// computations are hoisted, so each access is matched to the xori defining
/// its column: the async copies into A and B (one column for both: same
/// shape, same distribution), the ldmatrix from them, the 64-bit fragment
/// stores into the staged accumulator and its 128-bit reads for the
/// copy-out.
// CHECK-LABEL: func.func @seed_f16
//   CHECK-DAG:   nvgpu.device_async_copy %arg0[%{{.+}}], %[[A:[a-z0-9_]+]][%{{.+}}, %{{.+}}, %[[ACOPY:[a-z0-9_]+]]], 8 {bypassL1}
//   CHECK-DAG:   %[[A]] = memref.view {{.+}} to memref<4x32x32xf16, #gpu.address_space<workgroup>>
//   CHECK-DAG:   %[[ACOPY]] = arith.xori
//   CHECK-DAG:   nvgpu.device_async_copy %arg1[%{{.+}}], %[[B:[a-z0-9_]+]][%{{.+}}, %{{.+}}, %[[ACOPY]]], 8 {bypassL1}
//   CHECK-DAG:   %[[B]] = memref.view {{.+}} to memref<4x32x32xf16, #gpu.address_space<workgroup>>
//   CHECK-DAG:   nvgpu.ldmatrix %[[A]][%{{.+}}, %{{.+}}, %[[ALOAD:[a-z0-9_]+]]] {numTiles = 4 : i32, transpose = false}
//   CHECK-DAG:   %[[ALOAD]] = arith.xori
//   CHECK-DAG:   nvgpu.ldmatrix %[[B]][%{{.+}}, %{{.+}}, %[[BLOAD:[a-z0-9_]+]]] {numTiles = 2 : i32, transpose = true}
//   CHECK-DAG:   %[[BLOAD]] = arith.xori
//   CHECK-DAG:   %[[C:.+]] = memref.view {{.+}} to memref<32x32xf32, #gpu.address_space<workgroup>>
//   CHECK-DAG:   vector.store %{{.+}}, %[[C]][%{{.+}}, %[[CSTORE:[a-z0-9_]+]]] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<2xf32>
//   CHECK-DAG:   %[[CSTORE]] = arith.xori
//   CHECK-DAG:   vector.load %[[C]][%{{.+}}, %[[CLOAD:[a-z0-9_]+]]] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
//   CHECK-DAG:   %[[CLOAD]] = arith.xori
//   CHECK-DAG:   nvgpu.mma.sync
//       CHECK:   vector.transfer_write {{.+}} : vector<4xf32>, memref<512x512xf32>
// PADDED-LABEL: func.func @seed_f16
//   PADDED-DAG:   memref.view {{.+}} to memref<4x32x40xf16, #gpu.address_space<workgroup>>
//   PADDED-DAG:   memref.view {{.+}} to memref<32x36xf32, #gpu.address_space<workgroup>>
//   PADDED-NOT:   arith.xori
//       PADDED:   return
func.func @seed_f16(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

/// Unaligned shapes: the full-tile path's buffers are swizzled, and so are
/// the partial-tile path's (its own, zero-padded full-tile buffers, copied
/// with a source size), which runs the same MMA loop.
// CHECK-LABEL: func.func @unaligned_f16
//       CHECK:     scf.if
//   CHECK-DAG:       nvgpu.ldmatrix %{{.+}}[%{{.+}}, %{{.+}}, %[[ALOAD:[a-z0-9_]+]]] {numTiles = 4 : i32, transpose = false}
//   CHECK-DAG:       %[[ALOAD]] = arith.xori
//       CHECK:       nvgpu.mma.sync
//       CHECK:     } else {
//   CHECK-DAG:       nvgpu.ldmatrix %{{.+}}[%{{.+}}, %{{.+}}, %[[RLOAD:[a-z0-9_]+]]] {numTiles = 4 : i32, transpose = false}
//   CHECK-DAG:       %[[RLOAD]] = arith.xori
//       CHECK:       nvgpu.mma.sync
// PADDED-LABEL: func.func @unaligned_f16
//   PADDED-NOT:   arith.xori
//       PADDED:   return
func.func @unaligned_f16(%a: tensor<100x64xf16>, %b: tensor<64x72xf16>, %c: tensor<100x72xf32>) -> tensor<100x72xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<100x64xf16>, tensor<64x72xf16>) outs(%c : tensor<100x72xf32>) -> tensor<100x72xf32>
  return %0 : tensor<100x72xf32>
}
