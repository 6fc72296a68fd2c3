// gpucg-lower-to-nvvm after the named workgroup pipelines, without
// gpucg-compile: mma.sync f16 on sm_80 with bare pointers (the default), and
// WMMA TF32 on an unaligned f32 matmul for sm_90 with memref descriptors.
// The binary is embedded in the module's gpu.binary; gpucg-export-kernels
// writes it out for ptxas.
// RUN: rm -rf %t && split-file %s %t
// RUN: gpucg-opt %t/mma-sync.mlir --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80},gpucg-lower-to-nvvm{format=isa})' -o %t/a.mlir
// RUN: FileCheck %s --check-prefix=A < %t/a.mlir
// RUN: gpucg-opt %t/a.mlir --pass-pipeline='builtin.module(gpucg-export-kernels{output-dir=%t/a bare-pointers=true})' -o /dev/null
// RUN: FileCheck %s --check-prefix=A-ABI < %t/a/matmul_kernel.abi
// RUN: gpucg-opt %t/wmma.mlir --pass-pipeline='builtin.module(gpucg-matmul-tensorcore{chip=sm_90},gpucg-lower-to-nvvm{chip=sm_90 format=isa bare-pointers=false})' -o %t/b.mlir
// RUN: FileCheck %s --check-prefix=B < %t/b.mlir
// RUN: gpucg-opt %t/b.mlir --pass-pipeline='builtin.module(gpucg-export-kernels{output-dir=%t/b})' -o /dev/null
// RUN: FileCheck %s --check-prefix=B-ABI < %t/b/matmul_tf32_kernel.abi
// RUN: FileCheck %s --check-prefix=B-PTX < %t/b/matmul_tf32_kernel.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/a/matmul_kernel.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -v %t/b/matmul_tf32_kernel.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// The host function launches the outlined kernel; the PTX is the binary.
// A: func.func @matmul(
// A: gpu.launch_func @matmul_kernel::@matmul_kernel blocks in
// A: gpu.binary @matmul_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_80">, {{.*}}assembly = "{{.*}}mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// A-ABI: chip sm_80
// A-ABI: calling_convention bare_pointers
// A-ABI: grid_x 8
// A-ABI: grid_y 8

// B: gpu.binary @matmul_tf32_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90">
// B-ABI: chip sm_90
// B-ABI: calling_convention memref_descriptors
// B-ABI: grid_x 3
// B-ABI: grid_y 4
// Three rank-2 memref descriptors: 3 x 7 parameters.
// B-PTX: .entry matmul_tf32_kernel(
// B-PTX-COUNT-21: .param .{{[us]}}64
// B-PTX-NEXT: )
// B-PTX: wmma.mma.sync.aligned.row.row.m16n16k8.f32.tf32.tf32.f32
// B-PTX-NOT: .local

//--- mma-sync.mlir
func.func @matmul(%a: tensor<256x64xf16>, %b: tensor<64x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<256x64xf16>, tensor<64x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

//--- wmma.mlir
func.func @matmul_tf32(%a: tensor<100x64xf32>, %b: tensor<64x72xf32>, %c: tensor<100x72xf32>) -> tensor<100x72xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<100x64xf32>, tensor<64x72xf32>) outs(%c : tensor<100x72xf32>) -> tensor<100x72xf32>
  return %0 : tensor<100x72xf32>
}
