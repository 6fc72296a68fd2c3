// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(gpucg-test-emulate-gpu)' \
// RUN:   | FileCheck %s
// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(gpucg-test-emulate-gpu)' \
// RUN:   | gpucg-opt -split-input-file > /dev/null

// Clusters in the emulator (docs/Emulation.md): the host configures the
// cluster after the launch; the ops of a cluster kernel become calls of
// the runtime.

/// A launch with clusters: the host calls gpucg_emu_configure_cluster with
/// the three sizes after gpucg_emu_configure. The cluster region arguments
/// are what upstream's outlining makes of them: gpu.cluster_id (block id /
/// cluster size) and gpu.cluster_dim (grid size / cluster size, the number
/// of clusters, not the cluster's size).
// CHECK-LABEL: func.func @cluster_launch
// CHECK:         call @gpucg_emu_configure(
// CHECK:         %[[X:.+]] = arith.index_cast %c2 : index to i64
// CHECK:         %[[Y:.+]] = arith.index_cast %c1 : index to i64
// CHECK:         %[[Z:.+]] = arith.index_cast %c1 : index to i64
// CHECK:         call @gpucg_emu_configure_cluster(%[[X]], %[[Y]], %[[Z]]) : (i64, i64, i64) -> ()
// CHECK-NEXT:    call @cluster_launch_emulated_thread_0(
// CHECK-LABEL: func.func private @cluster_launch_emulated_thread_0
// CHECK:         %[[BLOCK:.+]] = call @gpucg_emu_block_id(%c0_i64) : (i64) -> i64
// CHECK:         %[[BX:.+]] = arith.index_cast %[[BLOCK]] : i64 to index
// CHECK:         %[[GRID:.+]] = call @gpucg_emu_grid_dim(%c0_i64{{.*}}) : (i64) -> i64
// CHECK:         %[[GX:.+]] = arith.index_cast %[[GRID]] : i64 to index
// CHECK:         %[[SIZE:.+]] = call @gpucg_emu_cluster_size(%c0_i64{{.*}}) : (i64) -> i64
// CHECK:         %[[SX:.+]] = arith.index_cast %[[SIZE]] : i64 to index
// CHECK:         %[[CX:.+]] = arith.divui %[[BX]], %[[SX]] : index
// CHECK:         %[[NX:.+]] = arith.divui %[[GX]], %[[SX]] : index
// CHECK:         memref.store %[[CX]], %{{.+}}[%c0] : memref<2xindex>
// CHECK:         memref.store %[[NX]], %{{.+}}[%c1] : memref<2xindex>
func.func @cluster_launch(%out: memref<2xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  gpu.launch clusters(%cx, %cy, %cz) in (%scx = %c2, %scy = %c1, %scz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %cx, %out[%c0] : memref<2xindex>
    memref.store %scx, %out[%c1] : memref<2xindex>
    gpu.terminator
  }
  return
}

// -----

/// gpu.cluster_block_id and cluster_id from the block id and the cluster's
/// size, gpu.cluster_dim from the grid's, gpu.cluster_dim_blocks the size;
/// NVVM's %cluster_ctarank (x fastest) and %cluster_nctarank as i32.
// CHECK-LABEL: func.func private @cluster_queries_emulated_thread_0
// The launch's cluster region arguments, then the ops.
// CHECK-COUNT-6: arith.divui
// CHECK:         %[[B:.+]] = call @gpucg_emu_block_id(%c1_i64{{.*}})
// CHECK:         %[[BI:.+]] = arith.index_cast %[[B]]
// CHECK:         %[[S:.+]] = call @gpucg_emu_cluster_size(%c1_i64{{.*}})
// CHECK:         %[[SI:.+]] = arith.index_cast %[[S]]
// CHECK:         %[[IN:.+]] = arith.remui %[[BI]], %[[SI]] : index
// CHECK:         memref.store %[[IN]], %{{.+}}[%c0]
// CHECK:         call @gpucg_emu_block_id(%c2_i64{{.*}})
// CHECK:         call @gpucg_emu_cluster_size(%c2_i64{{.*}})
// CHECK:         %[[ID:.+]] = arith.divui
// CHECK:         memref.store %[[ID]], %{{.+}}[%c1]
// CHECK:         call @gpucg_emu_grid_dim(%c0_i64{{.*}})
// CHECK:         call @gpucg_emu_cluster_size(%c0_i64{{.*}})
// CHECK:         %[[N:.+]] = arith.divui
// CHECK:         memref.store %[[N]], %{{.+}}[%c2]
// CHECK:         %[[SIZE:.+]] = call @gpucg_emu_cluster_size(%c0_i64{{.*}})
// CHECK:         %[[SIZEI:.+]] = arith.index_cast %[[SIZE]]
// CHECK:         memref.store %[[SIZEI]], %{{.+}}[%c3]
// CHECK:         %[[RX:.+]] = arith.remui %{{.+}}, %{{.+}} : index
// CHECK:         %[[RY:.+]] = arith.remui %{{.+}}, %{{.+}} : index
// CHECK:         %[[RZ:.+]] = arith.remui %{{.+}}, %{{.+}} : index
// CHECK:         %[[SX64:.+]] = call @gpucg_emu_cluster_size(%c0_i64{{.*}})
// CHECK:         %[[SX:.+]] = arith.index_cast %[[SX64]]
// CHECK:         %[[SY64:.+]] = call @gpucg_emu_cluster_size(%c1_i64{{.*}})
// CHECK:         %[[SY:.+]] = arith.index_cast %[[SY64]]
// CHECK:         %[[ZROWS:.+]] = arith.muli %[[RZ]], %[[SY]] : index
// CHECK:         %[[ZY:.+]] = arith.addi %[[ZROWS]], %[[RY]] : index
// CHECK:         %[[ZYROWS:.+]] = arith.muli %[[ZY]], %[[SX]] : index
// CHECK:         %[[RANK:.+]] = arith.addi %[[ZYROWS]], %[[RX]] : index
// CHECK:         %[[RANK32:.+]] = arith.index_castui %[[RANK]] : index to i32
// CHECK:         memref.store %[[RANK32]], %{{.+}}[%c0]
// CHECK:         arith.muli
// CHECK:         %[[COUNT:.+]] = arith.muli
// CHECK:         %[[COUNT32:.+]] = arith.index_castui %[[COUNT]] : index to i32
// CHECK:         memref.store %[[COUNT32]], %{{.+}}[%c1]
// CHECK-NOT:     gpu.cluster
// CHECK-NOT:     nvvm.read
func.func @cluster_queries(%out: memref<4xindex>, %ranks: memref<2xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  gpu.launch clusters(%cx, %cy, %cz) in (%scx = %c2, %scy = %c2, %scz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c2, %gz = %c2)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %in = gpu.cluster_block_id y
    memref.store %in, %out[%c0] : memref<4xindex>
    %id = gpu.cluster_id z
    memref.store %id, %out[%c1] : memref<4xindex>
    %n = gpu.cluster_dim x
    memref.store %n, %out[%c2] : memref<4xindex>
    %size = gpu.cluster_dim_blocks x
    memref.store %size, %out[%c3] : memref<4xindex>
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    memref.store %rank, %ranks[%c0] : memref<2xi32>
    %count = nvvm.read.ptx.sreg.cluster.nctarank : i32
    memref.store %count, %ranks[%c1] : memref<2xi32>
    gpu.terminator
  }
  return
}

// -----

/// barrier.cluster: arrive (aligned or not, relaxed or not) and wait, each
/// with its site.
// CHECK-LABEL: func.func private @cluster_barrier_emulated_thread_0
// CHECK:         %[[A0:.+]] = llvm.mlir.addressof @[[ARRIVE:.+]] : !llvm.ptr
// CHECK-NEXT:    call @gpucg_emu_cluster_arrive(%[[A0]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    %[[W0:.+]] = llvm.mlir.addressof @[[WAIT:.+]] : !llvm.ptr
// CHECK-NEXT:    call @gpucg_emu_cluster_wait(%[[W0]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    %[[A1:.+]] = llvm.mlir.addressof @[[ALIGNED:.+]] : !llvm.ptr
// CHECK-NEXT:    call @gpucg_emu_cluster_arrive(%[[A1]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    %[[A2:.+]] = llvm.mlir.addressof @[[RELAXED:.+]] : !llvm.ptr
// CHECK-NEXT:    call @gpucg_emu_cluster_arrive(%[[A2]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    %[[A3:.+]] = llvm.mlir.addressof @{{.+}} : !llvm.ptr
// CHECK-NEXT:    call @gpucg_emu_cluster_arrive(%[[A3]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    %[[W1:.+]] = llvm.mlir.addressof @{{.+}} : !llvm.ptr
// CHECK-NEXT:    call @gpucg_emu_cluster_wait(%[[W1]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    return
// CHECK-DAG: llvm.mlir.global internal constant @[[ARRIVE]]("{{.*}}test-emulate-gpu-cluster.mlir:{{[0-9]+}}:5: nvvm.cluster.arrive\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[WAIT]]("{{.*}}test-emulate-gpu-cluster.mlir:{{[0-9]+}}:5: nvvm.cluster.wait\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[ALIGNED]]("{{.*}}test-emulate-gpu-cluster.mlir:{{[0-9]+}}:5: nvvm.cluster.arrive\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[RELAXED]]("{{.*}}test-emulate-gpu-cluster.mlir:{{[0-9]+}}:5: nvvm.cluster.arrive.relaxed\00")
func.func @cluster_barrier() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  gpu.launch clusters(%cx, %cy, %cz) in (%scx = %c2, %scy = %c1, %scz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    nvvm.cluster.arrive
    nvvm.cluster.wait
    nvvm.cluster.arrive {aligned}
    nvvm.cluster.arrive.relaxed
    nvvm.cluster.arrive.relaxed {aligned}
    nvvm.cluster.wait {aligned}
    gpu.terminator
  }
  return
}

// -----

/// A multicast TMA load: the i16 mask zero-extended, with the runtime's
/// flag (bit 16) that it is a multicast; a load without a mask passes 0.
// CHECK-LABEL: func.func private @tma_multicast_emulated_thread_0
// CHECK-SAME:    (%[[MAP:.+]]: i64, %[[MASK:.+]]: i16)
// CHECK:         %[[FLAG:.+]] = arith.constant 65536 : i32
// CHECK:         %[[WIDE:.+]] = arith.extui %[[MASK]] : i16 to i32
// CHECK:         %[[FLAGGED:.+]] = arith.ori %[[WIDE]], %[[FLAG]] : i32
// CHECK:         call @gpucg_emu_tma_load(%[[MAP]], {{.*}}, %[[FLAGGED]], %{{.+}}) : (i64, i64, i64, i64, i64, i64, i64, i64, i64, i32, i32, !llvm.ptr) -> ()
// CHECK:         %[[NONE:.+]] = arith.constant 0 : i32
// CHECK:         call @gpucg_emu_tma_load(%[[MAP]], {{.*}}, %[[NONE]], %{{.+}}) : (i64, i64, i64, i64, i64, i64, i64, i64, i64, i32, i32, !llvm.ptr) -> ()
!map = !nvgpu.tensormap.descriptor<tensor = memref<8x32xf32, #gpu.address_space<workgroup>>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @tma_multicast(%a: memref<16x32xf32>, %mask: i16) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %u = memref.cast %a : memref<16x32xf32> to memref<*xf32>
  %m = nvgpu.tma.create.descriptor %u box[%c8, %c32] : memref<*xf32> -> !map
  gpu.launch clusters(%cx, %cy, %cz) in (%scx = %c2, %scy = %c1, %scz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             workgroup(%wg : memref<8x32xf32, #gpu.address_space<workgroup>>) {
    %c0 = arith.constant 0 : index
    %b = nvgpu.mbarrier.create -> !barriers
    nvgpu.mbarrier.init %b[%c0], %c1 : !barriers
    nvgpu.tma.async.load %m[%c0, %c0], %b[%c0] to %wg multicast_mask = %mask : !map, !barriers -> memref<8x32xf32, #gpu.address_space<workgroup>>
    nvgpu.tma.async.load %m[%c0, %c0], %b[%c0] to %wg : !map, !barriers -> memref<8x32xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

/// The remote arrival chain: one call with the group, the index and the
/// rank nvvm.mapa names; the address chain goes.
// CHECK-LABEL: func.func private @remote_arrive_emulated_thread_0
// CHECK-SAME:    (%[[RANK:.+]]: i32)
// CHECK-NOT:     nvgpu.
// CHECK-NOT:     llvm.inttoptr
// CHECK-NOT:     nvvm.
// CHECK:         %[[GROUP:.+]] = call @gpucg_emu_mbarrier_group(%c4_i64
// CHECK:         %[[INDEX:.+]] = arith.index_cast %c3 : index to i64
// CHECK:         %[[SITE:.+]] = llvm.mlir.addressof @[[ARRIVE:.+]] : !llvm.ptr
// CHECK:         call @gpucg_emu_mbarrier_arrive_cluster(%[[GROUP]], %[[INDEX]], %[[RANK]], %[[SITE]]) : (i64, i64, i32, !llvm.ptr) -> ()
// CHECK-NOT:     nvgpu.mbarrier.get
// CHECK-NOT:     llvm.inttoptr
// CHECK-NOT:     nvvm.mapa
// CHECK-NOT:     nvvm.mbarrier.arrive
// CHECK:         return
// CHECK:       llvm.mlir.global internal constant @[[ARRIVE]]("{{.*}}test-emulate-gpu-cluster.mlir:{{[0-9]+}}:5: nvvm.mbarrier.arrive\00")
!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
func.func @remote_arrive(%rank: i32) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  gpu.launch clusters(%cx, %cy, %cz) in (%scx = %c2, %scy = %c1, %scz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %bars = nvgpu.mbarrier.create -> !barriers
    %p = nvgpu.mbarrier.get %bars[%c3] : !barriers -> i32
    %ptr = llvm.inttoptr %p : i32 to !llvm.ptr<3>
    %rp = nvvm.mapa %ptr, %rank : !llvm.ptr<3> -> !llvm.ptr<7>
    nvvm.mbarrier.arrive %rp {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
    gpu.terminator
  }
  return
}

// -----

/// A cluster-scope wait on a barrier's address (the wgmma producer's wait
/// on its peer barrier, which its peers' remote arrivals release at
/// cluster scope), beside a remote arrival on the same address: a blocking
/// wait with the group, the index and the parity, whose result is true, so
/// that the kernel's retry loop ends at once; the address chain goes.
// CHECK-LABEL: func.func private @cluster_wait_emulated_thread_0
// CHECK-SAME:    (%[[RANK:.+]]: i32, %[[PARITY:.+]]: i32)
// CHECK-NOT:     nvgpu.
// CHECK-NOT:     llvm.inttoptr
// CHECK-NOT:     nvvm.
// CHECK:         %[[GROUP:.+]] = call @gpucg_emu_mbarrier_group(%c2_i64
// CHECK:         call @gpucg_emu_mbarrier_arrive_cluster(%[[GROUP]], %{{.+}}, %[[RANK]], %{{.+}})
// CHECK:         scf.while : () -> () {
// CHECK:           %[[INDEX:.+]] = arith.index_cast %c1 : index to i64
// CHECK:           %[[SITE:.+]] = llvm.mlir.addressof @[[WAIT:.+]] : !llvm.ptr
// CHECK:           call @gpucg_emu_mbarrier_wait(%[[GROUP]], %[[INDEX]], %[[PARITY]], %[[SITE]]) : (i64, i64, i32, !llvm.ptr) -> ()
// CHECK:           %[[DONE:.+]] = arith.constant true
// CHECK:           %[[NOT:.+]] = arith.xori %[[DONE]], %{{.+}} : i1
// CHECK:           scf.condition(%[[NOT]])
// CHECK-NOT:     nvvm.mbarrier.try_wait
// CHECK:         return
// CHECK:       llvm.mlir.global internal constant @[[WAIT]]("{{.*}}test-emulate-gpu-cluster.mlir:{{[0-9]+}}:{{[0-9]+}}: nvvm.mbarrier.try_wait\00")
!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
func.func @cluster_wait(%rank: i32, %parity: i32) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %true = arith.constant true
  gpu.launch clusters(%cx, %cy, %cz) in (%scx = %c2, %scy = %c1, %scz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %bars = nvgpu.mbarrier.create -> !barriers
    %p = nvgpu.mbarrier.get %bars[%c1] : !barriers -> i32
    %ptr = llvm.inttoptr %p : i32 to !llvm.ptr<3>
    %rp = nvvm.mapa %ptr, %rank : !llvm.ptr<3> -> !llvm.ptr<7>
    nvvm.mbarrier.arrive %rp {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
    scf.while : () -> () {
      %done = nvvm.mbarrier.try_wait %ptr, %parity {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<3>, i32 -> i1
      %again = arith.xori %done, %true : i1
      scf.condition(%again)
    } do {
      scf.yield
    }
    gpu.terminator
  }
  return
}
