// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-tile-and-distribute{distribute-to-warp=true}))' \
// RUN:   | gpucg-opt -split-input-file --mlir-print-local-scope \
// RUN:   | FileCheck %s --check-prefix=WARP

// Warp distribution (tensor-core pipelines); thread distribution (SIMT
// pipelines) is in tile-and-distribute-threads.mlir, the errors in
// tile-and-distribute-invalid.mlir. Inputs are bufferized, workgroup-tiled
// (and specialized) kernels as the front half produces them.

/// The seed: 512x128 * 128x512 f16, tile [32, 32, 16], workgroup [64, 2, 1].
/// C (32x32) is staged in workgroup memory: each of the 2x2 warps copies its
/// own 16x16 part of C in (no barrier: no other warp reads it) and, after
/// the K loop (8 steps), the whole workgroup copies the tile out between
/// barriers. A (32x16) and B (16x32) are copied into workgroup memory each
/// step, between barriers; each warp computes one 16x16x16 matmul on its
/// part.
// WARP-LABEL: func.func @tensor_core_seed
//   WARP-DAG:   %[[B_SMEM:.+]] = memref.alloc() : memref<16x32xf16, #gpu.address_space<workgroup>>
//   WARP-DAG:   %[[A_SMEM:.+]] = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
//   WARP-DAG:   %[[C_SMEM:.+]] = memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
//       WARP:   scf.forall
//       WARP:     %[[C_TILE:.+]] = memref.subview %{{.+}} [32, 32] [1, 1]
//   WARP-DAG:     %[[TY:.+]] = gpu.thread_id y upper_bound 2
//   WARP-DAG:     %[[TX:.+]] = gpu.thread_id x upper_bound 64
//   WARP-DAG:     %[[ROW:.+]] = affine.apply affine_map<()[s0] -> (s0 * 16)>()[%[[TY]]]
//   WARP-DAG:     %[[COL:.+]] = affine.apply affine_map<()[s0] -> ((s0 floordiv 32) * 16)>()[%[[TX]]]
//   WARP-DAG:     %[[C_PART:.+]] = memref.subview %[[C_TILE]][%[[ROW]], %[[COL]]] [16, 16] [1, 1]
//   WARP-DAG:     %[[C_W:.+]] = memref.subview %[[C_SMEM]][%[[ROW]], %[[COL]]] [16, 16] [1, 1]
//   WARP-NOT:     gpu.barrier
//       WARP:     linalg.copy ins(%[[C_PART]] : {{.+}}) outs(%[[C_W]] : {{.+}})
//  WARP-NEXT:     scf.for %[[K:.+]] = %c0 to %c128 step %c16 {
//       WARP:       %[[A_K:.+]] = memref.subview %{{.+}}[0, %[[K]]] [32, 16] [1, 1]
//       WARP:       %[[B_K:.+]] = memref.subview %{{.+}}[%[[K]], 0] [16, 32] [1, 1]
//  WARP-NEXT:       gpu.barrier
//  WARP-NEXT:       linalg.copy ins(%[[A_K]] : {{.+}}) outs(%[[A_SMEM]] : {{.+}})
//  WARP-NEXT:       gpu.barrier
//  WARP-NEXT:       linalg.copy ins(%[[B_K]] : {{.+}}) outs(%[[B_SMEM]] : {{.+}})
//  WARP-NEXT:       gpu.barrier
//   WARP-DAG:       %[[A_W:.+]] = memref.subview %[[A_SMEM]][%[[ROW]], 0] [16, 16] [1, 1]
//   WARP-DAG:       %[[B_W:.+]] = memref.subview %[[B_SMEM]][0, %[[COL]]] [16, 16] [1, 1]
//       WARP:       linalg.matmul {{.+}} ins(%[[A_W]], %[[B_W]] : memref<16x16xf16, {{.+}}>, memref<16x16xf16, {{.+}}>) outs(%[[C_W]] : memref<16x16xf32, {{.+}}>)
//   WARP-NOT:       scf.for
//       WARP:     }
//  WARP-NEXT:     gpu.barrier
//  WARP-NEXT:     linalg.copy ins(%[[C_SMEM]] : {{.+}}) outs(%[[C_TILE]] : {{.+}})
//  WARP-NEXT:   } {mapping = [#gpu.block<y>, #gpu.block<x>]}
module {
  func.func @tensor_core_seed(%arg0: memref<512x128xf16>, %arg1: memref<128x512xf16>, %arg2: memref<512x512xf32>) -> memref<512x512xf32> attributes {gpu.known_block_size = array<i32: 64, 2, 1>, gpu.known_grid_size = array<i32: 16, 16, 1>, gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], pipeline_depth = 4>} {
    scf.forall (%arg3, %arg4) = (0, 0) to (512, 512) step (32, 32) {
      %subview = memref.subview %arg0[%arg3, 0] [32, 128] [1, 1] : memref<512x128xf16> to memref<32x128xf16, strided<[128, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %arg4] [128, 32] [1, 1] : memref<128x512xf16> to memref<128x32xf16, strided<[512, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [32, 32] [1, 1] : memref<512x512xf32> to memref<32x32xf32, strided<[512, 1], offset: ?>>
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16], [16, 16, 0], [16, 16, 16]]>} ins(%subview, %subview_0 : memref<32x128xf16, strided<[128, 1], offset: ?>>, memref<128x32xf16, strided<[512, 1], offset: ?>>) outs(%subview_1 : memref<32x32xf32, strided<[512, 1], offset: ?>>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<512x512xf32>
  }
}

// -----

/// A single-warp workgroup (32 threads) shares nothing: no promotion, no
/// copies, no barriers; the warp computes the whole 16x16 tile.
// WARP-LABEL: func.func @negative_single_warp
//   WARP-NOT:   #gpu.address_space<workgroup>
//   WARP-NOT:   gpu.barrier
//   WARP-NOT:   linalg.copy
//       WARP:   scf.for
//       WARP:     linalg.matmul {{.+}} outs(%{{.+}} : memref<16x16xf32
//       WARP:   return
module {
  func.func @negative_single_warp(%arg0: memref<64x64xf16>, %arg1: memref<64x64xf16>, %arg2: memref<64x64xf32>) -> memref<64x64xf32> attributes {gpu.known_block_size = array<i32: 32, 1, 1>, gpu.known_grid_size = array<i32: 4, 4, 1>, gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [32, 1, 1]>} {
    scf.forall (%arg3, %arg4) = (0, 0) to (64, 64) step (16, 16) {
      %subview = memref.subview %arg0[%arg3, 0] [16, 64] [1, 1] : memref<64x64xf16> to memref<16x64xf16, strided<[64, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %arg4] [64, 16] [1, 1] : memref<64x64xf16> to memref<64x16xf16, strided<[64, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [16, 16] [1, 1] : memref<64x64xf32> to memref<16x16xf32, strided<[64, 1], offset: ?>>
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[16, 16, 16], [16, 16, 0], [16, 16, 16]]>} ins(%subview, %subview_0 : memref<16x64xf16, strided<[64, 1], offset: ?>>, memref<64x16xf16, strided<[64, 1], offset: ?>>) outs(%subview_1 : memref<16x16xf32, strided<[64, 1], offset: ?>>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<64x64xf32>
  }
}

// -----

/// Both copies of a specialized tile are distributed the same way, over
/// warps, statically (the per-warp loops run once and are gone): the
/// remainder's A, B and C are promoted into full-tile buffers, each filled
/// with zeros right before its partial copy-in (after the barrier that ends
/// the buffer's previous use), and only the part inside C is copied out. C
/// is staged even though K = 32 is one step: the staging is for the wide
/// stores of the copy-out.
// WARP-LABEL: func.func @specialized_both_branches
//       WARP:   scf.if
//       WARP:     %[[C_PART:.+]] = memref.subview %{{.+}} [16, 16] [1, 1] : memref<32x32xf32, strided<[40, 1], offset: ?>> to memref<16x16xf32
//       WARP:     %[[C_W:.+]] = memref.subview %{{.+}} [16, 16] [1, 1] : memref<32x32xf32, #gpu.address_space<workgroup>> to memref<16x16xf32
//       WARP:     linalg.copy ins(%[[C_PART]] : {{.+}}) outs(%[[C_W]] : {{.+}})
//       WARP:     linalg.copy
//       WARP:     linalg.copy
//   WARP-NOT:     scf.for
//       WARP:     linalg.matmul {{.+}} outs(%[[C_W]] : memref<16x16xf32
//       WARP:     gpu.barrier
//  WARP-NEXT:     linalg.copy
//       WARP:   } else {
//       WARP:     %[[C_GLOBAL:.+]] = memref.subview %arg2[{{.+}}] : memref<48x40xf32> to memref<?x?xf32
//       WARP:     %[[C_PARTIAL:.+]] = memref.subview %[[C_FULL:[a-z_0-9]+]][0, 0] [{{.+}}] : memref<32x32xf32, #gpu.address_space<workgroup>> to memref<?x?xf32
//       WARP:     gpu.barrier
//  WARP-NEXT:     linalg.fill ins(%{{.+}} : f32) outs(%[[C_FULL]] : memref<32x32xf32, #gpu.address_space<workgroup>>)
//  WARP-NEXT:     linalg.copy ins(%[[C_GLOBAL]] : {{.+}}) outs(%[[C_PARTIAL]] : {{.+}})
//  WARP-NEXT:     gpu.barrier
//       WARP:     linalg.fill ins(%{{.+}} : f16) outs(%[[A_FULL:[a-z_0-9]+]] : memref<32x32xf16, #gpu.address_space<workgroup>>)
//  WARP-NEXT:     linalg.copy ins(%{{.+}} : memref<?x32xf16, {{.+}}) outs(%{{.+}} : memref<?x32xf16, {{.+}}#gpu.address_space<workgroup>>)
//  WARP-NEXT:     gpu.barrier
//  WARP-NEXT:     linalg.fill ins(%{{.+}} : f16) outs(%[[B_FULL:[a-z_0-9]+]] : memref<32x32xf16, #gpu.address_space<workgroup>>)
//  WARP-NEXT:     linalg.copy ins(%{{.+}} : memref<32x?xf16, {{.+}}) outs(%{{.+}} : memref<32x?xf16, {{.+}}#gpu.address_space<workgroup>>)
//  WARP-NEXT:     gpu.barrier
//   WARP-NOT:     scf.for
//       WARP:     linalg.matmul {{.+}} outs(%{{.+}} : memref<16x16xf32
//       WARP:     gpu.barrier
//  WARP-NEXT:     linalg.copy ins(%[[C_PARTIAL]] : {{.+}}) outs(%[[C_GLOBAL]] : {{.+}})
module {
  func.func @specialized_both_branches(%arg0: memref<48x32xf16>, %arg1: memref<32x40xf16>, %arg2: memref<48x40xf32>) -> memref<48x40xf32> attributes {gpu.known_block_size = array<i32: 64, 2, 1>, gpu.known_grid_size = array<i32: 2, 2, 1>, gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = mma_sync>} {
    scf.forall (%arg3, %arg4) = (0, 0) to (48, 40) step (32, 32) {
      %0 = affine.min affine_map<(d0) -> (-d0 + 48, 32)>(%arg3)
      %c32 = arith.constant 32 : index
      %1 = arith.cmpi eq, %0, %c32 : index
      %2 = affine.min affine_map<(d0) -> (-d0 + 40, 32)>(%arg4)
      %3 = arith.cmpi eq, %2, %c32 : index
      %4 = arith.andi %1, %3 : i1
      scf.if %4 {
        %subview = memref.subview %arg0[%arg3, 0] [32, 32] [1, 1] : memref<48x32xf16> to memref<32x32xf16, strided<[32, 1], offset: ?>>
        %subview_0 = memref.subview %arg1[0, %arg4] [32, 32] [1, 1] : memref<32x40xf16> to memref<32x32xf16, strided<[40, 1], offset: ?>>
        %subview_1 = memref.subview %arg2[%arg3, %arg4] [32, 32] [1, 1] : memref<48x40xf32> to memref<32x32xf32, strided<[40, 1], offset: ?>>
        linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 32], [16, 16, 0], [16, 8, 16]]>} ins(%subview, %subview_0 : memref<32x32xf16, strided<[32, 1], offset: ?>>, memref<32x32xf16, strided<[40, 1], offset: ?>>) outs(%subview_1 : memref<32x32xf32, strided<[40, 1], offset: ?>>)
      } else {
        %5 = affine.min affine_map<(d0) -> (-d0 + 48, 32)>(%arg3)
        %6 = affine.min affine_map<(d0) -> (-d0 + 40, 32)>(%arg4)
        %subview = memref.subview %arg0[%arg3, 0] [%5, 32] [1, 1] : memref<48x32xf16> to memref<?x32xf16, strided<[32, 1], offset: ?>>
        %subview_0 = memref.subview %arg1[0, %arg4] [32, %6] [1, 1] : memref<32x40xf16> to memref<32x?xf16, strided<[40, 1], offset: ?>>
        %subview_1 = memref.subview %arg2[%arg3, %arg4] [%5, %6] [1, 1] : memref<48x40xf32> to memref<?x?xf32, strided<[40, 1], offset: ?>>
        linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 32], [16, 16, 0], [16, 8, 16]]>} ins(%subview, %subview_0 : memref<?x32xf16, strided<[32, 1], offset: ?>>, memref<32x?xf16, strided<[40, 1], offset: ?>>) outs(%subview_1 : memref<?x?xf32, strided<[40, 1], offset: ?>>)
      }
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<48x40xf32>
  }
}

// -----

/// The other ops of the tile: the fill initializes each warp's part of the
/// accumulator (16x16 of the 2x2 warps), like the matmul's output. The
/// bias add (the epilogue) is spread over all 128 threads, laid out like a
/// workgroup copy after a barrier: 8 threads of 4 f32 per 32-wide row, 16
/// rows per round, each thread reading what other warps' fragments wrote.
/// Per warp, each of its 32 lanes would run the whole 16x16.
// WARP-LABEL: func.func @fill_matmul_bias
//   WARP-DAG:   %[[TY:.+]] = gpu.thread_id y upper_bound 2
//   WARP-DAG:   %[[TX:.+]] = gpu.thread_id x upper_bound 64
//   WARP-DAG:   %[[ROW:.+]] = affine.apply affine_map<()[s0] -> (s0 * 16)>()[%[[TY]]]
//   WARP-DAG:   %[[COL:.+]] = affine.apply affine_map<()[s0] -> ((s0 floordiv 32) * 16)>()[%[[TX]]]
//       WARP:   %[[ACC:.+]] = memref.subview %[[T:.+]][%[[ROW]], %[[COL]]] [16, 16] [1, 1]
//       WARP:   linalg.fill {{.+}} outs(%[[ACC]] : memref<16x16xf32
//       WARP:   scf.for
//       WARP:     linalg.matmul {{.+}} outs(%[[ACC]] :
//       WARP:   }
//  WARP-NEXT:   gpu.barrier
//       WARP:   %[[OUT:.+]] = memref.subview %{{.+}} [32, 32] [1, 1]
//       WARP:   %[[TZ:.+]] = gpu.thread_id z upper_bound 1
//       WARP:   %[[FIRST:.+]] = affine.apply affine_map<()[s0, s1, s2] -> (s1 * 8 + s2 * 16 + s0 floordiv 8)>()[%[[TX]], %[[TY]], %[[TZ]]]
//       WARP:   scf.for %[[I:.+]] = %[[FIRST]] to %{{.+}} step %c16 {
//       WARP:     %[[J:.+]] = affine.apply affine_map<()[s0] -> (s0 * 4 - (s0 floordiv 8) * 32)>()[%[[TX]]]
//       WARP:     %[[IN:.+]] = memref.subview %[[T]][%[[I]], %[[J]]] [1, 4] [1, 1]
//       WARP:     %[[BIAS:.+]] = memref.subview %{{.+}}[%[[J]]] [4] [1]
//       WARP:     %[[O:.+]] = memref.subview %[[OUT]][%[[I]], %[[J]]] [1, 4] [1, 1]
//       WARP:     linalg.generic {{.+}} ins(%[[IN]], %[[BIAS]] : memref<1x4xf32, {{.+}}>, memref<4xf32, {{.+}}>) outs(%[[O]] :
//   WARP-NOT:   linalg.generic
module {
  func.func @fill_matmul_bias(%arg0: memref<128x64xf16>, %arg1: memref<64x128xf16>, %arg2: memref<128xf32>, %arg3: memref<128x128xf32>) -> memref<128x128xf32> attributes {gpu.known_block_size = array<i32: 64, 2, 1>, gpu.known_grid_size = array<i32: 4, 4, 1>, gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1]>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg4, %arg5) = (0, 0) to (128, 128) step (32, 32) {
      %subview = memref.subview %arg0[%arg4, 0] [32, 64] [1, 1] : memref<128x64xf16> to memref<32x64xf16, strided<[64, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %arg5] [64, 32] [1, 1] : memref<64x128xf16> to memref<64x32xf16, strided<[128, 1], offset: ?>>
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<32x32xf32>
      linalg.fill ins(%cst : f32) outs(%alloc : memref<32x32xf32>)
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16], [16, 16, 0], [16, 8, 16]]>} ins(%subview, %subview_0 : memref<32x64xf16, strided<[64, 1], offset: ?>>, memref<64x32xf16, strided<[128, 1], offset: ?>>) outs(%alloc : memref<32x32xf32>)
      %subview_1 = memref.subview %arg2[%arg5] [32] [1] : memref<128xf32> to memref<32xf32, strided<[1], offset: ?>>
      %subview_2 = memref.subview %arg3[%arg4, %arg5] [32, 32] [1, 1] : memref<128x128xf32> to memref<32x32xf32, strided<[128, 1], offset: ?>>
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%alloc, %subview_1 : memref<32x32xf32>, memref<32xf32, strided<[1], offset: ?>>) outs(%subview_2 : memref<32x32xf32, strided<[128, 1], offset: ?>>) {
      ^bb0(%in: f32, %in_3: f32, %out: f32):
        %0 = arith.addf %in, %in_3 : f32
        linalg.yield %0 : f32
      }
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg3 : memref<128x128xf32>
  }
}

// -----

/// C produced by a fill (fused into the workgroup loop): each warp fills its
/// part of the staged accumulator instead. C is neither filled in global
/// memory nor read from it; it is only written, once, by the copy-out.
// WARP-LABEL: func.func @fill_staged_accumulator
//       WARP:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
//       WARP:   %[[C_SMEM:.+]] = memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
//       WARP:   scf.forall
//       WARP:     %[[C_TILE:.+]] = memref.subview %{{.+}} [32, 32] [1, 1] : memref<512x512xf32> to
//   WARP-NOT:     linalg.copy ins(%{{.+}} : memref<16x16xf32, strided<[512, 1], offset: ?>>)
//   WARP-NOT:     outs(%[[C_TILE]]
//       WARP:     %[[C_W:.+]] = memref.subview %[[C_SMEM]]
//   WARP-NOT:     gpu.barrier
//       WARP:     linalg.fill ins(%[[ZERO]] : f32) outs(%[[C_W]] : memref<16x16xf32, {{.+}}#gpu.address_space<workgroup>>)
//  WARP-NEXT:     scf.for
//       WARP:       linalg.matmul {{.+}} outs(%[[C_W]] :
//       WARP:     }
//  WARP-NEXT:     gpu.barrier
//  WARP-NEXT:     linalg.copy ins(%[[C_SMEM]] : {{.+}}) outs(%[[C_TILE]] : {{.+}})
//  WARP-NEXT:   } {mapping
module {
  func.func @fill_staged_accumulator(%arg0: memref<512x128xf16>, %arg1: memref<128x512xf16>, %arg2: memref<512x512xf32>) -> memref<512x512xf32> attributes {gpu.known_block_size = array<i32: 64, 2, 1>, gpu.known_grid_size = array<i32: 16, 16, 1>, gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = mma_sync>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4) = (0, 0) to (512, 512) step (32, 32) {
      %subview = memref.subview %arg0[%arg3, 0] [32, 128] [1, 1] : memref<512x128xf16> to memref<32x128xf16, strided<[128, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %arg4] [128, 32] [1, 1] : memref<128x512xf16> to memref<128x32xf16, strided<[512, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [32, 32] [1, 1] : memref<512x512xf32> to memref<32x32xf32, strided<[512, 1], offset: ?>>
      linalg.fill ins(%cst : f32) outs(%subview_1 : memref<32x32xf32, strided<[512, 1], offset: ?>>)
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 32], [16, 16, 0], [16, 8, 16]]>} ins(%subview, %subview_0 : memref<32x128xf16, strided<[128, 1], offset: ?>>, memref<128x32xf16, strided<[512, 1], offset: ?>>) outs(%subview_1 : memref<32x32xf32, strided<[512, 1], offset: ?>>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<512x512xf32>
  }
}

// -----

/// A fill whose value the matmul does not accumulate on (C is overwritten in
/// between) is not the accumulator's initial value: each warp still copies
/// its part of C in, after the fill and the copy (distributed the same way).
// WARP-LABEL: func.func @negative_fill_overwritten
//       WARP:   scf.forall
//       WARP:     %[[C_TILE:.+]] = memref.subview %{{.+}} [32, 32] [1, 1] : memref<512x512xf32> to
//       WARP:     %[[C_PART:.+]] = memref.subview %[[C_TILE]]
//       WARP:     linalg.fill {{.+}} outs(%[[C_PART]] :
//       WARP:     linalg.copy {{.+}} outs(%[[C_PART]] :
//       WARP:     %[[C_W:.+]] = memref.subview %{{.+}} : memref<32x32xf32, #gpu.address_space<workgroup>> to
//       WARP:     linalg.copy ins(%[[C_PART]] : {{.+}}) outs(%[[C_W]] :
//   WARP-NOT:     linalg.fill
//       WARP:     scf.for
module {
  func.func @negative_fill_overwritten(%arg0: memref<512x128xf16>, %arg1: memref<128x512xf16>, %arg2: memref<512x512xf32>, %d: memref<512x512xf32>) -> memref<512x512xf32> attributes {gpu.known_block_size = array<i32: 64, 2, 1>, gpu.known_grid_size = array<i32: 16, 16, 1>, gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = mma_sync>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4) = (0, 0) to (512, 512) step (32, 32) {
      %subview = memref.subview %arg0[%arg3, 0] [32, 128] [1, 1] : memref<512x128xf16> to memref<32x128xf16, strided<[128, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %arg4] [128, 32] [1, 1] : memref<128x512xf16> to memref<128x32xf16, strided<[512, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [32, 32] [1, 1] : memref<512x512xf32> to memref<32x32xf32, strided<[512, 1], offset: ?>>
      %subview_2 = memref.subview %d[%arg3, %arg4] [32, 32] [1, 1] : memref<512x512xf32> to memref<32x32xf32, strided<[512, 1], offset: ?>>
      linalg.fill ins(%cst : f32) outs(%subview_1 : memref<32x32xf32, strided<[512, 1], offset: ?>>)
      linalg.copy ins(%subview_2 : memref<32x32xf32, strided<[512, 1], offset: ?>>) outs(%subview_1 : memref<32x32xf32, strided<[512, 1], offset: ?>>)
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 32], [16, 16, 0], [16, 8, 16]]>} ins(%subview, %subview_0 : memref<32x128xf16, strided<[128, 1], offset: ?>>, memref<128x32xf16, strided<[512, 1], offset: ?>>) outs(%subview_1 : memref<32x32xf32, strided<[512, 1], offset: ?>>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<512x512xf32>
  }
}

// -----

/// A fused epilogue (bias + ReLU) reads the matmul's result from the
/// temporary bufferization allocated: the warps write their fragments
/// there and the epilogue, distributed differently, reads them back, so the
/// temporary moves into workgroup memory (a memref.alloc in a kernel would
/// be one device allocation per thread) and a barrier separates the two.
/// A partial tile's dynamic temporary becomes a view of a static one.
// WARP-LABEL: func.func @fused_epilogue
//       WARP:   scf.forall
//       WARP:     %[[T:.+]] = memref.alloc() {alignment = 64 : i64} : memref<32x32xf32, #gpu.address_space<workgroup>>
//   WARP-NOT:     memref.alloc
//       WARP:     linalg.matmul {{.+}} outs(%{{.+}} : memref<16x16xf32, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>)
//  WARP-NEXT:     gpu.barrier
//       WARP:     scf.for
//       WARP:       linalg.generic
//  WARP-SAME:         ins(%{{.+}}, %{{.+}} : memref<1x4xf32, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
//       WARP:   return
// WARP-LABEL: func.func @fused_epilogue_partial
//       WARP:   %[[S:.+]] = memref.alloc() {alignment = 64 : i64} : memref<32x32xf32, #gpu.address_space<workgroup>>
//       WARP:   memref.subview %[[S]][0, 0] [%{{.+}}, 32] [1, 1] : memref<32x32xf32, #gpu.address_space<workgroup>> to memref<?x32xf32, strided<[32, 1]>, #gpu.address_space<workgroup>>
//   WARP-NOT:   memref.alloc(
//       WARP:   gpu.barrier
//       WARP:   linalg.generic
module {
  func.func @fused_epilogue(%arg0: memref<32x16xf16>, %arg1: memref<16x32xf16>, %arg2: memref<32xf32>, %arg3: memref<32x32xf32>) -> memref<32x32xf32> attributes {gpu.known_block_size = array<i32: 64, 2, 1>, gpu.known_grid_size = array<i32: 1, 1, 1>, gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, mma_kind = mma_sync>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg4, %arg5) = (0, 0) to (32, 32) step (32, 32) {
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<32x32xf32>
      linalg.fill ins(%cst : f32) outs(%alloc : memref<32x32xf32>)
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16], [16, 16, 0], [16, 8, 16]]>} ins(%arg0, %arg1 : memref<32x16xf16>, memref<16x32xf16>) outs(%alloc : memref<32x32xf32>)
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%alloc, %arg2 : memref<32x32xf32>, memref<32xf32>) outs(%arg3 : memref<32x32xf32>) {
      ^bb0(%in: f32, %in_0: f32, %out: f32):
        %0 = arith.addf %in, %in_0 : f32
        %1 = arith.maximumf %0, %cst : f32
        linalg.yield %1 : f32
      }
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg3 : memref<32x32xf32>
  }
  func.func @fused_epilogue_partial(%arg0: memref<40x16xf16>, %arg1: memref<16x32xf16>, %arg2: memref<32xf32>, %arg3: memref<40x32xf32>) -> memref<40x32xf32> attributes {gpu.known_block_size = array<i32: 64, 2, 1>, gpu.known_grid_size = array<i32: 1, 2, 1>, gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, mma_kind = mma_sync>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg4, %arg5) = (0, 0) to (40, 32) step (32, 32) {
      %m = affine.min affine_map<(d0) -> (-d0 + 40, 32)>(%arg4)
      %subview = memref.subview %arg0[%arg4, 0] [%m, 16] [1, 1] : memref<40x16xf16> to memref<?x16xf16, strided<[16, 1], offset: ?>>
      %out = memref.subview %arg3[%arg4, 0] [%m, 32] [1, 1] : memref<40x32xf32> to memref<?x32xf32, strided<[32, 1], offset: ?>>
      %alloc = memref.alloc(%m) {alignment = 64 : i64} : memref<?x32xf32>
      linalg.fill ins(%cst : f32) outs(%alloc : memref<?x32xf32>)
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16], [16, 16, 0], [16, 8, 16]]>} ins(%subview, %arg1 : memref<?x16xf16, strided<[16, 1], offset: ?>>, memref<16x32xf16>) outs(%alloc : memref<?x32xf32>)
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%alloc, %arg2 : memref<?x32xf32>, memref<32xf32>) outs(%out : memref<?x32xf32, strided<[32, 1], offset: ?>>) {
      ^bb0(%in: f32, %in_0: f32, %o: f32):
        %0 = arith.addf %in, %in_0 : f32
        %1 = arith.maximumf %0, %cst : f32
        linalg.yield %1 : f32
      }
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg3 : memref<40x32xf32>
  }
}
