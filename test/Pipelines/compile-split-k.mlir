// gpucg-compile of a split-K kernel (the strategy's default on sm_90 for
// Llama-3-8B's k/v projection at M = 128: 128 tiles of 32 x 32 for 132
// SMs, K = 4096 in 2 parts): grid z of 2 parts in the ABI, the partial sums
// and arrival counters as .global arrays of the module (zero-initialized by
// the driver at load: no initializer), each part's sums stored with 16-byte
// stores, membar.gl, one atom.global.add per workgroup; ptxas without
// spills.
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{chip=sm_90 format=isa output-dir=%t report=true})' -o %t/lowered.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=ABI < %t/kv_proj_kernel.abi
// RUN: FileCheck %s --check-prefix=PTX < %t/kv_proj_kernel.ptx

// REMARK: plan of @kv_proj: {{.*}}, K split into 2 parts (split-K, one workgroup each) on sm_90; split-K by default: 128 tiles are fewer than the 132 SMs

// ABI:      grid_x 32
// ABI-NEXT: grid_y 4
// ABI-NEXT: grid_z 2

// PTX: .global .align 16 .b8 __gpucg_split_k_{{partials|counters}}_kv_proj[{{[0-9]+}}];
// PTX: .global .align 16 .b8 __gpucg_split_k_{{partials|counters}}_kv_proj[{{[0-9]+}}];
// PTX: .entry kv_proj_kernel
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX: st.global.v4.b32
// PTX: membar.gl;
// PTX: atom.global.add.u32
// PTX: membar.gl;
// PTX: ld.global.v4.b32
// PTX-NOT: .local

// RUN: %if ptxas %{ %ptxas -arch=sm_90 -v %t/kv_proj_kernel.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// RUN: %if sass %{ %sass_mix %t/k.cubin | FileCheck %s --check-prefix=SASS %}
// SASS:      kernel kv_proj_kernel
// SASS:      HMMA {{[1-9][0-9]*}}
// SASS:      LDL 0
// SASS-NEXT: STL 0

module {
  func.func @kv_proj(%a: tensor<128x4096xf16>, %b: tensor<4096x1024xf16>) -> tensor<128x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x1024xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x1024xf32>) -> tensor<128x1024xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<128x4096xf16>, tensor<4096x1024xf16>) outs(%f : tensor<128x1024xf32>) -> tensor<128x1024xf32>
    return %0 : tensor<128x1024xf32>
  }
}
