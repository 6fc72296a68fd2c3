// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpucg-compile{format=isa})'

// A kernel whose translation_info names no pipeline gpucg can lower to a
// binary (every strategy the strategy picks compiles; pipeline None only
// comes from a user).
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  // expected-error @+1 {{has translation_info pipeline 'None', which gpucg cannot lower to a GPU binary yet}}
  func.func @add(%a: tensor<1000xf32>, %b: tensor<1000xf32>) -> tensor<1000xf32> {
    %0 = linalg.add {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[256]]>,
        translation_info = #gpucg.translation_info<pipeline = None, workgroup_size = [64, 1, 1]>>}
      ins(%a, %a : tensor<1000xf32>, tensor<1000xf32>) outs(%b : tensor<1000xf32>) -> tensor<1000xf32>
    return %0 : tensor<1000xf32>
  }
}
