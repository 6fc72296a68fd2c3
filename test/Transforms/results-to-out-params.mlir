// RUN: gpucg-opt %s -split-input-file --allow-unregistered-dialect --pass-pipeline='builtin.module(gpucg-results-to-out-params)' \
// RUN:   | gpucg-opt -split-input-file --allow-unregistered-dialect | FileCheck %s

/// A returned allocation becomes the last argument, which the kernel writes
/// instead; its sizes go on the argument (a static size, and a dynamic one
/// that is dimension 0 of argument 0). A returned argument (a destination
/// written in place) stays a result.
// CHECK-LABEL: func.func @linear(
//  CHECK-SAME:     %[[A:[a-z0-9]+]]: memref<?x64xf16>, %[[C:[a-z0-9]+]]: memref<8x72xf32>,
//  CHECK-SAME:     %[[OUT:[a-z0-9]+]]: memref<?x72xf32> {gpucg.result = ["arg0.dim0", 72]})
//  CHECK-SAME:     -> memref<8x72xf32>
//   CHECK-NOT:   memref.alloc
//       CHECK:   "test.write"(%[[A]], %[[OUT]], %[[C]])
//   CHECK-NOT:   memref.dealloc
//       CHECK:   return %[[C]] : memref<8x72xf32>
func.func @linear(%a: memref<?x64xf16>, %c: memref<8x72xf32>) -> (memref<?x72xf32>, memref<8x72xf32>) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %a, %c0 : memref<?x64xf16>
  %out = memref.alloc(%m) : memref<?x72xf32>
  "test.write"(%a, %out, %c) : (memref<?x64xf16>, memref<?x72xf32>, memref<8x72xf32>) -> ()
  return %out, %c : memref<?x72xf32>, memref<8x72xf32>
}

// -----

/// A size the allocation computes: only the caller knows it ("?"). Static
/// results: their sizes; a scalar result stays one.
// CHECK-LABEL: func.func @unknown(
//  CHECK-SAME:     %{{.+}}: memref<?xf32> {gpucg.result = ["?"]}, %{{.+}}: memref<4x4xf16> {gpucg.result = [4, 4]}) -> index
func.func @unknown(%n: index) -> (memref<?xf32>, index, memref<4x4xf16>) {
  %c2 = arith.constant 2 : index
  %size = arith.muli %n, %c2 : index
  %a = memref.alloc(%size) : memref<?xf32>
  %b = memref.alloc() : memref<4x4xf16>
  "test.write"(%a, %b) : (memref<?xf32>, memref<4x4xf16>) -> ()
  return %a, %n, %b : memref<?xf32>, index, memref<4x4xf16>
}

// -----

/// Call sites allocate the new arguments: a static output, and a dynamic
/// one from the call's own argument.
// CHECK-LABEL: func.func @caller(
//  CHECK-SAME:     %[[X:.+]]: memref<?x64xf16>)
//   CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
//   CHECK-DAG:   %[[S:.+]] = memref.alloc() : memref<16xi8>
//       CHECK:   %[[M:.+]] = memref.dim %[[X]], %[[C0]] : memref<?x64xf16>
//       CHECK:   %[[D:.+]] = memref.alloc(%[[M]]) : memref<?x72xf32>
//       CHECK:   call @callee(%[[X]], %[[S]], %[[D]]) : (memref<?x64xf16>, memref<16xi8>, memref<?x72xf32>) -> ()
//       CHECK:   "test.read"(%[[S]], %[[D]])
func.func @callee(%a: memref<?x64xf16>) -> (memref<16xi8>, memref<?x72xf32>) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %a, %c0 : memref<?x64xf16>
  %s = memref.alloc() : memref<16xi8>
  %d = memref.alloc(%m) : memref<?x72xf32>
  "test.write"(%a, %s, %d) : (memref<?x64xf16>, memref<16xi8>, memref<?x72xf32>) -> ()
  return %s, %d : memref<16xi8>, memref<?x72xf32>
}
func.func @caller(%x: memref<?x64xf16>) {
  %s, %d = func.call @callee(%x) : (memref<?x64xf16>) -> (memref<16xi8>, memref<?x72xf32>)
  "test.read"(%s, %d) : (memref<16xi8>, memref<?x72xf32>) -> ()
  return
}
