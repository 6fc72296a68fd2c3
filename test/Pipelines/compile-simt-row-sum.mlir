// gpucg-compile on the seed reduction, 100000 rows of 100 f32,
// addf(addf(a, b), acc), planned SimtDistribute by its compilation_info (the
// strategy's own plan, Vectorize, is compile-vectorize.mlir's): 256 rows per
// workgroup, one row per thread; 390 full tiles and a last one of 160 rows
// (the dynamic branch of workgroup specialization). Down to PTX and ptxas.
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t})' -o %t/lowered.mlir
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/row_sum_kernel.ptx
// RUN: FileCheck %s --check-prefix=ABI < %t/row_sum_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/row_sum_kernel.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' --mlir-print-local-scope | FileCheck %s --check-prefix=STRATEGY
// STRATEGY-LABEL: func.func @row_sum(
// STRATEGY-SAME: pipeline = SimtDistribute, workgroup_size = [256, 1, 1]
// STRATEGY: tile_sizes = {{\[}}[256, 0], [1, 0]]

// PTX: .entry row_sum_kernel
// PTX-DAG: ld.global.b32
// PTX-DAG: add.rn.f32
// PTX-DAG: st.global.b32
// PTX-NOT: bar.sync
// PTX-NOT: .local

// ABI: grid_x 391
// ABI-NEXT: grid_y 1
// ABI-NEXT: grid_z 1
// ABI-NEXT: block_x 256

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @row_sum(%a: tensor<100000x100xf32>, %b: tensor<100000x100xf32>, %c: tensor<100000xf32>) -> tensor<100000xf32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a, %b : tensor<100000x100xf32>, tensor<100000x100xf32>) outs(%c : tensor<100000xf32>)
      attrs = {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[256, 0], [1, 0]]>,
        translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [256, 1, 1]>>} {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %s = arith.addf %x, %y : f32
      %t = arith.addf %s, %acc : f32
      linalg.yield %t : f32
    } -> tensor<100000xf32>
    return %0 : tensor<100000xf32>
  }
}
