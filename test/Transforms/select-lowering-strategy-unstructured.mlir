// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy))'

// An op of the linalg dialect that is no structured op would get no plan
// and stay on the host, the function compiling to no kernel: refused.

func.func @softmax(%x: tensor<64x1024xf32>, %out: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  // expected-error @+1 {{'linalg.softmax' op is no structured linalg op and was not decomposed: run gpucg-decompose-aggregate-ops before gpucg-select-lowering-strategy (gpucg-compile does)}}
  %0 = linalg.softmax dimension(1) ins(%x : tensor<64x1024xf32>) outs(%out : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  return %0 : tensor<64x1024xf32>
}

// -----

func.func @pack(%x: tensor<64x64xf32>, %out: tensor<8x8x8x8xf32>) -> tensor<8x8x8x8xf32> {
  // expected-error @+1 {{'linalg.pack' op is no structured linalg op (LinalgOp) and has no decomposition: gpucg makes no kernel of it; write it as linalg.generic or a named structured op}}
  %0 = linalg.pack %x inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %out : tensor<64x64xf32> -> tensor<8x8x8x8xf32>
  return %0 : tensor<8x8x8x8xf32>
}
