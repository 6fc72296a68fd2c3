// Launch shapes a kernel cannot take: gpucg-select-lowering-strategy plans
// none of them (verifyLoweringStrategy refuses them in a user's plan), and
// gpucg-lower-matmul-to-wgmma refuses them in a translation_info written by
// hand.
// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-lower-matmul-to-wgmma))'

// A persistent grid needs a producer warpgroup.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // expected-error @+1 {{'func.func' op is planned on a persistent grid of 2 workgroups (persistent_workgroups), but a workgroup of one warpgroup has no producer warpgroup to load the next tile while it stores the last}}
  func.func @persistent_one_warpgroup(%arg0: memref<256x256xf16>, %arg1: memref<256x256xf16>, %arg2: memref<256x256xf32>) -> memref<256x256xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], subgroup_size = 32, pipeline_depth = 2, persistent_workgroups = 2>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4) = (0, 0) to (256, 256) step (128, 128) {
      %subview = memref.subview %arg0[%arg3, 0] [128, 256] [1, 1] : memref<256x256xf16> to memref<128x256xf16, strided<[256, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %arg4] [256, 128] [1, 1] : memref<256x256xf16> to memref<256x128xf16, strided<[256, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%cst : f32) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%subview, %subview_0 : memref<128x256xf16, strided<[256, 1], offset: ?>>, memref<256x128xf16, strided<[256, 1], offset: ?>>) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<256x256xf32>
  }
}

// -----

// As many workgroups as tiles: nothing to loop over.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // expected-error @+1 {{'func.func' op is planned on a persistent grid of 4 workgroups (persistent_workgroups), but its 4 tiles take no more than 4 workgroups}}
  func.func @persistent_no_more_tiles(%arg0: memref<256x256xf16>, %arg1: memref<256x256xf16>, %arg2: memref<256x256xf32>) -> memref<256x256xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, persistent_workgroups = 4>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4) = (0, 0) to (256, 256) step (128, 128) {
      %subview = memref.subview %arg0[%arg3, 0] [128, 256] [1, 1] : memref<256x256xf16> to memref<128x256xf16, strided<[256, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %arg4] [256, 128] [1, 1] : memref<256x256xf16> to memref<256x128xf16, strided<[256, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%cst : f32) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%subview, %subview_0 : memref<128x256xf16, strided<[256, 1], offset: ?>>, memref<256x128xf16, strided<[256, 1], offset: ?>>) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<256x256xf32>
  }
}

// -----

// Whole clusters loop over blocks of tiles.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // expected-error @+1 {{'func.func' op is planned on a persistent grid of 3 workgroups (persistent_workgroups), but its 3 workgroups are not whole clusters of 2}}
  func.func @persistent_part_cluster(%arg0: memref<256x256xf16>, %arg1: memref<256x256xf16>, %arg2: memref<256x256xf32>) -> memref<256x256xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, persistent_workgroups = 3, cluster = [2, 1]>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4) = (0, 0) to (256, 256) step (128, 128) {
      %subview = memref.subview %arg0[%arg3, 0] [128, 256] [1, 1] : memref<256x256xf16> to memref<128x256xf16, strided<[256, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %arg4] [256, 128] [1, 1] : memref<256x256xf16> to memref<256x128xf16, strided<[256, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%cst : f32) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%subview, %subview_0 : memref<128x256xf16, strided<[256, 1], offset: ?>>, memref<256x128xf16, strided<[256, 1], offset: ?>>) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<256x256xf32>
  }
}

// -----

// A transposed tile (16 rows of C, computed as C^T = B^T * A^T) takes no
// cluster.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // expected-error @+1 {{'func.func' op is planned in clusters of 1 x 2 workgroups (cluster), but its tile of 16 rows is computed as C^T = B^T * A^T, whose workgroups share no cluster's tiles yet}}
  func.func @cluster_transposed(%arg0: memref<16x128xf16>, %arg1: memref<256x128xf16>, %arg2: memref<16x256xf32>) -> memref<16x256xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, cluster = [1, 2]>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4) = (0, 0) to (16, 256) step (16, 128) {
      %subview = memref.subview %arg0[%arg3, 0] [16, 128] [1, 1] : memref<16x128xf16> to memref<16x128xf16, strided<[128, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[%arg4, 0] [128, 128] [1, 1] : memref<256x128xf16> to memref<128x128xf16, strided<[128, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [16, 128] [1, 1] : memref<16x256xf32> to memref<16x128xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%cst : f32) outs(%subview_1 : memref<16x128xf32, strided<[256, 1], offset: ?>>)
      linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[16, 128, 64]]>} ins(%subview, %subview_0 : memref<16x128xf16, strided<[128, 1], offset: ?>>, memref<128x128xf16, strided<[128, 1], offset: ?>>) outs(%subview_1 : memref<16x128xf32, strided<[256, 1], offset: ?>>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<16x256xf32>
  }
}

// -----

// A cluster needs a producer warpgroup to wait for its peers.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // expected-error @+1 {{'func.func' op is planned in clusters of 2 x 1 workgroups (cluster), but a workgroup of one warpgroup has no producer warpgroup to wait for the cluster's releases of a stage}}
  func.func @cluster_one_warpgroup(%arg0: memref<256x256xf16>, %arg1: memref<256x256xf16>, %arg2: memref<256x256xf32>) -> memref<256x256xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], subgroup_size = 32, pipeline_depth = 2, cluster = [2, 1]>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4) = (0, 0) to (256, 256) step (128, 128) {
      %subview = memref.subview %arg0[%arg3, 0] [128, 256] [1, 1] : memref<256x256xf16> to memref<128x256xf16, strided<[256, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %arg4] [256, 128] [1, 1] : memref<256x256xf16> to memref<256x128xf16, strided<[256, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%cst : f32) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%subview, %subview_0 : memref<128x256xf16, strided<[256, 1], offset: ?>>, memref<256x128xf16, strided<[256, 1], offset: ?>>) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<256x256xf32>
  }
}

// -----

// Three tiles along M: clusters of 2 along M do not tile the grid.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // expected-error @+1 {{'func.func' op is planned in clusters of 2 x 1 workgroups (cluster), but its 3 tiles along M are not a multiple of 2}}
  func.func @cluster_tiles_not_divisible(%arg0: memref<384x256xf16>, %arg1: memref<256x256xf16>, %arg2: memref<384x256xf32>) -> memref<384x256xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, cluster = [2, 1]>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4) = (0, 0) to (384, 256) step (128, 128) {
      %subview = memref.subview %arg0[%arg3, 0] [128, 256] [1, 1] : memref<384x256xf16> to memref<128x256xf16, strided<[256, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %arg4] [256, 128] [1, 1] : memref<256x256xf16> to memref<256x128xf16, strided<[256, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [128, 128] [1, 1] : memref<384x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%cst : f32) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%subview, %subview_0 : memref<128x256xf16, strided<[256, 1], offset: ?>>, memref<256x128xf16, strided<[256, 1], offset: ?>>) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<384x256xf32>
  }
}

// -----

// Tiles on the linear block dimensions: a cluster has a shape along grid
// x, y and z only.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // expected-error @+1 {{'func.func' op is planned in clusters of 1 x 2 workgroups (cluster), but its tiles along N are on a linear grid dimension, which has no cluster shape}}
  func.func @cluster_linear_dims(%arg0: memref<256x256xf16>, %arg1: memref<256x256xf16>, %arg2: memref<256x256xf32>) -> memref<256x256xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, cluster = [1, 2]>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4) = (0, 0) to (256, 256) step (128, 128) {
      %subview = memref.subview %arg0[%arg3, 0] [128, 256] [1, 1] : memref<256x256xf16> to memref<128x256xf16, strided<[256, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %arg4] [256, 128] [1, 1] : memref<256x256xf16> to memref<256x128xf16, strided<[256, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%cst : f32) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%subview, %subview_0 : memref<128x256xf16, strided<[256, 1], offset: ?>>, memref<256x128xf16, strided<[256, 1], offset: ?>>) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
    } {mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>]}
    return %arg2 : memref<256x256xf32>
  }
}

// -----

// Reordered workgroups: A's tile is no longer the loop's own along M, so
// the cluster's workgroups would not be neighbours.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // expected-error @+1 {{'func.func' op is planned in clusters of 2 x 1 workgroups (cluster), but its tile's offset along M is not an induction variable of a static dimension of the workgroup loop (reordered workgroups keep no cluster's neighbours together)}}
  func.func @cluster_reordered(%arg0: memref<256x256xf16>, %arg1: memref<256x256xf16>, %arg2: memref<256x256xf32>) -> memref<256x256xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, cluster = [2, 1]>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4) = (0, 0) to (256, 256) step (128, 128) {
      %row = affine.apply affine_map<(d0) -> (256 - 128 - d0)>(%arg3)
      %subview = memref.subview %arg0[%row, 0] [128, 256] [1, 1] : memref<256x256xf16> to memref<128x256xf16, strided<[256, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %arg4] [256, 128] [1, 1] : memref<256x256xf16> to memref<256x128xf16, strided<[256, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%row, %arg4] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%cst : f32) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%subview, %subview_0 : memref<128x256xf16, strided<[256, 1], offset: ?>>, memref<256x128xf16, strided<[256, 1], offset: ?>>) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<256x256xf32>
  }
}

// -----

// A staged store on a persistent grid: the ring holds the next tile's
// loads.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // expected-error @+1 {{'func.func' op is planned with a staged store (staged_store), but a persistent workgroup's ring holds the next tile's loads}}
  func.func @staged_persistent(%arg0: memref<256x256xf16>, %arg1: memref<256x256xf16>, %arg2: memref<256x256xf32>) -> memref<256x256xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, persistent_workgroups = 2, staged_store = true>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4) = (0, 0) to (256, 256) step (128, 128) {
      %subview = memref.subview %arg0[%arg3, 0] [128, 256] [1, 1] : memref<256x256xf16> to memref<128x256xf16, strided<[256, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %arg4] [256, 128] [1, 1] : memref<256x256xf16> to memref<256x128xf16, strided<[256, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%cst : f32) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%subview, %subview_0 : memref<128x256xf16, strided<[256, 1], offset: ?>>, memref<256x128xf16, strided<[256, 1], offset: ?>>) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<256x256xf32>
  }
}

// -----

// A staged store whose ring (2 stages of 32 KB) cannot hold the 68 KB
// staging buffer.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // expected-error @+1 {{'func.func' op is planned with a staged store (staged_store), but its ring of 65536 bytes cannot hold the 69632-byte staging buffer}}
  func.func @staged_small_ring(%arg0: memref<256x256xf16>, %arg1: memref<256x256xf16>, %arg2: memref<256x256xf32>) -> memref<256x256xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, staged_store = true>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4) = (0, 0) to (256, 256) step (128, 128) {
      %subview = memref.subview %arg0[%arg3, 0] [128, 256] [1, 1] : memref<256x256xf16> to memref<128x256xf16, strided<[256, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %arg4] [256, 128] [1, 1] : memref<256x256xf16> to memref<256x128xf16, strided<[256, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%cst : f32) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%subview, %subview_0 : memref<128x256xf16, strided<[256, 1], offset: ?>>, memref<256x128xf16, strided<[256, 1], offset: ?>>) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<256x256xf32>
  }
}

// -----

// A staged store is for kernels without a fused epilogue, which stages the
// accumulator itself.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // expected-error @+1 {{'func.func' op is planned with a staged store (staged_store), but it stages the accumulator anyway (a fused epilogue, C += A * B, partial tiles or a transposed tile)}}
  func.func @staged_epilogue(%a: memref<256x128xf16>, %b: memref<128x128xf16>, %bias: memref<128xf32>, %out: memref<256x128xf16>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2, staged_store = true>} {
    %zero = arith.constant 0.0 : f32
    scf.forall (%i, %j) = (0, 0) to (256, 128) step (128, 64) {
      %av = memref.subview %a[%i, 0] [128, 128] [1, 1] : memref<256x128xf16> to memref<128x128xf16, strided<[128, 1], offset: ?>>
      %bv = memref.subview %b[0, %j] [128, 64] [1, 1] : memref<128x128xf16> to memref<128x64xf16, strided<[128, 1], offset: ?>>
      %acc = memref.alloc() {alignment = 64 : i64} : memref<128x64xf32>
      linalg.fill ins(%zero : f32) outs(%acc : memref<128x64xf32>)
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 64, 64]]>} ins(%av, %bv : memref<128x128xf16, strided<[128, 1], offset: ?>>, memref<128x64xf16, strided<[128, 1], offset: ?>>) outs(%acc : memref<128x64xf32>)
      %biasv = memref.subview %bias[%j] [64] [1] : memref<128xf32> to memref<64xf32, strided<[1], offset: ?>>
      %outv = memref.subview %out[%i, %j] [128, 64] [1, 1] : memref<256x128xf16> to memref<128x64xf16, strided<[128, 1], offset: ?>>
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%acc, %biasv : memref<128x64xf32>, memref<64xf32, strided<[1], offset: ?>>) outs(%outv : memref<128x64xf16, strided<[128, 1], offset: ?>>) {
      ^bb0(%x: f32, %y: f32, %o: f16):
        %s = arith.addf %x, %y : f32
        %r = arith.maximumf %s, %zero : f32
        %t = arith.truncf %r : f32 to f16
        linalg.yield %t : f16
      }
      memref.copy %outv, %outv : memref<128x64xf16, strided<[128, 1], offset: ?>> to memref<128x64xf16, strided<[128, 1], offset: ?>>
      memref.dealloc %acc : memref<128x64xf32>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }
}

// -----

// Clusters of 3 along M: each workgroup would load a third of B's 64-row
// tile, no whole number of 8-row swizzle atoms.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // expected-error @+1 {{'func.func' op is planned in clusters of 3 x 1 workgroups (cluster), but B's tile of 64 rows does not split into 3 slices of whole 8-row swizzle atoms}}
  func.func @cluster_slices(%arg0: memref<384x256xf16>, %arg1: memref<256x256xf16>, %arg2: memref<384x256xf32>) -> memref<384x256xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, cluster = [3, 1]>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4) = (0, 0) to (384, 256) step (128, 128) {
      %subview = memref.subview %arg0[%arg3, 0] [128, 256] [1, 1] : memref<384x256xf16> to memref<128x256xf16, strided<[256, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %arg4] [256, 128] [1, 1] : memref<256x256xf16> to memref<256x128xf16, strided<[256, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [128, 128] [1, 1] : memref<384x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%cst : f32) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%subview, %subview_0 : memref<128x256xf16, strided<[256, 1], offset: ?>>, memref<256x128xf16, strided<[256, 1], offset: ?>>) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<384x256xf32>
  }
}

// -----

// Both clustered dimensions on one grid dimension.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // expected-error @+1 {{'func.func' op is planned in clusters of 2 x 2 workgroups (cluster), but its tiles along M and N are on the same grid dimension}}
  func.func @same(%arg0: memref<256x256xf16>, %arg1: memref<256x256xf16>, %arg2: memref<256x256xf32>) -> memref<256x256xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, cluster = [2, 2]>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4) = (0, 0) to (256, 256) step (128, 128) {
      %subview = memref.subview %arg0[%arg3, 0] [128, 256] [1, 1] : memref<256x256xf16> to memref<128x256xf16, strided<[256, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %arg4] [256, 128] [1, 1] : memref<256x256xf16> to memref<256x128xf16, strided<[256, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%cst : f32) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%subview, %subview_0 : memref<128x256xf16, strided<[256, 1], offset: ?>>, memref<256x128xf16, strided<[256, 1], offset: ?>>) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
    } {mapping = [#gpu.block<x>, #gpu.block<x>]}
    return %arg2 : memref<256x256xf32>
  }
}

// -----

// A persistent grid loops over a static workgroup loop's tiles.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // expected-error @+1 {{'func.func' op is planned on a persistent grid of 2 workgroups (persistent_workgroups), but its workgroup loop has dynamic bounds}}
  func.func @dyn(%n: index, %arg0: memref<256x256xf16>, %arg1: memref<256x256xf16>, %arg2: memref<256x256xf32>) -> memref<256x256xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, persistent_workgroups = 2>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4) = (0, 0) to (%n, 256) step (128, 128) {
      %subview = memref.subview %arg0[%arg3, 0] [128, 256] [1, 1] : memref<256x256xf16> to memref<128x256xf16, strided<[256, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %arg4] [256, 128] [1, 1] : memref<256x256xf16> to memref<256x128xf16, strided<[256, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%cst : f32) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%subview, %subview_0 : memref<128x256xf16, strided<[256, 1], offset: ?>>, memref<256x128xf16, strided<[256, 1], offset: ?>>) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<256x256xf32>
  }
}

// -----

// A kernel of one tile has no workgroup loop.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // expected-error @+1 {{'func.func' op is planned in clusters of 2 x 1 workgroups (cluster), but it has no workgroup loop (an scf.forall over #gpu.block) whose tiles a cluster would share}}
  func.func @single(%a: memref<128x256xf16>, %b: memref<256x128xf16>, %c: memref<128x128xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, cluster = [2, 1]>} {
    %cst = arith.constant 0.000000e+00 : f32
    linalg.fill ins(%cst : f32) outs(%c : memref<128x128xf32>)
    linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%a, %b : memref<128x256xf16>, memref<256x128xf16>) outs(%c : memref<128x128xf32>)
    return
  }
}

// -----

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // expected-error @+1 {{'func.func' op is planned on a persistent grid of 2 workgroups (persistent_workgroups), but it has no workgroup loop (an scf.forall over #gpu.block) to loop over}}
  func.func @single(%a: memref<128x256xf16>, %b: memref<256x128xf16>, %c: memref<128x128xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, persistent_workgroups = 2>} {
    %cst = arith.constant 0.000000e+00 : f32
    linalg.fill ins(%cst : f32) outs(%c : memref<128x128xf32>)
    linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%a, %b : memref<128x256xf16>, memref<256x128xf16>) outs(%c : memref<128x128xf32>)
    return
  }
}

// -----

// Stream-K splits a count of K steps known when the kernel is compiled.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // expected-error @+1 {{'func.func' op is planned stream-K (stream_k) on a persistent grid of 3 workgroups (persistent_workgroups), but its K is dynamic, and stream-K splits a count of K steps known when the kernel is compiled}}
  func.func @stream_k_dynamic_k(%arg0: memref<256x?xf16>, %arg1: memref<?x256xf16>, %arg2: memref<256x256xf32>) -> memref<256x256xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, persistent_workgroups = 3, stream_k = true>} {
    %cst = arith.constant 0.000000e+00 : f32
    %c1 = arith.constant 1 : index
    %k = memref.dim %arg0, %c1 : memref<256x?xf16>
    scf.forall (%arg3, %arg4) = (0, 0) to (256, 256) step (128, 128) {
      %subview = memref.subview %arg0[%arg3, 0] [128, %k] [1, 1] : memref<256x?xf16> to memref<128x?xf16, strided<[?, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %arg4] [%k, 128] [1, 1] : memref<?x256xf16> to memref<?x128xf16, strided<[256, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%cst : f32) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%subview, %subview_0 : memref<128x?xf16, strided<[?, 1], offset: ?>>, memref<?x128xf16, strided<[256, 1], offset: ?>>) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<256x256xf32>
  }
}
