// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-workgroup-specialization))' \
// RUN:   | FileCheck %s

/// The seed: 100000 rows in tiles of 256; every workgroup but the last has a
/// full tile. The full path runs on static 256x100 shapes, the remainder
/// path keeps the dynamic ones.
// CHECK-LABEL: func.func @row_sum
//       CHECK:   scf.forall (%[[I:.+]]) = (0) to (100000) step (256) {
//       CHECK:     %[[SIZE:.+]] = affine.min affine_map<(d0) -> (-d0 + 100000, 256)>(%[[I]])
//       CHECK:     %[[C256:.+]] = arith.constant 256 : index
//       CHECK:     %[[FULL:.+]] = arith.cmpi eq, %[[SIZE]], %[[C256]] : index
//       CHECK:     scf.if %[[FULL]] {
//       CHECK:       %[[IN:.+]] = memref.subview %{{.+}}[%[[I]], 0] [256, 100] [1, 1] : memref<100000x100xf32> to memref<256x100xf32, strided<[100, 1], offset: ?>>
//       CHECK:       %[[OUT:.+]] = memref.subview %{{.+}}[%[[I]]] [256] [1] : memref<100000xf32> to memref<256xf32, strided<[1], offset: ?>>
//       CHECK:       linalg.generic {{.+}} ins(%[[IN]] : memref<256x100xf32, {{.+}}>) outs(%[[OUT]] : memref<256xf32, {{.+}}>)
//       CHECK:     } else {
//       CHECK:       %[[DYN:.+]] = affine.min affine_map<(d0) -> (-d0 + 100000, 256)>(%[[I]])
//       CHECK:       memref.subview %{{.+}}[%[[I]], 0] [%[[DYN]], 100] [1, 1] : memref<100000x100xf32> to memref<?x100xf32, strided<[100, 1], offset: ?>>
//       CHECK:       linalg.generic {{.+}} ins(%{{.+}} : memref<?x100xf32, {{.+}}>)
//       CHECK:     }
//       CHECK:   } {mapping = [#gpu.block<x>]}
func.func @row_sum(%in: memref<100000x100xf32>, %out: memref<100000xf32>) {
  scf.forall (%i) = (0) to (100000) step (256) {
    %size = affine.min affine_map<(d0) -> (-d0 + 100000, 256)>(%i)
    %a = memref.subview %in[%i, 0] [%size, 100] [1, 1] : memref<100000x100xf32> to memref<?x100xf32, strided<[100, 1], offset: ?>>
    %o = memref.subview %out[%i] [%size] [1] : memref<100000xf32> to memref<?xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<?x100xf32, strided<[100, 1], offset: ?>>) outs(%o : memref<?xf32, strided<[1], offset: ?>>) {
    ^bb0(%x: f32, %acc: f32):
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

/// Two partial dimensions: the full tile needs both sizes at their maximum.
// CHECK-LABEL: func.func @matmul_two_partial_dims
//       CHECK:   scf.forall (%[[I:.+]], %[[J:.+]]) = (0, 0) to (37, 33) step (32, 32) {
//   CHECK-DAG:     %[[M:.+]] = affine.min affine_map<(d0) -> (-d0 + 37, 32)>(%[[I]])
//   CHECK-DAG:     %[[N:.+]] = affine.min affine_map<(d0) -> (-d0 + 33, 32)>(%[[J]])
//   CHECK-DAG:     %[[FULL_M:.+]] = arith.cmpi eq, %[[M]], %[[C32:.+]] : index
//   CHECK-DAG:     %[[FULL_N:.+]] = arith.cmpi eq, %[[N]], %[[C32]] : index
//       CHECK:     %[[FULL:.+]] = arith.andi
//       CHECK:     scf.if %[[FULL]] {
//       CHECK:       linalg.matmul ins(%{{.+}}, %{{.+}} : memref<32x16xf16, {{.+}}>, memref<16x32xf16, {{.+}}>) outs(%{{.+}} : memref<32x32xf32, {{.+}}>)
//       CHECK:     } else {
//       CHECK:       linalg.matmul ins(%{{.+}}, %{{.+}} : memref<?x16xf16, {{.+}}>, memref<16x?xf16, {{.+}}>) outs(%{{.+}} : memref<?x?xf32, {{.+}}>)
func.func @matmul_two_partial_dims(%a: memref<37x16xf16>, %b: memref<16x33xf16>, %c: memref<37x33xf32>) {
  scf.forall (%i, %j) = (0, 0) to (37, 33) step (32, 32) {
    %m = affine.min affine_map<(d0) -> (-d0 + 37, 32)>(%i)
    %n = affine.min affine_map<(d0) -> (-d0 + 33, 32)>(%j)
    %at = memref.subview %a[%i, 0] [%m, 16] [1, 1] : memref<37x16xf16> to memref<?x16xf16, strided<[16, 1], offset: ?>>
    %bt = memref.subview %b[0, %j] [16, %n] [1, 1] : memref<16x33xf16> to memref<16x?xf16, strided<[33, 1], offset: ?>>
    %ct = memref.subview %c[%i, %j] [%m, %n] [1, 1] : memref<37x33xf32> to memref<?x?xf32, strided<[33, 1], offset: ?>>
    linalg.matmul ins(%at, %bt : memref<?x16xf16, strided<[16, 1], offset: ?>>, memref<16x?xf16, strided<[33, 1], offset: ?>>)
                  outs(%ct : memref<?x?xf32, strided<[33, 1], offset: ?>>)
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

// -----

/// Dynamic problem sizes work the same way: the min has a symbol operand
/// defined outside the loop.
// CHECK-LABEL: func.func @dynamic_rows
//       CHECK:   scf.forall
//       CHECK:     scf.if
//       CHECK:       memref.subview {{.+}} [128] [1] : memref<?xf32> to memref<128xf32, strided<[1], offset: ?>>
//       CHECK:     } else {
//       CHECK:       memref.subview {{.+}} : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
func.func @dynamic_rows(%in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %in, %c0 : memref<?xf32>
  scf.forall (%i) = (0) to (%n) step (128) {
    %size = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 128)>(%i)[%n]
    %a = memref.subview %in[%i] [%size] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
    %o = memref.subview %out[%i] [%size] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
    linalg.copy ins(%a : memref<?xf32, strided<[1], offset: ?>>) outs(%o : memref<?xf32, strided<[1], offset: ?>>)
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

/// Tiles that always divide: no affine.min, nothing to specialize.
// CHECK-LABEL: func.func @negative_aligned
//   CHECK-NOT:   scf.if
func.func @negative_aligned(%in: memref<512xf32>, %out: memref<512xf32>) {
  scf.forall (%i) = (0) to (512) step (128) {
    %a = memref.subview %in[%i] [128] [1] : memref<512xf32> to memref<128xf32, strided<[1], offset: ?>>
    %o = memref.subview %out[%i] [128] [1] : memref<512xf32> to memref<128xf32, strided<[1], offset: ?>>
    linalg.copy ins(%a : memref<128xf32, strided<[1], offset: ?>>) outs(%o : memref<128xf32, strided<[1], offset: ?>>)
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

/// Only workgroup loops are specialized: a forall mapped to threads is not.
// CHECK-LABEL: func.func @negative_thread_forall
//   CHECK-NOT:   scf.if
func.func @negative_thread_forall(%in: memref<100xf32>, %out: memref<100xf32>) {
  scf.forall (%i) = (0) to (100) step (32) {
    %size = affine.min affine_map<(d0) -> (-d0 + 100, 32)>(%i)
    %a = memref.subview %in[%i] [%size] [1] : memref<100xf32> to memref<?xf32, strided<[1], offset: ?>>
    %o = memref.subview %out[%i] [%size] [1] : memref<100xf32> to memref<?xf32, strided<[1], offset: ?>>
    linalg.copy ins(%a : memref<?xf32, strided<[1], offset: ?>>) outs(%o : memref<?xf32, strided<[1], offset: ?>>)
  } {mapping = [#gpu.thread<x>]}
  return
}

// -----

/// A min computed from a value defined inside the body cannot be hoisted
/// into the condition: left alone.
// CHECK-LABEL: func.func @negative_min_of_body_value
//   CHECK-NOT:   scf.if
func.func @negative_min_of_body_value(%in: memref<100xf32>, %out: memref<100xf32>) {
  scf.forall (%i) = (0) to (100) step (32) {
    %j = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
    %size = affine.min affine_map<(d0) -> (-d0 + 101, 32)>(%j)
    %a = memref.subview %in[%i] [%size] [1] : memref<100xf32> to memref<?xf32, strided<[1], offset: ?>>
    %o = memref.subview %out[%i] [%size] [1] : memref<100xf32> to memref<?xf32, strided<[1], offset: ?>>
    linalg.copy ins(%a : memref<?xf32, strided<[1], offset: ?>>) outs(%o : memref<?xf32, strided<[1], offset: ?>>)
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

/// Before bufferization (a forall with tensor results) the pass does nothing.
// CHECK-LABEL: func.func @negative_tensor_forall
//   CHECK-NOT:   scf.if
func.func @negative_tensor_forall(%in: tensor<100xf32>, %out: tensor<100xf32>) -> tensor<100xf32> {
  %r = scf.forall (%i) = (0) to (100) step (32) shared_outs(%o = %out) -> (tensor<100xf32>) {
    %size = affine.min affine_map<(d0) -> (-d0 + 100, 32)>(%i)
    %a = tensor.extract_slice %in[%i] [%size] [1] : tensor<100xf32> to tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %a into %o[%i] [%size] [1] : tensor<?xf32> into tensor<100xf32>
    }
  } {mapping = [#gpu.block<x>]}
  return %r : tensor<100xf32>
}
