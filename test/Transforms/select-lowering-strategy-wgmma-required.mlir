// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{mma=wgmma require-tensor-cores=true}))'

// gpucg-matmul-wgmma's strategy (mma=wgmma, require-tensor-cores): a kernel
// MatmulWgmma cannot take is an error that says why, and so is a plan for
// another pipeline.

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @accumulate_into_temporary(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %e = tensor.empty() : tensor<256x256xf32>
    %t = linalg.copy ins(%c : tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
    // expected-error @+1 {{'linalg.matmul' op cannot run on tensor cores, which this pipeline requires: its accumulator starts as the result of 'linalg.copy', not a linalg.fill of zero or an argument of its function (a warpgroup accumulator starts at zero, and the epilogue adds only an argument's prior contents)}}
    %0 = linalg.matmul ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%t : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
}

// -----

module attributes {gpucg.target = #gpucg.target<chip = "sm_90">} {
  func.func @sm90(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    // expected-error @+1 {{'linalg.matmul' op cannot run on tensor cores, which this pipeline requires: sm_90 has no warpgroup MMA (wgmma.mma_async and its TMA operands need sm_90a)}}
    %0 = linalg.matmul ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
}

// -----

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @planned_mma_sync(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    // expected-error @+1 {{'linalg.matmul' op is planned for pipeline MatmulTensorCoreMmaSync by its gpucg.compilation_info, but this pipeline requires pipeline MatmulWgmma}}
    %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 32]]>, translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], pipeline_depth = 2, mma_kind = mma_sync>>}
      ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
}

// -----

// e4m3 times e5m2: a wgmma form nvgpu does not lower.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @e4m3_times_e5m2(%a: tensor<256x256xf8E4M3FN>, %b: tensor<256x256xf8E5M2>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    // expected-error @+1 {{'linalg.matmul' op cannot run on tensor cores, which this pipeline requires: it computes f32 += f8E4M3FN * f8E5M2; MatmulWgmma takes two f16, two bf16, two f32 (multiplied as TF32), two f8E4M3FN or two f8E5M2 operands with an f32 accumulator}}
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<256x256xf8E4M3FN>, tensor<256x256xf8E5M2>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
}

// -----

// An empty matmul (a batch of no tokens: M = 0) has no tile to plan.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @no_rows(%a: tensor<0x128xbf16>, %b: tensor<2048x128xbf16>, %c: tensor<0x2048xf32>) -> tensor<0x2048xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<0x2048xf32>) -> tensor<0x2048xf32>
    // expected-error @+1 {{'linalg.matmul' op cannot run on tensor cores, which this pipeline requires: M x N x K = 0 x 2048 x 128 has an empty dimension: there is nothing to multiply}}
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<0x128xbf16>, tensor<2048x128xbf16>) outs(%f : tensor<0x2048xf32>) -> tensor<0x2048xf32>
    return %0 : tensor<0x2048xf32>
  }
}
