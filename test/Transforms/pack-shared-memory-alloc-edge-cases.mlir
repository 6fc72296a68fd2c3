// RUN: gpucg-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-pack-shared-memory-alloc))' \
// RUN:   | gpucg-opt -split-input-file | FileCheck %s

// Allocations the pass leaves alone or sizes specially, and IR it must not
// crash on.

/// Index, vector and complex elements have no size gpucg is sure of: those
/// allocations stay as they are; the two f32 ones (overlapping) are packed.
// CHECK-LABEL: func.func @negative_unsized_element_types
//   CHECK-DAG:   memref.alloc() {alignment = 16 : i64} : memref<2048xi8, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.alloc() : memref<16xindex, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.alloc() : memref<16xvector<4xf32>, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.alloc() : memref<16xcomplex<f32>, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @negative_unsized_element_types(%x: memref<256xf32>, %i: memref<16xindex>, %v: memref<16xvector<4xf32>>, %z: memref<16xcomplex<f32>>) {
  %s0 = memref.alloc() : memref<256xf32, #wg>
  %s1 = memref.alloc() : memref<256xf32, #wg>
  %si = memref.alloc() : memref<16xindex, #wg>
  %sv = memref.alloc() : memref<16xvector<4xf32>, #wg>
  %sz = memref.alloc() : memref<16xcomplex<f32>, #wg>
  memref.copy %x, %s0 : memref<256xf32> to memref<256xf32, #wg>
  memref.copy %s1, %x : memref<256xf32, #wg> to memref<256xf32>
  memref.copy %si, %i : memref<16xindex, #wg> to memref<16xindex>
  memref.copy %sv, %v : memref<16xvector<4xf32>, #wg> to memref<16xvector<4xf32>>
  memref.copy %sz, %z : memref<16xcomplex<f32>, #wg> to memref<16xcomplex<f32>>
  return
}

// -----

/// Elements take a power-of-two number of bytes, as the data layout stores
/// them: 10 x i24 is 40 bytes (not 30), 16 x i1 is 16; overlapping, the i1
/// buffer goes at the next 16-byte boundary, 48.
// CHECK-LABEL: func.func @odd_bit_widths
//       CHECK:   %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<64xi8, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c0{{(_[0-9]+)?}}][] : {{.+}} to memref<10xi24, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c48{{(_[0-9]+)?}}][] : {{.+}} to memref<16xi1, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @odd_bit_widths(%x: memref<10xi24>, %y: memref<16xi1>) {
  %s0 = memref.alloc() : memref<10xi24, #wg>
  %s1 = memref.alloc() : memref<16xi1, #wg>
  memref.copy %x, %s0 : memref<10xi24> to memref<10xi24, #wg>
  memref.copy %y, %s1 : memref<16xi1> to memref<16xi1, #wg>
  return
}

// -----

/// An allocation's requested alignment is kept: after the 1040-byte one,
/// the 128-aligned one goes at 1152 (not 1040), the buffer is 128-aligned,
/// and the small one fits first in the gap at 1040.
// CHECK-LABEL: func.func @alignment_kept
//       CHECK:   %[[BUF:.+]] = memref.alloc() {alignment = 128 : i64} : memref<1664xi8, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c0{{(_[0-9]+)?}}][] : {{.+}} to memref<260xf32, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c1152{{(_[0-9]+)?}}][] : {{.+}} to memref<128xf32, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c1040{{(_[0-9]+)?}}][] : {{.+}} to memref<4xf32, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @alignment_kept(%x: memref<260xf32>, %y: memref<128xf32>, %z: memref<4xf32>) {
  %s0 = memref.alloc() : memref<260xf32, #wg>
  %s1 = memref.alloc() {alignment = 128 : i64} : memref<128xf32, #wg>
  %s2 = memref.alloc() : memref<4xf32, #wg>
  memref.copy %x, %s0 : memref<260xf32> to memref<260xf32, #wg>
  memref.copy %y, %s1 : memref<128xf32> to memref<128xf32, #wg>
  memref.copy %z, %s2 : memref<4xf32> to memref<4xf32, #wg>
  return
}

// -----

/// An allocation nobody accesses is never live: it shares bytes with the
/// other.
// CHECK-LABEL: func.func @unused_shares
//       CHECK:   memref.alloc() {alignment = 16 : i64} : memref<1024xi8, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @unused_shares(%x: memref<256xf32>) {
  %s0 = memref.alloc() : memref<256xf32, #wg>
  %s1 = memref.alloc() : memref<64xf32, #wg>
  memref.copy %x, %s0 : memref<256xf32> to memref<256xf32, #wg>
  return
}

// -----

/// A freed allocation cannot become a view (freeing a view is wrong): it
/// stays; with one allocation left, nothing is packed.
// CHECK-LABEL: func.func @negative_freed
//   CHECK-DAG:   memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
//   CHECK-NOT:   memref.view
#wg = #gpu.address_space<workgroup>
func.func @negative_freed(%x: memref<256xf32>, %y: memref<64xf32>) {
  %s0 = memref.alloc() : memref<256xf32, #wg>
  %s1 = memref.alloc() : memref<64xf32, #wg>
  memref.copy %x, %s0 : memref<256xf32> to memref<256xf32, #wg>
  memref.copy %y, %s1 : memref<64xf32> to memref<64xf32, #wg>
  memref.dealloc %s1 : memref<64xf32, #wg>
  return
}

// -----

/// A buffer whose address leaves the memref type cannot be followed: it
/// keeps bytes of its own although a barrier separates the visible uses.
// CHECK-LABEL: func.func @negative_escaping_address
//       CHECK:   memref.alloc() {alignment = 16 : i64} : memref<1280xi8, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @negative_escaping_address(%x: memref<256xf32>, %y: memref<64xf32>) -> index {
  %s0 = memref.alloc() : memref<256xf32, #wg>
  %s1 = memref.alloc() : memref<64xf32, #wg>
  memref.copy %x, %s0 : memref<256xf32> to memref<256xf32, #wg>
  %p = memref.extract_aligned_pointer_as_index %s0 : memref<256xf32, #wg> -> index
  gpu.barrier
  memref.copy %y, %s1 : memref<64xf32> to memref<64xf32, #wg>
  return %p : index
}

// -----

/// A gpu.launch body has workgroup memory of its own, not the function's:
/// its allocations are left alone.
// CHECK-LABEL: func.func @negative_gpu_launch
//       CHECK:   gpu.launch
//   CHECK-DAG:     memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
//   CHECK-DAG:     memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
//   CHECK-NOT:   memref.view
#wg = #gpu.address_space<workgroup>
func.func @negative_gpu_launch(%x: memref<256xf32>, %y: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %s0 = memref.alloc() : memref<256xf32, #wg>
    %s1 = memref.alloc() : memref<64xf32, #wg>
    memref.copy %x, %s0 : memref<256xf32> to memref<256xf32, #wg>
    gpu.barrier
    memref.copy %y, %s1 : memref<64xf32> to memref<64xf32, #wg>
    gpu.terminator
  }
  return
}

// -----

/// Only control flow (scf, affine, gpu.warp_execute_on_lane_0) shares the
/// function's workgroup memory. A module nested in the function is isolated
/// from above: the allocations of its function are left alone, and those of
/// the outer function's scf.execute_region are packed.
// CHECK-LABEL: func.func @negative_nested_module
//       CHECK:   %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<1024xi8, #gpu.address_space<workgroup>>
//       CHECK:   %[[V0:.+]] = memref.view %[[BUF]]{{.+}} to memref<256xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[V1:.+]] = memref.view %[[BUF]]{{.+}} to memref<64xf32, #gpu.address_space<workgroup>>
//       CHECK:   builtin.module
//       CHECK:     func.func @inner
//  CHECK-NEXT:       memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
//  CHECK-NEXT:       memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
//   CHECK-NOT:       memref.view
//       CHECK:   scf.execute_region
//  CHECK-NEXT:     memref.copy %{{.+}}, %[[V0]]
//       CHECK:     memref.copy %{{.+}}, %[[V1]]
#wg = #gpu.address_space<workgroup>
func.func @negative_nested_module(%x: memref<256xf32>, %y: memref<64xf32>) {
  builtin.module {
    func.func @inner(%a: memref<256xf32>, %b: memref<64xf32>) {
      %s0 = memref.alloc() : memref<256xf32, #wg>
      %s1 = memref.alloc() : memref<64xf32, #wg>
      memref.copy %a, %s0 : memref<256xf32> to memref<256xf32, #wg>
      gpu.barrier
      memref.copy %b, %s1 : memref<64xf32> to memref<64xf32, #wg>
      return
    }
  }
  scf.execute_region {
    %s0 = memref.alloc() : memref<256xf32, #wg>
    %s1 = memref.alloc() : memref<64xf32, #wg>
    memref.copy %x, %s0 : memref<256xf32> to memref<256xf32, #wg>
    gpu.barrier
    memref.copy %y, %s1 : memref<64xf32> to memref<64xf32, #wg>
    scf.yield
  }
  return
}

// -----

/// Uses in different blocks of the function body have no common block:
/// no sharing, and no crash.
// CHECK-LABEL: func.func @negative_uses_in_several_blocks
//       CHECK:   memref.alloc() {alignment = 16 : i64} : memref<1280xi8, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @negative_uses_in_several_blocks(%x: memref<256xf32>, %y: memref<64xf32>, %p: i1) {
  %s0 = memref.alloc() : memref<256xf32, #wg>
  %s1 = memref.alloc() : memref<64xf32, #wg>
  memref.copy %x, %s0 : memref<256xf32> to memref<256xf32, #wg>
  cf.cond_br %p, ^a, ^b
^a:
  memref.copy %y, %s1 : memref<64xf32> to memref<64xf32, #wg>
  cf.br ^b
^b:
  memref.copy %s0, %x : memref<256xf32, #wg> to memref<256xf32>
  return
}

// -----

/// Zero-sized and external functions: nothing breaks.
// CHECK-LABEL: func.func @zero_sized
//       CHECK:   memref.alloc() {alignment = 16 : i64} : memref<1024xi8, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
func.func @zero_sized(%x: memref<256xf32>, %y: memref<0xf32>) {
  %s0 = memref.alloc() : memref<256xf32, #wg>
  %s1 = memref.alloc() : memref<0xf32, #wg>
  memref.copy %x, %s0 : memref<256xf32> to memref<256xf32, #wg>
  memref.copy %y, %s1 : memref<0xf32> to memref<0xf32, #wg>
  return
}
// CHECK-LABEL: func.func private @external
func.func private @external(memref<4xf32>)
