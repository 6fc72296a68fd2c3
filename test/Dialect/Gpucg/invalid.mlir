// RUN: gpucg-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// lowering_config
//===----------------------------------------------------------------------===//

// expected-error @+1 {{tile_sizes must have at least one level}}
func.func @lowering_config_no_level() attributes {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = []>} {
  return
}

// -----

// expected-error @+1 {{tile size must be non-negative (0 leaves a loop untiled), got -4 at level 1, position 2}}
func.func @lowering_config_negative_size() attributes {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16], [16, 16, -4]]>} {
  return
}

// -----

//===----------------------------------------------------------------------===//
// translation_info
//===----------------------------------------------------------------------===//

// expected-error @+1 {{#gpucg.translation_info requires 'pipeline = <name>'}}
func.func @translation_info_no_pipeline() attributes {gpucg.translation_info = #gpucg.translation_info<workgroup_size = [32, 1, 1]>} {
  return
}

// -----

// expected-error @+1 {{unknown key 'workgroup' in #gpucg.translation_info; expected one of: pipeline, workgroup_size, subgroup_size, pipeline_depth, store_stage, mma_kind, workgroup_group_size, persistent_workgroups, cluster, staged_store}}
func.func @translation_info_unknown_key() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = None, workgroup = [32, 1, 1]>} {
  return
}

// -----

// expected-error @+1 {{key 'pipeline' appears twice in #gpucg.translation_info}}
func.func @translation_info_repeated_key() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = None, pipeline = Vectorize>} {
  return
}

// -----

// expected-error @+1 {{expected one of [None, SimtDistribute, Vectorize, MatmulSimt, MatmulTensorCore, MatmulTensorCoreMmaSync, WarpReduction, MatmulWgmma] for pipeline, got: Tiled}}
func.func @translation_info_unknown_pipeline() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = Tiled>} {
  return
}

// -----

// expected-error @+1 {{workgroup_size must list 3 sizes [x, y, z], got 2}}
func.func @translation_info_workgroup_rank() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = Vectorize, workgroup_size = [64, 2]>} {
  return
}

// -----

// expected-error @+1 {{workgroup_size[2] must be from 1 to 65536, got 0}}
func.func @translation_info_workgroup_zero() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = Vectorize, workgroup_size = [64, 2, 0]>} {
  return
}

// -----

// expected-error @+1 {{subgroup_size must be a power of two from 1 to 65536, got 24}}
func.func @translation_info_subgroup_size() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, subgroup_size = 24>} {
  return
}

// -----

// expected-error @+1 {{pipeline_depth must be from 1 to 64, got 0}}
func.func @translation_info_pipeline_depth() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, pipeline_depth = 0>} {
  return
}

// -----

// expected-error @+1 {{store_stage must be 0 or 1, got 2}}
func.func @translation_info_store_stage() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, pipeline_depth = 4, store_stage = 2>} {
  return
}

// -----

// expected-error @+1 {{mma_kind is only allowed with a tensor-core pipeline, got pipeline Vectorize}}
func.func @translation_info_mma_kind_without_tensor_cores() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = Vectorize, mma_kind = wmma>} {
  return
}

// -----

// expected-error @+1 {{mma_kind = mma_sync contradicts pipeline MatmulTensorCore, which uses wmma}}
func.func @translation_info_mma_kind_contradiction() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, mma_kind = mma_sync>} {
  return
}

// -----

//===----------------------------------------------------------------------===//
// mma_shape
//===----------------------------------------------------------------------===//

// expected-error @+1 {{expected an MMA shape MxNxK with 3 dimensions, got 2}}
func.func @mma_shape_rank() attributes {a = #gpucg.mma_shape<wmma, 16x16, f16 * f16 -> f32>} {
  return
}

// -----

// expected-error @+1 {{MMA shape dimensions must be positive, got 16x0x16}}
func.func @mma_shape_zero() attributes {a = #gpucg.mma_shape<wmma, 16x0x16, f16 * f16 -> f32>} {
  return
}

// -----

// expected-error @+1 {{MMA element types must be integer or floating point, got 'index'}}
func.func @mma_shape_type() attributes {a = #gpucg.mma_shape<mma_sync, 16x8x16, f16 * f16 -> index>} {
  return
}

// -----

//===----------------------------------------------------------------------===//
// target
//===----------------------------------------------------------------------===//

// expected-error @+1 {{#gpucg.target requires 'chip = "sm_XY"'}}
module attributes {gpucg.target = #gpucg.target<warp_size = 32>} {}

// -----

// expected-error @+1 {{unknown chip 'sm_100' (known: sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a); an unknown chip must give every limit, missing: max_registers_per_block, max_registers_per_thread, num_sms, mma_shapes}}
module attributes {gpucg.target = #gpucg.target<chip = "sm_100", warp_size = 32, max_threads_per_block = 1024, max_shared_memory_per_block = 49152, max_shared_memory_per_block_optin = 232448>} {}

// -----

// expected-error @+1 {{chip must look like sm_<major><minor>[a] (e.g. sm_80, sm_90a), got 'gfx90a'}}
module attributes {gpucg.target = #gpucg.target<chip = "gfx90a", warp_size = 64, max_threads_per_block = 1024, max_shared_memory_per_block = 65536, max_shared_memory_per_block_optin = 65536, max_registers_per_block = 65536, max_registers_per_thread = 512, num_sms = 104, mma_shapes = []>} {}

// -----

// expected-error @+1 {{unknown key 'shared_memory' in #gpucg.target; expected one of: chip, warp_size, max_threads_per_block, max_shared_memory_per_block, max_shared_memory_per_block_optin, max_registers_per_block, max_registers_per_thread, num_sms, mma_shapes}}
module attributes {gpucg.target = #gpucg.target<chip = "sm_80", shared_memory = 1024>} {}

// -----

// expected-error @+1 {{warp_size must be a power of two from 1 to 65536, got 48}}
module attributes {gpucg.target = #gpucg.target<chip = "sm_80", warp_size = 48>} {}

// -----

// expected-error @+1 {{max_threads_per_block must be a multiple of warp_size (32) from 32 to 65536, got 1000}}
module attributes {gpucg.target = #gpucg.target<chip = "sm_80", max_threads_per_block = 1000>} {}

// -----

// expected-error @+1 {{max_shared_memory_per_block must be non-negative, got -1}}
module attributes {gpucg.target = #gpucg.target<chip = "sm_80", max_shared_memory_per_block = -1>} {}

// -----

// expected-error @+1 {{max_shared_memory_per_block_optin (32768) must be at least max_shared_memory_per_block (49152)}}
module attributes {gpucg.target = #gpucg.target<chip = "sm_80", max_shared_memory_per_block_optin = 32768>} {}

// -----

// expected-error @+1 {{max_registers_per_thread must be positive, got 0}}
module attributes {gpucg.target = #gpucg.target<chip = "sm_80", max_registers_per_thread = 0>} {}

// -----

// expected-error @+1 {{max_registers_per_block (128) must be at least max_registers_per_thread (255)}}
module attributes {gpucg.target = #gpucg.target<chip = "sm_80", max_registers_per_block = 128>} {}

// -----

// expected-error @+1 {{num_sms must be positive, got 0}}
module attributes {gpucg.target = #gpucg.target<chip = "sm_80", num_sms = 0>} {}

// -----

// expected-error @+1 {{invalid kind of attribute specified}}
module attributes {gpucg.target = #gpucg.target<chip = "sm_80", mma_shapes = [#gpucg.lowering_config<tile_sizes = [[1]]>]>} {}

// -----

//===----------------------------------------------------------------------===//
// Discardable attributes: names and places
//===----------------------------------------------------------------------===//

// expected-error @+1 {{'builtin.module' op attribute 'gpucg.target' must be a #gpucg.target, got "sm_80"}}
module attributes {gpucg.target = "sm_80"} {}

// -----

// expected-error @+1 {{'func.func' op attribute 'gpucg.translation_info' must be a #gpucg.translation_info, got #gpucg.lowering_config<tile_sizes = [[1]]>}}
func.func @translation_info_kind() attributes {gpucg.translation_info = #gpucg.lowering_config<tile_sizes = [[1]]>} {
  return
}

// -----

// expected-error @+1 {{'builtin.module' op attribute 'gpucg.translation_info' may only be placed on a function (the kernel it describes)}}
module attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = None>} {}

// -----

func.func @lowering_config_kind(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.copy' op attribute 'gpucg.lowering_config' must be a #gpucg.lowering_config, got [32]}}
  %0 = linalg.copy {gpucg.lowering_config = [32]} ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @compilation_info_kind(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.copy' op attribute 'gpucg.compilation_info' must be a #gpucg.compilation_info, got #gpucg.translation_info<pipeline = None>}}
  %0 = linalg.copy {gpucg.compilation_info = #gpucg.translation_info<pipeline = None>} ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error @+1 {{'func.func' op unknown gpucg attribute 'gpucg.config'; expected one of 'gpucg.target', 'gpucg.translation_info', 'gpucg.lowering_config', 'gpucg.compilation_info', 'gpucg.num_buffers', 'gpucg.workgroup_specialization', 'gpucg.row_pitch_specialization', 'gpucg.alignment', 'gpucg.cluster_shape'}}
func.func @unknown_gpucg_attr() attributes {gpucg.config = 1 : i64} {
  return
}

// -----

// expected-error @+1 {{expected one of [wmma, mma_sync] for mma_kind, got: mma}}
func.func @translation_info_unknown_mma_kind() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, mma_kind = mma>} {
  return
}

// -----

/// gpucg.num_buffers says how many copies the leading dimension holds.
func.func @num_buffers_mismatch() {
  // expected-error @+1 {{'memref.alloc' op attribute 'gpucg.num_buffers' (3 : i64) must be positive and equal the leading dimension of the op's one memref result}}
  %0 = memref.alloc() {gpucg.num_buffers = 3 : i64} : memref<2x8xf16, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @num_buffers_kind() {
  // expected-error @+1 {{'memref.alloc' op attribute 'gpucg.num_buffers' must be an integer, got "two"}}
  %0 = memref.alloc() {gpucg.num_buffers = "two"} : memref<2x8xf16, #gpu.address_space<workgroup>>
  return
}

// -----

/// A leading dimension too large for 64 bits cannot match any memref.
func.func @num_buffers_huge() {
  // expected-error @+1 {{'memref.alloc' op attribute 'gpucg.num_buffers' (36893488147419103232 : i128) must be positive and equal the leading dimension of the op's one memref result}}
  %0 = memref.alloc() {gpucg.num_buffers = 36893488147419103232 : i128} : memref<2x8xf16, #gpu.address_space<workgroup>>
  return
}

// -----

/// gpucg.workgroup_specialization marks an scf.if with a full-tile and a
/// partial-tile region.
func.func @workgroup_specialization_on_func() attributes {gpucg.workgroup_specialization} {
  // expected-error @-1 {{'func.func' op attribute 'gpucg.workgroup_specialization' may only be placed on an op with a full-tile and a partial-tile region (an scf.if), but the op has 1 regions}}
  return
}

// -----

func.func @workgroup_specialization_kind(%c: i1) {
  // expected-error @+1 {{'scf.if' op attribute 'gpucg.workgroup_specialization' must be a unit attribute, got 1 : i64}}
  scf.if %c {
  } else {
  } {gpucg.workgroup_specialization = 1 : i64}
  return
}

// -----

/// gpucg.row_pitch_specialization marks an scf.if with an aligned-pitch and
/// an unaligned-pitch region.
func.func @row_pitch_specialization_on_func() attributes {gpucg.row_pitch_specialization} {
  // expected-error @-1 {{'func.func' op attribute 'gpucg.row_pitch_specialization' may only be placed on an op with an aligned-pitch and an unaligned-pitch region (an scf.if), but the op has 1 regions}}
  return
}

// -----

func.func @row_pitch_specialization_kind(%c: i1) {
  // expected-error @+1 {{'scf.if' op attribute 'gpucg.row_pitch_specialization' must be a unit attribute, got "aligned"}}
  scf.if %c {
  } else {
  } {gpucg.row_pitch_specialization = "aligned"}
  return
}

// -----

/// Limits are bounded so that products of them cannot overflow.
// expected-error @+1 {{warp_size must be a power of two from 1 to 65536, got 131072}}
module attributes {gpucg.target = #gpucg.target<chip = "sm_80", warp_size = 131072, max_threads_per_block = 131072>} {}

// -----

// expected-error @+1 {{max_threads_per_block must be a multiple of warp_size (32) from 32 to 65536, got 4294967296}}
module attributes {gpucg.target = #gpucg.target<chip = "sm_80", max_threads_per_block = 4294967296>} {}

// -----

// expected-error @+1 {{workgroup_size[0] must be from 1 to 65536, got 9223372036854775807}}
func.func @workgroup_size_huge() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [9223372036854775807, 1, 1]>} {
  return
}

// -----

// expected-error @+1 {{pipeline_depth must be from 1 to 64, got 65}}
func.func @pipeline_depth_huge() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, pipeline_depth = 65>} {
  return
}

// -----

func.func @alignment_not_power_of_two() {
  // expected-error @+1 {{'gpu.dynamic_shared_memory' op attribute 'gpucg.alignment' must be a power-of-two integer, got 48 : i64}}
  %0 = gpu.dynamic_shared_memory {gpucg.alignment = 48 : i64} : memref<?xi8, #gpu.address_space<workgroup>>
  return
}

// -----

/// A cluster shape names x, y and z, each at least 1.
func.func @cluster_shape_two_sizes() {
  // expected-error @+1 {{'scf.forall' op attribute 'gpucg.cluster_shape' must be three positive cluster sizes (x, y, z), got array<i64: 2, 1>}}
  scf.forall (%i) in (4) {
  } {gpucg.cluster_shape = array<i64: 2, 1>, mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @cluster_shape_zero() {
  // expected-error @+1 {{'scf.forall' op attribute 'gpucg.cluster_shape' must be three positive cluster sizes (x, y, z), got array<i64: 2, 0, 1>}}
  scf.forall (%i) in (4) {
  } {gpucg.cluster_shape = array<i64: 2, 0, 1>, mapping = [#gpu.block<x>]}
  return
}

// -----

// expected-error @+1 {{workgroup_group_size must be from 1 to 2147483647, got 0}}
func.func @translation_info_group_size_zero() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = Vectorize, workgroup_group_size = 0>} {
  return
}

// -----

// expected-error @+1 {{persistent_workgroups is only allowed with pipeline MatmulWgmma, got pipeline MatmulTensorCoreMmaSync}}
func.func @translation_info_persistent_not_wgmma() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, persistent_workgroups = 8>} {
  return
}

// -----

// expected-error @+1 {{cluster is only allowed with pipeline MatmulWgmma, got pipeline Vectorize}}
func.func @translation_info_cluster_not_wgmma() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = Vectorize, cluster = [2, 1]>} {
  return
}

// -----

// expected-error @+1 {{staged_store is only allowed with pipeline MatmulWgmma, got pipeline SimtDistribute}}
func.func @translation_info_staged_not_wgmma() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, staged_store = true>} {
  return
}

// -----

// expected-error @+1 {{persistent_workgroups must be from 1 to 2147483647, got 0}}
func.func @translation_info_persistent_zero() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, persistent_workgroups = 0>} {
  return
}

// -----

// expected-error @+1 {{cluster must list 2 sizes [m, n], got 3}}
func.func @translation_info_cluster_three() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, cluster = [2, 1, 1]>} {
  return
}

// -----

// expected-error @+1 {{cluster must have 1 to 8 workgroups (the portable cluster size), each size at least 1, got [4, 4]}}
func.func @translation_info_cluster_too_big() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, cluster = [4, 4]>} {
  return
}

// -----

// expected-error @+1 {{cluster must have 1 to 8 workgroups (the portable cluster size), each size at least 1, got [0, 2]}}
func.func @translation_info_cluster_zero() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, cluster = [0, 2]>} {
  return
}

// -----

// expected-error @+1 {{expected 'true' or 'false' for staged_store, got 'yes'}}
func.func @translation_info_staged_not_bool() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, staged_store = yes>} {
  return
}

// -----

// expected-error @+1 {{expected 'true' or 'false' for stream_k, got 'on'}}
func.func @translation_info_stream_k_not_bool() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, persistent_workgroups = 8, stream_k = on>} {
  return
}

// -----

// expected-error @+1 {{stream_k is only allowed with pipeline MatmulWgmma, got pipeline MatmulTensorCoreMmaSync}}
func.func @translation_info_stream_k_not_wgmma() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, stream_k = true>} {
  return
}

// -----

// expected-error @+1 {{stream_k needs persistent_workgroups: stream-K splits the tiles' K steps over a persistent grid}}
func.func @translation_info_stream_k_no_grid() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], stream_k = true>} {
  return
}

// -----

// expected-error @+1 {{stream_k and split_k = 2 both split the tiles' K; take one}}
func.func @translation_info_stream_k_and_split_k() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, persistent_workgroups = 8, split_k = 2, stream_k = true>} {
  return
}
