// Few long rows split across workgroups (WarpReduction with a level-0 tile
// of the reduction loop less than the row), and when they stay whole.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=DEFAULT
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy{deterministic-reductions=true}))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=DET
// Its own decisions verify again (and parse):
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy))' \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=DEFAULT

#rows = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>

/// 32 rows of 2^20 f32 on sm_80 (108 SMs): 32 workgroups would leave most
/// SMs idle; 8 parts of 131072 give 256 workgroups, at least 2 per SM, each
/// 1024 threads x 4 for 32 steps. Deterministic: float sums stay whole.
// DEFAULT-LABEL: func.func @sum_32x1M
//  DEFAULT-SAME:   pipeline = WarpReduction, workgroup_size = [1024, 1, 1]
//       DEFAULT:   tile_sizes = {{\[}}[1, 131072], [0, 4]]
// DET-LABEL: func.func @sum_32x1M
//       DET:   tile_sizes = {{\[}}[1, 1048576], [0, 4]]
func.func @sum_32x1M(%a: tensor<32x1048576xf32>, %c: tensor<32xf32>) -> tensor<32xf32> {
  %0 = linalg.generic {indexing_maps = [#rows, #red], iterator_types = ["parallel", "reduction"]}
    ins(%a : tensor<32x1048576xf32>) outs(%c : tensor<32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

/// Integer sums and float maxima are exact in any order: split either way.
// DEFAULT-LABEL: func.func @sum_i32
//       DEFAULT:   tile_sizes = {{\[}}[1, 131072], [0, 4]]
// DET-LABEL: func.func @sum_i32
//       DET:   tile_sizes = {{\[}}[1, 131072], [0, 4]]
func.func @sum_i32(%a: tensor<32x1048576xi32>, %c: tensor<32xi32>) -> tensor<32xi32> {
  %0 = linalg.generic {indexing_maps = [#rows, #red], iterator_types = ["parallel", "reduction"]}
    ins(%a : tensor<32x1048576xi32>) outs(%c : tensor<32xi32>) {
  ^bb0(%x: i32, %acc: i32):
    %s = arith.addi %x, %acc : i32
    linalg.yield %s : i32
  } -> tensor<32xi32>
  return %0 : tensor<32xi32>
}

// DEFAULT-LABEL: func.func @max_f32
//       DEFAULT:   tile_sizes = {{\[}}[1, 131072], [0, 4]]
// DET-LABEL: func.func @max_f32
//       DET:   tile_sizes = {{\[}}[1, 131072], [0, 4]]
func.func @max_f32(%a: tensor<32x1048576xf32>, %c: tensor<32xf32>) -> tensor<32xf32> {
  %0 = linalg.generic {indexing_maps = [#rows, #red], iterator_types = ["parallel", "reduction"]}
    ins(%a : tensor<32x1048576xf32>) outs(%c : tensor<32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.maximumf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

/// One row of 65536: 16 steps of 1024 x 4 leave room for two parts of 8.
// DEFAULT-LABEL: func.func @one_row
//       DEFAULT:   tile_sizes = {{\[}}[1, 32768], [0, 4]]
func.func @one_row(%a: tensor<1x65536xf32>, %c: tensor<1xf32>) -> tensor<1xf32> {
  %0 = linalg.generic {indexing_maps = [#rows, #red], iterator_types = ["parallel", "reduction"]}
    ins(%a : tensor<1x65536xf32>) outs(%c : tensor<1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

/// Enough rows to fill the SMs: whole rows.
// DEFAULT-LABEL: func.func @many_rows
//       DEFAULT:   tile_sizes = {{\[}}[1, 65536], [0, 4]]
func.func @many_rows(%a: tensor<256x65536xf32>, %c: tensor<256xf32>) -> tensor<256xf32> {
  %0 = linalg.generic {indexing_maps = [#rows, #red], iterator_types = ["parallel", "reduction"]}
    ins(%a : tensor<256x65536xf32>) outs(%c : tensor<256xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  return %0 : tensor<256xf32>
}

/// An accumulator filled in the kernel cannot be initialized before the
/// parts add to it: whole rows.
// DEFAULT-LABEL: func.func @filled_accumulator
//       DEFAULT:   tile_sizes = {{\[}}[1, 1048576], [0, 4]]
func.func @filled_accumulator(%a: tensor<32x1048576xf32>) -> tensor<32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %0 = linalg.generic {indexing_maps = [#rows, #red], iterator_types = ["parallel", "reduction"]}
    ins(%a : tensor<32x1048576xf32>) outs(%c : tensor<32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

/// A consumer of the row's total in the same kernel: whole rows.
// DEFAULT-LABEL: func.func @consumed_total
//       DEFAULT:   tile_sizes = {{\[}}[1, 1048576], [0, 4]]
func.func @consumed_total(%a: tensor<32x1048576xf32>, %c: tensor<32xf32>) -> tensor<32xf32> {
  %0 = linalg.generic {indexing_maps = [#rows, #red], iterator_types = ["parallel", "reduction"]}
    ins(%a : tensor<32x1048576xf32>) outs(%c : tensor<32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  %e = tensor.empty() : tensor<32xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
    ins(%0 : tensor<32xf32>) outs(%e : tensor<32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.sqrt %x : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  return %1 : tensor<32xf32>
}

/// Float products have no atomic: whole rows.
// DEFAULT-LABEL: func.func @product_f32
//       DEFAULT:   tile_sizes = {{\[}}[1, 1048576], [0, 4]]
func.func @product_f32(%a: tensor<32x1048576xf32>, %c: tensor<32xf32>) -> tensor<32xf32> {
  %0 = linalg.generic {indexing_maps = [#rows, #red], iterator_types = ["parallel", "reduction"]}
    ins(%a : tensor<32x1048576xf32>) outs(%c : tensor<32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.mulf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

/// A total of all 2^20 elements (one row, no row loop): 32 parts of 32768,
/// the most that keep 8 steps of 1024 x 4 each.
// DEFAULT-LABEL: func.func @total
//       DEFAULT:   tile_sizes = {{\[}}[32768], [4]]
// DET-LABEL: func.func @total
//       DET:   tile_sizes = {{\[}}[1048576], [4]]
func.func @total(%a: tensor<1048576xf32>, %c: tensor<f32>) -> tensor<f32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
    ins(%a : tensor<1048576xf32>) outs(%c : tensor<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %0 : tensor<f32>
}

/// A diagonal read (d1, d1) has no view of a part of the row: whole rows.
// DEFAULT-LABEL: func.func @diagonal
//       DEFAULT:   tile_sizes = {{\[}}[1, 65536], [0, 4]]
func.func @diagonal(%a: tensor<32x65536x65536xf32>, %c: tensor<32xf32>) -> tensor<32xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1, d1)>, #red], iterator_types = ["parallel", "reduction"]}
    ins(%a : tensor<32x65536x65536xf32>) outs(%c : tensor<32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  return %0 : tensor<32xf32>
}
