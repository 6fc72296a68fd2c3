// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-lower-matmul-to-wgmma,canonicalize,cse))' | FileCheck %s
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-lower-matmul-to-wgmma,canonicalize,cse))' | gpucg-opt > /dev/null

// A MatmulWgmma workgroup (128x128 tile, 3 stages of A 128x64 and B 64x128
// f16: 32768 bytes each, K = 256: 4 K tiles).

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.+]]: memref<512x256xf16>, %[[B:.+]]: memref<256x512xf16>, %[[C:.+]]: memref<512x512xf32>)
// Host: the tensor maps on the arguments, before the workgroup loop.
// CHECK-DAG: %[[UA:.+]] = memref.cast %[[A]] : memref<512x256xf16> to memref<*xf16>
// CHECK-DAG: %[[MA:.+]] = nvgpu.tma.create.descriptor %[[UA]] box[%c128, %c64] : memref<*xf16> -> <tensor = memref<128x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
// CHECK-DAG: %[[UB:.+]] = memref.cast %[[B]] : memref<256x512xf16> to memref<*xf16>
// CHECK-DAG: %[[MB:.+]] = nvgpu.tma.create.descriptor %[[UB]] box[%c64, %c64] : memref<*xf16> -> <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK: scf.forall (%[[M:.+]], %[[N:.+]]) = (0, 0) to (512, 512) step (128, 128)
// The ring, 1024-aligned for the 128-byte swizzle.
// CHECK: %[[RING:.+]] = memref.alloc() {alignment = 1024 : i64} : memref<98304xi8, #gpu.address_space<workgroup>>
// CHECK: %[[TILE:.+]] = memref.subview %[[C]][%[[M]], %[[N]]] [128, 128] [1, 1]
// CHECK: %[[TID:.+]] = gpu.thread_id x
// CHECK: %[[LEADER:.+]] = arith.cmpi eq, %[[TID]], %c0
// CHECK: %[[BAR:.+]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK: scf.if %[[LEADER]] {
// CHECK-COUNT-3: nvgpu.mbarrier.init %[[BAR]][%{{.+}}], %c1
// CHECK: nvvm.fence.mbarrier.init
// CHECK: nvgpu.tma.prefetch.descriptor %[[MA]]
// CHECK: nvgpu.tma.prefetch.descriptor %[[MB]]
// CHECK: }
// CHECK: gpu.barrier
// Prologue: thread 0 fills the 3 stages with K tiles 0..2; coordinates are
// innermost first (A: k, m; B: n, k), B in two 64-column boxes.
// CHECK: scf.if %[[LEADER]] {
// CHECK: scf.for %[[S:.+]] = %c0 to %c3 step %c1 {
// CHECK: %[[BASE:.+]] = arith.muli %[[S]], %c32768
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[BAR]][%[[S]]], %c32768
// CHECK: %[[K:.+]] = arith.muli %[[S]], %c64
// CHECK: %[[VA:.+]] = memref.view %[[RING]][%[[BASE]]][] : memref<98304xi8, #gpu.address_space<workgroup>> to memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.tma.async.load %[[MA]][%[[K]], %[[M]]], %[[BAR]][%[[S]]] to %[[VA]]
// CHECK: %[[B0:.+]] = arith.addi %[[BASE]], %c16384
// CHECK: %[[VB0:.+]] = memref.view %[[RING]][%[[B0]]][] {{.*}} to memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.tma.async.load %[[MB]][%[[N]], %[[K]]], %[[BAR]][%[[S]]] to %[[VB0]]
// CHECK: %[[N1:.+]] = arith.addi %[[N]], %c64
// CHECK: %[[B1:.+]] = arith.addi %[[BASE]], %c24576
// CHECK: %[[VB1:.+]] = memref.view %[[RING]][%[[B1]]][]
// CHECK: nvgpu.tma.async.load %[[MB]][%[[N1]], %[[K]]], %[[BAR]][%[[S]]] to %[[VB1]]
// The K loop: two accumulators of 64 rows (upstream's store places a
// taller one's second block N/2 rows down); wait on the stage's phase, one
// wgmma group per accumulator, the step's two left in flight.
// CHECK: %[[INIT0:.+]] = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<64x128xf32>>
// CHECK: %[[INIT1:.+]] = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<64x128xf32>>
// CHECK: %[[ACC:.+]]:2 = scf.for %[[KT:.+]] = %c0 to %c4 step %c1 iter_args(%[[IT0:.+]] = %[[INIT0]], %[[IT1:.+]] = %[[INIT1]])
// CHECK: %[[STAGE:.+]] = arith.remui %[[KT]], %c3
// CHECK: %[[ROUND:.+]] = arith.divui %[[KT]], %c3
// CHECK: %[[R64:.+]] = arith.index_castui %[[ROUND]] : index to i64
// CHECK: %[[PARITY:.+]] = arith.trunci %[[R64]] : i64 to i1
// CHECK: nvgpu.mbarrier.try_wait.parity %[[BAR]][%[[STAGE]]], %[[PARITY]], %c10000000
// CHECK: %[[SB:.+]] = arith.muli %[[STAGE]], %c32768
// CHECK: %[[VA0:.+]] = memref.view %[[RING]][%[[SB]]][] {{.*}} to memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK: %[[DA0:.+]] = nvgpu.warpgroup.generate.descriptor %[[VA0]], %[[MA]] : memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK: %[[DB:.+]] = nvgpu.warpgroup.generate.descriptor %{{.+}}, %[[MB]] : memref<64x128xf16, #gpu.address_space<workgroup>>
// CHECK: %[[NEXT0:.+]] = nvgpu.warpgroup.mma %[[DA0]], %[[DB]], %[[IT0]] {transposeB, waitGroup = 2 : i64}
// Rows 64..127 of A: 64 rows of 128 bytes further.
// CHECK: %[[A1:.+]] = arith.addi %[[SB]], %c8192
// CHECK: %[[VA1:.+]] = memref.view %[[RING]][%[[A1]]][]
// CHECK: %[[DA1:.+]] = nvgpu.warpgroup.generate.descriptor %[[VA1]], %[[MA]]
// CHECK: %[[NEXT1:.+]] = nvgpu.warpgroup.mma %[[DA1]], %{{.+}}, %[[IT1]] {transposeB, waitGroup = 2 : i64}
// CHECK: gpu.barrier
// Refill the stage K tile kt - 1 read with K tile kt + 2.
// CHECK: %[[RETIRED:.+]] = arith.subi %[[KT]], %c1
// CHECK: %[[REFILL:.+]] = arith.addi %[[KT]], %c2
// CHECK: %[[HAS_RETIRED:.+]] = arith.cmpi sge, %[[KT]], %c1
// CHECK: %[[HAS_TILE:.+]] = arith.cmpi slt, %[[REFILL]], %c4
// CHECK: %[[BOTH:.+]] = arith.andi %[[HAS_RETIRED]], %[[HAS_TILE]]
// CHECK: %[[COND:.+]] = arith.andi %[[LEADER]], %[[BOTH]]
// CHECK: scf.if %[[COND]] {
// CHECK: %[[OLD:.+]] = arith.remui %[[RETIRED]], %c3
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[BAR]][%[[OLD]]], %c32768
// CHECK: arith.muli %[[REFILL]], %c64
// CHECK-COUNT-3: nvgpu.tma.async.load
// CHECK: }
// CHECK: scf.yield %[[NEXT0]], %[[NEXT1]]
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: %[[C0:.+]] = memref.subview %[[TILE]][0, 0] [64, 128] [1, 1]
// CHECK: nvgpu.warpgroup.mma.store %[[ACC]]#0, %[[C0]] : <fragmented = vector<64x128xf32>> to memref<64x128xf32, strided<[512, 1], offset: ?>>
// CHECK: %[[C1:.+]] = memref.subview %[[TILE]][64, 0] [64, 128] [1, 1]
// CHECK: nvgpu.warpgroup.mma.store %[[ACC]]#1, %[[C1]]
// CHECK-NOT: linalg.
// CHECK: } {mapping = [#gpu.block<y>, #gpu.block<x>]}

func.func @matmul(%arg0: memref<512x256xf16>, %arg1: memref<256x512xf16>, %arg2: memref<512x512xf32>) -> memref<512x512xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], subgroup_size = 32, pipeline_depth = 3>} {
  %cst = arith.constant 0.000000e+00 : f32
  scf.forall (%arg3, %arg4) = (0, 0) to (512, 512) step (128, 128) {
    %subview = memref.subview %arg0[%arg3, 0] [128, 256] [1, 1] : memref<512x256xf16> to memref<128x256xf16, strided<[256, 1], offset: ?>>
    %subview_0 = memref.subview %arg1[0, %arg4] [256, 128] [1, 1] : memref<256x512xf16> to memref<256x128xf16, strided<[512, 1], offset: ?>>
    %subview_1 = memref.subview %arg2[%arg3, %arg4] [128, 128] [1, 1] : memref<512x512xf32> to memref<128x128xf32, strided<[512, 1], offset: ?>>
    linalg.fill ins(%cst : f32) outs(%subview_1 : memref<128x128xf32, strided<[512, 1], offset: ?>>)
    linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%subview, %subview_0 : memref<128x256xf16, strided<[256, 1], offset: ?>>, memref<256x128xf16, strided<[512, 1], offset: ?>>) outs(%subview_1 : memref<128x128xf32, strided<[512, 1], offset: ?>>)
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return %arg2 : memref<512x512xf32>
}

// One stage: every wgmma group retires before its stage is refilled
// (waitGroup = 0), with K tile kt + 1.
// CHECK-LABEL: func.func @one_stage
// CHECK: nvgpu.warpgroup.mma %{{.+}}, %{{.+}}, %{{.+}} {transposeB, waitGroup = 0 : i64}
// CHECK: %[[REFILL1:.+]] = arith.addi %[[KT1:.+]], %c1
// CHECK: arith.cmpi sge, %[[KT1]], %c0
func.func @one_stage(%arg0: memref<64x128xbf16>, %arg1: memref<128x64xbf16>, %arg2: memref<64x64xf32>) -> memref<64x64xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], subgroup_size = 32, pipeline_depth = 1>} {
  %cst = arith.constant 0.000000e+00 : f32
  linalg.fill ins(%cst : f32) outs(%arg2 : memref<64x64xf32>)
  linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>} ins(%arg0, %arg1 : memref<64x128xbf16>, memref<128x64xbf16>) outs(%arg2 : memref<64x64xf32>)
  return %arg2 : memref<64x64xf32>
}

// Views between the zero fill and the matmul (as bufferization places a
// tile's operand views): the fill is still the accumulator's start
// (getAccumulatorStart), which the warpgroup accumulator's zero replaces.
// CHECK-LABEL: func.func @fill_then_views
// CHECK-NOT: linalg.fill
// CHECK: nvgpu.warpgroup.mma.init.accumulator
// CHECK: nvgpu.warpgroup.mma.store
// CHECK-NOT: linalg.fill
// CHECK: return
func.func @fill_then_views(%arg0: memref<128x128xbf16>, %arg1: memref<128x64xbf16>, %arg2: memref<64x64xf32>) -> memref<64x64xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], subgroup_size = 32, pipeline_depth = 1>} {
  %cst = arith.constant 0.000000e+00 : f32
  linalg.fill ins(%cst : f32) outs(%arg2 : memref<64x64xf32>)
  %a = memref.subview %arg0[64, 0] [64, 128] [1, 1] : memref<128x128xbf16> to memref<64x128xbf16, strided<[128, 1], offset: 8192>>
  linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>} ins(%a, %arg1 : memref<64x128xbf16, strided<[128, 1], offset: 8192>>, memref<128x64xbf16>) outs(%arg2 : memref<64x64xf32>)
  return %arg2 : memref<64x64xf32>
}

// Other pipelines are left alone.
// CHECK-LABEL: func.func @other_pipeline
// CHECK: linalg.matmul
func.func @other_pipeline(%arg0: memref<64x128xf16>, %arg1: memref<128x64xf16>, %arg2: memref<64x64xf32>) -> memref<64x64xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync>} {
  linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 32], [32, 32, 0], [16, 8, 16]]>} ins(%arg0, %arg1 : memref<64x128xf16>, memref<128x64xf16>) outs(%arg2 : memref<64x64xf32>)
  return %arg2 : memref<64x64xf32>
}

// Warp specialization (384 threads): warpgroups 0 and 1 multiply 64 rows
// each, warpgroup 2's thread 0 loads; K = 256 in 2 stages, so the producer
// waits for stages the consumers released (the empty barriers, of 256
// arrivals).
// CHECK-LABEL: func.func @warp_specialized
// CHECK-SAME: (%[[A:.+]]: memref<128x256xf16>, %[[B:.+]]: memref<256x128xf16>, %[[C:.+]]: memref<128x128xf32>)
// CHECK: %[[TID:.+]] = gpu.thread_id x
// CHECK: %[[LEADER:.+]] = arith.cmpi eq, %[[TID]], %c0
// CHECK: %[[FULL:.+]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
// CHECK: %[[EMPTY:.+]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
// CHECK: scf.if %[[LEADER]] {
// CHECK: nvgpu.mbarrier.init %[[FULL]][%c0], %c1
// CHECK: nvgpu.mbarrier.init %[[EMPTY]][%c0], %c256
// CHECK: nvgpu.mbarrier.init %[[FULL]][%c1], %c1
// CHECK: nvgpu.mbarrier.init %[[EMPTY]][%c1], %c256
// CHECK: gpu.barrier
// CHECK: %[[CONSUMER:.+]] = arith.cmpi ult, %[[TID]], %c256
// CHECK: scf.if %[[CONSUMER]] {
// CHECK: nvvm.setmaxregister increase 232
// CHECK: %[[WG:.+]] = arith.divui %[[TID]], %c128
// CHECK: %[[INIT:.+]] = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<64x128xf32>>
// CHECK: %[[ACC:.+]] = scf.for %[[KT:.+]] = %c0 to %c4 step %c1 iter_args(%[[IT:.+]] = %[[INIT]])
// CHECK: nvgpu.mbarrier.try_wait.parity %[[FULL]]
// The warpgroup's 64 rows of the stage's A tile: 8192 bytes each.
// CHECK: %[[AROW:.+]] = arith.muli %[[WG]], %c8192
// CHECK: %[[ABYTES:.+]] = arith.addi %{{.+}}, %[[AROW]]
// CHECK: %[[VA:.+]] = memref.view %{{.+}}[%[[ABYTES]]][] : memref<65536xi8, #gpu.address_space<workgroup>> to memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.warpgroup.generate.descriptor %[[VA]]
// CHECK: %[[NEXT:.+]] = nvgpu.warpgroup.mma %{{.+}}, %{{.+}}, %[[IT]] {transposeB} : {{.*}} <fragmented = vector<64x128xf32>> -> <fragmented = vector<64x128xf32>>
// Release the stage of the previous K tile.
// CHECK: %[[HAS:.+]] = arith.cmpi ne, %[[KT]], %c0
// CHECK: scf.if %[[HAS]] {
// CHECK: %[[PREV:.+]] = arith.subi %[[KT]], %c1
// CHECK: %[[PSTAGE:.+]] = arith.remui %[[PREV]], %c2
// CHECK: nvgpu.mbarrier.arrive %[[EMPTY]][%[[PSTAGE]]]
// CHECK: scf.yield %[[NEXT]]
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// warpgroup.mma.store places warpgroup w's rows at 64 w itself: the view
// starts at (64 - 64) w = 0.
// CHECK: %[[TILE:.+]] = memref.subview %[[C]][0, 0] [64, 128] [1, 1]
// CHECK: nvgpu.warpgroup.mma.store %[[ACC]], %[[TILE]]
// CHECK: } else {
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: %[[PRODUCER:.+]] = arith.cmpi eq, %[[TID]], %c256
// CHECK: scf.if %[[PRODUCER]] {
// CHECK: scf.for %[[PK:.+]] = %c0 to %c4 step %c1 {
// CHECK: %[[STAGE:.+]] = arith.remui %[[PK]], %c2
// CHECK: %[[ROUND:.+]] = arith.divui %[[PK]], %c2
// CHECK: %[[REUSED:.+]] = arith.cmpi ne, %[[ROUND]], %c0
// CHECK: scf.if %[[REUSED]] {
// CHECK: %[[PREVROUND:.+]] = arith.subi %[[ROUND]], %c1
// CHECK: nvgpu.mbarrier.try_wait.parity %[[EMPTY]][%[[STAGE]]]
// CHECK: }
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%[[STAGE]]], %c32768
// CHECK-COUNT-3: nvgpu.tma.async.load
func.func @warp_specialized(%arg0: memref<128x256xf16>, %arg1: memref<256x128xf16>, %arg2: memref<128x128xf32>) -> memref<128x128xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2>} {
  %cst = arith.constant 0.000000e+00 : f32
  linalg.fill ins(%cst : f32) outs(%arg2 : memref<128x128xf32>)
  linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%arg0, %arg1 : memref<128x256xf16>, memref<256x128xf16>) outs(%arg2 : memref<128x128xf32>)
  return %arg2 : memref<128x128xf32>
}

// A K-contiguous B (C = A * B^T): B's box is 128 rows of 64 k, loaded at
// [k, n] like A; each k16 step is its own wgmma (no transposeB) on
// descriptors 32 bytes further along the swizzled rows.
// CHECK-LABEL: func.func @k_contiguous_b
// CHECK: %[[MB:.+]] = nvgpu.tma.create.descriptor %{{.+}} box[%c128, %c64] : memref<*xbf16> -> <tensor = memref<128x64xbf16, #gpu.address_space<workgroup>>
// CHECK: scf.for %[[S:.+]] = %c0 to %c2 step %c1 {
// CHECK: %[[K:.+]] = arith.muli %[[S]], %c64
// CHECK: nvgpu.tma.async.load
// CHECK: %[[VB:.+]] = memref.view {{.*}} to memref<128x64xbf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.tma.async.load %[[MB]][%[[K]], %c0], %{{.+}} to %[[VB]]
// CHECK: scf.for
// CHECK: %[[BASE:.+]] = arith.muli %{{.+}}, %c24576
// CHECK: memref.view %{{.+}}[%[[BASE]]][] : {{.*}} to memref<64x16xbf16
// CHECK: %[[B0:.+]] = arith.addi %[[BASE]], %c8192
// CHECK: memref.view %{{.+}}[%[[B0]]][] : {{.*}} to memref<16x128xbf16
// Four groups per K step, all in flight until the next step's.
// CHECK: %[[M0:.+]] = nvgpu.warpgroup.mma %{{.+}}, %{{.+}}, %{{.+}} {waitGroup = 4 : i64} : <tensor = memref<64x16xbf16, #gpu.address_space<workgroup>>>, <tensor = memref<16x128xbf16, #gpu.address_space<workgroup>>>
// CHECK: %[[A1:.+]] = arith.addi %[[BASE]], %c32
// CHECK: memref.view %{{.+}}[%[[A1]]][] : {{.*}} to memref<64x16xbf16
// CHECK: %[[B1:.+]] = arith.addi %[[BASE]], %c8224
// CHECK: memref.view %{{.+}}[%[[B1]]][] : {{.*}} to memref<16x128xbf16
// CHECK: %[[M1:.+]] = nvgpu.warpgroup.mma %{{.+}}, %{{.+}}, %[[M0]] {waitGroup = 4 : i64} :
// CHECK: nvgpu.warpgroup.mma %{{.+}}, %{{.+}}, %[[M1]] {waitGroup = 4 : i64} :
// CHECK: nvgpu.warpgroup.mma
// CHECK-NOT: nvgpu.warpgroup.mma
// CHECK: gpu.barrier
func.func @k_contiguous_b(%arg0: memref<64x128xbf16>, %arg1: memref<128x128xbf16>, %arg2: memref<64x128xf32>) -> memref<64x128xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], subgroup_size = 32, pipeline_depth = 2>} {
  %cst = arith.constant 0.000000e+00 : f32
  linalg.fill ins(%cst : f32) outs(%arg2 : memref<64x128xf32>)
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 128, 64]]>} ins(%arg0, %arg1 : memref<64x128xbf16>, memref<128x128xbf16>) outs(%arg2 : memref<64x128xf32>)
  return %arg2 : memref<64x128xf32>
}

// An M-contiguous A (A[k, m], C = A^T * B): A is loaded like an
// N-contiguous B, in a box of 64 columns of M by 64 rows of K at [m, k];
// each k16 step is its own wgmma with transposeA and transposeB, on
// descriptors 16 rows (2048 bytes) further down both tiles.
// CHECK-LABEL: func.func @m_contiguous_a
// CHECK: %[[MA:.+]] = nvgpu.tma.create.descriptor %{{.+}} box[%c64, %c64] : memref<*xbf16> -> <tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[MB:.+]] = nvgpu.tma.create.descriptor %{{.+}} box[%c64, %c64] : memref<*xbf16> -> <tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>
// CHECK: scf.for %[[S:.+]] = %c0 to %c2 step %c1 {
// CHECK: %[[STAGE:.+]] = arith.muli %[[S]], %c24576
// CHECK: %[[K:.+]] = arith.muli %[[S]], %c64
// CHECK: %[[VA:.+]] = memref.view %{{.+}}[%[[STAGE]]][] : {{.*}} to memref<64x64xbf16
// CHECK: nvgpu.tma.async.load %[[MA]][%c0, %[[K]]], %{{.+}} to %[[VA]]
// CHECK: nvgpu.tma.async.load %[[MB]][%c0, %[[K]]]
// CHECK: nvgpu.tma.async.load %[[MB]][%c64, %[[K]]]
// CHECK: scf.for
// CHECK: %[[BASE:.+]] = arith.muli %{{.+}}, %c24576
// CHECK: memref.view %{{.+}}[%[[BASE]]][] : {{.*}} to memref<64x16xbf16
// CHECK: %[[B0:.+]] = arith.addi %[[BASE]], %c8192
// CHECK: memref.view %{{.+}}[%[[B0]]][] : {{.*}} to memref<16x128xbf16
// CHECK: %[[M0:.+]] = nvgpu.warpgroup.mma %{{.+}}, %{{.+}}, %{{.+}} {transposeA, transposeB, waitGroup = 4 : i64}
// CHECK: %[[A1:.+]] = arith.addi %[[BASE]], %c2048
// CHECK: memref.view %{{.+}}[%[[A1]]][] : {{.*}} to memref<64x16xbf16
// CHECK: %[[B1:.+]] = arith.addi %[[BASE]], %c10240
// CHECK: memref.view %{{.+}}[%[[B1]]][] : {{.*}} to memref<16x128xbf16
// CHECK: %[[M1:.+]] = nvgpu.warpgroup.mma %{{.+}}, %{{.+}}, %[[M0]] {transposeA, transposeB, waitGroup = 4 : i64}
// CHECK: nvgpu.warpgroup.mma %{{.+}}, %{{.+}}, %[[M1]] {transposeA, transposeB, waitGroup = 4 : i64}
// CHECK: nvgpu.warpgroup.mma
// CHECK-NOT: = nvgpu.warpgroup.mma %
// CHECK: gpu.barrier
func.func @m_contiguous_a(%arg0: memref<128x64xbf16>, %arg1: memref<128x128xbf16>, %arg2: memref<64x128xf32>) -> memref<64x128xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], subgroup_size = 32, pipeline_depth = 2>} {
  %cst = arith.constant 0.000000e+00 : f32
  linalg.fill ins(%cst : f32) outs(%arg2 : memref<64x128xf32>)
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 128, 64]]>} ins(%arg0, %arg1 : memref<128x64xbf16>, memref<128x128xbf16>) outs(%arg2 : memref<64x128xf32>)
  return %arg2 : memref<64x128xf32>
}
