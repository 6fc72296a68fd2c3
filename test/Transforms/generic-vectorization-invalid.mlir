// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-generic-vectorization{max-vector-elements=0}))' -verify-diagnostics

// expected-error @below {{gpucg-generic-vectorization needs a positive max-vector-elements, got 0}}
func.func @zero_limit(%a: memref<4xf32>) {
  linalg.add ins(%a, %a : memref<4xf32>, memref<4xf32>) outs(%a : memref<4xf32>)
  return
}
