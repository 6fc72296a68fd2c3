// The seed kernel: C = A * B with A 512x128 and B 128x512 in f16, C in f32,
// for an A100 (sm_80). make demo runs it through gpucg-matmul-mma-sync.
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @matmul(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>,
                    %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>)
                       outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
    return %0 : tensor<512x512xf32>
  }
}
