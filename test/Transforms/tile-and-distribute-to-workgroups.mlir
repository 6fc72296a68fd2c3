// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-tile-and-distribute-to-workgroups))' \
// RUN:   | FileCheck %s

/// The seed matmul: 32x32 workgroup tiles over a 16x16 grid; the fill is
/// fused into the tile; K stays whole at this level.
// CHECK-LABEL: func.func @matmul_fill
//  CHECK-SAME:   (%[[A:.+]]: tensor<512x128xf16>, %[[B:.+]]: tensor<128x512xf16>, %[[C:.+]]: tensor<512x512xf32>)
//  CHECK-SAME:   gpu.known_block_size = array<i32: 64, 2, 1>
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 16, 16, 1>
//       CHECK:   %[[R:.+]] = scf.forall (%[[I:.+]], %[[J:.+]]) = (0, 0) to (512, 512) step (32, 32) shared_outs(%[[O:.+]] = %[[C]])
//       CHECK:     %[[AT:.+]] = tensor.extract_slice %[[A]][%[[I]], 0] [32, 128] [1, 1]
//       CHECK:     %[[BT:.+]] = tensor.extract_slice %[[B]][0, %[[J]]] [128, 32] [1, 1]
//       CHECK:     %[[OT:.+]] = tensor.extract_slice %[[O]][%[[I]], %[[J]]] [32, 32] [1, 1]
//       CHECK:     %[[F:.+]] = linalg.fill {{.+}} outs(%[[OT]] : tensor<32x32xf32>)
//       CHECK:     %[[MM:.+]] = linalg.matmul
//  CHECK-SAME:       gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[32, 32, 16]]>
//  CHECK-SAME:       ins(%[[AT]], %[[BT]] : tensor<32x128xf16>, tensor<128x32xf16>) outs(%[[F]] : tensor<32x32xf32>)
//       CHECK:     scf.forall.in_parallel
//       CHECK:       tensor.parallel_insert_slice %[[MM]] into %[[O]][%[[I]], %[[J]]] [32, 32] [1, 1]
//       CHECK:   } {mapping = [#gpu.block<y>, #gpu.block<x>]}
//       CHECK:   return %[[R]]
func.func @matmul_fill(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>} {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  %0 = linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>}
    ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>) outs(%f : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

/// The elementwise consumer chain (bias add + ReLU, then a truncation) is
/// tiled with the root: the last consumer is the tiled op, the matmul and the
/// fill are fused into its tile, and nothing stays outside the forall.
// CHECK-LABEL: func.func @matmul_bias_relu_trunc
//       CHECK:   %[[R:.+]] = scf.forall (%[[I:.+]], %[[J:.+]]) = (0, 0) to (128, 256) step (64, 64)
//       CHECK:     linalg.fill {{.+}} -> tensor<64x64xf32>
//       CHECK:     %[[MM:.+]] = linalg.matmul {gpucg.lowering_config = {{.+}}} ins({{.+}} : tensor<64x64xf16>, tensor<64x64xf16>)
//       CHECK:     %[[BIAS:.+]] = linalg.generic {{.+}} ins(%[[MM]], %{{.+}} : tensor<64x64xf32>, tensor<64xf32>)
//       CHECK:     %[[T:.+]] = linalg.generic {{.+}} ins(%[[BIAS]] : tensor<64x64xf32>) outs(%{{.+}} : tensor<64x64xf16>)
//       CHECK:     tensor.parallel_insert_slice %[[T]]
//       CHECK:   } {mapping = [#gpu.block<y>, #gpu.block<x>]}
//   CHECK-NOT:   linalg.
//       CHECK:   return %[[R]]
func.func @matmul_bias_relu_trunc(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>, %bias: tensor<256xf32>) -> tensor<128x256xf16>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %e16 = tensor.empty() : tensor<128x256xf16>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %m = linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 32]]>}
    ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
    ins(%m, %bias : tensor<128x256xf32>, tensor<256xf32>) outs(%e : tensor<128x256xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    %relu = arith.maximumf %s, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<128x256xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
    ins(%r : tensor<128x256xf32>) outs(%e16 : tensor<128x256xf16>) {
  ^bb0(%x: f32, %out: f16):
    %h = arith.truncf %x : f32 to f16
    linalg.yield %h : f16
  } -> tensor<128x256xf16>
  return %t : tensor<128x256xf16>
}

// -----

/// Batch matmul: three tiled loops map to z (batch), y (M) and x (N).
// CHECK-LABEL: func.func @batch_matmul
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 8, 4, 3>
//       CHECK:   scf.forall ({{.+}}) = (0, 0, 0) to (3, 128, 256) step (1, 32, 32)
//       CHECK:     linalg.batch_matmul {{.+}} -> tensor<1x32x32xf32>
//       CHECK:   } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
func.func @batch_matmul(%a: tensor<3x128x64xf16>, %b: tensor<3x64x256xf16>, %c: tensor<3x128x256xf32>) -> tensor<3x128x256xf32>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>} {
  %0 = linalg.batch_matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 32, 32, 32]]>}
    ins(%a, %b : tensor<3x128x64xf16>, tensor<3x64x256xf16>) outs(%c : tensor<3x128x256xf32>) -> tensor<3x128x256xf32>
  return %0 : tensor<3x128x256xf32>
}

// -----

/// Unaligned sizes: the grid rounds up (37 / 32 -> 2, 33 / 32 -> 2) and the
/// tile sizes become affine.min, which workgroup specialization consumes.
// CHECK-LABEL: func.func @matmul_unaligned
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 2, 2, 1>
//       CHECK:   scf.forall (%[[I:.+]], %[[J:.+]]) = (0, 0) to (37, 33) step (32, 32)
//   CHECK-DAG:     %[[M:.+]] = affine.min affine_map<(d0) -> (-d0 + 37, 32)>(%[[I]])
//   CHECK-DAG:     %[[N:.+]] = affine.min affine_map<(d0) -> (-d0 + 33, 32)>(%[[J]])
//       CHECK:     linalg.matmul {{.+}} -> tensor<?x?xf32>
func.func @matmul_unaligned(%a: tensor<37x16xf16>, %b: tensor<16x33xf16>, %c: tensor<37x33xf32>) -> tensor<37x33xf32>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>} {
  %0 = linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>}
    ins(%a, %b : tensor<37x16xf16>, tensor<16x33xf16>) outs(%c : tensor<37x33xf32>) -> tensor<37x33xf32>
  return %0 : tensor<37x33xf32>
}

// -----

/// Dynamic sizes: the grid depends on the arguments, so no known_grid_size;
/// the forall bounds are the tensor dims.
// CHECK-LABEL: func.func @dynamic_matmul
//  CHECK-SAME:   (%[[A:.+]]: tensor<?x?xf32>, %[[B:.+]]: tensor<?x?xf32>, %{{.+}}: tensor<?x?xf32>)
//  CHECK-SAME:   gpu.known_block_size = array<i32: 256, 1, 1>
//   CHECK-NOT:   gpu.known_grid_size
//   CHECK-DAG:   %[[M:.+]] = tensor.dim %[[A]], %c0
//   CHECK-DAG:   %[[N:.+]] = tensor.dim %[[B]], %c1
//       CHECK:   scf.forall ({{.+}}) = (0, 0) to (%[[M]], %[[N]]) step (1, 256)
//       CHECK:   } {mapping = [#gpu.block<y>, #gpu.block<x>]}
func.func @dynamic_matmul(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [256, 1, 1]>} {
  %0 = linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 256, 0], [1, 1, 0]]>}
    ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

/// A reduction: only the parallel loop is tiled (256 rows per workgroup).
// CHECK-LABEL: func.func @row_sum
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 391, 1, 1>
//       CHECK:   scf.forall (%[[I:.+]]) = (0) to (100000) step (256)
//       CHECK:     %[[S:.+]] = affine.min affine_map<(d0) -> (-d0 + 100000, 256)>(%[[I]])
//       CHECK:     tensor.extract_slice %{{.+}}[%[[I]], 0] [%[[S]], 100] [1, 1]
//       CHECK:     linalg.generic
//       CHECK:   } {mapping = [#gpu.block<x>]}
func.func @row_sum(%a: tensor<100000x100xf32>, %c: tensor<100000xf32>) -> tensor<100000xf32>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [256, 1, 1]>} {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%a : tensor<100000x100xf32>) outs(%c : tensor<100000xf32>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[256, 0], [1, 0]]>} {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<100000xf32>
  return %0 : tensor<100000xf32>
}

// -----

/// On memrefs the root is tiled in place; there is nothing to fuse.
// CHECK-LABEL: func.func @memref_matmul
//       CHECK:   scf.forall (%[[I:.+]], %[[J:.+]]) = (0, 0) to (64, 64) step (32, 32) {
//       CHECK:     %[[CT:.+]] = memref.subview %{{.+}}[%[[I]], %[[J]]] [32, 32] [1, 1]
//       CHECK:     linalg.matmul {{.+}} outs(%[[CT]]
//       CHECK:   } {mapping = [#gpu.block<y>, #gpu.block<x>]}
func.func @memref_matmul(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>} {
  linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>}
    ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

/// A tile that covers the whole op: one workgroup, no forall.
// CHECK-LABEL: func.func @untiled
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 1, 1, 1>
//   CHECK-NOT:   scf.forall
func.func @untiled(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [8, 1, 1]>} {
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.add {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[0]]>}
    ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

/// No translation_info: not a kernel gpucg has decided on; left alone.
// CHECK-LABEL: func.func @negative_no_translation_info
//   CHECK-NOT:   scf.forall
//   CHECK-NOT:   gpu.known
func.func @negative_no_translation_info(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %0 = linalg.add {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 64]]>}
    ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

/// Four tiled loops ([batch, heads, rows, columns]): the outer two share
/// grid z, linearized (2 x 3 = 6 workgroups), and each tile splits z's
/// index back into its batch and head with affine.delinearize_index; the
/// body is the tile of a 3-loop grid.
// CHECK-LABEL: func.func @four_grid_dims
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 2, 4, 6>
//       CHECK:   scf.forall (%[[Z:.+]], %[[R:.+]], %[[C:.+]]) = (0, 0, 0) to (6, 8, 8) step (1, 2, 4) shared_outs(%[[O:.+]] = %{{.+}})
//       CHECK:     %[[BH:.+]]:2 = affine.delinearize_index %[[Z]] into (2, 3)
//       CHECK:     tensor.extract_slice %{{.+}}[%[[BH]]#0, %[[BH]]#1, %[[R]], %[[C]]] [1, 1, 2, 4]
//       CHECK:     linalg.add
//       CHECK:     tensor.parallel_insert_slice %{{.+}} into %[[O]][%[[BH]]#0, %[[BH]]#1, %[[R]], %[[C]]] [1, 1, 2, 4]
//       CHECK:   } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
func.func @four_grid_dims(%a: tensor<2x3x8x8xf32>, %b: tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [4, 1, 1]>} {
  %e = tensor.empty() : tensor<2x3x8x8xf32>
  %0 = linalg.add {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 1, 2, 4]]>}
    ins(%a, %b : tensor<2x3x8x8xf32>, tensor<2x3x8x8xf32>) outs(%e : tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
  return %0 : tensor<2x3x8x8xf32>
}

// -----

/// A dynamic batch ([?, heads, rows, columns]): grid z is the batch times
/// the 3 heads, counted at run time (the ABI's `argN.dimD * 3`), and the
/// tile's batch is z's index over 3 (delinearize_index takes the dynamic
/// outer bound).
// CHECK-LABEL: func.func @four_grid_dims_dynamic_batch
//   CHECK-NOT:   gpu.known_grid_size
//       CHECK:   %[[B:.+]] = tensor.dim %{{.+}}, %c0
//       CHECK:   %[[Z:.+]] = affine.apply affine_map<()[s0] -> (s0 * 3)>()[%[[B]]]
//       CHECK:   scf.forall (%[[I:.+]], %[[R:.+]], %[[C:.+]]) = (0, 0, 0) to (%[[Z]], 8, 8) step (1, 2, 4)
//       CHECK:     %[[BH:.+]]:2 = affine.delinearize_index %[[I]] into (%[[B]], 3)
//       CHECK:     tensor.extract_slice %{{.+}}[%[[BH]]#0, %[[BH]]#1, %[[R]], %[[C]]] [1, 1, 2, 4]
//       CHECK:     linalg.add
//       CHECK:   } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
func.func @four_grid_dims_dynamic_batch(%a: tensor<?x3x8x8xf32>, %b: tensor<?x3x8x8xf32>, %e: tensor<?x3x8x8xf32>) -> tensor<?x3x8x8xf32>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [4, 1, 1]>} {
  %0 = linalg.add {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 1, 2, 4]]>}
    ins(%a, %b : tensor<?x3x8x8xf32>, tensor<?x3x8x8xf32>) outs(%e : tensor<?x3x8x8xf32>) -> tensor<?x3x8x8xf32>
  return %0 : tensor<?x3x8x8xf32>
}

// -----

/// Two dynamic loops of the three sharing grid z, one tiled by 2: z counts
/// the first's size times the second's in tiles of 2 times 3 (the ABI's
/// `argN.dimD * ceildiv argN.dimE 2 * 3`), and each tile's indices are
/// z's, delinearized by both counts.
// CHECK-LABEL: func.func @five_grid_dims_two_dynamic
//   CHECK-NOT:   gpu.known_grid_size
//   CHECK-DAG:   %[[B0:.+]] = tensor.dim %{{.+}}, %c0
//   CHECK-DAG:   %[[B1:.+]] = tensor.dim %{{.+}}, %c1
//   CHECK-DAG:   %[[T1:.+]] = affine.apply affine_map<()[s0] -> (s0 ceildiv 2)>()[%[[B1]]]
//       CHECK:   %[[Z:.+]] = affine.apply affine_map<()[s0, s1] -> ((s0 * (s1 ceildiv 2)) * 3)>()[%[[B0]], %[[B1]]]
//       CHECK:   scf.forall (%[[I:.+]], %[[R:.+]], %[[C:.+]]) = (0, 0, 0) to (%[[Z]], 8, 8) step (1, 2, 4)
//       CHECK:     %[[BH:.+]]:3 = affine.delinearize_index %[[I]] into (%[[B0]], %[[T1]], 3)
//       CHECK:     %[[H:.+]] = affine.apply affine_map<(d0) -> (d0 * 2)>(%[[BH]]#1)
//       CHECK:     tensor.extract_slice %{{.+}}[%[[BH]]#0, %[[H]], %[[BH]]#2, %[[R]], %[[C]]]
//       CHECK:     linalg.add
//       CHECK:   } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
func.func @five_grid_dims_two_dynamic(%a: tensor<?x?x3x8x8xf32>, %b: tensor<?x?x3x8x8xf32>, %e: tensor<?x?x3x8x8xf32>) -> tensor<?x?x3x8x8xf32>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [4, 1, 1]>} {
  %0 = linalg.add {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 2, 1, 2, 4]]>}
    ins(%a, %b : tensor<?x?x3x8x8xf32>, tensor<?x?x3x8x8xf32>) outs(%e : tensor<?x?x3x8x8xf32>) -> tensor<?x?x3x8x8xf32>
  return %0 : tensor<?x?x3x8x8xf32>
}
