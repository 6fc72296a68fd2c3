// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80})'

// Kernels the mma.sync pipeline refuses, saying why, rather than compiling
// them without tensor cores. (A generic contraction with B indexed (n, k)
// and an f16 accumulator, refused here before, now converts:
// matmul-mma-sync.mlir. A vector.contract upstream's conversion leaves
// behind is tested at the vector level in
// Transforms/vector-to-gpu-unconverted-invalid.mlir.)

/// N = 9 is below the smallest workgroup tile (16 x 16): a partial tile
/// would be zero-padded to it, and most of every MMA would multiply padding
/// (the strategy picks SIMT instead).
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @below_smallest_tile(%a: tensor<17x16xf16>, %b: tensor<16x9xf16>, %c: tensor<17x9xf32>) -> tensor<17x9xf32> {
    // expected-error @+1 {{'linalg.matmul' op cannot run on tensor cores, which this pipeline requires: M x N = 17 x 9 is below the smallest tensor-core workgroup tile (16 x 16): most of every MMA would multiply padding}}
    %0 = linalg.matmul ins(%a, %b : tensor<17x16xf16>, tensor<16x9xf16>) outs(%c : tensor<17x9xf32>) -> tensor<17x9xf32>
    return %0 : tensor<17x9xf32>
  }
}
