// The example `make demo` runs: the column loop over thread id x is removed,
// the row loop over thread id y (4 iterations) and the K loop stay.

// RUN: gpucg-opt %S/../../examples/matmul_simt_tile.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-remove-single-iteration-loop))' \
// RUN:   | FileCheck %s

// CHECK-LABEL: func.func @matmul_tile
//  CHECK-SAME:   (%[[A:.+]]: memref<32x64xf32>, %[[B:.+]]: memref<64x32xf32>, %[[C:.+]]: memref<32x32xf32>)
//       CHECK:   %[[TX:.+]] = gpu.thread_id x upper_bound 32
//       CHECK:   %[[TY:.+]] = gpu.thread_id y upper_bound 8
//       CHECK:   scf.for %[[I:.+]] = %[[TY]] to %{{.+}} step %{{.+}} {
//       CHECK:     memref.load %[[C]][%[[I]], %[[TX]]]
//       CHECK:     scf.for
//       CHECK:       memref.load %[[B]][%{{.+}}, %[[TX]]]
//       CHECK:     memref.store %{{.+}}, %[[C]][%[[I]], %[[TX]]]
//   CHECK-NOT:   scf.for
