// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy))'

// One case per rule of the strategy verifier. The compilation_info on each
// root op is a user's choice that breaks exactly that rule.

#config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>
#info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 32, 1]>
func.func @too_many_threads(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{'linalg.matmul' op workgroup_size [64, 32, 1] has 2048 threads; sm_80 allows at most 1024 per workgroup}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>
#info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 2]>
func.func @tensor_core_z(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{pipeline MatmulTensorCore needs workgroup_size z == 1, got workgroup_size [64, 2, 2]}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>
#info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [48, 2, 1]>
func.func @tensor_core_x_not_warps(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{pipeline MatmulTensorCoreMmaSync needs workgroup_size x (48) to be a multiple of the warp size (32) of sm_80}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[1, 64]]>
#info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 1, 1]>
func.func @tensor_core_not_contraction(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %e = tensor.empty() : tensor<64x64xf16>
  // expected-error @+1 {{pipeline MatmulTensorCore needs a contraction root op with one M, one N and one K loop}}
  %0 = linalg.add {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%e : tensor<64x64xf16>) -> tensor<64x64xf16>
  return %0 : tensor<64x64xf16>
}

// -----

/// A dynamic M is fine (its partial tiles are zero-padded at run time); the
/// depth is checked against a static K: 64 / 16 = 4 steps.
#config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>
#info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], pipeline_depth = 5>
func.func @tensor_core_dynamic_m_deep(%a: tensor<?x64xf16>, %b: tensor<64x64xf16>, %c: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{pipeline_depth 5 exceeds the 4 K steps (K = 64, K tile 16); software pipelining needs a K step per stage}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<?x64xf16>, tensor<64x64xf16>) outs(%c : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[32, 32, 0]]>
#info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>
func.func @tensor_core_untiled_k(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{pipeline MatmulTensorCore needs positive workgroup tile sizes for M, N and K, got 32, 32, 0}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[32, 32, 32]]>
#info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>
/// K = 48 takes two K steps of 32, the second zero-padded; a depth of 3
/// needs three.
#info3 = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], pipeline_depth = 3>
func.func @tensor_core_partial_k(%a: tensor<64x48xf16>, %b: tensor<48x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{pipeline_depth 3 exceeds the 2 K steps (K = 48, K tile 32); software pipelining needs a K step per stage}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info3>}
    ins(%a, %b : tensor<64x48xf16>, tensor<48x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16], [16, 16, 0], [16, 16, 16]]>
#info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1]>
func.func @unknown_instruction(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{sm_80 has no mma_sync instruction of shape 16x16x16 for 'f16' * 'f16' -> 'f32'}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>
#info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>
func.func @no_instruction_for_types(%a: tensor<64x64xi16>, %b: tensor<64x64xi16>, %c: tensor<64x64xi32>) -> tensor<64x64xi32> {
  // expected-error @+1 {{sm_80 has no wmma instruction for 'i16' * 'i16' -> 'i32'}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<64x64xi16>, tensor<64x64xi16>) outs(%c : tensor<64x64xi32>) -> tensor<64x64xi32>
  return %0 : tensor<64x64xi32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>
#info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 3, 1]>
func.func @uneven_warp_split(%a: tensor<96x64xf16>, %b: tensor<64x64xf16>, %c: tensor<96x64xf32>) -> tensor<96x64xf32> {
  // expected-error @+1 {{workgroup tile 32x32 (MxN) does not split evenly over the 3x2 warps of workgroup_size [64, 3, 1]}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<96x64xf16>, tensor<64x64xf16>) outs(%c : tensor<96x64xf32>) -> tensor<96x64xf32>
  return %0 : tensor<96x64xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>
#info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [128, 2, 1]>
func.func @warp_tile_below_instruction(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{warp tile 16x8x16 (MxNxK) is not a multiple of the wmma instruction shape 16x16x16 for 'f16' * 'f16' -> 'f32'}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

/// The multi-buffered A and B tiles alone exceed the opt-in limit.
#config = #gpucg.lowering_config<tile_sizes = [[256, 256, 64]]>
#info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [128, 4, 1], pipeline_depth = 4>
func.func @shared_memory_limit(%a: tensor<512x512xf16>, %b: tensor<512x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  // expected-error @+1 {{needs 262144 bytes of shared memory, more than the 166912 bytes sm_80 allows per workgroup (max_shared_memory_per_block_optin): pipeline_depth 4 x (A 256x64 + B 64x256 tiles) take 262144 bytes, and the 256x256 C tile staged for the store, which reuses their bytes, 262144 (rows padded by 0 bytes for mma_sync)}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<512x512xf16>, tensor<512x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

/// A and B fit (2 x 37376 bytes), but the 256x256 f32 C tile staged for the
/// store (260 KB) does not; WMMA pads every row by 16 bytes.
#config = #gpucg.lowering_config<tile_sizes = [[256, 256, 32]]>
#info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [128, 4, 1], pipeline_depth = 2>
func.func @c_staging_limit(%a: tensor<512x512xf16>, %b: tensor<512x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  // expected-error @+1 {{needs 266240 bytes of shared memory, more than the 166912 bytes sm_80 allows per workgroup (max_shared_memory_per_block_optin): pipeline_depth 2 x (A 256x32 + B 32x256 tiles) take 74752 bytes, and the 256x256 C tile staged for the store, which reuses their bytes, 266240 (rows padded by 16 bytes for wmma)}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<512x512xf16>, tensor<512x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[32, 128, 32]]>
#info = #gpucg.translation_info<pipeline = MatmulSimt, workgroup_size = [32, 8, 1]>
func.func @simt_matmul_partial_tile(%a: tensor<48x64xf32>, %b: tensor<64x128xf32>, %c: tensor<48x128xf32>) -> tensor<48x128xf32> {
  // expected-error @+1 {{problem size M = 48 is not a multiple of its workgroup tile 32; pipeline MatmulSimt needs whole tiles (SimtDistribute takes any shape)}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<48x64xf32>, tensor<64x128xf32>) outs(%c : tensor<48x128xf32>) -> tensor<48x128xf32>
  return %0 : tensor<48x128xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[32, 128, 32]]>
#info = #gpucg.translation_info<pipeline = MatmulSimt, workgroup_size = [32, 8, 1]>
func.func @simt_matmul_dynamic(%a: tensor<64x?xf32>, %b: tensor<?x128xf32>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-error @+1 {{pipeline MatmulSimt needs static shapes, but loop 2 (K) is dynamic}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<64x?xf32>, tensor<?x128xf32>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[32, 128, 32]]>
#info = #gpucg.translation_info<pipeline = MatmulSimt, workgroup_size = [96, 8, 1]>
func.func @simt_matmul_thread_split(%a: tensor<64x64xf32>, %b: tensor<64x128xf32>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-error @+1 {{workgroup tile 32x128 (MxN) does not split evenly over workgroup_size [96, 8, 1] (x over N, y over M)}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<64x64xf32>, tensor<64x128xf32>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[1, 1024]]>
#info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [256, 2, 1]>
func.func @warp_reduction_shape(%a: tensor<8x1024xf32>, %c: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{pipeline WarpReduction needs workgroup_size [x, 1, 1] with x a multiple of the warp size (32), got [256, 2, 1]}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a : tensor<8x1024xf32>) outs(%c : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[0, 1]]>
#info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [256, 1, 1]>
func.func @warp_reduction_outer_reduction(%a: tensor<1024x8xf32>, %c: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{pipeline WarpReduction needs exactly one reduction loop, the innermost one}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"], gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a : tensor<1024x8xf32>) outs(%c : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A row of a run-time size is reduced whole by one workgroup: its
// reduction loop is not tiled at level 0.
#config = #gpucg.lowering_config<tile_sizes = [[1, 512], [0, 4]]>
#info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [128, 1, 1]>
func.func @warp_reduction_dynamic_row_tiled(%a: tensor<8x?xf32>, %c: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{pipeline WarpReduction reduces a row of a run-time size whole in one workgroup: the level-0 tile of its reduction loop must be 0 (untiled), got 512}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a : tensor<8x?xf32>) outs(%c : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[1, 768]]>
#info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [256, 1, 1]>
func.func @warp_reduction_partial_row(%a: tensor<8x1000xf32>, %c: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{pipeline WarpReduction needs a reduction size that is a multiple of its tile, got size 1000 and tile 768}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a : tensor<8x1000xf32>) outs(%c : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[1, 64]]>
#info = #gpucg.translation_info<pipeline = Vectorize>
func.func @no_workgroup_size(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  // expected-error @+1 {{pipeline Vectorize needs a workgroup_size}}
  %0 = linalg.add {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[1, 64]]>
#info = #gpucg.translation_info<pipeline = Vectorize, workgroup_size = [16, 1, 1], subgroup_size = 64>
func.func @subgroup_size_mismatch(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  // expected-error @+1 {{subgroup_size 64 differs from the warp size 32 of sm_80}}
  %0 = linalg.add {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[64]]>
#info = #gpucg.translation_info<pipeline = Vectorize, workgroup_size = [16, 1, 1]>
func.func @tile_sizes_per_loop(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  // expected-error @+1 {{lowering_config level 0 has 1 tile sizes, but the op has 2 loops}}
  %0 = linalg.add {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// Seven tiled loops: the outer five share grid z, which the ABI counts as
// a constant times at most 3 run-time sizes.
#config = #gpucg.lowering_config<tile_sizes = [[1, 1, 1, 1, 1, 1, 4]]>
#info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [4, 1, 1]>
func.func @seven_grid_dims_dynamic(%a: tensor<2x?x?x?x?x2x8xf32>, %b: tensor<2x?x?x?x?x2x8xf32>, %e: tensor<2x?x?x?x?x2x8xf32>) -> tensor<2x?x?x?x?x2x8xf32> {
  // expected-error @+1 {{lowering_config level 0 tiles 7 parallel loops; a grid has 3 dimensions, so the outer 5 share grid z, whose workgroups are counted as a constant times at most 3 run-time sizes, and loops 1, 2, 3, 4 are dynamic (give all but 3 a static size, or pass the batches as fewer dimensions)}}
  %0 = linalg.add {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<2x?x?x?x?x2x8xf32>, tensor<2x?x?x?x?x2x8xf32>) outs(%e : tensor<2x?x?x?x?x2x8xf32>) -> tensor<2x?x?x?x?x2x8xf32>
  return %0 : tensor<2x?x?x?x?x2x8xf32>
}

// -----

// Four tiled loops whose workgroups overflow grid z together (each alone
// would fit).
#config = #gpucg.lowering_config<tile_sizes = [[1, 1, 1, 4]]>
#info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [4, 1, 1]>
func.func @four_grid_dims_overflow(%a: tensor<300x300x2x8xf32>, %b: tensor<300x300x2x8xf32>, %e: tensor<300x300x2x8xf32>) -> tensor<300x300x2x8xf32> {
  // expected-error @+1 {{lowering_config level 0 gives 90000 workgroups along grid z (loops 0, 1 together, of sizes 300 x 300 in tiles of 1 x 1); CUDA grids have at most 65535}}
  %0 = linalg.add {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<300x300x2x8xf32>, tensor<300x300x2x8xf32>) outs(%e : tensor<300x300x2x8xf32>) -> tensor<300x300x2x8xf32>
  return %0 : tensor<300x300x2x8xf32>
}

// -----

func.func @translation_info_without_config(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [64, 1, 1]>} {
  %e = tensor.empty() : tensor<64x64xf32>
  // expected-error @+1 {{has no gpucg.lowering_config, but its function has a gpucg.translation_info; give both together as a gpucg.compilation_info on the root op}}
  %0 = linalg.add ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @config_without_translation_info(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  // expected-error @+1 {{has a gpucg.lowering_config, but its function has no gpucg.translation_info; give both together as a gpucg.compilation_info on the root op}}
  %0 = linalg.add {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 64]]>}
    ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[1, 64]]>
#info = #gpucg.translation_info<pipeline = Vectorize, workgroup_size = [16, 1, 1]>
func.func @two_roots(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  // expected-note @+1 {{first one here}}
  %0 = linalg.add {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  // expected-error @+1 {{is the second op of kernel 'two_roots' with a gpucg.compilation_info or gpucg.lowering_config; a kernel has one root op}}
  %1 = linalg.add {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%0, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %1 : tensor<64x64xf32>
}

// -----

func.func @two_reductions(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-note @+1 {{first one here}}
  %0 = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  // expected-error @+1 {{is the second op with reduction loops in kernel 'two_reductions'; gpucg lowers one root op per kernel: split the kernel or put a gpucg.compilation_info on the root}}
  %1 = linalg.matmul ins(%0, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %1 : tensor<64x64xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[32, 128]]>
#info = #gpucg.translation_info<pipeline = MatmulSimt, workgroup_size = [32, 8, 1]>
func.func @simt_matmul_not_contraction(%a: tensor<64x128xf32>, %b: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<64x128xf32>
  // expected-error @+1 {{pipeline MatmulSimt needs a contraction root op with one M, one N and one K loop}}
  %0 = linalg.add {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<64x128xf32>, tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>
#info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1]>
func.func @mma_sync_f32(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{pipeline MatmulTensorCoreMmaSync cannot take 'f32' operands: gpucg's mma_sync lowering handles f16, bf16 and i8 only}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[32, 32, 32]]>
#info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], pipeline_depth = 4>
func.func @depth_beyond_k_steps(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{pipeline_depth 4 exceeds the 2 K steps (K = 64, K tile 32); software pipelining needs a K step per stage}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

/// Tile sizes whose buffers overflow 64 bits are over every limit, not a
/// wrapped-around small number.
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @tensor_core_huge_tiles(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
    // expected-error @+1 {{'linalg.matmul' op needs 9223372036854775807 bytes of shared memory}}
    %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
          lowering_config = #gpucg.lowering_config<tile_sizes = [[4611686018427387904, 4611686018427387904, 16], [4611686018427387904, 2305843009213693952, 0], [16, 8, 16]]>,
          translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 1, 1]>>}
      ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
}

// -----

// Vectorize without per-thread sizes: each thread's share of the workgroup
// tile must be whole.
#config = #gpucg.lowering_config<tile_sizes = [[250, 4]]>
#info = #gpucg.translation_info<pipeline = Vectorize, workgroup_size = [64, 1, 1]>
func.func @vectorize_uneven_thread_tile(%a: tensor<1000x100xf32>, %c: tensor<1000xf32>) -> tensor<1000xf32> {
  // expected-error @+1 {{'linalg.generic' op workgroup tile 250 of loop 0 does not split evenly over the 64 threads of workgroup_size [64, 1, 1]; pipeline Vectorize without level-1 (per-thread) tile sizes needs a multiple}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%a : tensor<1000x100xf32>) outs(%c : tensor<1000xf32>)
    attrs = {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>} {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  } -> tensor<1000xf32>
  return %0 : tensor<1000xf32>
}

// -----

// WarpReduction combines the threads' partials with gpu.subgroup_reduce.
#config = #gpucg.lowering_config<tile_sizes = [[1, 128]]>
#info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>
func.func @warp_reduction_not_a_subgroup_op(%a: tensor<64x128xf32>, %c: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{'linalg.generic' op pipeline WarpReduction needs a body whose value is combined with the accumulator by one op that gpu.subgroup_reduce performs (add, mul, min, max, and, or, xor)}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%a : tensor<64x128xf32>) outs(%c : tensor<64xf32>)
    attrs = {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>} {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.subf %acc, %x : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// -----

// WarpReduction: one row per workgroup.
#config = #gpucg.lowering_config<tile_sizes = [[2, 128]]>
#info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>
func.func @warp_reduction_two_rows(%a: tensor<64x128xf32>, %c: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{'linalg.generic' op pipeline WarpReduction reduces one row per workgroup, but the level-0 tile of parallel loop 0 is 2 (expected 1)}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%a : tensor<64x128xf32>) outs(%c : tensor<64xf32>)
    attrs = {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>} {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// -----

// CUDA grids have at most 65535 workgroups along y and z.
#config = #gpucg.lowering_config<tile_sizes = [[1, 1024], [1, 8]]>
#info = #gpucg.translation_info<pipeline = Vectorize, workgroup_size = [128, 1, 1]>
func.func @grid_y_too_large(%a: tensor<65536x4096xf16>, %b: tensor<65536x4096xf16>, %c: tensor<65536x4096xf16>) -> tensor<65536x4096xf16> {
  // expected-error @+1 {{'linalg.add' op lowering_config level 0 gives 65536 workgroups along grid y (loop 0 of size 65536, tile 1); CUDA grids have at most 65535}}
  %0 = linalg.add {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<65536x4096xf16>, tensor<65536x4096xf16>) outs(%c : tensor<65536x4096xf16>) -> tensor<65536x4096xf16>
  return %0 : tensor<65536x4096xf16>
}

// -----

// A row program (the row divided by its sum) given a Vectorize plan: each
// thread would need the whole row's sum.
#config = #gpucg.lowering_config<tile_sizes = [[4, 0], [1, 4]]>
#info = #gpucg.translation_info<pipeline = Vectorize, workgroup_size = [4, 1, 1]>
#row = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
func.func @row_program_not_warp_reduction(%x: tensor<64x256xf32>, %out: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  // expected-error @+1 {{reduces rows that other ops of its kernel read again (a second reduction of the same rows, or an op that reads its result once per row: softmax, RMSNorm, LayerNorm); only pipeline WarpReduction distributes such a kernel, not Vectorize (WarpReduction needs a combiner gpu.subgroup_reduce performs on at most 32 bits, and elements of whole bytes)}}
  %sum = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"], gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
      ins(%x : tensor<64x256xf32>) outs(%acc : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  %o = linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<64x256xf32>, tensor<64xf32>) outs(%out : tensor<64x256xf32>) {
  ^bb0(%a: f32, %s: f32, %b: f32):
    %t = arith.divf %a, %s : f32
    linalg.yield %t : f32
  } -> tensor<64x256xf32>
  return %o : tensor<64x256xf32>
}

// -----

// Two reductions of different rows are still two kernels.
func.func @reductions_of_different_rows(%x: tensor<64x256xf32>, %y: tensor<64x128xf32>, %o1: tensor<64xf32>, %o2: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  // expected-note @+1 {{first one here}}
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x256xf32>) outs(%o1 : tensor<64xf32>) {
  ^bb0(%v: f32, %b: f32):
    %t = arith.addf %v, %b : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  // expected-error @+1 {{is the second op with reduction loops in kernel 'reductions_of_different_rows'}}
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<64x128xf32>) outs(%o2 : tensor<64xf32>) {
  ^bb0(%v: f32, %c: f32):
    %t = arith.addf %v, %c : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  return %a, %b : tensor<64xf32>, tensor<64xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[32, 128, 32]]>
#info = #gpucg.translation_info<pipeline = MatmulSimt, workgroup_size = [32, 8, 1], pipeline_depth = 3>
func.func @simt_matmul_depth_over_k_steps(%a: tensor<64x64xf32>, %b: tensor<64x128xf32>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-error @+1 {{pipeline_depth 3 exceeds the 2 K steps (K = 64, tile 32)}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<64x64xf32>, tensor<64x128xf32>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// -----

#config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>
#info = #gpucg.translation_info<pipeline = MatmulSimt, workgroup_size = [32, 8, 1], pipeline_depth = 4>
func.func @simt_matmul_stages_over_shared_memory(%a: tensor<128x512xf64>, %b: tensor<512x128xf64>, %c: tensor<128x128xf64>) -> tensor<128x128xf64> {
  // expected-error @+1 {{pipeline_depth 4 needs 524288 bytes of workgroup memory for its A and B tiles (128x64 and 64x128 per stage); sm_80 allows at most 166912}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<128x512xf64>, tensor<512x128xf64>) outs(%c : tensor<128x128xf64>) -> tensor<128x128xf64>
  return %0 : tensor<128x128xf64>
}
