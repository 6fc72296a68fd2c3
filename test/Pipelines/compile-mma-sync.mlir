// gpucg-compile from a matmul on tensors to PTX and a cubin with its ABI file.
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t/ptx})' -o %t/lowered.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/lowered.mlir
// Round trip: the printed module parses and verifies again.
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=ABI < %t/ptx/matmul_kernel.abi
// RUN: FileCheck %s --check-prefix=PTX < %t/ptx/matmul_kernel.ptx

// IR: func.func @matmul
// IR: gpu.launch_func @matmul_kernel::@matmul_kernel blocks in
// IR: gpu.binary @matmul_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_80">

// ABI:      abi 1
// ABI-NEXT: function matmul
// ABI-NEXT: kernel matmul_kernel
// ABI-NEXT: binary matmul_kernel.ptx
// ABI-NEXT: format ptx
// ABI-NEXT: chip sm_80
// ABI-NEXT: calling_convention bare_pointers
// ABI-NEXT: grid_x {{[1-9][0-9]*}}
// ABI:      block_x {{[1-9][0-9]*}}
// ABI:      dynamic_shared_memory {{[0-9]+}}
// ABI-NEXT: arguments 3
// ABI-DAG:  function_argument 0 memref f16 512x128
// ABI-DAG:  function_argument 1 memref f16 128x512
// ABI-DAG:  function_argument 2 memref f32 512x512

// The tensor-core kernel: async 16-byte copies, ldmatrix, mma.sync, and
// 128-bit stores of C to global memory; nothing on the local stack.
// PTX: .target sm_80
// PTX: .entry matmul_kernel
// PTX: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16
// PTX: ldmatrix.sync.aligned.m8n8.x4
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX: st.global.v4
// PTX-NOT: .local

// With ptxas: the cubin, 0 spills and no stack frame.
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/ptx/matmul_kernel.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// The SASS instruction mix, where a disassembler is present.
// RUN: %if sass %{ %sass_mix %t/k.cubin | FileCheck %s --check-prefix=SASS %}
// SASS:      kernel matmul_kernel
// SASS:      HMMA {{[1-9][0-9]*}}
// SASS:      LDSM {{[1-9][0-9]*}}
// SASS:      LDGSTS {{[1-9][0-9]*}}
// SASS:      STG.E.128 {{[1-9][0-9]*}}
// SASS:      LDL 0
// SASS-NEXT: STL 0

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @matmul(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>,
                    %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>)
                       outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
    return %0 : tensor<512x512xf32>
  }
}
