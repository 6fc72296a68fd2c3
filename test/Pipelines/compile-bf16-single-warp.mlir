// gpucg-compile for a bf16 x bf16^T -> f32 matmul with M = 16 (a Llama-3
// linear layer at batch 16) on sm_90 with K in one part (split-k=1): the
// strategy's small-M tile of 16x128 would leave 100 of the 132 SMs idle
// without split-K, so it gives the kernel one warp per 16x16 workgroup
// tile, A and B are not staged in workgroup memory and
// upstream's mma.sync conversion loads their fragments from global memory
// with per-lane vector.load ops instead of ldmatrix. gpucg's bf16 fragment
// rebuilding must handle those too (it used to stop with "'vector.load' op
// handles a bf16 mma.sync fragment").
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t split-k=1})' -o %t/lowered.mlir
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/linear_m16_bf16_kernel.ptx
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{split-k=1})' | FileCheck %s --check-prefix=NVGPU

// The fragments: bf16 pairs loaded from the bf16 buffers themselves (no f16
// view left), multiplied as bf16.
// NVGPU-LABEL: func.func @linear_m16_bf16
//   NVGPU-NOT:   unrealized_conversion_cast
//   NVGPU-NOT:   nvgpu.ldmatrix
//       NVGPU:   scf.for
//       NVGPU:     vector.load %{{.+}} : memref<16x4096xbf16>, vector<2xbf16>
//       NVGPU:     vector.load %{{.+}} : memref<4096x4096xbf16>, vector<2xbf16>
//       NVGPU:     nvgpu.mma.sync(%{{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
//   NVGPU-NOT:   xf16>
//   NVGPU-NOT:   vector.contract

// PTX: .target sm_90
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-NOT: mma.sync.aligned.{{.*}}f16.f16
// PTX-NOT: .local

// RUN: %if ptxas %{ %ptxas -arch=sm_90 -v %t/linear_m16_bf16_kernel.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

module attributes {gpucg.target = #gpucg.target<chip = "sm_90">} {
  func.func @linear_m16_bf16(%x: tensor<16x4096xbf16>, %w: tensor<4096x4096xbf16>, %y: tensor<16x4096xf32>) -> tensor<16x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%y : tensor<16x4096xf32>) -> tensor<16x4096xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<16x4096xbf16>, tensor<4096x4096xbf16>) outs(%f : tensor<16x4096xf32>) -> tensor<16x4096xf32>
    return %0 : tensor<16x4096xf32>
  }
}
