// gpucg-compile on the kernels the strategy plans Vectorize, down to PTX and
// ptxas for sm_80 and sm_90: the seed row sum (100000 rows of 100 f32, 4 rows
// per thread, 128-bit K steps, accumulators in registers), rows of 72 f16
// summed in f32, and an f16 bias add, each thread reading and writing 128
// bits at a time.
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t})' -o %t/lowered.mlir
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=SEED < %t/row_sum_kernel.ptx
// RUN: FileCheck %s --check-prefix=SEED-ABI < %t/row_sum_kernel.abi
// RUN: FileCheck %s --check-prefix=F16 < %t/row_sum_f16_in_f32_kernel.ptx
// RUN: FileCheck %s --check-prefix=BIAS < %t/bias_add_f16_kernel.ptx
// RUN: FileCheck %s --check-prefix=BIAS-ABI < %t/bias_add_f16_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/row_sum_kernel.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -v %t/row_sum_kernel.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/row_sum_f16_in_f32_kernel.ptx -o %t/c.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -v %t/row_sum_f16_in_f32_kernel.ptx -o %t/d.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/bias_add_f16_kernel.ptx -o %t/e.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -v %t/bias_add_f16_kernel.ptx -o %t/f.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// The full tiles read 128 bits per row and K step (8 of them, a and b, 4
// rows each), and read and write each thread's 4 sums once, 128 bits; the
// partial tile reads and writes one element at a time.
// SEED: .entry row_sum_kernel
// SEED-COUNT-9: ld.global.v4.b32
// SEED-NOT: ld.global.v4
// SEED-DAG: ld.global.b32
// SEED-DAG: st.global.v4.b32
// SEED-DAG: st.global.b32
// SEED-NOT: bar.sync
// SEED-NOT: .local
// SEED-ABI: grid_x 391
// SEED-ABI-NEXT: grid_y 1
// SEED-ABI-NEXT: grid_z 1
// SEED-ABI-NEXT: block_x 64

// 4 rows of 8 f16 per K step, 128 bits each; one 128-bit write of 4 f32.
// F16: .entry row_sum_f16_in_f32_kernel
// F16-COUNT-5: ld.global.v4.b32
// F16: st.global.v4.b32
// F16-NOT: .local

// BIAS: .entry bias_add_f16_kernel
// BIAS-COUNT-2: ld.global.v4.b32
// BIAS: st.global.v4.b32
// BIAS-NOT: .local
// BIAS-ABI: grid_x 4
// BIAS-ABI-NEXT: grid_y 4096
// BIAS-ABI-NEXT: grid_z 1
// BIAS-ABI-NEXT: block_x 128

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @row_sum(%a: tensor<100000x100xf32>, %b: tensor<100000x100xf32>, %c: tensor<100000xf32>) -> tensor<100000xf32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a, %b : tensor<100000x100xf32>, tensor<100000x100xf32>) outs(%c : tensor<100000xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %s = arith.addf %x, %y : f32
      %t = arith.addf %s, %acc : f32
      linalg.yield %t : f32
    } -> tensor<100000xf32>
    return %0 : tensor<100000xf32>
  }
  func.func @row_sum_f16_in_f32(%a: tensor<2048x72xf16>, %c: tensor<2048xf32>) -> tensor<2048xf32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<2048x72xf16>) outs(%c : tensor<2048xf32>) {
    ^bb0(%x: f16, %acc: f32):
      %e = arith.extf %x : f16 to f32
      %t = arith.addf %e, %acc : f32
      linalg.yield %t : f32
    } -> tensor<2048xf32>
    return %0 : tensor<2048xf32>
  }
  func.func @bias_add_f16(%x: tensor<4096x4096xf16>, %bias: tensor<4096xf16>, %y: tensor<4096x4096xf16>) -> tensor<4096x4096xf16> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias : tensor<4096x4096xf16>, tensor<4096xf16>) outs(%y : tensor<4096x4096xf16>) {
    ^bb0(%a: f16, %b: f16, %out: f16):
      %s = arith.addf %a, %b : f16
      linalg.yield %s : f16
    } -> tensor<4096x4096xf16>
    return %0 : tensor<4096x4096xf16>
  }
}
