// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' | FileCheck %s --check-prefix=TF32
// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{f32-precision=tf32}))' | FileCheck %s --check-prefix=TF32
// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{f32-precision=ieee}))' | FileCheck %s --check-prefix=IEEE
// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{f32-precision=ieee report=true}))' -o /dev/null

// f32-precision says how a contraction of f32 operands multiplies them:
// tf32 (the default) on tensor cores as TF32 where a tensor-core plan takes
// it (WMMA), ieee in IEEE f32 on the SIMT
// cores (MatmulSimt), with the reason in the report. Other operand types
// are unaffected.

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  // TF32-LABEL: func.func @f32
  // TF32-SAME: pipeline = MatmulTensorCore
  // TF32-SAME: mma_kind = wmma
  // IEEE-LABEL: func.func @f32
  // IEEE-SAME: pipeline = MatmulSimt
  // IEEE-NOT: mma_kind
  func.func @f32(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    // expected-remark @+1 {{plan of @f32: pipeline MatmulSimt, workgroup 32x8x1 threads, workgroup tile 32x128x32, thread tile 4x4x0, 2 stages on sm_80; not on tensor cores: its f32 operands are to be multiplied in IEEE f32 (f32-precision=ieee), and tensor cores multiply f32 only as TF32 (10-bit mantissas)}}
    %0 = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
  // Not f32 operands (an f32 accumulator): tensor cores either way.
  // TF32-LABEL: func.func @f16
  // TF32-SAME: pipeline = MatmulTensorCoreMmaSync
  // IEEE-LABEL: func.func @f16
  // IEEE-SAME: pipeline = MatmulTensorCoreMmaSync
  func.func @f16(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    // expected-remark @+1 {{plan of @f16: pipeline MatmulTensorCoreMmaSync}}
    %0 = linalg.matmul ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
}

// -----

// sm_90a: TF32 on wgmma (MatmulWgmma, B[k, n] restaged K-major by the
// producer warpgroup), or IEEE f32 on the SIMT cores.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // TF32-LABEL: func.func @f32_sm90a
  // TF32-SAME: pipeline = MatmulWgmma,
  // IEEE-LABEL: func.func @f32_sm90a
  // IEEE-SAME: pipeline = MatmulSimt
  func.func @f32_sm90a(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    // expected-remark @+1 {{plan of @f32_sm90a: pipeline MatmulSimt}}
    %0 = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %0 : tensor<1024x1024xf32>
  }
}
