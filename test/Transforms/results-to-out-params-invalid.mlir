// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpucg-results-to-out-params)'

memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>

/// A constant is no allocation of the kernel: it would have to be copied
/// into the output, on the host.
func.func @constant() -> memref<4xf32> {
  %t = memref.get_global @table : memref<4xf32>
  // expected-error @+1 {{'func.return' op returns, as result #0, the result of 'memref.get_global', which gpucg cannot make an output argument: only a buffer the function allocates at its top level (a new tensor from tensor.empty) becomes one; return a new tensor, or write into an argument}}
  return %t : memref<4xf32>
}

// -----

func.func @view(%a: memref<8x8xf32>) -> memref<4x8xf32, strided<[8, 1]>> {
  %v = memref.subview %a[0, 0] [4, 8] [1, 1] : memref<8x8xf32> to memref<4x8xf32, strided<[8, 1]>>
  // expected-error @+1 {{returns, as result #0, the result of 'memref.subview'}}
  return %v : memref<4x8xf32, strided<[8, 1]>>
}

// -----

/// A size the caller cannot compute.
func.func @callee(%n: index) -> memref<?xf32> {
  %c2 = arith.constant 2 : index
  %size = arith.muli %n, %c2 : index
  %a = memref.alloc(%size) : memref<?xf32>
  return %a : memref<?xf32>
}
func.func @caller(%n: index) {
  // expected-error @+1 {{'func.call' op calls @callee, whose result #0 has a dynamic size (dimension 0) that is none of its arguments' sizes; the caller cannot allocate it}}
  %a = func.call @callee(%n) : (index) -> memref<?xf32>
  return
}

// -----

/// A collapse of an allocation of a dynamic size: undoing it would need the
/// allocation's sizes, which the new argument does not give.
func.func @collapsed_dynamic(%n: index) -> memref<?xf32> {
  %a = memref.alloc(%n) : memref<?x3xf32>
  %r = memref.collapse_shape %a [[0, 1]] : memref<?x3xf32> into memref<?xf32>
  // expected-error @+1 {{'func.return' op returns, as result #0, a collapse_shape of an allocation of dynamic sizes, which gpucg cannot make an output argument; return the allocation, or write into an argument}}
  return %r : memref<?xf32>
}
