// gpucg-compile on an f32 256x256x256 matmul planned MatmulSimt by a user's
// compilation_info (on sm_80 the strategy itself picks TF32 WMMA): 32x128
// workgroup tiles, K steps of 32, 32x8 threads of 4x4 outputs each. Eight
// warps: A and B promoted to workgroup memory, copied by all threads as
// 128-bit vectors between barriers. The named gpucg-matmul-simt pipeline
// gives the same in-workgroup IR. Down to PTX and ptxas.
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t})' -o %t/lowered.mlir
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/matmul_f32_simt_kernel.ptx
// RUN: FileCheck %s --check-prefix=ABI < %t/matmul_f32_simt_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/matmul_f32_simt_kernel.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// The strategy's own plan for an f32 matmul of 8 rows (too few for tensor
// cores): MatmulSimt on 8x8 threads with pipeline_depth 2, its tiles of A
// and B copied by cp.async (16 bytes, L1 bypassed) one K step ahead.
// RUN: FileCheck %s --check-prefix=THIN < %t/matmul_f32_thin_kernel.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/matmul_f32_thin_kernel.ptx -o %t/t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// THIN: .entry matmul_f32_thin_kernel
// THIN: cp.async.cg.shared.global [{{.+}}], [{{.+}}], 16
// THIN: cp.async.commit_group
// THIN: cp.async.wait_group 1
// THIN: bar.sync 0
// THIN: fma.rn.f32
// THIN: cp.async.wait_group 0
// THIN-NOT: .local
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-simt)' | FileCheck %s --check-prefix=NAMED
// NAMED-LABEL: func.func @matmul_f32_simt
// NAMED: memref.alloc() {alignment = 16 : i64} : memref<20480xi8, #gpu.address_space<workgroup>>
// NAMED: scf.for
// NAMED: gpu.barrier
// NAMED: vector.transfer_read {{.*}} : memref<256x256xf32>, vector<4xf32>
// NAMED: gpu.barrier
// Each thread's 4x4 outputs in registers across both K loops, K steps of 4
// as vector.contract on 128-bit reads of workgroup memory.
// NAMED: scf.for {{.*}} step %c4 iter_args({{.*}}) -> (vector<4x4xf32>)
// NAMED: vector.transfer_read {{.*}} #gpu.address_space<workgroup>>, vector<4x4xf32>
// NAMED: vector.contract
// NAMED-NOT: linalg.

// PTX: .entry matmul_f32_simt_kernel
// PTX-DAG: ld.global.v4.b32
// PTX-DAG: st.shared.v4.b32
// PTX-DAG: ld.shared.v4.b32
// PTX-DAG: bar.sync 0
// PTX-DAG: fma.rn.f32
// PTX-DAG: st.global.v4.b32
// PTX-NOT: .local

// ABI: grid_x 2
// ABI-NEXT: grid_y 8
// ABI-NEXT: grid_z 1
// ABI-NEXT: block_x 32
// ABI-NEXT: block_y 8

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @matmul_f32_simt(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 128, 32], [4, 4, 0]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulSimt, workgroup_size = [32, 8, 1]>>}
      ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
  func.func @matmul_f32_thin(%a: tensor<8x256xf32>, %b: tensor<256x256xf32>, %c: tensor<8x256xf32>) -> tensor<8x256xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<8x256xf32>, tensor<256x256xf32>) outs(%c : tensor<8x256xf32>) -> tensor<8x256xf32>
    return %0 : tensor<8x256xf32>
  }
}
