// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-lower-matmul-to-wgmma,canonicalize,cse))' | FileCheck %s
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-lower-matmul-to-wgmma,canonicalize,cse))' -mlir-print-local-scope | FileCheck %s --check-prefix=WAVES
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-lower-matmul-to-wgmma,canonicalize,cse))' | gpucg-opt > /dev/null

// Stream-K on a persistent grid of 3 workgroups: 4 tiles of 128x128 with
// 5 K steps each (K = 320), 20 steps in all (one wave of tiles: none is
// data-parallel). Workgroup w runs steps 20 w / 3 up to 20 (w + 1) / 3
// (0-5, 6-12, 13-19), iteration i the tile (20 w / 3) / 5 + i of those its
// steps reach, each tile's K tiles
// max(begin - 5 t, 0) up to min(end - 5 t, 5), numbered from the
// workgroup's first step (step = 5 t - begin + k), in the producer and the
// consumers alike. A part (not all 5 K tiles) is published into the
// workgroup's slot (2 w, or 2 w + 1 for the last tile it reaches), its K
// steps counted into the tile's counter; the workgroup that completes the
// tile sums the slots of the tile's workgroups, in workgroup order, and
// stores the tile (the staged store, which stream-K takes).

// CHECK-DAG: #[[BEGIN:.+]] = affine_map<(d0) -> ((d0 * 20) floordiv 3)>
// CHECK-DAG: #[[END:.+]] = affine_map<(d0) -> ((d0 * 20 + 20) floordiv 3)>
// CHECK-DAG: #[[FIRST:.+]] = affine_map<(d0) -> (((d0 * 20) floordiv 3) floordiv 5)>
// CHECK-DAG: #[[TILES:.+]] = affine_map<(d0) -> (((d0 * 20 + 20) floordiv 3) ceildiv 5 - ((d0 * 20) floordiv 3) floordiv 5)>
// CHECK-DAG: #[[TILE:.+]] = affine_map<(d0, d1) -> (d0 + ((d1 * 20) floordiv 3) floordiv 5)>
// The slot of this workgroup's part: 2 w + second, times 128 * 128.
// CHECK-DAG: #[[SLOT:.+]] = affine_map<(d0, d1, d2)[s0] -> (d0 * 32768 + d1 * 16384 + d2 * 4 + s0 * 128)>
// The tile's workgroups: from ((5 t + 1) * 3 - 1) / 20 to ((t + 1) * 15 - 1) / 20.
// CHECK-DAG: #[[COUNT:.+]] = affine_map<(d0, d1) -> ((d0 * 15 + (((d1 * 20) floordiv 3) floordiv 5) * 15 + 14) floordiv 20 - (d0 * 15 + (((d1 * 20) floordiv 3) floordiv 5) * 15 + 2) floordiv 20 + 1)>
// CHECK-LABEL: func.func @stream_k
//       CHECK: %[[FLAG:.+]] = memref.alloc() : memref<1xi32, #gpu.address_space<workgroup>>
//       CHECK: scf.forall (%[[WG:.+]]) in (3) {
//       CHECK: nvvm.setmaxregister increase 232
//       CHECK: %[[B:.+]] = affine.apply #[[BEGIN]](%[[WG]])
//       CHECK: %[[E:.+]] = affine.apply #[[END]](%[[WG]])
//       CHECK: %[[T0:.+]] = affine.apply #[[FIRST]](%[[WG]])
//       CHECK: %[[N:.+]] = affine.apply #[[TILES]](%[[WG]])
//       CHECK: scf.for %[[I:.+]] = %c0 to %[[N]] step %c1 {
//       CHECK:   %[[T:.+]] = affine.apply #[[TILE]](%[[I]], %[[WG]])
//       CHECK:   %[[TS:.+]] = arith.muli %[[T]], %c5
//       CHECK:   %[[KB0:.+]] = arith.subi %[[B]], %[[TS]]
//       CHECK:   %[[KB:.+]] = arith.maxsi %[[KB0]], %c0
//       CHECK:   %[[KE0:.+]] = arith.subi %[[E]], %[[TS]]
//       CHECK:   %[[KE:.+]] = arith.minsi %[[KE0]], %c5
//       CHECK:   %[[BASE:.+]] = arith.subi %[[TS]], %[[B]]
//       CHECK:   %[[NOTFIRST:.+]] = arith.cmpi ne, %[[T]], %[[T0]]
//       CHECK:   %[[SECOND:.+]] = arith.select %[[NOTFIRST]], %c1, %c0
//       CHECK:   scf.for %[[K:.+]] = %[[KB]] to %[[KE]] step %c1 iter_args(
//       CHECK:     %[[STEP:.+]] = arith.addi %[[BASE]], %[[K]]
//       CHECK:     nvgpu.mbarrier.try_wait.parity
//       CHECK:     nvgpu.warpgroup.mma
//       CHECK:   nvvm.wgmma.wait.group.sync.aligned 0
//       CHECK:   nvgpu.warpgroup.mma.store
//       CHECK:   %[[PARTIALS:.+]] = memref.get_global @__gpucg_split_k_partials_stream_k : memref<98304xf32>
//       CHECK:   %[[COUNTERS:.+]] = memref.get_global @__gpucg_split_k_counters_stream_k : memref<4xi32>
//       CHECK:   %[[CUT_END:.+]] = arith.cmpi ne, %[[KE]], %c5
//       CHECK:   %[[CUT_BEGIN:.+]] = arith.cmpi ne, %[[KB]], %c0
//       CHECK:   %[[PART:.+]] = arith.ori %[[CUT_BEGIN]], %[[CUT_END]]
//       CHECK:   %[[ISLAST:.+]] = scf.if %[[PART]] -> (i1) {
//       CHECK:     scf.for
//       CHECK:       affine.apply #[[SLOT]](%[[WG]], %[[SECOND]], %{{.+}})
//       CHECK:       vector.store %{{.+}}, %[[PARTIALS]]
//       CHECK:     %[[STEPS:.+]] = arith.subi %[[KE]], %[[KB]]
//       CHECK:     %[[AMOUNT:.+]] = arith.index_cast %[[STEPS]] : index to i32
//       CHECK:     %[[REST:.+]] = arith.subi %c5_i32, %[[AMOUNT]]
//       CHECK:     nvvm.memory.barrier <gpu>
//       CHECK:     nvvm.barrier id = %c3_i32 number_of_threads = %c256_i32
//       CHECK:     %[[OLD:.+]] = memref.atomic_rmw addi %[[AMOUNT]], %[[COUNTERS]][%[[T]]]
//       CHECK:     nvvm.memory.barrier <gpu>
//       CHECK:     arith.cmpi eq, %[[OLD]], %[[REST]]
//       CHECK:     memref.store %c0_i32, %[[COUNTERS]][%[[T]]]
//       CHECK:     memref.store %{{.+}}, %[[FLAG]][%c0]
//       CHECK:     nvvm.barrier id = %c3_i32 number_of_threads = %c256_i32
//       CHECK:     memref.load %[[FLAG]][%c0]
//       CHECK:   } else {
//       CHECK:     scf.yield %true
//       CHECK:   scf.if %[[ISLAST]] {
//       CHECK:     scf.if %[[PART]] {
//       CHECK:       %[[PARTS:.+]] = affine.apply #[[COUNT]](%[[I]], %[[WG]])
//       CHECK:       scf.for
//       CHECK:         scf.for %{{.+}} = %c0 to %[[PARTS]] step %c1 iter_args(
//       CHECK:           vector.load %[[PARTIALS]]
//       CHECK:           arith.addf
//       CHECK:     linalg.copy
// The producer walks the same K tiles.
//       CHECK: nvvm.setmaxregister decrease 40
//       CHECK: scf.for %[[PI:.+]] = %c0 to %{{.+}} step %c1 {
//       CHECK:   arith.maxsi
//       CHECK:   arith.minsi
//       CHECK:   scf.for %[[PK:.+]] = %{{.+}} to %{{.+}} step %c1 {
//       CHECK:     nvgpu.mbarrier.arrive.expect_tx
//       CHECK:     %[[KOFF:.+]] = arith.muli %[[PK]], %c64
//       CHECK:     nvgpu.tma.async.load %{{.+}}[%[[KOFF]], %{{.+}}]
//       CHECK: } {mapping = [#gpu.block<x>]}

// Two waves of tiles: 8 tiles of 3 K steps on 3 workgroups. The first 3
// tiles (all but the last full wave and the partial one) are
// data-parallel, tile w for workgroup w, whole; the K steps of the other
// 5, 15 in all, are split 5 per workgroup. Iteration 0 is the whole tile
// (K tiles 0 to 3, steps from 0), the others the stream-K tiles 3 + t of
// the workgroup's steps 5 w up to 5 w + 5 of those, numbered on from
// step 3.
// WAVES-LABEL: func.func @waves
//       WAVES: scf.forall (%[[WG:.+]]) in (3) {
//       WAVES: %[[B:.+]] = affine.apply affine_map<(d0) -> (d0 * 5)>(%[[WG]])
//       WAVES: %[[N:.+]] = affine.apply affine_map<(d0) -> ((d0 * 5 + 5) ceildiv 3 - (d0 * 5) floordiv 3 + 1)>(%[[WG]])
//       WAVES: scf.for %[[I:.+]] = %c0 to %[[N]] step %c1 {
//       WAVES:   %[[T:.+]] = affine.apply affine_map<(d0, d1) -> (d0 + (d1 * 5) floordiv 3 - 1)>(%[[I]], %[[WG]])
//       WAVES:   %[[TS:.+]] = arith.muli %[[T]], %c3
//       WAVES:   %[[KB:.+]] = arith.maxsi
//       WAVES:   %[[KE:.+]] = arith.minsi
//       WAVES:   %[[OFF:.+]] = arith.subi %[[TS]], %[[B]]
//       WAVES:   %[[BASE:.+]] = arith.addi %[[OFF]], %c3
//       WAVES:   %[[TILE:.+]] = arith.addi %[[T]], %c3
//       WAVES:   %[[WHOLE:.+]] = arith.cmpi ult, %[[I]], %c1
//       WAVES:   %[[KB2:.+]] = arith.select %[[WHOLE]], %c0, %[[KB]]
//       WAVES:   %[[KE2:.+]] = arith.select %[[WHOLE]], %c3, %[[KE]]
//       WAVES:   %[[WBASE:.+]] = arith.muli %[[I]], %c3
//       WAVES:   %[[BASE2:.+]] = arith.select %[[WHOLE]], %[[WBASE]], %[[BASE]]
//       WAVES:   %[[WTILE:.+]] = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 3)>(%[[WG]], %[[I]])
//       WAVES:   %[[TILE2:.+]] = arith.select %[[WHOLE]], %[[WTILE]], %[[TILE]]
//       WAVES:   scf.for %[[K:.+]] = %[[KB2]] to %[[KE2]] step %c1 iter_args(
//       WAVES:     arith.addi %[[BASE2]], %[[K]]
//       WAVES:   memref.atomic_rmw addi %{{.+}}, %{{.+}}[%[[TILE2]]] : (i32, memref<8xi32>) -> i32

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  memref.global "private" @__gpucg_split_k_counters_stream_k : memref<4xi32> = dense<0> {alignment = 16 : i64}
  memref.global "private" @__gpucg_split_k_partials_stream_k : memref<98304xf32> = uninitialized {alignment = 16 : i64}
  func.func @stream_k(%arg0: memref<256x320xf16>, %arg1: memref<320x256xf16>, %arg2: memref<256x256xf32>) -> memref<256x256xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, persistent_workgroups = 3, stream_k = true>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4) = (0, 0) to (256, 256) step (128, 128) {
      %subview = memref.subview %arg0[%arg3, 0] [128, 320] [1, 1] : memref<256x320xf16> to memref<128x320xf16, strided<[320, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %arg4] [320, 128] [1, 1] : memref<320x256xf16> to memref<320x128xf16, strided<[256, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%cst : f32) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%subview, %subview_0 : memref<128x320xf16, strided<[320, 1], offset: ?>>, memref<320x128xf16, strided<[256, 1], offset: ?>>) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<256x256xf32>
  }
  memref.global "private" @__gpucg_split_k_counters_waves : memref<8xi32> = dense<0> {alignment = 16 : i64}
  memref.global "private" @__gpucg_split_k_partials_waves : memref<98304xf32> = uninitialized {alignment = 16 : i64}
  func.func @waves(%arg0: memref<256x192xf16>, %arg1: memref<192x512xf16>, %arg2: memref<256x512xf32>) -> memref<256x512xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, persistent_workgroups = 3, stream_k = true>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4) = (0, 0) to (256, 512) step (128, 128) {
      %subview = memref.subview %arg0[%arg3, 0] [128, 192] [1, 1] : memref<256x192xf16> to memref<128x192xf16, strided<[192, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %arg4] [192, 128] [1, 1] : memref<192x512xf16> to memref<192x128xf16, strided<[512, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [128, 128] [1, 1] : memref<256x512xf32> to memref<128x128xf32, strided<[512, 1], offset: ?>>
      linalg.fill ins(%cst : f32) outs(%subview_1 : memref<128x128xf32, strided<[512, 1], offset: ?>>)
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%subview, %subview_0 : memref<128x192xf16, strided<[192, 1], offset: ?>>, memref<192x128xf16, strided<[512, 1], offset: ?>>) outs(%subview_1 : memref<128x128xf32, strided<[512, 1], offset: ?>>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<256x512xf32>
  }
}
