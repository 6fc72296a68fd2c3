// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-tile-and-distribute{distribute-to-warp=false}))' \
// RUN:   | FileCheck %s --check-prefix=THREAD

// Thread distribution (SIMT pipelines); see tile-and-distribute.mlir for
// warps.

/// The SIMT matmul: tile [32, 128, 32] on a 32x8 workgroup, 4x4 outputs per
/// thread. A and B go through workgroup memory (256 threads share them), the
/// accumulator does not (each thread owns its outputs).
// THREAD-LABEL: func.func @simt_matmul
//   THREAD-DAG:   memref.alloc() : memref<32x128xf32, #gpu.address_space<workgroup>>
//   THREAD-DAG:   memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
//   THREAD-NOT:   memref.alloc() : memref<32x128xf32, #gpu.address_space<workgroup>>
//       THREAD:   scf.forall
//   THREAD-NOT:     linalg.copy
//       THREAD:     scf.for %{{.+}} = %c0 to %c64 step %c32 {
//       THREAD:       gpu.barrier
//  THREAD-NEXT:       linalg.copy
//  THREAD-NEXT:       gpu.barrier
//  THREAD-NEXT:       linalg.copy
//  THREAD-NEXT:       gpu.barrier
//   THREAD-DAG:       %[[TY:.+]] = gpu.thread_id y upper_bound 8
//   THREAD-DAG:       %[[TX:.+]] = gpu.thread_id x upper_bound 32
//   THREAD-DAG:       %[[ROW:.+]] = affine.apply affine_map<()[s0] -> (s0 * 4)>()[%[[TY]]]
//   THREAD-DAG:       %[[COL:.+]] = affine.apply affine_map<()[s0] -> (s0 * 4)>()[%[[TX]]]
//       THREAD:       %[[C_T:.+]] = memref.subview %{{.+}}[%[[ROW]], %[[COL]]] [4, 4] [1, 1] : memref<32x128xf32, strided<[256, 1], offset: ?>>
//       THREAD:       linalg.matmul {{.+}} ins(%{{.+}}, %{{.+}} : memref<4x32xf32, {{.+}}, #gpu.address_space<workgroup>>, memref<32x4xf32, {{.+}}, #gpu.address_space<workgroup>>) outs(%[[C_T]]
//       THREAD:     }
//  THREAD-NEXT:   } {mapping
module {
  func.func @simt_matmul(%arg0: memref<64x64xf32>, %arg1: memref<64x256xf32>, %arg2: memref<64x256xf32>) -> memref<64x256xf32> attributes {gpu.known_block_size = array<i32: 32, 8, 1>, gpu.known_grid_size = array<i32: 2, 2, 1>, gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulSimt, workgroup_size = [32, 8, 1]>} {
    scf.forall (%arg3, %arg4) = (0, 0) to (64, 256) step (32, 128) {
      %subview = memref.subview %arg0[%arg3, 0] [32, 64] [1, 1] : memref<64x64xf32> to memref<32x64xf32, strided<[64, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %arg4] [64, 128] [1, 1] : memref<64x256xf32> to memref<64x128xf32, strided<[256, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [32, 128] [1, 1] : memref<64x256xf32> to memref<32x128xf32, strided<[256, 1], offset: ?>>
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 128, 32], [4, 4, 0]]>} ins(%subview, %subview_0 : memref<32x64xf32, strided<[64, 1], offset: ?>>, memref<64x128xf32, strided<[256, 1], offset: ?>>) outs(%subview_1 : memref<32x128xf32, strided<[256, 1], offset: ?>>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<64x256xf32>
  }
}

// -----

/// An elementwise op (Vectorize): each of 128 threads owns 4 consecutive
/// elements of the 1x512 tile; nothing is promoted.
// THREAD-LABEL: func.func @elementwise_threads
//       THREAD:   %[[TX:.+]] = gpu.thread_id x upper_bound 128
//       THREAD:   %[[COL:.+]] = affine.apply affine_map<()[s0] -> (s0 * 4)>()[%[[TX]]]
//       THREAD:   memref.subview %{{.+}}[%{{.+}}, %[[COL]]] [1, 4] [1, 1]
//       THREAD:   linalg.add {{.+}} outs(%{{.+}} : memref<1x4xf32
//   THREAD-NOT:   scf.for
//   THREAD-NOT:   gpu.barrier
module {
  func.func @elementwise_threads(%arg0: memref<64x1024xf32>, %arg1: memref<64x1024xf32>, %arg2: memref<64x1024xf32>) -> memref<64x1024xf32> attributes {gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 2, 64, 1>, gpucg.translation_info = #gpucg.translation_info<pipeline = Vectorize, workgroup_size = [128, 1, 1]>} {
    scf.forall (%arg3, %arg4) = (0, 0) to (64, 1024) step (1, 512) {
      %subview = memref.subview %arg0[%arg3, %arg4] [1, 512] [1, 1] : memref<64x1024xf32> to memref<1x512xf32, strided<[1024, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[%arg3, %arg4] [1, 512] [1, 1] : memref<64x1024xf32> to memref<1x512xf32, strided<[1024, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [1, 512] [1, 1] : memref<64x1024xf32> to memref<1x512xf32, strided<[1024, 1], offset: ?>>
      linalg.add {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 512], [1, 4]]>} ins(%subview, %subview_0 : memref<1x512xf32, strided<[1024, 1], offset: ?>>, memref<1x512xf32, strided<[1024, 1], offset: ?>>) outs(%subview_1 : memref<1x512xf32, strided<[1024, 1], offset: ?>>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<64x1024xf32>
  }
}

// -----

/// A workgroup's tile of a [batch, heads, rows, columns] add: four loops,
/// the outer two of one iteration (the batch and head the workgroup owns).
/// The outermost is set aside (no thread dimension), so the other three
/// fit: the head on thread z (of 1), rows and columns on y and x.
// THREAD-LABEL: func.func @heads_tile
//   THREAD-DAG:   %[[TZ:.+]] = gpu.thread_id z upper_bound 1
//   THREAD-DAG:   %[[TY:.+]] = gpu.thread_id y upper_bound 2
//   THREAD-DAG:   %[[TX:.+]] = gpu.thread_id x upper_bound 8
//       THREAD:   memref.subview %{{.+}}[0, %[[TZ]], %[[TY]], %[[TX]]] [1, 1, 1, 1]
//       THREAD:   linalg.add
func.func @heads_tile(%a: memref<1x1x2x8xf32>, %b: memref<1x1x2x8xf32>, %c: memref<1x1x2x8xf32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [8, 2, 1]>} {
  linalg.add {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 1, 2, 8], [1, 1, 1, 1]]>}
    ins(%a, %b : memref<1x1x2x8xf32>, memref<1x1x2x8xf32>) outs(%c : memref<1x1x2x8xf32>)
  return
}
