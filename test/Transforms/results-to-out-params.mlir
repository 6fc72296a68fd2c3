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

// -----

/// A returned allocation seen through a reshape (gpucg-collapse-elementwise-
/// dims writes an elementwise kernel's result as one row and expands it
/// back): the argument takes the returned type, and the kernel writes it
/// through the reshape undone; the sizes are the expand_shape's (a dynamic
/// one that is dimension 0 of argument 0). A reshape of an argument is
/// the argument: it stays a result.
// CHECK-LABEL: func.func @expanded(
//  CHECK-SAME:     %[[A:[a-z0-9]+]]: memref<?x4x1001xbf16>,
//  CHECK-SAME:     %[[OUT:[a-z0-9]+]]: memref<?x4x1001xbf16> {gpucg.result = ["arg0.dim0", 4, 1001]}) {
//   CHECK-NOT:   memref.alloc
//       CHECK:   %[[ROW:.+]] = memref.collapse_shape %[[OUT]] {{\[}}[0], [1, 2]] : memref<?x4x1001xbf16> into memref<?x4004xbf16>
//       CHECK:   "test.write"(%{{.+}}, %[[ROW]])
//       CHECK:   return
//  CHECK-NEXT: }
func.func @expanded(%a: memref<?x4x1001xbf16>) -> memref<?x4x1001xbf16> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?x4x1001xbf16>
  %ac = memref.collapse_shape %a [[0], [1, 2]] : memref<?x4x1001xbf16> into memref<?x4004xbf16>
  %row = memref.alloc(%n) : memref<?x4004xbf16>
  "test.write"(%ac, %row) : (memref<?x4004xbf16>, memref<?x4004xbf16>) -> ()
  %r = memref.expand_shape %row [[0], [1, 2]] output_shape [%n, 4, 1001] : memref<?x4004xbf16> into memref<?x4x1001xbf16>
  return %r : memref<?x4x1001xbf16>
}

// CHECK-LABEL: func.func @written_in_place(
//  CHECK-SAME:     %[[X:[a-z0-9]+]]: memref<16x1001xf16>) -> memref<16x1001xf16>
//       CHECK:   %[[ROW:.+]] = memref.collapse_shape %[[X]]
//       CHECK:   %[[R:.+]] = memref.expand_shape %[[ROW]]
//       CHECK:   return %[[R]]
func.func @written_in_place(%x: memref<16x1001xf16>) -> memref<16x1001xf16> {
  %row = memref.collapse_shape %x [[0, 1]] : memref<16x1001xf16> into memref<16016xf16>
  "test.write"(%row) : (memref<16016xf16>) -> ()
  %r = memref.expand_shape %row [[0, 1]] output_shape [16, 1001] : memref<16016xf16> into memref<16x1001xf16>
  return %r : memref<16x1001xf16>
}

// CHECK-LABEL: func.func @collapsed_result(
//  CHECK-SAME:     %[[OUT:[a-z0-9]+]]: memref<16016xf16> {gpucg.result = [16016]}) {
//       CHECK:   %[[TILE:.+]] = memref.expand_shape %[[OUT]] {{\[}}[0, 1]] output_shape [16, 1001] : memref<16016xf16> into memref<16x1001xf16>
//       CHECK:   "test.write"(%[[TILE]])
func.func @collapsed_result() -> memref<16016xf16> {
  %tile = memref.alloc() : memref<16x1001xf16>
  "test.write"(%tile) : (memref<16x1001xf16>) -> ()
  %r = memref.collapse_shape %tile [[0, 1]] : memref<16x1001xf16> into memref<16016xf16>
  return %r : memref<16016xf16>
}

/// An allocation collapsed for the kernel and expanded back, as
/// bufferization leaves a collapsed kernel's new tensor of a dynamic size:
/// the two views cancel, and the argument replaces the allocation itself.
// CHECK-LABEL: func.func @round_trip(
//  CHECK-SAME:     %[[A:[a-z0-9]+]]: memref<?x4x1001xf32>,
//  CHECK-SAME:     %[[OUT:[a-z0-9]+]]: memref<?x4x1001xf32> {gpucg.result = ["arg0.dim0", 4, 1001]}) {
//       CHECK:   %[[ROW:.+]] = memref.collapse_shape %[[OUT]] {{\[}}[0], [1, 2]] : memref<?x4x1001xf32> into memref<?x4004xf32>
//       CHECK:   "test.write"(%[[ROW]])
func.func @round_trip(%a: memref<?x4x1001xf32>) -> memref<?x4x1001xf32> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?x4x1001xf32>
  %out = memref.alloc(%n) : memref<?x4x1001xf32>
  %row = memref.collapse_shape %out [[0], [1, 2]] : memref<?x4x1001xf32> into memref<?x4004xf32>
  "test.write"(%row) : (memref<?x4004xf32>) -> ()
  %r = memref.expand_shape %row [[0], [1, 2]] output_shape [%n, 4, 1001] : memref<?x4004xf32> into memref<?x4x1001xf32>
  return %r : memref<?x4x1001xf32>
}
