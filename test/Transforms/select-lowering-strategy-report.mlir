// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true}))' > /dev/null

// report=true says each kernel's plan in a remark on its root: the pipeline
// and MMA instruction, the workgroup, the tiles per workgroup and per warp
// (or thread), the stages, the chip; TF32 for f32 operands on tensor
// cores; why a contraction is off the tensor cores.

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @bf16_linear(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>, %c: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    // expected-remark @+1 {{plan of @bf16_linear: pipeline MatmulTensorCoreMmaSync (mma_sync 16x8x16), workgroup 64x2x1 threads, workgroup tile 128x128x32, warp tile 64x64x0, 4 stages on sm_80}}
    %0 = linalg.matmul ins(%a, %b : tensor<4096x4096xbf16>, tensor<4096x4096xbf16>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    return %0 : tensor<4096x4096xf32>
  }
  func.func @f32(%a: tensor<100x64xf32>, %b: tensor<64x72xf32>, %c: tensor<100x72xf32>) -> tensor<100x72xf32> {
    // expected-remark @+1 {{plan of @f32: pipeline MatmulTensorCore (wmma 16x16x8), workgroup 64x2x1 threads, workgroup tile 32x32x16, warp tile 16x16x0, 4 stages on sm_80; f32 operands as TF32 (10-bit mantissa, f32 accumulation)}}
    %0 = linalg.matmul ins(%a, %b : tensor<100x64xf32>, tensor<64x72xf32>) outs(%c : tensor<100x72xf32>) -> tensor<100x72xf32>
    return %0 : tensor<100x72xf32>
  }
  func.func @f64(%a: tensor<100x64xf64>, %b: tensor<64x72xf64>, %c: tensor<100x72xf64>) -> tensor<100x72xf64> {
    // expected-remark @+1 {{plan of @f64: pipeline SimtDistribute, workgroup 96x1x1 threads, workgroup tile 1x96x0, thread tile 1x1x0 on sm_80; not on tensor cores: gpucg lowers no tensor-core operation of the requested family for f64 operands (mma.sync: f16, bf16, i8; WMMA: f16, f32)}}
    %0 = linalg.matmul ins(%a, %b : tensor<100x64xf64>, tensor<64x72xf64>) outs(%c : tensor<100x72xf64>) -> tensor<100x72xf64>
    return %0 : tensor<100x72xf64>
  }
}

// -----

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @wgmma(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>, %c: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    // expected-remark @+1 {{plan of @wgmma: pipeline MatmulWgmma (wgmma), workgroup 384x1x1 threads, workgroup tile 128x256x64, 4 stages, workgroups in groups of 8 rows on sm_90a; the default workgroup order: 512 workgroups are more than the 132 SMs run at once, which in the launch order would take whole rows of 16 tiles, each reading every column block of B}}
    %0 = linalg.matmul ins(%a, %b : tensor<4096x4096xbf16>, tensor<4096x4096xbf16>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    return %0 : tensor<4096x4096xf32>
  }  // f32 with B[n, k] on wgmma: TF32 too.
  func.func @wgmma_f32(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>, %c: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    // expected-remark @+1 {{plan of @wgmma_f32: pipeline MatmulWgmma (wgmma), workgroup 384x1x1 threads, workgroup tile 128x256x32, 4 stages, workgroups in groups of 8 rows on sm_90a; f32 operands as TF32 (10-bit mantissa, f32 accumulation); the default workgroup order: 512 workgroups are more than the 132 SMs run at once, which in the launch order would take whole rows of 16 tiles, each reading every column block of B}}
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    return %0 : tensor<4096x4096xf32>
  }
}
