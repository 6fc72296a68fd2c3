// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{f32-precision=ieee}))' -o /dev/null
// RUN: not gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{f32-precision=ieee require-tensor-cores=true}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REQUIRE

// With f32-precision=ieee, a user's tensor-core plan for f32 operands is an
// error: tensor cores would multiply them as TF32.

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @f32_user_wmma(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    // expected-error @+1 {{'linalg.matmul' op is planned for tensor-core pipeline MatmulTensorCore, but its f32 operands are to be multiplied in IEEE f32 (f32-precision=ieee), and tensor cores multiply f32 only as TF32 (10-bit mantissas); plan it for pipeline MatmulSimt, or compile with f32-precision=tf32}}
    %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16], [16, 16, 0], [16, 16, 8]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = wmma>>}
      ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
}

// -----

// A pipeline that requires tensor cores (require-tensor-cores) and IEEE f32
// operands: an error that says why (checked by the second RUN line; the
// first plans it for MatmulSimt).
// REQUIRE: error: 'linalg.matmul' op cannot run on tensor cores, which this pipeline requires: its f32 operands are to be multiplied in IEEE f32 (f32-precision=ieee), and tensor cores multiply f32 only as TF32 (10-bit mantissas)

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @f32_required(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
}
