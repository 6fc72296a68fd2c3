// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-lower-matmul-to-wgmma,canonicalize,cse))' | FileCheck %s
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-lower-matmul-to-wgmma,canonicalize,cse))' | gpucg-opt > /dev/null
// @matmul_kn in clusters of 2 x 1, then on a persistent grid too:
// RUN: sed -e '/@matmul_kn/s/cluster = \[2, 2\]/cluster = [2, 1]/' %s \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(func.func(gpucg-lower-matmul-to-wgmma,canonicalize,cse))' | FileCheck %s --check-prefix=M2
// RUN: sed -e '/@matmul_kn/s/cluster = \[2, 2\]/cluster = [2, 1], persistent_workgroups = 2/' %s \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(func.func(gpucg-lower-matmul-to-wgmma,canonicalize,cse))' | FileCheck %s --check-prefix=PERSISTENT

// Thread-block clusters of 2 x 2 workgroups (cluster = [2, 2]) on a
// warp-specialized linear layer (bf16, B[n, k], 128x128 tiles, 2 stages,
// 4 K tiles): the M position is block y mod 2, the N position block x mod 2,
// the rank x + 2 y. Each workgroup loads half of A's tile (64 rows, at row
// 64 * n, 8 KB into the stage) multicast to its row of the cluster (mask
// 0b11 << 2 m) and half of B's (64 rows of N at 64 * m) multicast to its
// column (mask 0b101 << n), through tensor maps of 64x64 boxes; the
// warpgroup descriptors keep the 128x64 maps. Before refilling a stage the
// producer arrives on the peer barrier (3 arrivals: its row and the other
// of its column) of each of its 3 peers, remotely (mapa), and waits on its
// own at cluster scope (the arrivals are releases at cluster scope), retrying
// try_wait until it succeeds. A cluster barrier follows the barriers'
// initialisation.
// CHECK-LABEL: func.func @linear
// CHECK-DAG: %[[AMAP:.+]] = nvgpu.tma.create.descriptor %{{.+}} box[%c128, %c64] : memref<*xbf16> -> <tensor = memref<128x64xbf16
// CHECK-DAG: %[[ASLICE:.+]] = nvgpu.tma.create.descriptor %{{.+}} box[%c64, %c64] : memref<*xbf16> -> <tensor = memref<64x64xbf16
// CHECK: %[[FULL:.+]] = nvgpu.mbarrier.create
// CHECK: %[[EMPTY:.+]] = nvgpu.mbarrier.create
// CHECK: %[[PEER:.+]] = nvgpu.mbarrier.create
// CHECK: nvgpu.mbarrier.init %[[PEER]][%c0], %c3
// CHECK: nvgpu.mbarrier.init %[[PEER]][%c1], %c3
// CHECK: nvvm.fence.mbarrier.init
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK: nvgpu.warpgroup.generate.descriptor %{{.+}}, %[[AMAP]]
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: %[[BY:.+]] = gpu.block_id y
// CHECK-NEXT: %[[M:.+]] = arith.remui %[[BY]], %c2
// CHECK-NEXT: %[[BX:.+]] = gpu.block_id x
// CHECK-NEXT: %[[N:.+]] = arith.remui %[[BX]], %c2
// CHECK-NEXT: %[[ROW:.+]] = arith.muli %[[M]], %c2
// CHECK-NEXT: %[[AMASK:.+]] = arith.shli %c3, %[[ROW]]
// CHECK-NEXT: %[[AMASK16:.+]] = arith.index_castui %[[AMASK]] : index to i16
// CHECK-NEXT: %[[BMASK:.+]] = arith.shli %c5, %[[N]]
// CHECK-NEXT: %[[BMASK16:.+]] = arith.index_castui %[[BMASK]] : index to i16
// CHECK: scf.for %[[K:.+]] = %c0 to %c4 step %c1 {
// CHECK: nvgpu.mbarrier.try_wait.parity %[[EMPTY]]
// CHECK-COUNT-3: nvvm.mbarrier.arrive %{{.+}} {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// CHECK-NEXT: %[[PEERADDR:.+]] = nvgpu.mbarrier.get %[[PEER]][%{{.+}}] : {{.+}} -> i32
// CHECK-NEXT: %[[PEERPTR:.+]] = llvm.inttoptr %[[PEERADDR]] : i32 to !llvm.ptr<3>
// CHECK: scf.while : () -> () {
// CHECK-NEXT: %[[DONE:.+]] = nvvm.mbarrier.try_wait %[[PEERPTR]], %{{.+}} {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<3>, i32 -> i1
// CHECK-NEXT: %[[AGAIN:.+]] = arith.xori %[[DONE]], %true : i1
// CHECK-NEXT: scf.condition(%[[AGAIN]])
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%{{.+}}], %c32768
// CHECK: %[[AROW:.+]] = arith.muli %[[N]], %c64
// CHECK: %[[ABYTES:.+]] = arith.muli %[[N]], %c8192
// CHECK: nvgpu.tma.async.load %[[ASLICE]][%{{.+}}, %{{.+}}], %[[FULL]][%{{.+}}] to %{{.+}} multicast_mask = %[[AMASK16]] : <tensor = memref<64x64xbf16
// CHECK: %[[BROW:.+]] = arith.muli %[[M]], %c64
// CHECK: nvgpu.tma.async.load %{{.+}}[%{{.+}}, %{{.+}}], %[[FULL]][%{{.+}}] to %{{.+}} multicast_mask = %[[BMASK16]] : <tensor = memref<64x64xbf16
// CHECK: } {gpucg.cluster_shape = array<i64: 2, 2, 1>, mapping = [#gpu.block<y>, #gpu.block<x>]}

// With B[k, n] and cluster = [2, 1] (clusters of 1 x 2: block y), each
// workgroup loads 32 of the 64 K rows of each 64-column B box (box 32x64,
// at k + 32 m, 4 KB into the box) multicast to both (mask 0b11), and all
// of A; peers: the other workgroup and itself.
// M2-LABEL: func.func @matmul_kn
// M2-DAG: nvgpu.tma.create.descriptor %{{.+}} box[%c32, %c64] : memref<*xf16> -> <tensor = memref<32x64xf16
// M2: nvgpu.mbarrier.init %{{.+}}[%c0], %c2
// M2: %[[BY:.+]] = gpu.block_id y
// M2: %[[M:.+]] = arith.remui %[[BY]], %c2
// M2: nvgpu.tma.async.load %{{.+}}[%{{.+}}, %{{.+}}], %{{.+}}[%{{.+}}] to %{{.+}} : <tensor = memref<128x64xf16
// M2: %[[KROW:.+]] = arith.muli %[[M]], %c32
// M2: %[[KBYTES:.+]] = arith.muli %[[M]], %c4096
// M2: nvgpu.tma.async.load %{{.+}} multicast_mask = %c3_i16 : <tensor = memref<32x64xf16
// M2: nvgpu.tma.async.load %{{.+}} multicast_mask = %c3_i16 : <tensor = memref<32x64xf16
// M2: } {gpucg.cluster_shape = array<i64: 1, 2, 1>, mapping = [#gpu.block<y>, #gpu.block<x>]}

// On a persistent grid of 2 workgroups (persistent_workgroups = 2, one
// cluster of 2 along M), cluster `wg / 2` loops over the cluster tiles (2 x
// 2 tiles in blocks of 2 x 1: 2 of them) and its workgroup of rank
// `wg mod 2` takes row `rank` of each; the grid is one dimension, so the
// cluster is 2 x 1 x 1 along x.
// PERSISTENT-LABEL: func.func @matmul_kn
// PERSISTENT: scf.forall (%[[WG:.+]]) in (2) {
// PERSISTENT: %[[FIRST:.+]] = arith.divui %[[WG]], %c2
// PERSISTENT: %[[RANK:.+]] = arith.remui %[[WG]], %c2
// PERSISTENT: scf.for %[[U:.+]] = %[[FIRST]] to %c2 step %c1 {
// PERSISTENT: %[[ROW:.+]] = arith.muli %[[RANK]], %c128
// PERSISTENT: %[[COLUMN:.+]] = arith.remui %[[U]], %c2
// PERSISTENT: nvgpu.tma.async.load {{.+}} multicast_mask = %c3_i16
// PERSISTENT: } {gpucg.cluster_shape = array<i64: 2, 1, 1>, mapping = [#gpu.block<x>]}

// CHECK-LABEL: func.func @matmul_kn
// CHECK: } {gpucg.cluster_shape = array<i64: 2, 2, 1>

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @linear(%arg0: memref<256x256xbf16>, %arg1: memref<256x256xbf16>, %arg2: memref<256x256xf32>) -> memref<256x256xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, cluster = [2, 2]>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4) = (0, 0) to (256, 256) step (128, 128) {
      %subview = memref.subview %arg0[%arg3, 0] [128, 256] [1, 1] : memref<256x256xbf16> to memref<128x256xbf16, strided<[256, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[%arg4, 0] [128, 256] [1, 1] : memref<256x256xbf16> to memref<128x256xbf16, strided<[256, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%cst : f32) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
      linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%subview, %subview_0 : memref<128x256xbf16, strided<[256, 1], offset: ?>>, memref<128x256xbf16, strided<[256, 1], offset: ?>>) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<256x256xf32>
  }

  func.func @matmul_kn(%arg0: memref<256x256xf16>, %arg1: memref<256x256xf16>, %arg2: memref<256x256xf32>) -> memref<256x256xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, cluster = [2, 2]>} {
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
