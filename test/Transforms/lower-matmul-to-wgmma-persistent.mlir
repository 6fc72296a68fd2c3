// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-lower-matmul-to-wgmma,canonicalize,cse))' | FileCheck %s
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-lower-matmul-to-wgmma,canonicalize,cse))' | gpucg-opt > /dev/null

// A persistent grid: 3 workgroups for the 4 tiles of a warp-specialized
// kernel (256 x 256, 128x128 tiles, 2 stages, K = 256: 4 K tiles). The
// workgroup loop runs over the workgroups; the consumers and the producer
// each loop over the tiles wg, wg + 3 (in M-major order), numbering the K
// steps across tiles (tile iteration i starts at step 4 i) so that stages
// and mbarrier phases run on.

// CHECK-LABEL: func.func @persistent
// CHECK: scf.forall (%[[WG:.+]]) in (3) {
// CHECK: %[[RING:.+]] = memref.alloc() {alignment = 1024 : i64} : memref<65536xi8, #gpu.address_space<workgroup>>
// CHECK: scf.if %{{.+}} {
// CHECK: nvvm.setmaxregister increase 232
// CHECK: scf.for %[[T:.+]] = %[[WG]] to %c4 step %c3 {
// CHECK: %[[DONE:.+]] = arith.subi %[[T]], %[[WG]]
// CHECK: %[[ITER:.+]] = arith.divui %[[DONE]], %c3
// CHECK: %[[BASE:.+]] = arith.muli %[[ITER]], %c4
// CHECK: %[[MI:.+]] = arith.remui %[[T]], %c2
// CHECK: %[[REST:.+]] = arith.divui %[[T]], %c2
// CHECK: %[[M:.+]] = arith.muli %[[MI]], %c128
// CHECK: %[[NI:.+]] = arith.remui %[[REST]], %c2
// CHECK: %[[N:.+]] = arith.muli %[[NI]], %c128
// CHECK: %[[INIT:.+]] = nvgpu.warpgroup.mma.init.accumulator
// CHECK: scf.for %[[K:.+]] = %c0 to %c4 step %c1 iter_args(%{{.+}} = %[[INIT]])
// CHECK: %[[STEP:.+]] = arith.addi %[[BASE]], %[[K]]
// CHECK: %[[STAGE:.+]] = arith.remui %[[STEP]], %c2
// CHECK: %[[PHASE:.+]] = arith.divui %[[STEP]], %c2
// CHECK: nvgpu.mbarrier.try_wait.parity %{{.+}}[%[[STAGE]]]
// CHECK: nvgpu.warpgroup.mma
// The previous step's stage, across tiles too.
// CHECK: %[[HAS:.+]] = arith.cmpi ne, %[[STEP]], %c0
// CHECK: scf.if %[[HAS]] {
// CHECK: %[[PREV:.+]] = arith.subi %[[STEP]], %c1
// CHECK: arith.remui %[[PREV]], %c2
// CHECK: nvgpu.mbarrier.arrive
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: %[[CTILE:.+]] = memref.subview %{{.+}}[%[[M]], %[[N]]] [128, 128] [1, 1]
// CHECK: memref.subview %[[CTILE]]
// CHECK: nvgpu.warpgroup.mma.store
// CHECK: } else {
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: scf.for %[[PT:.+]] = %[[WG]] to %c4 step %c3 {
// CHECK: %[[PBASE:.+]] = arith.muli %{{.+}}, %c4
// CHECK: %[[PM:.+]] = arith.muli %{{.+}}, %c128
// CHECK: %[[PN:.+]] = arith.muli %{{.+}}, %c128
// CHECK: scf.for %[[PK:.+]] = %c0 to %c4 step %c1 {
// CHECK: %[[PSTEP:.+]] = arith.addi %[[PBASE]], %[[PK]]
// CHECK: %[[PSTAGE:.+]] = arith.remui %[[PSTEP]], %c2
// CHECK: %[[ROUND:.+]] = arith.divui %[[PSTEP]], %c2
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.+}}[%[[PSTAGE]]], %c32768
// CHECK: %[[KOFF:.+]] = arith.muli %[[PK]], %c64
// CHECK: nvgpu.tma.async.load %{{.+}}[%[[KOFF]], %[[PM]]]
// CHECK: nvgpu.tma.async.load %{{.+}}[%[[PN]], %[[KOFF]]]
// CHECK: } {mapping = [#gpu.block<x>]}

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @persistent(%arg0: memref<256x256xf16>, %arg1: memref<256x256xf16>, %arg2: memref<256x256xf32>) -> memref<256x256xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, persistent_workgroups = 3>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4) = (0, 0) to (256, 256) step (128, 128) {
      %subview = memref.subview %arg0[%arg3, 0] [128, 256] [1, 1] : memref<256x256xf16> to memref<128x256xf16, strided<[256, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %arg4] [256, 128] [1, 1] : memref<256x256xf16> to memref<256x128xf16, strided<[256, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%cst : f32) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%subview, %subview_0 : memref<128x256xf16, strided<[256, 1], offset: ?>>, memref<256x128xf16, strided<[256, 1], offset: ?>>) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<256x256xf32>
  }

}
