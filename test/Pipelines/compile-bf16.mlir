// gpucg-compile for bf16 x bf16 -> f32 on sm_80: a plain matmul, a matmul with
// B transposed through its indexing maps and a batch matmul all take the
// mma.sync pipeline, whose bf16 nvgpu.mma.sync gpucg lowers itself (upstream
// MLIR 22 leaves it unconverted). Down to PTX, then ptxas and the SASS mix.
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t})' -o %t/lowered.mlir
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/matmul_bf16_kernel.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/matmul_transpose_b_bf16_kernel.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/batch_matmul_bf16_kernel.ptx
// RUN: FileCheck %s --check-prefix=ABI-T < %t/matmul_transpose_b_bf16_kernel.abi
// RUN: FileCheck %s --check-prefix=ABI-B < %t/batch_matmul_bf16_kernel.abi

// Every kernel: 16-byte async copies, ldmatrix, bf16 mma.sync with f32
// accumulators, 128-bit stores of C; no f16 or local-memory instruction.
// PTX: .target sm_80
// PTX: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16
// PTX: ldmatrix.sync.aligned.m8n8.x4
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-NOT: mma.sync.aligned.{{.*}}f16.f16
// PTX: st.global.v4
// PTX-NOT: .local

// ABI-T: function matmul_transpose_b_bf16
// ABI-T: calling_convention bare_pointers
// ABI-T: arguments 3
// ABI-T-DAG: function_argument 0 memref bf16 256x128
// ABI-T-DAG: function_argument 1 memref bf16 256x128
// ABI-T-DAG: function_argument 2 memref f32 256x256

// The batch is the grid's z.
// ABI-B: grid_z 4
// ABI-B: arguments 3
// ABI-B-DAG: function_argument 0 memref bf16 4x128x64
// ABI-B-DAG: function_argument 1 memref bf16 4x64x128
// ABI-B-DAG: function_argument 2 memref f32 4x128x128

// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/matmul_bf16_kernel.ptx -o %t/m.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/matmul_transpose_b_bf16_kernel.ptx -o %t/t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/batch_matmul_bf16_kernel.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// RUN: %if sass %{ %sass_mix %t/t.cubin | FileCheck %s --check-prefix=SASS %}
// SASS:      HMMA {{[1-9][0-9]*}}
// SASS:      LDSM {{[1-9][0-9]*}}
// SASS:      LDGSTS {{[1-9][0-9]*}}
// SASS:      STG.E.128 {{[1-9][0-9]*}}
// SASS:      LDL 0
// SASS-NEXT: STL 0

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @matmul_bf16(%a: tensor<256x128xbf16>, %b: tensor<128x256xbf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<256x128xbf16>, tensor<128x256xbf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
  func.func @matmul_transpose_b_bf16(%a: tensor<256x128xbf16>, %b: tensor<256x128xbf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<256x128xbf16>, tensor<256x128xbf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
  func.func @batch_matmul_bf16(%a: tensor<4x128x64xbf16>, %b: tensor<4x64x128xbf16>, %c: tensor<4x128x128xf32>) -> tensor<4x128x128xf32> {
    %0 = linalg.batch_matmul ins(%a, %b : tensor<4x128x64xbf16>, tensor<4x64x128xbf16>) outs(%c : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
    return %0 : tensor<4x128x128xf32>
  }
}
