// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope | FileCheck %s
// Parse -> print -> parse -> print must give the same text.
// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   | gpucg-opt -split-input-file --mlir-print-local-scope | FileCheck %s
// The generic form round-trips as well.
// RUN: gpucg-opt %s -split-input-file --mlir-print-op-generic \
// RUN:   | gpucg-opt -split-input-file --mlir-print-local-scope | FileCheck %s

// CHECK-LABEL: func.func @lowering_config_levels
//       CHECK:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[32, 32, 16], [16, 16, 16], [0, 0, 8]]>
func.func @lowering_config_levels() attributes {
    gpucg.lowering_config = #gpucg.lowering_config<
      tile_sizes = [[32, 32, 16], [16, 16, 16], [0, 0, 8]]>} {
  return
}

// -----

// CHECK-LABEL: func.func @lowering_config_empty_level
//       CHECK:   #gpucg.lowering_config<tile_sizes = {{\[}}[]]>
func.func @lowering_config_empty_level() attributes {
    gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[]]>} {
  return
}

// -----

/// Default values (pipeline_depth = 1, store_stage = 1) are not printed.
// CHECK-LABEL: func.func @translation_info_minimal
//       CHECK:   gpucg.translation_info = #gpucg.translation_info<pipeline = None>
func.func @translation_info_minimal() attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = None,
      pipeline_depth = 1, store_stage = 1>} {
  return
}

// -----

/// Keys may be given in any order; they print in a canonical one.
// CHECK-LABEL: func.func @translation_info_full
//       CHECK:   #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, store_stage = 0, mma_kind = wmma>
func.func @translation_info_full() attributes {
    gpucg.translation_info = #gpucg.translation_info<mma_kind = wmma,
      store_stage = 0, pipeline_depth = 4, subgroup_size = 32,
      workgroup_size = [64, 2, 1], pipeline = MatmulTensorCore>} {
  return
}

// -----

/// The launch shape: a workgroup order for any pipeline; a persistent grid,
/// clusters, a staged store and stream-K for MatmulWgmma. Defaults are not
/// printed.
// CHECK-LABEL: func.func @translation_info_launch
//       CHECK:   a = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [128, 2, 1], mma_kind = mma_sync, workgroup_group_size = 8>
//       CHECK:   b = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 4, persistent_workgroups = 132, cluster = [2, 1]>
//       CHECK:   c = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], staged_store = true>
//       CHECK:   d = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], cluster = [1, 1]>
//       CHECK:   e = #gpucg.translation_info<pipeline = Vectorize>
//       CHECK:   f = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], persistent_workgroups = 132, stream_k = true>
//       CHECK:   g = #gpucg.translation_info<pipeline = MatmulWgmma, persistent_workgroups = 132>
func.func @translation_info_launch() attributes {
    a = #gpucg.translation_info<workgroup_group_size = 8, pipeline = MatmulTensorCoreMmaSync, workgroup_size = [128, 2, 1], mma_kind = mma_sync>,
    b = #gpucg.translation_info<pipeline = MatmulWgmma, cluster = [2, 1], persistent_workgroups = 132, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 4>,
    c = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], staged_store = true>,
    d = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], cluster = [1, 1]>,
    e = #gpucg.translation_info<pipeline = Vectorize, workgroup_group_size = 1, staged_store = false>,
    f = #gpucg.translation_info<stream_k = true, pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], persistent_workgroups = 132>,
    g = #gpucg.translation_info<pipeline = MatmulWgmma, persistent_workgroups = 132, stream_k = false>} {
  return
}

// -----

// CHECK-LABEL: func.func @translation_info_pipelines
//       CHECK:   a = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [128, 1, 1]>
//       CHECK:   b = #gpucg.translation_info<pipeline = Vectorize, workgroup_size = [32, 4, 1]>
//       CHECK:   c = #gpucg.translation_info<pipeline = MatmulSimt, workgroup_size = [32, 8, 1]>
//       CHECK:   d = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [128, 2, 1], pipeline_depth = 3, mma_kind = mma_sync>
//       CHECK:   e = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [256, 1, 1], subgroup_size = 32>
func.func @translation_info_pipelines() attributes {
    a = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [128, 1, 1]>,
    b = #gpucg.translation_info<pipeline = Vectorize, workgroup_size = [32, 4, 1]>,
    c = #gpucg.translation_info<pipeline = MatmulSimt, workgroup_size = [32, 8, 1]>,
    d = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync,
          workgroup_size = [128, 2, 1], pipeline_depth = 3, mma_kind = mma_sync>,
    e = #gpucg.translation_info<pipeline = WarpReduction,
          workgroup_size = [256, 1, 1], subgroup_size = 32>} {
  return
}

// -----

// CHECK-LABEL: func.func @compilation_info_on_root_op
//       CHECK:   linalg.matmul
//  CHECK-SAME:     gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[32, 32, 16], [16, 16, 16]]>, translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], pipeline_depth = 4>>
func.func @compilation_info_on_root_op(%a: tensor<512x128xf16>,
    %b: tensor<128x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16], [16, 16, 16]]>,
      translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore,
                                                 workgroup_size = [64, 2, 1],
                                                 pipeline_depth = 4>>}
    ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>)
    outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

// CHECK-LABEL: func.func @mma_shapes
//       CHECK:   a = #gpucg.mma_shape<wmma, 16x16x16, f16 * f16 -> f32>
//       CHECK:   b = #gpucg.mma_shape<mma_sync, 16x8x8, f32 * f32 -> f32>
//       CHECK:   c = #gpucg.mma_shape<mma_sync, 16x8x32, i8 * i8 -> i32>
func.func @mma_shapes() attributes {
    a = #gpucg.mma_shape<wmma, 16x16x16, f16 * f16 -> f32>,
    b = #gpucg.mma_shape<mma_sync, 16x8x8, f32 * f32 -> f32>,
    c = #gpucg.mma_shape<mma_sync, 16x8x32, i8 * i8 -> i32>} {
  return
}

// -----

/// A known chip fills every limit it is not given; an override wins (here
/// the opt-in shared memory and the SM count, an A30's 56).
// CHECK-LABEL: module @target_override
//  CHECK-SAME:   gpucg.target = #gpucg.target<chip = "sm_80", warp_size = 32, max_threads_per_block = 1024, max_shared_memory_per_block = 49152, max_shared_memory_per_block_optin = 65536, max_registers_per_block = 65536, max_registers_per_thread = 255, num_sms = 56, mma_shapes = [#gpucg.mma_shape<wmma, 16x16x16, f16 * f16 -> f16>,
module @target_override attributes {gpucg.target = #gpucg.target<
    chip = "sm_80", max_shared_memory_per_block_optin = 65536, num_sms = 56>} {
}

// -----

/// An unknown chip is accepted when it gives every limit.
// CHECK-LABEL: module @target_unknown_chip_complete
//  CHECK-SAME:   gpucg.target = #gpucg.target<chip = "sm_100", warp_size = 32, max_threads_per_block = 1024, max_shared_memory_per_block = 49152, max_shared_memory_per_block_optin = 232448, max_registers_per_block = 65536, max_registers_per_thread = 255, num_sms = 148, mma_shapes = [#gpucg.mma_shape<mma_sync, 16x8x16, bf16 * bf16 -> f32>]>
module @target_unknown_chip_complete attributes {gpucg.target = #gpucg.target<
    chip = "sm_100", warp_size = 32, max_threads_per_block = 1024,
    max_shared_memory_per_block = 49152,
    max_shared_memory_per_block_optin = 232448,
    max_registers_per_block = 65536, max_registers_per_thread = 255,
    num_sms = 148,
    mma_shapes = [#gpucg.mma_shape<mma_sync, 16x8x16, bf16 * bf16 -> f32>]>} {
}

// -----

/// Without --mlir-print-local-scope the target prints once, as an alias.
// RUN: gpucg-opt %s -split-input-file | FileCheck %s --check-prefix=ALIAS
// ALIAS: #gpucg_target = #gpucg.target<chip = "sm_75"
// ALIAS: module @target_alias attributes {gpucg.target = #gpucg_target}
module @target_alias attributes {gpucg.target = #gpucg.target<chip = "sm_75">} {
}

// -----

/// The attributes one pass leaves for a later one round-trip.
// CHECK-LABEL: func.func @pass_contracts
//       CHECK:   memref.alloc() {gpucg.num_buffers = 2 : i64} : memref<2x8xf16, #gpu.address_space<workgroup>>
//       CHECK:   } {gpucg.workgroup_specialization}
//       CHECK:   } {gpucg.row_pitch_specialization}
//       CHECK:   } {gpucg.cluster_shape = array<i64: 2, 1, 1>, mapping = [#gpu.block<y>, #gpu.block<x>]}
func.func @pass_contracts(%c: i1) {
  %0 = memref.alloc() {gpucg.num_buffers = 2 : i64} : memref<2x8xf16, #gpu.address_space<workgroup>>
  scf.if %c {
  } else {
  } {gpucg.workgroup_specialization}
  scf.if %c {
  } else {
  } {gpucg.row_pitch_specialization}
  scf.forall (%i, %j) in (4, 2) {
  } {gpucg.cluster_shape = array<i64: 2, 1, 1>, mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}
