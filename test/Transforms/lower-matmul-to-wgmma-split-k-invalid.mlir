// gpucg-lower-matmul-to-wgmma on split-K kernels it cannot build, written
// by hand (the strategy declines such plans): a kernel whose accumulator is
// not staged (no fused epilogue and no staged_store), and one without the
// workspace of gpucg-create-split-k-workspace. Each is an error on the
// matmul or the function, naming the rule.
// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-lower-matmul-to-wgmma))'

#map = affine_map<(d0) -> (d0 * 128)>
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  memref.global "private" @__gpucg_split_k_counters_unstaged : memref<1xi32> = dense<0> {alignment = 16 : i64}
  memref.global "private" @__gpucg_split_k_partials_unstaged : memref<32768xf32> = uninitialized {alignment = 16 : i64}
  func.func @unstaged(%arg0: memref<128x256xbf16>, %arg1: memref<256x128xbf16>, %arg2: memref<128x128xf32>) attributes {gpu.known_block_size = array<i32: 384, 1, 1>, gpu.known_grid_size = array<i32: 1, 1, 2>, gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, split_k = 2>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4, %arg5) = (0, 0, 0) to (128, 128, 2) step (128, 128, 1) {
      linalg.fill ins(%cst : f32) outs(%arg2 : memref<128x128xf32>)
      %0 = affine.apply #map(%arg5)
      %subview = memref.subview %arg0[0, %0] [128, 128] [1, 1] : memref<128x256xbf16> to memref<128x128xbf16, strided<[256, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[%0, 0] [128, 128] [1, 1] : memref<256x128xbf16> to memref<128x128xbf16, strided<[128, 1], offset: ?>>
      // expected-error @+1 {{'linalg.matmul' op is the matmul of a MatmulWgmma kernel that splits K into 2 parts (split_k), but its accumulator is not staged in workgroup memory, where the parts are added (staged_store)}}
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%subview, %subview_0 : memref<128x128xbf16, strided<[256, 1], offset: ?>>, memref<128x128xbf16, strided<[128, 1], offset: ?>>) outs(%arg2 : memref<128x128xf32>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>, #gpu.block<z>]}
    return
  }
}

// -----

#map = affine_map<(d0) -> (d0 * 512)>
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // expected-error @+1 {{'func.func' op splits K into 2 parts (split_k) but its module has no memref.globals @__gpucg_split_k_partials_no_workspace and @__gpucg_split_k_counters_no_workspace for the output tiles of its gpu.known_grid_size (run gpucg-create-split-k-workspace first)}}
  func.func @no_workspace(%arg0: memref<128x1024xbf16>, %arg1: memref<1024x128xbf16>, %arg2: memref<128x128xf32>) attributes {gpu.known_block_size = array<i32: 384, 1, 1>, gpu.known_grid_size = array<i32: 1, 1, 2>, gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 4, staged_store = true, split_k = 2>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4, %arg5) = (0, 0, 0) to (128, 128, 2) step (128, 128, 1) {
      linalg.fill ins(%cst : f32) outs(%arg2 : memref<128x128xf32>)
      %0 = affine.apply #map(%arg5)
      %subview = memref.subview %arg0[0, %0] [128, 512] [1, 1] : memref<128x1024xbf16> to memref<128x512xbf16, strided<[1024, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[%0, 0] [512, 128] [1, 1] : memref<1024x128xbf16> to memref<512x128xbf16, strided<[128, 1], offset: ?>>
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%subview, %subview_0 : memref<128x512xbf16, strided<[1024, 1], offset: ?>>, memref<512x128xbf16, strided<[128, 1], offset: ?>>) outs(%arg2 : memref<128x128xf32>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>, #gpu.block<z>]}
    return
  }
}

// -----

#map = affine_map<(d0) -> (d0 * 128)>
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  memref.global "private" @__gpucg_split_k_counters_one_warpgroup : memref<1xi32> = dense<0> {alignment = 16 : i64}
  memref.global "private" @__gpucg_split_k_partials_one_warpgroup : memref<8192xf32> = uninitialized {alignment = 16 : i64}
  func.func @one_warpgroup(%arg0: memref<64x256xbf16>, %arg1: memref<256x64xbf16>, %arg2: memref<64x64xf32>) attributes {gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 1, 1, 2>, gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], subgroup_size = 32, pipeline_depth = 2, staged_store = true, split_k = 2>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4, %arg5) = (0, 0, 0) to (64, 64, 2) step (64, 64, 1) {
      linalg.fill ins(%cst : f32) outs(%arg2 : memref<64x64xf32>)
      %0 = affine.apply #map(%arg5)
      %subview = memref.subview %arg0[0, %0] [64, 128] [1, 1] : memref<64x256xbf16> to memref<64x128xbf16, strided<[256, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[%0, 0] [128, 64] [1, 1] : memref<256x64xbf16> to memref<128x64xbf16, strided<[64, 1], offset: ?>>
      // expected-error @+1 {{'linalg.matmul' op is the matmul of a MatmulWgmma kernel that splits K into 2 parts (split_k), but the parts are added by the consumer warpgroups of a warp-specialized kernel of one tile per workgroup}}
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>} ins(%subview, %subview_0 : memref<64x128xbf16, strided<[256, 1], offset: ?>>, memref<128x64xbf16, strided<[64, 1], offset: ?>>) outs(%arg2 : memref<64x64xf32>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>, #gpu.block<z>]}
    return
  }
}

// -----

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  memref.global "private" @__gpucg_split_k_counters_no_parts : memref<1xi32> = dense<0> {alignment = 16 : i64}
  memref.global "private" @__gpucg_split_k_partials_no_parts : memref<32768xf32> = uninitialized {alignment = 16 : i64}
  func.func @no_parts(%arg0: memref<128x1024xbf16>, %arg1: memref<1024x128xbf16>, %arg2: memref<128x128xf32>) attributes {gpu.known_block_size = array<i32: 384, 1, 1>, gpu.known_grid_size = array<i32: 1, 1, 1>, gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 4, staged_store = true, split_k = 2>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4) = (0, 0) to (128, 128) step (128, 128) {
      linalg.fill ins(%cst : f32) outs(%arg2 : memref<128x128xf32>)
      %subview = memref.subview %arg0[0, 0] [128, 512] [1, 1] : memref<128x1024xbf16> to memref<128x512xbf16, strided<[1024, 1]>>
      %subview_0 = memref.subview %arg1[0, 0] [512, 128] [1, 1] : memref<1024x128xbf16> to memref<512x128xbf16, strided<[128, 1]>>
      // expected-error @+1 {{'linalg.matmul' op is the matmul of a MatmulWgmma kernel that splits K into 2 parts (split_k), but its workgroup loop has no dimension on grid z (run gpucg-split-k-across-workgroups first)}}
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%subview, %subview_0 : memref<128x512xbf16, strided<[1024, 1]>>, memref<512x128xbf16, strided<[128, 1]>>) outs(%arg2 : memref<128x128xf32>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }
}

// -----

#map = affine_map<(d0) -> (d0 * 512)>
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  memref.global "private" @__gpucg_split_k_counters_dynamic_loop : memref<1xi32> = dense<0> {alignment = 16 : i64}
  memref.global "private" @__gpucg_split_k_partials_dynamic_loop : memref<32768xf32> = uninitialized {alignment = 16 : i64}
  func.func @dynamic_loop(%arg0: memref<128x1024xbf16>, %arg1: memref<1024x128xbf16>, %arg2: memref<128x128xf32>, %rows: index) attributes {gpu.known_block_size = array<i32: 384, 1, 1>, gpu.known_grid_size = array<i32: 1, 1, 2>, gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 4, staged_store = true, split_k = 2>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4, %arg5) = (0, 0, 0) to (%rows, 128, 2) step (128, 128, 1) {
      linalg.fill ins(%cst : f32) outs(%arg2 : memref<128x128xf32>)
      %0 = affine.apply #map(%arg5)
      %subview = memref.subview %arg0[0, %0] [128, 512] [1, 1] : memref<128x1024xbf16> to memref<128x512xbf16, strided<[1024, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[%0, 0] [512, 128] [1, 1] : memref<1024x128xbf16> to memref<512x128xbf16, strided<[128, 1], offset: ?>>
      // expected-error @+1 {{'linalg.matmul' op is the matmul of a MatmulWgmma kernel that splits K into 2 parts (split_k), but its workgroup loop's dimension 0 has no static bounds}}
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%subview, %subview_0 : memref<128x512xbf16, strided<[1024, 1], offset: ?>>, memref<512x128xbf16, strided<[128, 1], offset: ?>>) outs(%arg2 : memref<128x128xf32>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>, #gpu.block<z>]}
    return
  }
}

// -----

// Stream-K needs the workspace too: two slots of 128 x 128 partial sums
// per workgroup (3) and a counter per tile (4).
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // expected-error @+1 {{'func.func' op runs stream-K (stream_k) on 3 workgroups, but its module has no memref.globals @__gpucg_split_k_partials_stream_k_no_workspace of 98304 f32 partial sums and @__gpucg_split_k_counters_stream_k_no_workspace of 4 tile counters (run gpucg-create-split-k-workspace first)}}
  func.func @stream_k_no_workspace(%arg0: memref<256x320xf16>, %arg1: memref<320x256xf16>, %arg2: memref<256x256xf32>) -> memref<256x256xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, persistent_workgroups = 3, stream_k = true>} {
    %cst = arith.constant 0.000000e+00 : f32
    scf.forall (%arg3, %arg4) = (0, 0) to (256, 256) step (128, 128) {
      %subview = memref.subview %arg0[%arg3, 0] [128, 320] [1, 1] : memref<256x320xf16> to memref<128x320xf16, strided<[320, 1], offset: ?>>
      %subview_0 = memref.subview %arg1[0, %arg4] [320, 128] [1, 1] : memref<320x256xf16> to memref<320x128xf16, strided<[256, 1], offset: ?>>
      %subview_1 = memref.subview %arg2[%arg3, %arg4] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%cst : f32) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
      linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%subview, %subview_0 : memref<128x320xf16, strided<[320, 1], offset: ?>>, memref<320x128xf16, strided<[256, 1], offset: ?>>) outs(%subview_1 : memref<128x128xf32, strided<[256, 1], offset: ?>>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return %arg2 : memref<256x256xf32>
  }
}
