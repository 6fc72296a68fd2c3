// The errors of split-K plans: the plan's verifier (split_k's range and
// pipeline) and the strategy's checks of a user's split_k
// (whyNoSplitK, the pipeline depth of a part).
// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))'
// The option's range:
// RUN: not gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{split-k=65}))' 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: error: 'func.func' op gpucg-select-lowering-strategy: split-k must be from 0 (the strategy's default) to 64, got 65

// expected-error @+1 {{split_k must be from 1 to 64, got 0}}
func.func private @zero_parts() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, split_k = 0>}

// -----

// expected-error @+1 {{split_k is only allowed with pipelines MatmulTensorCoreMmaSync and MatmulWgmma, got pipeline MatmulTensorCore}}
func.func private @wmma() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, split_k = 2>}

// -----

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @not_a_multiple(%a: tensor<32x256xf16>, %b: tensor<256x32xf16>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
    // expected-error @+1 {{cannot split K into 3 parts (split_k): K = 256 is not a multiple of 3 parts}}
    %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 32], [16, 16, 0], [16, 8, 16]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync, split_k = 3>>}
      ins(%a, %b : tensor<32x256xf16>, tensor<256x32xf16>) outs(%f : tensor<32x32xf32>) -> tensor<32x32xf32>
    return %0 : tensor<32x32xf32>
  }
}

// -----

// MatmulWgmma: parts of whole K steps, every part starting before K ends.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @wgmma_parts_past_k(%a: tensor<64x128xf16>, %b: tensor<128x128xf16>) -> tensor<64x128xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
    // expected-error @+1 {{cannot split K into 3 parts (split_k): K = 128 in K steps of 64 has no 3 parts of whole K steps that each start before K ends}}
    %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 128, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [256, 1, 1], subgroup_size = 32, pipeline_depth = 2, staged_store = true, split_k = 3>>}
      ins(%a, %b : tensor<64x128xf16>, tensor<128x128xf16>) outs(%f : tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}

// -----

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @too_deep(%a: tensor<32x128xf16>, %b: tensor<128x32xf16>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
    // expected-error @+1 {{has pipeline_depth = 4, more stages than the 2 K steps of each of its 2 parts of K (split_k)}}
    %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 32], [16, 16, 0], [16, 8, 16]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = mma_sync, split_k = 2>>}
      ins(%a, %b : tensor<32x128xf16>, tensor<128x32xf16>) outs(%f : tensor<32x32xf32>) -> tensor<32x32xf32>
    return %0 : tensor<32x32xf32>
  }
}
