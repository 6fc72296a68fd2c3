// The caller's pipeline depth (pipeline-depth; the named tensor-core
// pipelines' `depth`) replaces the strategy's stages in every tensor-core
// plan, and is budgeted like them; other plans keep theirs.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy{pipeline-depth=3}))' | FileCheck %s --check-prefix=SM80
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_90a},func.func(gpucg-select-lowering-strategy{pipeline-depth=2}))' | FileCheck %s --check-prefix=SM90A
// RUN: echo 'module {}' | gpucg-opt --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a depth=3})' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_90a},func.func(gpucg-select-lowering-strategy{pipeline-depth=8}))' 2>&1 | FileCheck %s --check-prefix=BUDGET

// SM80: func.func @mm({{.*}}pipeline = MatmulTensorCoreMmaSync, {{.*}}pipeline_depth = 3, mma_kind = mma_sync>}
// At most one stage per K step: K = 64 is 2 steps of 32.
// SM80: func.func @short_k({{.*}}pipeline = MatmulTensorCoreMmaSync, {{.*}}pipeline_depth = 2, mma_kind = mma_sync>}
// SM80: func.func @add({{.*}}#gpucg.translation_info<pipeline = Vectorize, workgroup_size = [128, 1, 1]>}
// SM90A: func.func @mm({{.*}}pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2>}
// SM90A: func.func @add({{.*}}#gpucg.translation_info<pipeline = Vectorize, workgroup_size = [128, 1, 1]>}

// The wgmma pipeline's depth is the strategy's too:
// PIPELINE: gpucg-select-lowering-strategy{{{.*}} pipeline-depth=3

// Eight 32 KB stages of 128x128 tiles do not fit sm_90a's 227 KB:
// BUDGET: error: 'linalg.matmul' op needs 264192 bytes of shared memory, more than the 232448 bytes sm_90a allows per workgroup (max_shared_memory_per_block_optin): pipeline_depth 8 x (A 128x64 + B 64x128 tiles)

func.func @mm(%a: tensor<1024x512xf16>, %b: tensor<512x1024xf16>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<1024x512xf16>, tensor<512x1024xf16>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

func.func @short_k(%a: tensor<1024x64xf16>, %b: tensor<64x1024xf16>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<1024x64xf16>, tensor<64x1024xf16>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

func.func @add(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %0 = linalg.add ins(%a, %a : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%b : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}
