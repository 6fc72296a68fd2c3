// gpucg-compile on sm_90a for f32 linalg.matmul as users write it (A[m, k],
// B[k, n]) and for A[k, m] times B[n, k]: MatmulWgmma multiplies them as
// TF32, the operand that is not K-contiguous restaged K-major by the
// producer warpgroup (wgmma reads 32-bit operands K-major only). The PTX
// has wgmma on tf32 and TMA loads; ptxas: no spills, no stack frame, the
// producer within its 40 registers (setmaxnreg); in the SASS HGMMA and UTMALDG,
// no local memory.
// RUN: rm -rf %t && gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t})' -o %t.mlir
// RUN: gpucg-opt %t.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/matmul_kernel.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/linear_tn_kernel.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/matmul_kernel.ptx -o %t/matmul.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/linear_tn_kernel.ptx -o %t/tn.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if sass %{ %sass_mix %t/matmul.cubin | FileCheck %s --check-prefix=SASS %}
// RUN: %if sass %{ %sass_mix %t/tn.cubin | FileCheck %s --check-prefix=SASS %}

// PTX: .target sm_90a
// PTX-DAG: setmaxnreg.dec.sync.aligned.u32 {{[[:space:]]*}}40;
// PTX-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-DAG: fence.proxy.async.shared::cta
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
// PTX-NOT: .local
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SASS:      LDL 0
// SASS-NEXT: STL 0
// SASS:      HGMMA {{[1-9][0-9]*}}
// SASS:      UTMALDG {{[1-9][0-9]*}}

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @matmul(%a: tensor<1024x512xf32>, %b: tensor<512x1024xf32>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<1024x512xf32>, tensor<512x1024xf32>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %0 : tensor<1024x1024xf32>
  }
  func.func @linear_tn(%a: tensor<512x1024xf32>, %b: tensor<1024x512xf32>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<512x1024xf32>, tensor<1024x512xf32>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %0 : tensor<1024x1024xf32>
  }
}
