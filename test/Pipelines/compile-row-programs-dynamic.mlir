// Row programs over rows of a run-time size through gpucg-compile, down to
// PTX and machine code: linalg.softmax over ? x ? f32 (attention's scores over a
// dynamic number of tokens, as torch-mlir exports them) and a row sum of
// ? x ? f16 in f32. The strategy plans WarpReduction, the whole row per
// workgroup of 128 threads in 128-bit steps and the row's tail one element
// per thread; the copy for 16-byte-aligned row pitches loads its rows with
// 16-byte loads and no check of their own. ptxas for sm_80 and sm_90
// without spills. The numerics: test/Integration/Emulation/row-programs-dynamic.mlir.
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{chip=sm_80 format=isa output-dir=%t report=true})' \
// RUN:   -o %t/lowered.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/softmax_kernel.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/row_sum_kernel.ptx
// RUN: FileCheck %s --check-prefix=ABI < %t/softmax_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/softmax_kernel.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -v %t/softmax_kernel.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/row_sum_kernel.ptx -o %t/c.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if sass %{ %sass_mix %t/c.cubin | FileCheck %s --check-prefix=SASS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// REMARK: remark: plan of @softmax: pipeline WarpReduction, workgroup 128x1x1 threads, workgroup tile 1x0, thread tile 0x4 on sm_80
// REMARK: remark: plan of @row_sum: pipeline WarpReduction, workgroup 128x1x1 threads, workgroup tile 1x0, thread tile 0x8 on sm_80

// PTX: ld.global.v4.b32
// PTX: shfl.sync.bfly.b32
// PTX-NOT: ld.local
// PTX-NOT: st.local

// ABI: grid_x arg0.dim0

// SASS: kernel row_sum_kernel
// SASS: LDG.E.128 {{[1-9]}}
// SASS: LDL 0
// SASS-NEXT: STL 0

func.func @softmax(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @row_sum(%x: tensor<?x?xf16>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %x, %c0 : tensor<?x?xf16>
  %e = tensor.empty(%m) : tensor<?xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
    ins(%x : tensor<?x?xf16>) outs(%acc : tensor<?xf32>) {
  ^bb0(%a: f16, %b: f32):
    %f = arith.extf %a : f16 to f32
    %t = arith.addf %f, %b : f32
    linalg.yield %t : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
