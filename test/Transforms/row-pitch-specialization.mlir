// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-row-pitch-specialization))' \
// RUN:   | FileCheck %s
// The pass runs twice and changes nothing the second time.
// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-row-pitch-specialization))' \
// RUN:   | gpucg-opt -split-input-file --mlir-print-local-scope > %t.once
// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-row-pitch-specialization,gpucg-row-pitch-specialization))' \
// RUN:   | gpucg-opt -split-input-file --mlir-print-local-scope > %t.twice
// RUN: diff %t.once %t.twice

/// A dynamic f16 matmul: A's rows have the run-time pitch K, B's N. The
/// body is versioned on both being multiples of 8 elements (16 bytes); the
/// aligned copy reads A and B through reinterpret_casts whose pitches are
/// built as multiples of 8, the other copy is the body as it was. C is the
/// root's output, not an input: its pitch is not checked.
// CHECK-LABEL: func.func @dynamic_f16
//  CHECK-SAME:     (%[[A:.+]]: memref<?x?xf16>, %[[B:.+]]: memref<?x?xf16>, %[[C:.+]]: memref<?x?xf32>)
//       CHECK:   scf.forall
//       CHECK:     %{{.+}}, %{{.+}}, %{{.+}}:2, %[[ASTRIDES:.+]]:2 = memref.extract_strided_metadata %[[A]]
//       CHECK:     %[[AREM:.+]] = arith.remui %[[ASTRIDES]]#0, %[[C8:.+]] : index
//       CHECK:     %[[AOK:.+]] = arith.cmpi eq, %[[AREM]], %{{.+}} : index
//       CHECK:     %{{.+}}, %{{.+}}, %{{.+}}:2, %[[BSTRIDES:.+]]:2 = memref.extract_strided_metadata %[[B]]
//       CHECK:     %[[BREM:.+]] = arith.remui %[[BSTRIDES]]#0, %{{.+}} : index
//       CHECK:     %[[BOK:.+]] = arith.cmpi eq, %[[BREM]], %{{.+}} : index
//       CHECK:     %[[OK:.+]] = arith.andi %[[AOK]], %[[BOK]] : i1
//   CHECK-NOT:     extract_strided_metadata %[[C]]
//       CHECK:     scf.if %[[OK]] {
//       CHECK:       %[[APITCH:.+]] = affine.apply affine_map<()[s0] -> ((s0 floordiv 8) * 8)>()[%[[ASTRIDES]]#0]
//       CHECK:       %[[A8:.+]] = memref.reinterpret_cast %[[A]] to offset: [0], sizes: [%{{.+}}, %{{.+}}], strides: [%[[APITCH]], 1] : memref<?x?xf16> to memref<?x?xf16>
//       CHECK:       %[[BPITCH:.+]] = affine.apply affine_map<()[s0] -> ((s0 floordiv 8) * 8)>()[%[[BSTRIDES]]#0]
//       CHECK:       %[[B8:.+]] = memref.reinterpret_cast %[[B]] to offset: [0], sizes: [%{{.+}}, %{{.+}}], strides: [%[[BPITCH]], 1] : memref<?x?xf16> to memref<?x?xf16>
//       CHECK:       memref.subview %[[A8]]
//       CHECK:       memref.subview %[[B8]]
//       CHECK:       memref.subview %[[C]]
//       CHECK:       linalg.matmul {gpucg.lowering_config
//       CHECK:     } else {
//       CHECK:       memref.subview %[[A]]
//       CHECK:       memref.subview %[[B]]
//       CHECK:       linalg.matmul {gpucg.lowering_config
//       CHECK:     } {gpucg.row_pitch_specialization}
//       CHECK:   } {mapping = [#gpu.block<y>, #gpu.block<x>]}
func.func @dynamic_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf16>
  %k = memref.dim %a, %c1 : memref<?x?xf16>
  %n = memref.dim %b, %c1 : memref<?x?xf16>
  scf.forall (%i, %j) = (0, 0) to (%m, %n) step (64, 64) {
    %tm = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 64)>(%i)[%m]
    %tn = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 64)>(%j)[%n]
    %at = memref.subview %a[%i, 0] [%tm, %k] [1, 1] : memref<?x?xf16> to memref<?x?xf16, strided<[?, 1], offset: ?>>
    %bt = memref.subview %b[0, %j] [%k, %tn] [1, 1] : memref<?x?xf16> to memref<?x?xf16, strided<[?, 1], offset: ?>>
    %ct = memref.subview %c[%i, %j] [%tm, %tn] [1, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
    linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 32], [32, 32, 0], [16, 8, 16]]>}
      ins(%at, %bt : memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf16, strided<[?, 1], offset: ?>>)
      outs(%ct : memref<?x?xf32, strided<[?, 1], offset: ?>>)
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

// -----

/// Only A has a run-time pitch (a dynamic K; N static and a multiple of 8):
/// one check, one view. i8 rows take 16 elements to a 16-byte multiple.
// CHECK-LABEL: func.func @dynamic_k_i8
//  CHECK-SAME:     (%[[A:.+]]: memref<128x?xi8>, %[[B:.+]]: memref<?x256xi8>,
//       CHECK:     %{{.+}}, %{{.+}}, %{{.+}}:2, %[[STRIDES:.+]]:2 = memref.extract_strided_metadata %[[A]]
//       CHECK:     %[[REM:.+]] = arith.remui %[[STRIDES]]#0, %c16 : index
//       CHECK:     %[[OK:.+]] = arith.cmpi eq, %[[REM]], %{{.+}} : index
//       CHECK:     scf.if %[[OK]] {
//       CHECK:       %[[PITCH:.+]] = affine.apply affine_map<()[s0] -> ((s0 floordiv 16) * 16)>()[%[[STRIDES]]#0]
//       CHECK:       memref.reinterpret_cast %[[A]] to offset: [0], sizes: [128, %{{.+}}], strides: [%[[PITCH]], 1] : memref<128x?xi8> to memref<128x?xi8>
//   CHECK-NOT:       memref.reinterpret_cast %[[B]]
//       CHECK:     } else {
//       CHECK:     } {gpucg.row_pitch_specialization}
func.func @dynamic_k_i8(%a: memref<128x?xi8>, %b: memref<?x256xi8>, %c: memref<128x256xi32>) {
  %c1 = arith.constant 1 : index
  %k = memref.dim %a, %c1 : memref<128x?xi8>
  scf.forall (%i, %j) in (2, 4) {
    %io = affine.apply affine_map<(d0) -> (d0 * 64)>(%i)
    %jo = affine.apply affine_map<(d0) -> (d0 * 64)>(%j)
    %at = memref.subview %a[%io, 0] [64, %k] [1, 1] : memref<128x?xi8> to memref<64x?xi8, strided<[?, 1], offset: ?>>
    %bt = memref.subview %b[0, %jo] [%k, 64] [1, 1] : memref<?x256xi8> to memref<?x64xi8, strided<[256, 1], offset: ?>>
    %ct = memref.subview %c[%io, %jo] [64, 64] [1, 1] : memref<128x256xi32> to memref<64x64xi32, strided<[256, 1], offset: ?>>
    linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64], [32, 32, 0], [16, 8, 32]]>}
      ins(%at, %bt : memref<64x?xi8, strided<[?, 1], offset: ?>>, memref<?x64xi8, strided<[256, 1], offset: ?>>)
      outs(%ct : memref<64x64xi32, strided<[256, 1], offset: ?>>)
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

// -----

/// A strided argument with a run-time offset (a view the caller passes):
/// the offset is checked beside the pitch and kept as it is in the view.
/// f32 rows: 4 elements to 16 bytes.
// CHECK-LABEL: func.func @dynamic_offset_f32
//       CHECK:     %{{.+}}, %[[OFFSET:.+]], %{{.+}}:2, %[[STRIDES:.+]]:2 = memref.extract_strided_metadata %arg0
//       CHECK:     arith.remui %[[STRIDES]]#0, %c4 : index
//       CHECK:     arith.remui %[[OFFSET]], %c4 : index
//       CHECK:     scf.if
//       CHECK:       memref.reinterpret_cast %arg0 to offset: [%[[OFFSET]]], sizes: [64, 64], strides: [%{{.+}}, 1] : memref<64x64xf32, strided<[?, 1], offset: ?>> to memref<64x64xf32, strided<[?, 1], offset: ?>>
func.func @dynamic_offset_f32(%a: memref<64x64xf32, strided<[?, 1], offset: ?>>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  scf.forall (%i) in (1) {
    linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 32], [32, 32, 0], [16, 16, 8]]>}
      ins(%a, %b : memref<64x64xf32, strided<[?, 1], offset: ?>>, memref<64x64xf32>)
      outs(%c : memref<64x64xf32>)
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

/// Left alone: static pitches; a static pitch that misaligns rows whatever
/// the run-time sizes (33 f16 inside a run-time outer stride); a root
/// without a lowering_config; f64 rows (8 bytes: two to a 16-byte
/// multiple, so f64 is checked) are checked but complex<f64> (16 bytes)
/// is not.
// CHECK-LABEL: func.func @static_pitches
//   CHECK-NOT:   row_pitch_specialization
func.func @static_pitches(%a: memref<64x40xf16>, %b: memref<40x64xf16>, %c: memref<64x64xf32>) {
  scf.forall (%i) in (1) {
    linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 32], [32, 32, 0], [16, 8, 16]]>}
      ins(%a, %b : memref<64x40xf16>, memref<40x64xf16>)
      outs(%c : memref<64x64xf32>)
  } {mapping = [#gpu.block<x>]}
  return
}

// CHECK-LABEL: func.func @misaligned_anyway
//   CHECK-NOT:   row_pitch_specialization
func.func @misaligned_anyway(%a: memref<?x?x33xf16>, %b: memref<?x33x64xf16>, %c: memref<?x?x64xf32>) {
  scf.forall (%i) in (1) {
    linalg.batch_matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 64, 64, 32], [1, 32, 32, 0], [1, 16, 8, 16]]>}
      ins(%a, %b : memref<?x?x33xf16>, memref<?x33x64xf16>)
      outs(%c : memref<?x?x64xf32>)
  } {mapping = [#gpu.block<x>]}
  return
}

/// Pitches that are products of static sizes already known to be 16-byte
/// multiples (attention's Q and K, [batch, heads, tokens, 128] f16: pitches
/// 128 * tokens and 128) need no check.
// CHECK-LABEL: func.func @known_multiples
//   CHECK-NOT:   row_pitch_specialization
func.func @known_multiples(%q: memref<?x32x?x128xf16>, %k: memref<?x32x?x128xf16>, %c: memref<?x32x?x?xf32>) {
  scf.forall (%i) in (1) {
    linalg.generic {indexing_maps = [affine_map<(b, h, m, n, k) -> (b, h, m, k)>, affine_map<(b, h, m, n, k) -> (b, h, n, k)>, affine_map<(b, h, m, n, k) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : memref<?x32x?x128xf16>, memref<?x32x?x128xf16>) outs(%c : memref<?x32x?x?xf32>)
      attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 1, 64, 64, 32]]>} {
    ^bb0(%x: f16, %y: f16, %o: f32):
      %xf = arith.extf %x : f16 to f32
      %yf = arith.extf %y : f16 to f32
      %p = arith.mulf %xf, %yf : f32
      %s = arith.addf %o, %p : f32
      linalg.yield %s : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// CHECK-LABEL: func.func @no_root
//   CHECK-NOT:   row_pitch_specialization
func.func @no_root(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  scf.forall (%i) in (1) {
    linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
      outs(%c : memref<?x?xf32>)
  } {mapping = [#gpu.block<x>]}
  return
}

// CHECK-LABEL: func.func @wide_elements
//       CHECK:   arith.remui %{{.+}}, %c2 : index
//       CHECK:   memref.reinterpret_cast %arg0
//   CHECK-NOT:   memref.reinterpret_cast %arg1
//       CHECK:   } {gpucg.row_pitch_specialization}
func.func @wide_elements(%a: memref<?x?xf64>, %b: memref<?x?xcomplex<f64>>, %c: memref<?x?xf64>) {
  scf.forall (%i) in (1) {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<?x?xf64>, memref<?x?xcomplex<f64>>) outs(%c : memref<?x?xf64>)
      attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64]]>} {
    ^bb0(%x: f64, %y: complex<f64>, %z: f64):
      %re = complex.re %y : complex<f64>
      %s = arith.addf %x, %re : f64
      linalg.yield %s : f64
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

/// A workgroup loop of a workgroup-specialized body: both branches are
/// copied into the aligned version, and the roots of both are found.
// CHECK-LABEL: func.func @after_workgroup_specialization
//       CHECK:   scf.if %{{.+}} {
//       CHECK:     memref.reinterpret_cast %arg0
//       CHECK:     scf.if %{{.+}} {
//       CHECK:       linalg.matmul
//       CHECK:     } else {
//       CHECK:       linalg.matmul
//       CHECK:     } {gpucg.workgroup_specialization}
//       CHECK:   } else {
//       CHECK:     scf.if %{{.+}} {
//       CHECK:     } {gpucg.workgroup_specialization}
//       CHECK:   } {gpucg.row_pitch_specialization}
func.func @after_workgroup_specialization(%a: memref<100x?xf16>, %b: memref<?x64xf16>, %c: memref<100x64xf32>) {
  %c1 = arith.constant 1 : index
  %k = memref.dim %a, %c1 : memref<100x?xf16>
  scf.forall (%i) = (0) to (100) step (64) {
    %tm = affine.min affine_map<(d0) -> (-d0 + 100, 64)>(%i)
    %c64 = arith.constant 64 : index
    %full = arith.cmpi eq, %tm, %c64 : index
    scf.if %full {
      %at = memref.subview %a[%i, 0] [64, %k] [1, 1] : memref<100x?xf16> to memref<64x?xf16, strided<[?, 1], offset: ?>>
      %ct = memref.subview %c[%i, 0] [64, 64] [1, 1] : memref<100x64xf32> to memref<64x64xf32, strided<[64, 1], offset: ?>>
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 32], [32, 32, 0], [16, 8, 16]]>}
        ins(%at, %b : memref<64x?xf16, strided<[?, 1], offset: ?>>, memref<?x64xf16>)
        outs(%ct : memref<64x64xf32, strided<[64, 1], offset: ?>>)
    } else {
      %at = memref.subview %a[%i, 0] [%tm, %k] [1, 1] : memref<100x?xf16> to memref<?x?xf16, strided<[?, 1], offset: ?>>
      %ct = memref.subview %c[%i, 0] [%tm, 64] [1, 1] : memref<100x64xf32> to memref<?x64xf32, strided<[64, 1], offset: ?>>
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 32], [32, 32, 0], [16, 8, 16]]>}
        ins(%at, %b : memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x64xf16>)
        outs(%ct : memref<?x64xf32, strided<[64, 1], offset: ?>>)
    } {gpucg.workgroup_specialization}
  } {mapping = [#gpu.block<x>]}
  return
}
