// gpucg-compile with wgmma-stream-k on sm_90a: 1000^3 in 128x128 tiles
// (64 tiles, fewer than the 132 SMs, of 16 K steps) and Llama-3-8B's o
// projection at M = 128 with bias + ReLU to bf16 (32 tiles of 64 K steps)
// each run on a persistent grid of 132 workgroups (grid_x 132 in the ABI),
// the steps split evenly over them. The workspace is two .global arrays of
// the module (zero-initialized by the driver at load), each part published
// with 16-byte stores, membar.gl, one atom.global.add per part, membar.gl
// and the sum's 16-byte loads; ptxas: no spills, the registers of the
// persistent grid's kernel (168), HGMMA and UTMALDG in SASS.
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{chip=sm_90a format=isa output-dir=%t report=true wgmma-stream-k=true})' -o %t/lowered.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=ABI < %t/cube_1000_kernel.abi
// RUN: FileCheck %s --check-prefix=PTX < %t/cube_1000_kernel.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/o_proj_relu_kernel.ptx
// RUN: FileCheck %s --check-prefix=DECODE < %t/decode_gate_up_kernel.ptx

// REMARK: plan of @cube_1000: pipeline MatmulWgmma (wgmma), workgroup 384x1x1 threads, workgroup tile 128x128x64, 4 stages, persistent grid of 132 workgroups, stream-K (the last waves' K steps split evenly over the workgroups, partial tiles added in workgroup order) on sm_90a{{$}}
// REMARK: plan of @o_proj_relu: {{.*}}, persistent grid of 132 workgroups, stream-K ({{.*}}) on sm_90a{{$}}
// REMARK: plan of @decode_gate_up: {{.*}}, workgroup tile 16x128x64, 4 stages, persistent grid of 132 workgroups, stream-K ({{.*}}) on sm_90a; small M: computed as C^T = B^T * A^T

// ABI:      grid_x 132
// ABI-NEXT: grid_y 1
// ABI-NEXT: grid_z 1

// PTX: .global .align 16 .b8 __gpucg_split_k_{{partials|counters}}_{{cube_1000|o_proj_relu}}[{{[0-9]+}}];
// PTX: .global .align 16 .b8 __gpucg_split_k_{{partials|counters}}_{{cube_1000|o_proj_relu}}[{{[0-9]+}}];
// PTX: .entry {{cube_1000|o_proj_relu}}_kernel
// PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// PTX: st.global.v4.b32
// PTX: membar.gl;
// PTX: atom.global.add.u32
// PTX: membar.gl;
// PTX: ld.global.v4.b32
// PTX-NOT: .local

// Llama-3-70B's gate/up projection at M = 16 (decode): 448 transposed
// tiles of 128 of C's columns, 3 waves on 132 workgroups, of which the
// first 264 tiles run whole (data-parallel) and the last 184 tiles' K
// steps are split: the same protocol, through ptxas without spills.
// DECODE: .entry decode_gate_up_kernel
// DECODE: wgmma.mma_async.sync.aligned.m64n
// DECODE: atom.global.add.u32
// DECODE-NOT: .local
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/decode_gate_up_kernel.ptx -o %t/d.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS-DECODE %}
// PTXAS-DECODE: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/cube_1000_kernel.ptx -o %t/cube.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/o_proj_relu_kernel.ptx -o %t/o.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS: Used 168 registers
// RUN: %if sass %{ %sass_mix %t/cube.cubin | FileCheck %s --check-prefix=SASS %}
// RUN: %if sass %{ %sass_mix %t/o.cubin | FileCheck %s --check-prefix=SASS %}
// SASS:      kernel {{cube_1000|o_proj_relu}}_kernel
// SASS:      LDL 0
// SASS-NEXT: STL 0
// SASS:      HGMMA {{[1-9][0-9]*}}
// SASS:      UTMALDG {{[1-9][0-9]*}}

module {
  func.func @cube_1000(%a: tensor<1000x1000xbf16>, %b: tensor<1000x1000xbf16>) -> tensor<1000x1000xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1000x1000xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<1000x1000xbf16>, tensor<1000x1000xbf16>) outs(%f : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
    return %0 : tensor<1000x1000xf32>
  }
  func.func @o_proj_relu(%x: tensor<128x4096xbf16>, %w: tensor<4096x4096xbf16>, %bias: tensor<4096xf32>) -> tensor<128x4096xbf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x4096xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x4096xf32>) -> tensor<128x4096xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%x, %w : tensor<128x4096xbf16>, tensor<4096x4096xbf16>) outs(%f : tensor<128x4096xf32>) -> tensor<128x4096xf32>
    %o = tensor.empty() : tensor<128x4096xbf16>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<128x4096xf32>, tensor<4096xf32>) outs(%o : tensor<128x4096xbf16>) {
    ^bb0(%v: f32, %c: f32, %out: bf16):
      %s = arith.addf %v, %c : f32
      %relu = arith.maximumf %s, %zero : f32
      %t = arith.truncf %relu : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x4096xbf16>
    return %r : tensor<128x4096xbf16>
  }
  func.func @decode_gate_up(%x: tensor<16x8192xbf16>, %w: tensor<57344x8192xbf16>) -> tensor<16x57344xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<16x57344xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x57344xf32>) -> tensor<16x57344xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%x, %w : tensor<16x8192xbf16>, tensor<57344x8192xbf16>) outs(%f : tensor<16x57344xf32>) -> tensor<16x57344xf32>
    return %mm : tensor<16x57344xf32>
  }
}
