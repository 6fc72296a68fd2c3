// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-test-serialize-threads))' \
// RUN:   | FileCheck %s

/// The workgroup body runs under loops over z, y, x; thread ids become their
/// induction variables.
// CHECK-LABEL: func.func @serialized
//       CHECK:   scf.forall
//       CHECK:     scf.for
//       CHECK:       %[[C2:.+]] = arith.constant 2 : index
//       CHECK:       scf.for %[[TY:.+]] = %{{.+}} to %[[C2]]
//       CHECK:         %[[C8:.+]] = arith.constant 8 : index
//       CHECK:         scf.for %[[TX:.+]] = %{{.+}} to %[[C8]]
//       CHECK:           memref.store %{{.+}}, %{{.+}}[%[[TY]], %[[TX]]]
//   CHECK-NOT:   gpu.thread_id
func.func @serialized(%out: memref<2x8xf32>, %v: f32) attributes {gpu.known_block_size = array<i32: 8, 2, 1>} {
  scf.forall (%i) in (1) {
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    memref.store %v, %out[%ty, %tx] : memref<2x8xf32>
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

/// Without thread ids there is nothing to do.
// CHECK-LABEL: func.func @negative_no_threads
//   CHECK-NOT:   scf.for
func.func @negative_no_threads(%out: memref<8xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  memref.store %v, %out[%c0] : memref<8xf32>
  return
}

// -----

// expected-error @+1 {{'func.func' op uses gpu.thread_id but has no gpu.known_block_size to serialize its threads}}
func.func @no_block_size(%out: memref<8xf32>, %v: f32) {
  %tx = gpu.thread_id x
  memref.store %v, %out[%tx] : memref<8xf32>
  return
}

// -----

func.func @barrier(%out: memref<8xf32>, %v: f32) attributes {gpu.known_block_size = array<i32: 8, 1, 1>} {
  %tx = gpu.thread_id x
  memref.store %v, %out[%tx] : memref<8xf32>
  // expected-error @+1 {{'gpu.barrier' op synchronizes the threads of a workgroup; they cannot run one after another}}
  gpu.barrier
  return
}

// -----

// A warp's collective, like a barrier, needs the threads to run together.
func.func @subgroup_reduce(%out: memref<8xf32>, %v: f32) attributes {gpu.known_block_size = array<i32: 8, 1, 1>} {
  %tx = gpu.thread_id x
  // expected-error @+1 {{'gpu.subgroup_reduce' op synchronizes the threads of a warp; they cannot run one after another}}
  %r = gpu.subgroup_reduce add %v uniform : (f32) -> f32
  memref.store %r, %out[%tx] : memref<8xf32>
  return
}

// -----

func.func @result_of_threads(%v: index) -> index attributes {gpu.known_block_size = array<i32: 8, 1, 1>} {
  %tx = gpu.thread_id x
  %s = arith.addi %tx, %v : index
  // expected-error @+1 {{'func.return' op uses a value computed by the threads of a workgroup; they cannot run one after another}}
  return %s : index
}

// -----

func.func @workgroup_memory(%src: memref<2x1xi1>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [1, 1, 1]>} {
  // expected-error @+1 {{'memref.alloc' op yields workgroup memory ('memref<2x1xi1, #gpu.address_space<workgroup>>'), which a kernel whose threads run one after another on the CPU does not have; gpucg-test-emulate-on-cpu runs such kernels}}
  %smem = memref.alloc() : memref<2x1xi1, #gpu.address_space<workgroup>>
  memref.copy %src, %smem : memref<2x1xi1> to memref<2x1xi1, #gpu.address_space<workgroup>>
  return
}
