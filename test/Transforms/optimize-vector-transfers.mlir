// RUN: gpucg-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(gpucg-optimize-vector-transfers))' | FileCheck %s
// Everything printed parses and verifies again.
// RUN: gpucg-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(gpucg-optimize-vector-transfers))' | gpucg-opt --split-input-file > /dev/null

// The seed row sum's K loop: the accumulator, read and written at the same
// loop-invariant place (its index computed in the loop, as folded views
// leave it), moves out of the loop and is carried in registers.
// CHECK-LABEL: func.func @row_sum_k_loop
//       CHECK:   %[[ROW:.+]] = affine.apply
//       CHECK:   %[[INIT:.+]] = vector.transfer_read %[[C:.+]][%[[ROW]]]
//       CHECK:   %[[SUM:.+]] = scf.for {{.*}} iter_args(%[[ACC:.+]] = %[[INIT]]) -> (vector<4xf32>) {
//       CHECK:     vector.transfer_read %{{.+}}[%[[ROW]], %{{.+}}]{{.*}} vector<4x4xf32>
//       CHECK:     %[[R:.+]] = vector.multi_reduction <add>, %{{.+}}, %[[ACC]] [1]
//       CHECK:     scf.yield %[[R]] : vector<4xf32>
//       CHECK:   }
//       CHECK:   vector.transfer_write %[[SUM]], %[[C]][%[[ROW]]]
func.func @row_sum_k_loop(%a: memref<100000x100xf32>, %c: memref<100000xf32>, %wg: index, %tid: index) {
  %pad = ub.poison : f32
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c100 = arith.constant 100 : index
  scf.for %k = %c0 to %c100 step %c4 {
    %row = affine.apply affine_map<()[s0, s1] -> (s0 + s1 * 4)>()[%wg, %tid]
    %v = vector.transfer_read %a[%row, %k], %pad {in_bounds = [true, true]} : memref<100000x100xf32>, vector<4x4xf32>
    %row2 = affine.apply affine_map<()[s0, s1] -> (s0 + s1 * 4)>()[%wg, %tid]
    %acc = vector.transfer_read %c[%row2], %pad {in_bounds = [true]} : memref<100000xf32>, vector<4xf32>
    %r = vector.multi_reduction <add>, %v, %acc [1] : vector<4x4xf32> to vector<4xf32>
    %row3 = affine.apply affine_map<()[s0, s1] -> (s0 + s1 * 4)>()[%wg, %tid]
    vector.transfer_write %r, %c[%row3] {in_bounds = [true]} : vector<4xf32>, memref<100000xf32>
  }
  return
}

// -----

// Not hoisted: the loop also writes another part of the accumulator's
// buffer (which may be what the pair reads), and a pair whose location
// changes with the loop.
// CHECK-LABEL: func.func @not_hoisted
//       CHECK:   scf.for
//  CHECK-SAME:   {
//       CHECK:     vector.transfer_read %[[C:.+]][%{{.+}}]
//       CHECK:     vector.transfer_write %{{.+}}, %[[C]]
//       CHECK:     vector.transfer_write
//       CHECK:   }
//       CHECK:   scf.for
//  CHECK-SAME:   {
//       CHECK:     vector.transfer_read
//       CHECK:     vector.transfer_write
//       CHECK:   }
func.func @not_hoisted(%c: memref<64xf32>, %i: index, %j: index) {
  %pad = ub.poison : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant dense<1.0> : vector<4xf32>
  scf.for %k = %c0 to %c8 step %c1 {
    %acc = vector.transfer_read %c[%i], %pad {in_bounds = [true]} : memref<64xf32>, vector<4xf32>
    %r = arith.addf %acc, %one : vector<4xf32>
    vector.transfer_write %r, %c[%i] {in_bounds = [true]} : vector<4xf32>, memref<64xf32>
    vector.transfer_write %one, %c[%j] {in_bounds = [true]} : vector<4xf32>, memref<64xf32>
  }
  scf.for %k = %c0 to %c8 step %c1 {
    %acc = vector.transfer_read %c[%k], %pad {in_bounds = [true]} : memref<64xf32>, vector<4xf32>
    %r = arith.addf %acc, %one : vector<4xf32>
    vector.transfer_write %r, %c[%k] {in_bounds = [true]} : vector<4xf32>, memref<64xf32>
  }
  return
}

// -----

// Without barriers, a value written and read back is forwarded and the
// overwritten write dropped; unit dimensions go.
// CHECK-LABEL: func.func @forwarded
//  CHECK-SAME:   (%[[BUF:.+]]: memref<1x4xf32>, %[[V:.+]]: vector<4xf32>)
//   CHECK-NOT:   vector.transfer_read
//       CHECK:   %[[D:.+]] = arith.addf %[[V]], %[[V]] : vector<4xf32>
//       CHECK:   vector.transfer_write %[[D]], %[[BUF]][%c0, %c0] {in_bounds = [true]} : vector<4xf32>, memref<1x4xf32>
//   CHECK-NOT:   vector.transfer_write
func.func @forwarded(%buf: memref<1x4xf32>, %v: vector<4xf32>) {
  %pad = ub.poison : f32
  %c0 = arith.constant 0 : index
  %v2 = vector.shape_cast %v : vector<4xf32> to vector<1x4xf32>
  vector.transfer_write %v2, %buf[%c0, %c0] {in_bounds = [true, true]} : vector<1x4xf32>, memref<1x4xf32>
  %r = vector.transfer_read %buf[%c0, %c0], %pad {in_bounds = [true, true]} : memref<1x4xf32>, vector<1x4xf32>
  %d = arith.addf %r, %r : vector<1x4xf32>
  vector.transfer_write %d, %buf[%c0, %c0] {in_bounds = [true, true]} : vector<1x4xf32>, memref<1x4xf32>
  return
}

// -----

// With a barrier another thread may have written between the write and
// the read: both stay.
// CHECK-LABEL: func.func @barrier_keeps_transfers
//       CHECK:   vector.transfer_write
//       CHECK:   gpu.barrier
//       CHECK:   vector.transfer_read
//       CHECK:   vector.transfer_write
func.func @barrier_keeps_transfers(%buf: memref<4xf32, #gpu.address_space<workgroup>>, %v: vector<4xf32>) {
  %pad = ub.poison : f32
  %c0 = arith.constant 0 : index
  vector.transfer_write %v, %buf[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %r = vector.transfer_read %buf[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  %d = arith.addf %r, %r : vector<4xf32>
  vector.transfer_write %d, %buf[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32, #gpu.address_space<workgroup>>
  return
}
