// gpucg-compile on shapes no workgroup tile divides (100x72x64): full tiles
// run on tensor cores (f16 on mma.sync, f32 as TF32 on WMMA), partial tiles
// take workgroup specialization's scalar path, one element of C per thread,
// which gpucg-convert-to-nvvm lowers as loops. Down to PTX and ptxas.
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t})' -o %t/lowered.mlir
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=F16 < %t/matmul_unaligned_kernel.ptx
// RUN: FileCheck %s --check-prefix=F32 < %t/matmul_unaligned_f32_kernel.ptx
// RUN: FileCheck %s --check-prefix=ABI < %t/matmul_unaligned_kernel.abi

// Both paths in one kernel: the tensor-core one and the scalar one (f16
// operands widened to f32 one at a time; no fastmath flags, so no fused
// multiply-add).
// F16: .entry matmul_unaligned_kernel
// F16-DAG: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16
// F16-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// F16-DAG: cvt.f32.f16
// F16-DAG: mul.rn.f32
// F16-DAG: add.rn.f32
// F16-NOT: .local

// F32-DAG: wmma.mma.sync.aligned.row.row.m16n16k8.f32.tf32.tf32.f32
// F32-DAG: mul.rn.f32
// F32-DAG: add.rn.f32
// F32-NOT: .local

// Three by four 32x32 workgroups cover 100x72.
// ABI: grid_x 3
// ABI-NEXT: grid_y 4
// ABI-NEXT: grid_z 1

// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/matmul_unaligned_kernel.ptx -o %t/h.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/matmul_unaligned_f32_kernel.ptx -o %t/s.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// RUN: %if sass %{ %sass_mix %t/h.cubin | FileCheck %s --check-prefix=SASS %}
// SASS:      HMMA {{[1-9][0-9]*}}
// SASS:      LDGSTS {{[1-9][0-9]*}}
// SASS:      LDL 0
// SASS-NEXT: STL 0

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @matmul_unaligned(%a: tensor<100x64xf16>, %b: tensor<64x72xf16>, %c: tensor<100x72xf32>) -> tensor<100x72xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<100x72xf32>) -> tensor<100x72xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<100x64xf16>, tensor<64x72xf16>) outs(%f : tensor<100x72xf32>) -> tensor<100x72xf32>
    return %0 : tensor<100x72xf32>
  }
  func.func @matmul_unaligned_f32(%a: tensor<100x64xf32>, %b: tensor<64x72xf32>, %c: tensor<100x72xf32>) -> tensor<100x72xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<100x64xf32>, tensor<64x72xf32>) outs(%c : tensor<100x72xf32>) -> tensor<100x72xf32>
    return %0 : tensor<100x72xf32>
  }
}
