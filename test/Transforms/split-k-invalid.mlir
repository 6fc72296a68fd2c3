// The errors of gpucg-split-k-across-workgroups and
// gpucg-create-split-k-workspace on kernels the strategy's checks would
// have refused, or IR from somewhere else: each names the op and the rule.
// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-split-k-across-workgroups),gpucg-create-split-k-workspace)'

#plan = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync, split_k = 2>
#config = #gpucg.lowering_config<tile_sizes = [[32, 32, 32], [16, 16, 0], [16, 8, 16]]>
module {
  func.func @outside_workgroup_loop(%a: memref<32x256xf16>, %b: memref<256x32xf16>, %c: memref<32x32xf32>) attributes {gpucg.translation_info = #plan} {
    // expected-error @+1 {{'linalg.matmul' op is in a kernel that splits K into 2 parts (split_k), but is not directly in a workgroup loop}}
    linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<32x256xf16>, memref<256x32xf16>) outs(%c : memref<32x32xf32>)
    return
  }
}

// -----

#plan = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync, split_k = 2>
#config = #gpucg.lowering_config<tile_sizes = [[32, 32, 32], [16, 16, 0], [16, 8, 16]]>
module {
  func.func @grid_z_taken(%a: memref<32x256xf16>, %b: memref<256x32xf16>, %c: memref<32x32xf32>) attributes {gpucg.translation_info = #plan} {
    // expected-error @+1 {{'scf.forall' op is in a kernel that splits K into 2 parts (split_k), but its tiles already take grid z, which the parts of K take}}
    scf.forall (%z, %y, %x) in (1, 1, 1) {
      linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<32x256xf16>, memref<256x32xf16>) outs(%c : memref<32x32xf32>)
    } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return
  }
}

// -----

#plan = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync, split_k = 3>
#config = #gpucg.lowering_config<tile_sizes = [[32, 32, 32], [16, 16, 0], [16, 8, 16]]>
module {
  func.func @uneven_parts(%a: memref<32x256xf16>, %b: memref<256x32xf16>, %c: memref<32x32xf32>) attributes {gpucg.translation_info = #plan} {
    scf.forall (%y, %x) in (1, 1) {
      // expected-error @+1 {{'linalg.matmul' op is in a kernel that splits K into 3 parts (split_k), but its K of 256 elements is not static and a multiple of 3}}
      linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<32x256xf16>, memref<256x32xf16>) outs(%c : memref<32x32xf32>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }
}

// -----

// MatmulWgmma's parts are whole K steps (2 of 64 here), the last reaching
// past K; 3 parts of one step would leave the last starting at K.
#plan = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 1, staged_store = true, split_k = 3>
#config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>
module {
  func.func @wgmma_parts_past_k(%a: memref<128x128xf16>, %b: memref<128x128xf16>, %c: memref<128x128xf32>) attributes {gpucg.translation_info = #plan} {
    scf.forall (%y, %x) in (1, 1) {
      // expected-error @+1 {{'linalg.matmul' op is in a kernel that splits K into 3 parts (split_k), but its K of 128 elements is not static and split into parts of whole K steps of 64, each starting before K ends}}
      linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<128x128xf16>, memref<128x128xf16>) outs(%c : memref<128x128xf32>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }
}

// -----

#plan = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync, split_k = 2>
#config = #gpucg.lowering_config<tile_sizes = [[32, 32, 32], [16, 16, 0], [16, 8, 16]]>
module {
  func.func @on_tensors(%a: tensor<32x256xf16>, %b: tensor<256x32xf16>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> attributes {gpucg.translation_info = #plan} {
    // expected-error @+1 {{'linalg.matmul' op is in a kernel that splits K into 2 parts (split_k), but is not bufferized (run gpucg-bufferize first)}}
    %0 = linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : tensor<32x256xf16>, tensor<256x32xf16>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
    return %0 : tensor<32x32xf32>
  }
}

// -----

#plan = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync, split_k = 2>
#config = #gpucg.lowering_config<tile_sizes = [[32, 32, 32], [16, 16, 0], [16, 8, 16]]>
module {
  // expected-error @+1 {{'func.func' op splits K into 2 parts (split_k) but has 2 ops with a gpucg.lowering_config; expected one root matmul}}
  func.func @two_roots(%a: memref<32x256xf16>, %b: memref<256x32xf16>, %c: memref<32x32xf32>) attributes {gpucg.translation_info = #plan} {
    linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<32x256xf16>, memref<256x32xf16>) outs(%c : memref<32x32xf32>)
    linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<32x256xf16>, memref<256x32xf16>) outs(%c : memref<32x32xf32>)
    return
  }
}

// -----

#plan = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync, split_k = 2>
module {
  func.func @not_a_matmul(%a: memref<32x32xf32>, %c: memref<32x32xf32>) attributes {gpucg.translation_info = #plan} {
    // expected-error @+1 {{'linalg.copy' op is the root of a kernel that splits K into 2 parts (split_k), but is not an unbatched matmul with one level-0 tile size per loop}}
    linalg.copy {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32]]>} ins(%a : memref<32x32xf32>) outs(%c : memref<32x32xf32>)
    return
  }
}

// -----

#plan = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync, split_k = 2>
#config = #gpucg.lowering_config<tile_sizes = [[32, 32, 32], [16, 16, 0], [16, 8, 16]]>
module {
  // expected-error @+1 {{'func.func' op splits K into 2 parts (split_k) but has no gpu.known_grid_size (run gpucg-tile-and-distribute-to-workgroups first)}}
  func.func @no_grid(%a: memref<32x256xf16>, %b: memref<256x32xf16>, %c: memref<32x32xf32>) attributes {gpucg.translation_info = #plan} {
    scf.forall (%y, %x) in (1, 1) {
      linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<32x256xf16>, memref<256x32xf16>) outs(%c : memref<32x32xf32>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }
}

// -----

#plan = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync, split_k = 2>
#config = #gpucg.lowering_config<tile_sizes = [[32, 32, 32], [16, 16, 0], [16, 8, 16]]>
module {
  // expected-error @+1 {{'memref.global' op has the name of a split-K buffer of type 'memref<1xi32>', but is not a memref.global of that type}}
  memref.global "private" @__gpucg_split_k_counters_taken : memref<2xi32> = dense<0>
  func.func @taken(%a: memref<32x256xf16>, %b: memref<256x32xf16>, %c: memref<32x32xf32>) attributes {gpu.known_grid_size = array<i32: 1, 1, 1>, gpucg.translation_info = #plan} {
    scf.forall (%y, %x) in (1, 1) {
      linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<32x256xf16>, memref<256x32xf16>) outs(%c : memref<32x32xf32>)
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }
}

// -----

// Stream-K's workspace (gpucg-create-split-k-workspace): the root's tiles
// size its slots, the workgroup loop's grid its counters.
#plan = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, persistent_workgroups = 3, stream_k = true>
module {
  // expected-error @+1 {{'func.func' op runs stream-K (stream_k) but has no one root matmul with a gpucg.lowering_config of one level-0 tile size per loop}}
  func.func @stream_k_no_root(%a: memref<256x256xf16>, %b: memref<256x256xf16>, %c: memref<256x256xf32>) attributes {gpucg.translation_info = #plan, gpu.known_grid_size = array<i32: 2, 2, 1>} {
    linalg.matmul ins(%a, %b : memref<256x256xf16>, memref<256x256xf16>) outs(%c : memref<256x256xf32>)
    return
  }
}

// -----

#plan = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, persistent_workgroups = 3, stream_k = true>
module {
  // expected-error @+1 {{'func.func' op runs stream-K (stream_k) but has no gpu.known_grid_size (run gpucg-tile-and-distribute-to-workgroups first)}}
  func.func @stream_k_no_grid(%a: memref<256x256xf16>, %b: memref<256x256xf16>, %c: memref<256x256xf32>) attributes {gpucg.translation_info = #plan} {
    linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>} ins(%a, %b : memref<256x256xf16>, memref<256x256xf16>) outs(%c : memref<256x256xf32>)
    return
  }
}
