// gpucg-compile on shapes no workgroup tile divides (100x72x64): full and
// partial tiles run the same tensor-core main loop (f16 on mma.sync, f32 as
// TF32 on WMMA). A partial tile's operands are copied into full tile
// buffers with zero padding (cp.async with a source size: the part inside
// the matrix, zeros for the rest) and its C is stored where it lies inside
// the matrix (whole 16-byte vectors, element by element on the edge). Down
// to PTX, ptxas and SASS.
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t})' -o %t/lowered.mlir
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=F16 < %t/matmul_unaligned_kernel.ptx
// RUN: FileCheck %s --check-prefix=F32 < %t/matmul_unaligned_f32_kernel.ptx
// RUN: FileCheck %s --check-prefix=SCALAR < %t/matmul_unaligned_kernel.ptx
// RUN: FileCheck %s --check-prefix=SCALAR < %t/matmul_unaligned_f32_kernel.ptx
// RUN: FileCheck %s --check-prefix=ABI < %t/matmul_unaligned_kernel.abi

// Both tiles on tensor cores: the full tile's copies whole, the partial
// tile's with a source size; no scalar arithmetic (no f16 widened to f32, no
// f32 multiply or add); 16-byte stores where a vector of C is whole.
// F16: .entry matmul_unaligned_kernel
// F16-DAG: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// F16-DAG: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
// F16-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// F16-DAG: st.global.v4.b32
// F32: wmma.mma.sync.aligned.row.row.m16n16k8.f32.tf32.tf32.f32
// Anywhere in either kernel:
// SCALAR-NOT: cvt.f32.f16
// SCALAR-NOT: mul.rn.f32
// SCALAR-NOT: add.rn.f32
// SCALAR-NOT: fma.rn.f32
// SCALAR-NOT: .local

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
// SASS:      LDG 0
// SASS:      STG.E.128 {{[1-9][0-9]*}}
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
