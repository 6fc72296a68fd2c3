// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-tile-and-distribute{distribute-to-warp=false}))'

/// Four distributed loops, three thread dimensions.
func.func @four_thread_dims(%a: memref<2x2x2x8xf32>, %b: memref<2x2x2x8xf32>, %c: memref<2x2x2x8xf32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [8, 1, 1]>} {
  // expected-error @+1 {{'linalg.add' op distributes more than 3 parallel loops over the 3 dimensions of a workgroup}}
  linalg.add {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 1, 1, 8], [1, 1, 1, 1]]>}
    ins(%a, %b : memref<2x2x2x8xf32>, memref<2x2x2x8xf32>) outs(%c : memref<2x2x2x8xf32>)
  return
}

// -----

/// A tensor-core kernel's level-1 sizes are per warp.
// expected-error @+1 {{'func.func' op uses pipeline MatmulTensorCoreMmaSync, whose level-1 tile sizes are per warp; run gpucg-tile-and-distribute with distribute-to-warp=true}}
func.func @wrong_granularity(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1]>} {
  linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 16], [32, 32, 0]]>}
    ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}
