// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy{deterministic-reductions=true}))'

// A user's WarpReduction plan that splits rows across workgroups (level-0
// tile of the reduction loop less than the row) where they cannot split:
// one case per reason.

#config = #gpucg.lowering_config<tile_sizes = [[1, 1024], [0, 4]]>
#info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [256, 1, 1]>
func.func @filled_accumulator(%a: tensor<8x4096xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  // expected-error @+1 {{pipeline WarpReduction would split each row of 4096 elements across 4 workgroups (level-0 tile 1024 of the reduction loop), but its accumulator is not an argument of the kernel (nothing in one kernel can initialize it before the workgroups add to it); give the whole row (4096) as its level-0 tile}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a : tensor<8x4096xf32>) outs(%c : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.maximumf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[1, 1024], [0, 4]]>
#info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [256, 1, 1]>
func.func @row_program(%a: tensor<8x4096xf32>, %c: tensor<8xf32>) -> tensor<8x4096xf32> {
  // expected-error @+1 {{pipeline WarpReduction would split each row of 4096 elements across 4 workgroups (level-0 tile 1024 of the reduction loop), but 'linalg.generic' is in the same kernel, and a workgroup that reduces part of a row must be the kernel's only op}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a : tensor<8x4096xf32>) outs(%c : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.maximumf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x4096xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
    ins(%a, %0 : tensor<8x4096xf32>, tensor<8xf32>) outs(%e2 : tensor<8x4096xf32>) {
  ^bb0(%x: f32, %s: f32, %o: f32):
    %d = arith.divf %x, %s : f32
    linalg.yield %d : f32
  } -> tensor<8x4096xf32>
  return %1 : tensor<8x4096xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[1, 1024], [0, 4]]>
#info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [256, 1, 1]>
func.func @deterministic_sum(%a: tensor<8x4096xf32>, %c: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{pipeline WarpReduction would split each row of 4096 elements across 4 workgroups (level-0 tile 1024 of the reduction loop), but deterministic-reductions is set, and the workgroups would round their floating-point sum in whatever order they finish}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a : tensor<8x4096xf32>) outs(%c : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[1, 1024], [0, 4]]>
#info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [256, 1, 1]>
func.func @float_product(%a: tensor<8x4096xf32>, %c: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{but its accumulator type f32 has no atomic mul (gpucg has them for integers and floats of 8, 16 or 32 bits, except floating-point products)}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a : tensor<8x4096xf32>) outs(%c : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.mulf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[1, 1024], [0, 4]]>
#info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [256, 1, 1]>
func.func @bool_and(%a: tensor<8x4096xi1>, %c: tensor<8xi1>) -> tensor<8xi1> {
  // expected-error @+1 {{but its accumulator type i1 has no atomic and}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a : tensor<8x4096xi1>) outs(%c : tensor<8xi1>) {
  ^bb0(%x: i1, %acc: i1):
    %s = arith.andi %x, %acc : i1
    linalg.yield %s : i1
  } -> tensor<8xi1>
  return %0 : tensor<8xi1>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[1, 1, 1, 256], [0, 0, 0, 4]]>
#info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [64, 1, 1]>
func.func @three_parallel_loops(%a: tensor<2x2x2x1024xi32>, %c: tensor<2x2x2xi32>) -> tensor<2x2x2xi32> {
  // expected-error @+1 {{but its 3 parallel loops take all three grid dimensions}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a : tensor<2x2x2x1024xi32>) outs(%c : tensor<2x2x2xi32>) {
  ^bb0(%x: i32, %acc: i32):
    %s = arith.addi %x, %acc : i32
    linalg.yield %s : i32
  } -> tensor<2x2x2xi32>
  return %0 : tensor<2x2x2xi32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[1, 1000], [0, 16]]>
#info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [64, 1, 1]>
func.func @uneven_steps(%a: tensor<8x4000xi32>, %c: tensor<8xi32>) -> tensor<8xi32> {
  // expected-error @+1 {{pipeline WarpReduction gives each workgroup 1000 elements of a row (level-0 tile of the reduction loop), not a multiple of the 16 its threads read per step (level-1 tile)}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a : tensor<8x4000xi32>) outs(%c : tensor<8xi32>) {
  ^bb0(%x: i32, %acc: i32):
    %s = arith.addi %x, %acc : i32
    linalg.yield %s : i32
  } -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[1, 8], [0, 4]]>
#info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>
func.func @split_grid_overflow(%a: tensor<8x1048576xi32>, %c: tensor<8xi32>) -> tensor<8xi32> {
  // expected-error @+1 {{pipeline WarpReduction would split each row of 1048576 elements across 131072 workgroups along grid y (level-0 tile 8 of the reduction loop); CUDA grids have at most 65535}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a : tensor<8x1048576xi32>) outs(%c : tensor<8xi32>) {
  ^bb0(%x: i32, %acc: i32):
    %s = arith.addi %x, %acc : i32
    linalg.yield %s : i32
  } -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[1, 256], [0, 4]]>
#info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>
func.func @diagonal(%a: tensor<8x1024x1024xi32>, %c: tensor<8xi32>) -> tensor<8xi32> {
  // expected-error @+1 {{pipeline WarpReduction would split each row of 1024 elements across 4 workgroups (level-0 tile 256 of the reduction loop), but its input #0 does not index the row by the row loop alone in one dimension (its part of a row would be no view); give the whole row (1024) as its level-0 tile}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a : tensor<8x1024x1024xi32>) outs(%c : tensor<8xi32>) {
  ^bb0(%x: i32, %acc: i32):
    %s = arith.addi %x, %acc : i32
    linalg.yield %s : i32
  } -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[1, 256], [0, 4]]>
#info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>
func.func @total_read_in_kernel(%a: tensor<8x1024xi32>, %c: tensor<8xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{pipeline WarpReduction would split each row of 1024 elements across 4 workgroups (level-0 tile 256 of the reduction loop), but its total is read by 'tensor.extract' in the same kernel, before every workgroup has added to it}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a : tensor<8x1024xi32>) outs(%c : tensor<8xi32>) {
  ^bb0(%x: i32, %acc: i32):
    %s = arith.addi %x, %acc : i32
    linalg.yield %s : i32
  } -> tensor<8xi32>
  %e = tensor.extract %0[%c0] : tensor<8xi32>
  return %e : i32
}
