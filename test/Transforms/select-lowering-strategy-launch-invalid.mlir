// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_90a},func.func(gpucg-select-lowering-strategy))'

// A launch shape no kernel has, asked of the strategy, and of the pipelines
// before they are built:
// RUN: not gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_90a},func.func(gpucg-select-lowering-strategy{workgroup-group-size=-2}))' 2>&1 | FileCheck %s --check-prefix=GROUP
// GROUP: error: 'func.func' op gpucg-select-lowering-strategy: workgroup-group-size must be from 0 to 2147483647, got -2
// RUN: not gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_90a},func.func(gpucg-select-lowering-strategy{wgmma-persistent=true wgmma-persistent-workgroups=-1}))' 2>&1 | FileCheck %s --check-prefix=WORKGROUPS
// WORKGROUPS: error: 'func.func' op gpucg-select-lowering-strategy: wgmma-persistent-workgroups must be from 0 (the target's SM count) to 2147483647, got -1
// RUN: not gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{chip=sm_90a wgmma-cluster-m=4 wgmma-cluster-n=4})' 2>&1 | FileCheck %s --check-prefix=CLUSTER
// CLUSTER: invalid options for pipeline 'gpucg-compile': wgmma-cluster-m x wgmma-cluster-n must be 1 to 8 workgroups (the portable cluster size), got 4 x 4
// RUN: not gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-cluster-n=0})' 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: invalid options for pipeline 'gpucg-matmul-wgmma': wgmma-cluster-m x wgmma-cluster-n must be 1 to 8 workgroups (the portable cluster size), got 1 x 0
// RUN: not gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80 workgroup-group-size=-1})' 2>&1 | FileCheck %s --check-prefix=ORDER
// ORDER: invalid options for pipeline 'gpucg-matmul-mma-sync': workgroup-group-size must be from 0 to 2147483647, got -1
// RUN: not gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{chip=sm_80 wgmma-persistent=true wgmma-persistent-workgroups=4294967296})' 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: invalid options for pipeline 'gpucg-compile': wgmma-persistent-workgroups must be from 0 (the target's SM count) to 2147483647, got 4294967296

// The verifier of a MatmulWgmma plan's launch shape (a user's
// compilation_info): what applyLaunchRequest would not plan. 256 x 256 has
// 2 x 2 tiles of 128x128.

func.func @cluster_not_dividing(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{'linalg.matmul' op cannot run in clusters of 4 x 1 workgroups (cluster): its 2 tiles along M are not a multiple of 4}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2, cluster = [4, 1]>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

// A transposed tile (16 rows of C, computed as C^T = B^T * A^T) takes no
// cluster.
func.func @cluster_transposed_tile(%a: tensor<16x256xf16>, %b: tensor<256x256xf16>, %c: tensor<16x256xf32>) -> tensor<16x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<16x256xf32>) -> tensor<16x256xf32>
  // expected-error @+1 {{'linalg.matmul' op cannot run in clusters of 1 x 2 workgroups (cluster): its tile of 16 rows is computed as C^T = B^T * A^T, whose workgroups share no cluster's tiles yet}}
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
    {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[16, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2, cluster = [1, 2]>>}
    ins(%a, %b : tensor<16x256xf16>, tensor<256x256xf16>) outs(%f : tensor<16x256xf32>) -> tensor<16x256xf32>
  return %0 : tensor<16x256xf32>
}

// -----

func.func @cluster_n_not_dividing(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{'linalg.matmul' op cannot run in clusters of 1 x 4 workgroups (cluster): its 2 tiles along N are not a multiple of 4}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2, cluster = [1, 4]>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

func.func @cluster_one_warpgroup(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{'linalg.matmul' op cannot run in clusters of 2 x 1 workgroups (cluster): a workgroup of one warpgroup has no producer warpgroup to wait for the cluster's releases of a stage}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2, cluster = [2, 1]>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

// Three tiles along N, clusters of 3 along N: each workgroup would load a
// third of A's 128-row tile, no whole number of 8-row swizzle atoms.
func.func @cluster_slices_a(%a: tensor<256x256xf16>, %b: tensor<256x384xf16>, %c: tensor<256x384xf32>) -> tensor<256x384xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x384xf32>) -> tensor<256x384xf32>
  // expected-error @+1 {{'linalg.matmul' op cannot run in clusters of 1 x 3 workgroups (cluster): A's tile of 128 rows does not split into 3 slices of whole 8-row swizzle atoms}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2, cluster = [1, 3]>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x384xf16>) outs(%f : tensor<256x384xf32>) -> tensor<256x384xf32>
  return %0 : tensor<256x384xf32>
}

// -----

func.func @cluster_slices_b(%a: tensor<384x256xf16>, %b: tensor<256x256xf16>, %c: tensor<384x256xf32>) -> tensor<384x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<384x256xf32>) -> tensor<384x256xf32>
  // expected-error @+1 {{'linalg.matmul' op cannot run in clusters of 3 x 1 workgroups (cluster): B's tile of 64 rows does not split into 3 slices of whole 8-row swizzle atoms}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2, cluster = [3, 1]>>}
    ins(%a, %b : tensor<384x256xf16>, tensor<256x256xf16>) outs(%f : tensor<384x256xf32>) -> tensor<384x256xf32>
  return %0 : tensor<384x256xf32>
}

// -----

func.func @cluster_and_groups(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{'linalg.matmul' op has workgroup_group_size = 2 and a cluster; a cluster's workgroups are neighbours in the launch order, which a group order changes}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2, workgroup_group_size = 2, cluster = [2, 1]>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

func.func @persistent_one_warpgroup(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{'linalg.matmul' op cannot run on a persistent grid of 2 workgroups (persistent_workgroups): a workgroup of one warpgroup has no producer warpgroup to load the next tile while it stores the last}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2, persistent_workgroups = 2>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

func.func @persistent_no_more_tiles(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{'linalg.matmul' op cannot run on a persistent grid of 4 workgroups (persistent_workgroups): its 4 tiles take no more than 4 workgroups}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2, persistent_workgroups = 4>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

func.func @persistent_part_cluster(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{'linalg.matmul' op cannot run on a persistent grid of 3 workgroups (persistent_workgroups): its 3 workgroups are not whole clusters of 2}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2, persistent_workgroups = 3, cluster = [2, 1]>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

// A fused epilogue on a persistent grid stages beside the ring: 4 stages of
// 128x256 tiles (192 KB) and the 132 KB staging buffer exceed sm_90a's 227 KB.
func.func @persistent_epilogue_too_big(%a: tensor<256x256xf16>, %b: tensor<256x512xf16>, %c: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x512xf32>) -> tensor<256x512xf32>
  // expected-error @+1 {{'linalg.matmul' op cannot run on a persistent grid of 2 workgroups (persistent_workgroups): its accumulator's staging buffer (135168 bytes) does not fit beside the ring (196608 bytes) in the 232448 bytes sm_90a allows, and a persistent workgroup cannot stage in the ring, where the next tile's loads land}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 256, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 4, persistent_workgroups = 2>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x512xf16>) outs(%f : tensor<256x512xf32>) -> tensor<256x512xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<256x512xf32>) outs(%c : tensor<256x512xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<256x512xf32>
  return %1 : tensor<256x512xf32>
}

// -----

func.func @staged_small_ring(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{'linalg.matmul' op cannot store its accumulator through the staging buffer (staged_store): its ring of 65536 bytes cannot hold the 69632-byte staging buffer}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2, staged_store = true>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

func.func @staged_persistent(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{'linalg.matmul' op cannot store its accumulator through the staging buffer (staged_store): a persistent workgroup's ring holds the next tile's loads}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 4, persistent_workgroups = 2, staged_store = true>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

func.func @staged_epilogue(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{'linalg.matmul' op cannot store its accumulator through the staging buffer (staged_store): it stages the accumulator anyway (a fused epilogue, C += A * B, partial tiles or a transposed tile)}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 4, staged_store = true>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<256x256xf32>
  return %1 : tensor<256x256xf32>
}

// -----

// A dynamic M: its tiles along M are counted at run time.
func.func @cluster_dynamic_m(%a: tensor<?x256xf16>, %b: tensor<256x256xf16>, %c: tensor<?x256xf32>) -> tensor<?x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<?x256xf32>) -> tensor<?x256xf32>
  // expected-error @+1 {{'linalg.matmul' op cannot run in clusters of 2 x 1 workgroups (cluster): its M is dynamic, so its tiles along M may not be a multiple of 2}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2, cluster = [2, 1]>>}
    ins(%a, %b : tensor<?x256xf16>, tensor<256x256xf16>) outs(%f : tensor<?x256xf32>) -> tensor<?x256xf32>
  return %0 : tensor<?x256xf32>
}

// -----

func.func @persistent_dynamic_m(%a: tensor<?x256xf16>, %b: tensor<256x256xf16>, %c: tensor<?x256xf32>) -> tensor<?x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<?x256xf32>) -> tensor<?x256xf32>
  // expected-error @+1 {{'linalg.matmul' op cannot run on a persistent grid of 4 workgroups (persistent_workgroups): its M is dynamic, and a persistent grid's workgroups walk a tile count known when the kernel is compiled}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2, persistent_workgroups = 4>>}
    ins(%a, %b : tensor<?x256xf16>, tensor<256x256xf16>) outs(%f : tensor<?x256xf32>) -> tensor<?x256xf32>
  return %0 : tensor<?x256xf32>
}

// -----

// Stream-K: no clusters, and at least one K step per workgroup.
func.func @stream_k_cluster(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{'linalg.matmul' op cannot run stream-K (stream_k) on a persistent grid of 2 workgroups (persistent_workgroups): the workgroups of a cluster share their tiles' loads, which stream-K's parts of K do not line up for}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2, persistent_workgroups = 2, cluster = [2, 1], stream_k = true>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

func.func @stream_k_few_steps(%a: tensor<128x64xf16>, %b: tensor<64x128xf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  // expected-error @+1 {{'linalg.matmul' op cannot run stream-K (stream_k) on a persistent grid of 3 workgroups (persistent_workgroups): its 1 K steps (1 tiles of 1) are fewer than the 3 workgroups}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 1, persistent_workgroups = 3, stream_k = true>>}
    ins(%a, %b : tensor<128x64xf16>, tensor<64x128xf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %0 : tensor<128x128xf32>
}
