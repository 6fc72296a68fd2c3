// RUN: gpucg-opt %s -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(%gpucg_tensorcore_front,func.func(gpucg-tensor-core-vectorization,gpucg-distribute-shared-memory-copy,gpucg-vector-to-gpu{tf32=false}))'

/// Without tf32, f32 operands have no tensor-core instruction: the pass says
/// so on the MMA (located at the matmul it came from) rather than lowering
/// at a precision the user did not ask for.
func.func @f32_without_tf32(%a: tensor<256x64xf32>, %b: tensor<64x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  // expected-error @+1 {{'gpu.subgroup_mma_compute' op multiplies f32 operands, which tensor cores only do as TF32; run with tf32=true or use a SIMT pipeline}}
  %0 = linalg.matmul ins(%a, %b : tensor<256x64xf32>, tensor<64x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
