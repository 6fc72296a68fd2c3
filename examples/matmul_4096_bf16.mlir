// The compile-time benchmark's kernel (bench/compile-time, docs/performance.md):
// C = A * B with A, B 4096x4096 in bf16 and C 4096x4096 in f32, C zeroed by a
// linalg.fill first, for an A100 (sm_80).
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @matmul(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>,
                    %c: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %init = linalg.fill ins(%zero : f32) outs(%c : tensor<4096x4096xf32>)
              -> tensor<4096x4096xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<4096x4096xbf16>, tensor<4096x4096xbf16>)
                       outs(%init : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    return %0 : tensor<4096x4096xf32>
  }
}
