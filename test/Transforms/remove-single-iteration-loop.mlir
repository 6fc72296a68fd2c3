// RUN: gpucg-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-remove-single-iteration-loop))' \
// RUN:   | FileCheck %s

/// A loop with constant bounds and one iteration is inlined; the induction
/// variable becomes the lower bound and the result the yielded value.
// CHECK-LABEL: func.func @for_static_one_trip
//  CHECK-SAME:   (%[[BUF:.+]]: memref<16xf32>, %[[INIT:.+]]: f32)
//       CHECK:   %[[C0:.+]] = arith.constant 0 : index
//   CHECK-NOT:   scf.for
//       CHECK:   %[[V:.+]] = memref.load %[[BUF]][%[[C0]]]
//       CHECK:   %[[S:.+]] = arith.addf %[[INIT]], %[[V]]
//       CHECK:   return %[[S]]
func.func @for_static_one_trip(%buf: memref<16xf32>, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %r = scf.for %i = %c0 to %c16 step %c16 iter_args(%acc = %init) -> (f32) {
    %v = memref.load %buf[%i] : memref<16xf32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  return %r : f32
}

// -----

/// The workgroup size bounds gpu.thread_id x by 64, so a loop from the thread
/// id to 64 with step 64 runs exactly once on every thread.
// CHECK-LABEL: func.func @for_over_thread_id_x
//  CHECK-SAME:   (%[[BUF:.+]]: memref<64xf32>, %[[INIT:.+]]: f32)
//       CHECK:   %[[TID:.+]] = gpu.thread_id x upper_bound 64
//   CHECK-NOT:   scf.for
//       CHECK:   %[[V:.+]] = memref.load %[[BUF]][%[[TID]]]
//       CHECK:   %[[S:.+]] = arith.addf %[[INIT]], %[[V]]
//       CHECK:   return %[[S]]
func.func @for_over_thread_id_x(%buf: memref<64xf32>, %init: f32) -> f32
    attributes {gpucg.translation_info = #gpucg.translation_info<
      pipeline = SimtDistribute, workgroup_size = [64, 2, 1]>} {
  %c64 = arith.constant 64 : index
  %tid = gpu.thread_id x
  %r = scf.for %i = %tid to %c64 step %c64 iter_args(%acc = %init) -> (f32) {
    %v = memref.load %buf[%i] : memref<64xf32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  return %r : f32
}

// -----

/// Affine expressions of thread ids are bounded too: with 2 threads in y,
/// %ty * 16 is at most 16, so [ty * 16, 32) with step 32 runs once.
// CHECK-LABEL: func.func @for_over_scaled_thread_id_y
//       CHECK:   %[[TY:.+]] = gpu.thread_id y upper_bound 2
//       CHECK:   %[[LB:.+]] = affine.apply #{{.+}}()[%[[TY]]]
//   CHECK-NOT:   scf.for
//       CHECK:   memref.store %{{.+}}, %{{.+}}[%[[LB]]]
func.func @for_over_scaled_thread_id_y(%buf: memref<32xf32>, %v: f32)
    attributes {gpucg.translation_info = #gpucg.translation_info<
      pipeline = SimtDistribute, workgroup_size = [64, 2, 1]>} {
  %c32 = arith.constant 32 : index
  %ty = gpu.thread_id y
  %lb = affine.apply affine_map<()[s0] -> (s0 * 16)>()[%ty]
  scf.for %i = %lb to %c32 step %c32 {
    memref.store %v, %buf[%i] : memref<32xf32>
  }
  return
}

// -----

/// Unmapped scf.forall ops with one iteration are promoted: the
/// parallel_insert_slice becomes an insert_slice into the shared output.
/// Loops nested in a removed loop are removed as well.
// CHECK-LABEL: func.func @nested_forall_and_for
//  CHECK-SAME:   (%[[IN:.+]]: tensor<4xf32>, %[[OUT:.+]]: tensor<4xf32>)
//   CHECK-NOT:   scf.forall
//   CHECK-NOT:   scf.for
//       CHECK:   %[[SLICE:.+]] = tensor.extract_slice %[[IN]]
//       CHECK:   %[[R:.+]] = tensor.insert_slice %[[SLICE]] into %[[OUT]]
//       CHECK:   return %[[R]]
func.func @nested_forall_and_for(%in: tensor<4xf32>, %out: tensor<4xf32>)
    -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.forall (%j) in (1) shared_outs(%o = %out) -> (tensor<4xf32>) {
    %t = scf.for %k = %c0 to %c1 step %c1 iter_args(%a = %in) -> (tensor<4xf32>) {
      scf.yield %a : tensor<4xf32>
    }
    %s = tensor.extract_slice %t[%j] [4] [1] : tensor<4xf32> to tensor<4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%j] [4] [1]
        : tensor<4xf32> into tensor<4xf32>
    }
  }
  return %r : tensor<4xf32>
}

// -----

/// An unmapped forall whose lower bound is a thread id.
// CHECK-LABEL: func.func @forall_over_thread_id
//       CHECK:   %[[TID:.+]] = gpu.thread_id x upper_bound 32
//   CHECK-NOT:   scf.forall
//       CHECK:   memref.store %{{.+}}, %{{.+}}[%[[TID]]]
func.func @forall_over_thread_id(%buf: memref<32xf32>, %v: f32)
    attributes {gpucg.translation_info = #gpucg.translation_info<
      pipeline = SimtDistribute, workgroup_size = [32, 1, 1]>} {
  %tid = gpu.thread_id x
  scf.forall (%i) = (%tid) to (32) step (32) {
    memref.store %v, %buf[%i] : memref<32xf32>
  }
  return
}

// -----

/// Non-index loops are removed when their constant trip count is one.
// CHECK-LABEL: func.func @i32_for_static_one_trip
//       CHECK:   %[[C5:.+]] = arith.constant 5 : i32
//   CHECK-NOT:   scf.for
//       CHECK:   return %[[C5]]
func.func @i32_for_static_one_trip() -> i32 {
  %c5 = arith.constant 5 : i32
  %c6 = arith.constant 6 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c5 to %c6 step %c1 iter_args(%a = %c1) -> (i32) : i32 {
    scf.yield %i : i32
  }
  return %r : i32
}

// -----

/// Two iterations: left alone.
// CHECK-LABEL: func.func @negative_two_trips
//       CHECK:   scf.for
func.func @negative_two_trips(%buf: memref<32xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  scf.for %i = %c0 to %c32 step %c16 {
    memref.store %v, %buf[%i] : memref<32xf32>
  }
  return
}

// -----

/// Without a workgroup size nothing bounds the thread id: threads 64 and up
/// would run zero iterations, so the loop stays and the id gets no bound.
// CHECK-LABEL: func.func @negative_thread_id_without_workgroup_size
//       CHECK:   gpu.thread_id x{{$}}
//       CHECK:   scf.for
func.func @negative_thread_id_without_workgroup_size(%buf: memref<64xf32>,
                                                     %v: f32) {
  %c64 = arith.constant 64 : index
  %tid = gpu.thread_id x
  scf.for %i = %tid to %c64 step %c64 {
    memref.store %v, %buf[%i] : memref<64xf32>
  }
  return
}

// -----

/// With 128 threads in x, threads 64..127 skip the loop: it stays.
// CHECK-LABEL: func.func @negative_more_threads_than_iterations
//       CHECK:   gpu.thread_id x upper_bound 128
//       CHECK:   scf.for
func.func @negative_more_threads_than_iterations(%buf: memref<64xf32>, %v: f32)
    attributes {gpucg.translation_info = #gpucg.translation_info<
      pipeline = SimtDistribute, workgroup_size = [128, 1, 1]>} {
  %c64 = arith.constant 64 : index
  %tid = gpu.thread_id x
  scf.for %i = %tid to %c64 step %c64 {
    memref.store %v, %buf[%i] : memref<64xf32>
  }
  return
}

// -----

/// A tighter upper_bound already on the thread id is kept.
// CHECK-LABEL: func.func @keeps_tighter_thread_id_bound
//       CHECK:   gpu.thread_id x upper_bound 16
//   CHECK-NOT:   scf.for
func.func @keeps_tighter_thread_id_bound(%buf: memref<16xf32>, %v: f32)
    attributes {gpucg.translation_info = #gpucg.translation_info<
      pipeline = SimtDistribute, workgroup_size = [64, 1, 1]>} {
  %c16 = arith.constant 16 : index
  %tid = gpu.thread_id x upper_bound 16
  scf.for %i = %tid to %c16 step %c16 {
    memref.store %v, %buf[%i] : memref<16xf32>
  }
  return
}

// -----

/// A forall mapped to threads is a distribution decision: inlining it would
/// make every thread run the body.
// CHECK-LABEL: func.func @negative_mapped_forall
//       CHECK:   scf.forall
//       CHECK:   mapping = [#gpu.thread<x>]
func.func @negative_mapped_forall(%buf: memref<1xf32>, %v: f32) {
  scf.forall (%i) in (1) {
    memref.store %v, %buf[%i] : memref<1xf32>
  } {mapping = [#gpu.thread<x>]}
  return
}

// -----

/// A loop that runs zero times is not a single-iteration loop.
// CHECK-LABEL: func.func @negative_zero_trips
//       CHECK:   scf.for
func.func @negative_zero_trips(%buf: memref<1xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c0 step %c1 {
    memref.store %v, %buf[%i] : memref<1xf32>
  }
  return
}

// -----

/// An unknown upper bound may give any number of iterations.
// CHECK-LABEL: func.func @negative_dynamic_upper_bound
//       CHECK:   scf.for
func.func @negative_dynamic_upper_bound(%buf: memref<?xf32>, %n: index,
                                        %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    memref.store %v, %buf[%i] : memref<?xf32>
  }
  return
}

// -----

/// One forall dimension runs twice: the whole forall stays.
// CHECK-LABEL: func.func @negative_forall_one_dim_two_trips
//       CHECK:   scf.forall
func.func @negative_forall_one_dim_two_trips(%buf: memref<1x2xf32>, %v: f32) {
  scf.forall (%i, %j) in (1, 2) {
    memref.store %v, %buf[%i, %j] : memref<1x2xf32>
  }
  return
}
