// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpucg-compile{format=isa})'

// A kernel whose strategy is a pipeline gpucg cannot lower to a binary yet.
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  // expected-error @+1 {{has translation_info pipeline 'Vectorize', which gpucg cannot lower to a GPU binary yet}}
  func.func @add(%a: tensor<1000xf32>, %b: tensor<1000xf32>) -> tensor<1000xf32> {
    %0 = linalg.add ins(%a, %a : tensor<1000xf32>, tensor<1000xf32>) outs(%b : tensor<1000xf32>) -> tensor<1000xf32>
    return %0 : tensor<1000xf32>
  }
}
