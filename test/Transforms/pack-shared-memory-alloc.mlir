// RUN: gpucg-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-pack-shared-memory-alloc))' \
// RUN:   | gpucg-opt -split-input-file | FileCheck %s

// Liveness cases. A is 1024 bytes (32x16xf16), B 4096 (32x32xf32): when
// they share, the buffer is 4096 bytes with both at 0; when they do not, it
// is 5120 bytes, B (larger, placed first) at 0 and A at 4096.

/// The two paths of workgroup specialization never run together: their
/// buffers share bytes. The 1024-byte A and B buffers of each path take
/// offsets 0 and 1024 in a 2048-byte buffer.
// CHECK-LABEL: func.func @exclusive_branches
//       CHECK:   %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<2048xi8, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c0{{(_[0-9]+)?}}][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<32x16xf16, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c1024{{(_[0-9]+)?}}][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<16x32xf16, #gpu.address_space<workgroup>>
//   CHECK-NOT:   memref.alloc()
func.func @exclusive_branches(%a: memref<32x16xf16>, %b: memref<16x32xf16>, %full: i1) {
  %a0 = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
  %b0 = memref.alloc() : memref<16x32xf16, #gpu.address_space<workgroup>>
  %a1 = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
  %b1 = memref.alloc() : memref<16x32xf16, #gpu.address_space<workgroup>>
  scf.if %full {
    linalg.copy ins(%a : memref<32x16xf16>) outs(%a0 : memref<32x16xf16, #gpu.address_space<workgroup>>)
    linalg.copy ins(%b : memref<16x32xf16>) outs(%b0 : memref<16x32xf16, #gpu.address_space<workgroup>>)
  } else {
    linalg.copy ins(%a : memref<32x16xf16>) outs(%a1 : memref<32x16xf16, #gpu.address_space<workgroup>>)
    linalg.copy ins(%b : memref<16x32xf16>) outs(%b1 : memref<16x32xf16, #gpu.address_space<workgroup>>)
  }
  return
}

// -----

/// A barrier between the last use of one buffer and the first use of the
/// other, in a block that runs once: they share.
// CHECK-LABEL: func.func @barrier_separated
//       CHECK:   %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<4096xi8, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c0{{(_[0-9]+)?}}][] : {{.+}} to memref<32x32xf32, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c0{{(_[0-9]+)?}}][] : {{.+}} to memref<32x16xf16, #gpu.address_space<workgroup>>
func.func @barrier_separated(%a: memref<32x16xf16>, %c: memref<32x32xf32>) {
  %sa = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
  %sb = memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
  linalg.copy ins(%a : memref<32x16xf16>) outs(%sa : memref<32x16xf16, #gpu.address_space<workgroup>>)
  gpu.barrier
  linalg.copy ins(%sb : memref<32x32xf32, #gpu.address_space<workgroup>>) outs(%c : memref<32x32xf32>)
  return
}

// -----

/// Both live at once (no barrier between them): disjoint offsets.
// CHECK-LABEL: func.func @negative_overlapping
//       CHECK:   %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<5120xi8, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c0{{(_[0-9]+)?}}][] : {{.+}} to memref<32x32xf32, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c4096{{(_[0-9]+)?}}][] : {{.+}} to memref<32x16xf16, #gpu.address_space<workgroup>>
func.func @negative_overlapping(%a: memref<32x16xf16>, %c: memref<32x32xf32>) {
  %sa = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
  %sb = memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
  linalg.copy ins(%a : memref<32x16xf16>) outs(%sa : memref<32x16xf16, #gpu.address_space<workgroup>>)
  linalg.copy ins(%sb : memref<32x32xf32, #gpu.address_space<workgroup>>) outs(%c : memref<32x32xf32>)
  return
}

// -----

/// One allocation: nothing to pack.
// CHECK-LABEL: func.func @negative_single
//       CHECK:   memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
//   CHECK-NOT:   memref.view
func.func @negative_single(%a: memref<32x16xf16>) {
  %sa = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
  linalg.copy ins(%a : memref<32x16xf16>) outs(%sa : memref<32x16xf16, #gpu.address_space<workgroup>>)
  return
}

// -----

/// The hardening issue's race: A and B in one loop body with a single
/// barrier between them. Iteration i+1 writes A while slow threads may still
/// read B of iteration i: no barrier on that wrap-around path, no sharing.
// CHECK-LABEL: func.func @negative_loop_single_barrier
//       CHECK:   %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<5120xi8, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c0{{(_[0-9]+)?}}][] : {{.+}} to memref<32x32xf32, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c4096{{(_[0-9]+)?}}][] : {{.+}} to memref<32x16xf16, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @negative_loop_single_barrier(%a: memref<32x16xf16>, %c: memref<32x32xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = memref.alloc() : memref<32x16xf16, #wg>
  %sb = memref.alloc() : memref<32x32xf32, #wg>
  scf.for %i = %c0 to %n step %c1 {
    linalg.copy ins(%a : memref<32x16xf16>) outs(%sa : memref<32x16xf16, #wg>)
    gpu.barrier
    linalg.copy ins(%sb : memref<32x32xf32, #wg>) outs(%c : memref<32x32xf32>)
  }
  return
}

// -----

/// The same loop with a second barrier after B's last use: every path from
/// one buffer's accesses to the other's, across iterations too, meets a
/// barrier. They share.
// CHECK-LABEL: func.func @loop_barrier_at_end
//       CHECK:   %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<4096xi8, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c0{{(_[0-9]+)?}}][] : {{.+}} to memref<32x32xf32, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c0{{(_[0-9]+)?}}][] : {{.+}} to memref<32x16xf16, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @loop_barrier_at_end(%a: memref<32x16xf16>, %c: memref<32x32xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = memref.alloc() : memref<32x16xf16, #wg>
  %sb = memref.alloc() : memref<32x32xf32, #wg>
  scf.for %i = %c0 to %n step %c1 {
    linalg.copy ins(%a : memref<32x16xf16>) outs(%sa : memref<32x16xf16, #wg>)
    gpu.barrier
    linalg.copy ins(%sb : memref<32x32xf32, #wg>) outs(%c : memref<32x32xf32>)
    gpu.barrier
  }
  return
}

// -----

/// The wrap-around barrier may also sit before A's first use, at the start
/// of the body. They share.
// CHECK-LABEL: func.func @loop_barrier_at_start
//       CHECK:   memref.alloc() {alignment = 16 : i64} : memref<4096xi8, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @loop_barrier_at_start(%a: memref<32x16xf16>, %c: memref<32x32xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = memref.alloc() : memref<32x16xf16, #wg>
  %sb = memref.alloc() : memref<32x32xf32, #wg>
  scf.for %i = %c0 to %n step %c1 {
    gpu.barrier
    linalg.copy ins(%a : memref<32x16xf16>) outs(%sa : memref<32x16xf16, #wg>)
    gpu.barrier
    linalg.copy ins(%sb : memref<32x32xf32, #wg>) outs(%c : memref<32x32xf32>)
  }
  return
}

// -----

/// Exclusive branches inside a loop: iteration i may take the then-branch
/// (A) and iteration i+1 the else-branch (B), writing B's bytes while slow
/// threads still read A. No barrier in the loop body: no sharing.
// CHECK-LABEL: func.func @negative_exclusive_branches_in_loop
//       CHECK:   %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<5120xi8, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c0{{(_[0-9]+)?}}][] : {{.+}} to memref<32x32xf32, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c4096{{(_[0-9]+)?}}][] : {{.+}} to memref<32x16xf16, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @negative_exclusive_branches_in_loop(%a: memref<32x16xf16>, %c: memref<32x32xf32>, %n: index, %full: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = memref.alloc() : memref<32x16xf16, #wg>
  %sb = memref.alloc() : memref<32x32xf32, #wg>
  scf.for %i = %c0 to %n step %c1 {
    scf.if %full {
      linalg.copy ins(%a : memref<32x16xf16>) outs(%sa : memref<32x16xf16, #wg>)
    } else {
      linalg.copy ins(%sb : memref<32x32xf32, #wg>) outs(%c : memref<32x32xf32>)
    }
  }
  return
}

// -----

/// Exclusive branches inside a loop whose body also has a barrier after the
/// scf.if: one iteration's branch is done before the next one's starts.
/// They share.
// CHECK-LABEL: func.func @exclusive_branches_in_loop_with_barrier
//       CHECK:   memref.alloc() {alignment = 16 : i64} : memref<4096xi8, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @exclusive_branches_in_loop_with_barrier(%a: memref<32x16xf16>, %c: memref<32x32xf32>, %n: index, %full: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = memref.alloc() : memref<32x16xf16, #wg>
  %sb = memref.alloc() : memref<32x32xf32, #wg>
  scf.for %i = %c0 to %n step %c1 {
    scf.if %full {
      linalg.copy ins(%a : memref<32x16xf16>) outs(%sa : memref<32x16xf16, #wg>)
    } else {
      linalg.copy ins(%sb : memref<32x32xf32, #wg>) outs(%c : memref<32x32xf32>)
    }
    gpu.barrier
  }
  return
}

// -----

/// The common block is not a loop body but an scf.if branch inside a loop:
/// it still runs once per iteration, so one barrier is not enough.
// CHECK-LABEL: func.func @negative_branch_in_loop
//       CHECK:   memref.alloc() {alignment = 16 : i64} : memref<5120xi8, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @negative_branch_in_loop(%a: memref<32x16xf16>, %c: memref<32x32xf32>, %n: index, %p: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = memref.alloc() : memref<32x16xf16, #wg>
  %sb = memref.alloc() : memref<32x32xf32, #wg>
  scf.for %i = %c0 to %n step %c1 {
    scf.if %p {
      linalg.copy ins(%a : memref<32x16xf16>) outs(%sa : memref<32x16xf16, #wg>)
      gpu.barrier
      linalg.copy ins(%sb : memref<32x32xf32, #wg>) outs(%c : memref<32x32xf32>)
    }
  }
  return
}

// -----

/// Nested loops: the wrap-around barrier is in the outer body, but A and B
/// share the inner body, which repeats without passing it. No sharing.
// CHECK-LABEL: func.func @negative_nested_loop_outer_barrier
//       CHECK:   memref.alloc() {alignment = 16 : i64} : memref<5120xi8, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @negative_nested_loop_outer_barrier(%a: memref<32x16xf16>, %c: memref<32x32xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = memref.alloc() : memref<32x16xf16, #wg>
  %sb = memref.alloc() : memref<32x32xf32, #wg>
  scf.for %i = %c0 to %n step %c1 {
    gpu.barrier
    scf.for %j = %c0 to %n step %c1 {
      linalg.copy ins(%a : memref<32x16xf16>) outs(%sa : memref<32x16xf16, #wg>)
      gpu.barrier
      linalg.copy ins(%sb : memref<32x32xf32, #wg>) outs(%c : memref<32x32xf32>)
    }
  }
  return
}

// -----

/// Nested loops: A in one inner loop, B in the next, both in the outer body
/// with barriers between them and at the end of the outer body. The ranges
/// are compared in the outer body, where both barriers are. They share.
// CHECK-LABEL: func.func @nested_loops_separated
//       CHECK:   memref.alloc() {alignment = 16 : i64} : memref<4096xi8, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @nested_loops_separated(%a: memref<32x16xf16>, %c: memref<32x32xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = memref.alloc() : memref<32x16xf16, #wg>
  %sb = memref.alloc() : memref<32x32xf32, #wg>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      linalg.copy ins(%a : memref<32x16xf16>) outs(%sa : memref<32x16xf16, #wg>)
    }
    gpu.barrier
    scf.for %j = %c0 to %n step %c1 {
      linalg.copy ins(%sb : memref<32x32xf32, #wg>) outs(%c : memref<32x32xf32>)
    }
    gpu.barrier
  }
  return
}

// -----

/// The same without the barrier at the end of the outer body: the next
/// outer iteration's A races with this one's B. No sharing.
// CHECK-LABEL: func.func @negative_nested_loops_no_wrap_barrier
//       CHECK:   memref.alloc() {alignment = 16 : i64} : memref<5120xi8, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @negative_nested_loops_no_wrap_barrier(%a: memref<32x16xf16>, %c: memref<32x32xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = memref.alloc() : memref<32x16xf16, #wg>
  %sb = memref.alloc() : memref<32x32xf32, #wg>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      linalg.copy ins(%a : memref<32x16xf16>) outs(%sa : memref<32x16xf16, #wg>)
    }
    gpu.barrier
    scf.for %j = %c0 to %n step %c1 {
      linalg.copy ins(%sb : memref<32x32xf32, #wg>) outs(%c : memref<32x32xf32>)
    }
  }
  return
}

// -----

/// scf.while's after region repeats like a loop body: one barrier between
/// A and B is not enough.
// CHECK-LABEL: func.func @negative_while_single_barrier
//       CHECK:   memref.alloc() {alignment = 16 : i64} : memref<5120xi8, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @negative_while_single_barrier(%a: memref<32x16xf16>, %c: memref<32x32xf32>, %p: i1) {
  %sa = memref.alloc() : memref<32x16xf16, #wg>
  %sb = memref.alloc() : memref<32x32xf32, #wg>
  scf.while : () -> () {
    scf.condition(%p)
  } do {
    linalg.copy ins(%a : memref<32x16xf16>) outs(%sa : memref<32x16xf16, #wg>)
    gpu.barrier
    linalg.copy ins(%sb : memref<32x32xf32, #wg>) outs(%c : memref<32x32xf32>)
    scf.yield
  }
  return
}

// -----

/// scf.while with the wrap-around barrier at the end of the after region:
/// they share.
// CHECK-LABEL: func.func @while_barrier_at_end
//       CHECK:   memref.alloc() {alignment = 16 : i64} : memref<4096xi8, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @while_barrier_at_end(%a: memref<32x16xf16>, %c: memref<32x32xf32>, %p: i1) {
  %sa = memref.alloc() : memref<32x16xf16, #wg>
  %sb = memref.alloc() : memref<32x32xf32, #wg>
  scf.while : () -> () {
    scf.condition(%p)
  } do {
    linalg.copy ins(%a : memref<32x16xf16>) outs(%sa : memref<32x16xf16, #wg>)
    gpu.barrier
    linalg.copy ins(%sb : memref<32x32xf32, #wg>) outs(%c : memref<32x32xf32>)
    gpu.barrier
    scf.yield
  }
  return
}

// -----

/// A in scf.while's before region, B in its after region: the regions
/// follow each other in a cycle, they are not exclusive. No sharing.
// CHECK-LABEL: func.func @negative_while_before_after
//       CHECK:   memref.alloc() {alignment = 16 : i64} : memref<5120xi8, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @negative_while_before_after(%a: memref<32x16xf16>, %c: memref<32x32xf32>, %p: i1) {
  %sa = memref.alloc() : memref<32x16xf16, #wg>
  %sb = memref.alloc() : memref<32x32xf32, #wg>
  scf.while : () -> () {
    linalg.copy ins(%a : memref<32x16xf16>) outs(%sa : memref<32x16xf16, #wg>)
    scf.condition(%p)
  } do {
    linalg.copy ins(%sb : memref<32x32xf32, #wg>) outs(%c : memref<32x32xf32>)
    scf.yield
  }
  return
}

// -----

/// An scf.forall mapped to workgroups runs one iteration per workgroup, so
/// its body does not repeat within one workgroup's memory: one barrier is
/// enough (gpucg's pipelines pack inside such a forall).
// CHECK-LABEL: func.func @forall_mapped_to_blocks
//       CHECK:   memref.alloc() {alignment = 16 : i64} : memref<4096xi8, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @forall_mapped_to_blocks(%a: memref<32x16xf16>, %c: memref<32x32xf32>) {
  %sa = memref.alloc() : memref<32x16xf16, #wg>
  %sb = memref.alloc() : memref<32x32xf32, #wg>
  scf.forall (%i, %j) in (8, 8) {
    linalg.copy ins(%a : memref<32x16xf16>) outs(%sa : memref<32x16xf16, #wg>)
    gpu.barrier
    linalg.copy ins(%sb : memref<32x32xf32, #wg>) outs(%c : memref<32x32xf32>)
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

// -----

/// An scf.forall without a workgroup mapping may run several iterations in
/// one workgroup: its body repeats. No sharing.
// CHECK-LABEL: func.func @negative_forall_unmapped
//       CHECK:   memref.alloc() {alignment = 16 : i64} : memref<5120xi8, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @negative_forall_unmapped(%a: memref<32x16xf16>, %c: memref<32x32xf32>) {
  %sa = memref.alloc() : memref<32x16xf16, #wg>
  %sb = memref.alloc() : memref<32x32xf32, #wg>
  scf.forall (%i) in (4) {
    linalg.copy ins(%a : memref<32x16xf16>) outs(%sa : memref<32x16xf16, #wg>)
    gpu.barrier
    linalg.copy ins(%sb : memref<32x32xf32, #wg>) outs(%c : memref<32x32xf32>)
  }
  return
}

// -----

/// A loop in the control flow graph (a block that branches back to itself)
/// repeats like an scf.for body. No sharing.
// CHECK-LABEL: func.func @negative_cfg_loop
//       CHECK:   memref.alloc() {alignment = 16 : i64} : memref<5120xi8, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @negative_cfg_loop(%a: memref<32x16xf16>, %c: memref<32x32xf32>, %p: i1) {
  %sa = memref.alloc() : memref<32x16xf16, #wg>
  %sb = memref.alloc() : memref<32x32xf32, #wg>
  cf.br ^loop
^loop:
  linalg.copy ins(%a : memref<32x16xf16>) outs(%sa : memref<32x16xf16, #wg>)
  gpu.barrier
  linalg.copy ins(%sb : memref<32x32xf32, #wg>) outs(%c : memref<32x32xf32>)
  cf.cond_br %p, ^loop, ^exit
^exit:
  return
}

// -----

/// An op with a region that is neither a loop nor a RegionBranchOpInterface
/// (here a linalg.generic body, run once per element) may repeat it. No
/// sharing.
// CHECK-LABEL: func.func @negative_unknown_region
//       CHECK:   memref.alloc() {alignment = 16 : i64} : memref<5120xi8, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @negative_unknown_region(%x: memref<8xf32>, %y: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %sa = memref.alloc() : memref<256xf32, #wg>
  %sb = memref.alloc() : memref<32x32xf32, #wg>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                  iterator_types = ["parallel"]}
      ins(%x : memref<8xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    memref.store %in, %sa[%c0] : memref<256xf32, #wg>
    gpu.barrier
    %v = memref.load %sb[%c0, %c0] : memref<32x32xf32, #wg>
    linalg.yield %v : f32
  }
  return
}

// -----

/// A reaches its last use through a loop's iter_args and result, after B's
/// first use: the alias is followed, and they do not share.
// CHECK-LABEL: func.func @negative_iter_arg_alias
//       CHECK:   memref.alloc() {alignment = 16 : i64} : memref<5120xi8, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @negative_iter_arg_alias(%a: memref<32x16xf16>, %c: memref<32x32xf32>, %out: memref<32x16xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = memref.alloc() : memref<32x16xf16, #wg>
  %sb = memref.alloc() : memref<32x32xf32, #wg>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%buf = %sa) -> (memref<32x16xf16, #wg>) {
    linalg.copy ins(%a : memref<32x16xf16>) outs(%buf : memref<32x16xf16, #wg>)
    scf.yield %buf : memref<32x16xf16, #wg>
  }
  gpu.barrier
  linalg.copy ins(%sb : memref<32x32xf32, #wg>) outs(%c : memref<32x32xf32>)
  linalg.copy ins(%r : memref<32x16xf16, #wg>) outs(%out : memref<32x16xf16>)
  return
}

// -----

/// An asynchronous copy into A is only complete at the wait on its token,
/// after B's use: the token is followed, and they do not share.
// CHECK-LABEL: func.func @negative_async_copy_pending
//       CHECK:   memref.alloc() {alignment = 16 : i64} : memref<5120xi8, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @negative_async_copy_pending(%g: memref<256xf32>, %c: memref<32x32xf32>) {
  %c0 = arith.constant 0 : index
  %sa = memref.alloc() : memref<256xf32, #wg>
  %sb = memref.alloc() : memref<32x32xf32, #wg>
  %token = nvgpu.device_async_copy %g[%c0], %sa[%c0], 4 : memref<256xf32> to memref<256xf32, #wg>
  %group = nvgpu.device_async_create_group %token
  gpu.barrier
  linalg.copy ins(%sb : memref<32x32xf32, #wg>) outs(%c : memref<32x32xf32>)
  nvgpu.device_async_wait %group
  return
}
