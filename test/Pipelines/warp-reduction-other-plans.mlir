// gpucg-warp-reduction on kernels the strategy does not plan WarpReduction:
// rows too short for a warp per row (Vectorize) and a matmul (a tensor-core
// plan, re-planned SimtDistribute). Both are distributed over their threads
// like in gpucg-vectorize; before, every thread computed the whole
// workgroup tile and read-modify-wrote its output (a race the CPU emulator
// reports; test/Integration/Emulation/simt-pipelines.mlir runs them).
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-warp-reduction{chip=sm_80})' \
// RUN:   | FileCheck %s
// Round trip: the output parses and verifies again.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-warp-reduction{chip=sm_80})' | gpucg-opt > /dev/null

// CHECK-LABEL: func.func @short_rows
// CHECK-SAME:    pipeline = Vectorize
// CHECK:         gpu.thread_id x
// CHECK:         scf.forall
// CHECK-NOT:     gpu.subgroup_reduce
// CHECK:       return
func.func @short_rows(%a: tensor<5x4099xf32>, %c: tensor<5xf32>) -> tensor<5xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%a : tensor<5x4099xf32>) outs(%c : tensor<5xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  } -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// CHECK-LABEL: func.func @matmul
// CHECK-SAME:    pipeline = SimtDistribute
// CHECK:         gpu.thread_id x
// CHECK:       return
func.func @matmul(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// A WarpReduction kernel keeps its own stages.
// CHECK-LABEL: func.func @long_rows
// CHECK-SAME:    pipeline = WarpReduction
// CHECK:         gpu.subgroup_reduce add
// CHECK:         gpu.barrier
func.func @long_rows(%a: tensor<16x4096xf32>, %c: tensor<16xf32>) -> tensor<16xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%a : tensor<16x4096xf32>) outs(%c : tensor<16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  } -> tensor<16xf32>
  return %0 : tensor<16xf32>
}
