// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-lower-matmul-to-wgmma,canonicalize,cse))' | FileCheck %s
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-lower-matmul-to-wgmma,canonicalize,cse))' | gpucg-opt > /dev/null

// The ring, its barriers and a staging buffer in it (buildRing,
// buildBarriers), with the stores a staged accumulator needs: a staged
// store (staged_store = true) copies the f32 accumulator to C through the
// ring once every K step has retired, in 16-byte pieces.

// Warp-specialized, 4 stages of 32768 bytes: the 128 x 136 f32 staging
// buffer (rows padded by 8) is a view of the ring at 0. Full barriers of one
// arrival, empty barriers of the 256 consumer threads. Before the consumers
// write over the ring: each thread's async-proxy accesses fenced, then a
// named barrier (id 3, after the warpgroups' own 1 and 2) of all 256
// consumer threads; then each consumer stores its 64 rows, waits for its own
// warpgroup (named barrier 1 + its index, 128 threads), and copies its rows
// to C, thread t taking the pieces t, t + 128, ... of 4 columns.
// CHECK-LABEL: func.func @staged_store
// CHECK-SAME: (%{{.+}}: memref<128x256xf16>, %{{.+}}: memref<256x128xf16>, %[[C:.+]]: memref<128x128xf32>)
// CHECK: %[[RING:.+]] = memref.alloc() {alignment = 1024 : i64} : memref<131072xi8, #gpu.address_space<workgroup>>
// CHECK: %[[PADDED:.+]] = memref.view %[[RING]][%c0][] : memref<131072xi8, #gpu.address_space<workgroup>> to memref<128x136xf32, #gpu.address_space<workgroup>>
// CHECK: %[[STAGING:.+]] = memref.subview %[[PADDED]][0, 0] [128, 128] [1, 1]
// CHECK: %[[TID:.+]] = gpu.thread_id x
// CHECK: %[[LEADER:.+]] = arith.cmpi eq, %[[TID]], %c0
// CHECK: %[[FULL:.+]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK: %[[EMPTY:.+]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK-NOT: nvgpu.mbarrier.create
// CHECK: scf.if %[[LEADER]] {
// CHECK: nvgpu.mbarrier.init %[[FULL]][%c0], %c1
// CHECK-NEXT: nvgpu.mbarrier.init %[[EMPTY]][%c0], %c256
// CHECK-NEXT: nvgpu.mbarrier.init %[[FULL]][%c1], %c1
// CHECK-NEXT: nvgpu.mbarrier.init %[[EMPTY]][%c1], %c256
// CHECK-NEXT: nvgpu.mbarrier.init %[[FULL]][%c2], %c1
// CHECK-NEXT: nvgpu.mbarrier.init %[[EMPTY]][%c2], %c256
// CHECK-NEXT: nvgpu.mbarrier.init %[[FULL]][%c3], %c1
// CHECK-NEXT: nvgpu.mbarrier.init %[[EMPTY]][%c3], %c256
// CHECK: nvvm.fence.mbarrier.init
// CHECK: }
// CHECK-NEXT: gpu.barrier
// CHECK: %[[CONSUMER:.+]] = arith.cmpi ult, %[[TID]], %c256
// CHECK: scf.if %[[CONSUMER]] {
// CHECK: %[[WG:.+]] = arith.divui %[[TID]], %c128
// CHECK: %[[FIRST:.+]] = arith.muli %[[WG]], %c64
// CHECK: %[[ACC:.+]] = scf.for
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.barrier id = %c3_i32 number_of_threads = %c256_i32
// CHECK-NEXT: %[[ROWS:.+]] = memref.subview %[[STAGING]][0, 0] [64, 128] [1, 1]
// CHECK-NEXT: nvgpu.warpgroup.mma.store %[[ACC]], %[[ROWS]]
// CHECK-NEXT: %[[ID:.+]] = arith.addi %[[WG]], %c1
// CHECK-NEXT: %[[ID32:.+]] = arith.index_castui %[[ID]] : index to i32
// CHECK-NEXT: nvvm.barrier id = %[[ID32]] number_of_threads = %c128_i32
// CHECK-NEXT: %[[THREAD:.+]] = arith.remui %[[TID]], %c128
// CHECK-NEXT: scf.for %[[PIECE:.+]] = %[[THREAD]] to %c2048 step %c128 {
// CHECK-NEXT: %[[ROW:.+]] = arith.divui %[[PIECE]], %c32
// CHECK-NEXT: %[[R:.+]] = arith.addi %[[FIRST]], %[[ROW]]
// CHECK-NEXT: %[[COL:.+]] = arith.remui %[[PIECE]], %c32
// CHECK-NEXT: %[[COL4:.+]] = arith.muli %[[COL]], %c4
// CHECK-NEXT: %[[FROM:.+]] = memref.subview %[[STAGING]][%[[R]], %[[COL4]]] [1, 4] [1, 1]
// CHECK-NEXT: %[[TO:.+]] = memref.subview %[[C]][%[[R]], %[[COL4]]] [1, 4] [1, 1]
// CHECK-NEXT: linalg.copy ins(%[[FROM]] : {{.*}}) outs(%[[TO]] : {{.*}})
// CHECK-NEXT: }
// CHECK-NEXT: } else {
// CHECK: nvvm.setmaxregister decrease 40
// CHECK-NOT: nvvm.barrier
// CHECK: return
func.func @staged_store(%arg0: memref<128x256xf16>, %arg1: memref<256x128xf16>, %arg2: memref<128x128xf32>) -> memref<128x128xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 4, staged_store = true>} {
  %cst = arith.constant 0.000000e+00 : f32
  linalg.fill ins(%cst : f32) outs(%arg2 : memref<128x128xf32>)
  linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%arg0, %arg1 : memref<128x256xf16>, memref<256x128xf16>) outs(%arg2 : memref<128x128xf32>)
  return %arg2 : memref<128x128xf32>
}

// One warpgroup, 3 stages of 32768 bytes: full barriers only, and the
// workgroup's own barriers (gpu.barrier) around the staging: after the fence
// (every warp's groups retired before any thread writes over the ring) and
// after the stores (every row staged before any is copied).
// CHECK-LABEL: func.func @staged_store_one_warpgroup
// CHECK: %[[RING:.+]] = memref.alloc() {alignment = 1024 : i64} : memref<98304xi8, #gpu.address_space<workgroup>>
// CHECK: %[[PADDED:.+]] = memref.view %[[RING]][%c0][] : memref<98304xi8, #gpu.address_space<workgroup>> to memref<128x136xf32, #gpu.address_space<workgroup>>
// CHECK: %[[STAGING:.+]] = memref.subview %[[PADDED]][0, 0] [128, 128] [1, 1]
// CHECK: %[[TID:.+]] = gpu.thread_id x
// CHECK: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK-NOT: nvgpu.mbarrier.create
// CHECK: %[[ACC:.+]]:2 = scf.for
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[TOP:.+]] = memref.subview %[[STAGING]][0, 0] [64, 128] [1, 1]
// CHECK-NEXT: nvgpu.warpgroup.mma.store %[[ACC]]#0, %[[TOP]]
// CHECK-NEXT: %[[BOTTOM:.+]] = memref.subview %[[STAGING]][64, 0] [64, 128] [1, 1]
// CHECK-NEXT: nvgpu.warpgroup.mma.store %[[ACC]]#1, %[[BOTTOM]]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.for %{{.+}} = %[[TID]] to %c4096 step %c128 {
// CHECK: linalg.copy
// CHECK-NOT: linalg.matmul
// CHECK-NOT: linalg.fill
// CHECK: return
func.func @staged_store_one_warpgroup(%arg0: memref<128x256xf16>, %arg1: memref<256x128xf16>, %arg2: memref<128x128xf32>) -> memref<128x128xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], subgroup_size = 32, pipeline_depth = 3, staged_store = true>} {
  %cst = arith.constant 0.000000e+00 : f32
  linalg.fill ins(%cst : f32) outs(%arg2 : memref<128x128xf32>)
  linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%arg0, %arg1 : memref<128x256xf16>, memref<256x128xf16>) outs(%arg2 : memref<128x128xf32>)
  return %arg2 : memref<128x128xf32>
}
