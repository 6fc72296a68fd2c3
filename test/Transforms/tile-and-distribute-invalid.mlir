// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-tile-and-distribute{distribute-to-warp=true}))'

/// A SIMT kernel's level-1 sizes are per thread: distributing them to warps
/// would be wrong.
// expected-error @+1 {{'func.func' op uses pipeline SimtDistribute, whose level-1 tile sizes are per thread; run gpucg-tile-and-distribute with distribute-to-warp=false}}
func.func @wrong_granularity(%a: memref<64xf32>, %b: memref<64xf32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [64, 1, 1]>} {
  linalg.copy {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[64], [1]]>}
    ins(%a : memref<64xf32>) outs(%b : memref<64xf32>)
  return
}

// -----

// expected-error @+1 {{'func.func' op has no workgroup_size in its gpucg.translation_info}}
func.func @no_workgroup_size(%a: memref<64xf32>, %b: memref<64xf32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore>} {
  return
}

// -----

// expected-error @+1 {{'func.func' op distributes to warps, but workgroup_size x (48) is not a multiple of the warp size (32)}}
func.func @partial_warp(%a: memref<64xf32>, %b: memref<64xf32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [48, 1, 1]>} {
  return
}

// -----

// expected-error @+1 {{'func.func' op has a gpucg.translation_info but no op with a gpucg.lowering_config (run gpucg-select-lowering-strategy)}}
func.func @no_root(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>} {
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

func.func @not_bufferized(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>} {
  // expected-error @+1 {{'linalg.matmul' op must be bufferized before gpucg-tile-and-distribute (run gpucg-bufferize)}}
  %0 = linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 16], [32, 32, 0]]>}
    ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @no_level_1(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>} {
  // expected-error @+1 {{'linalg.matmul' op has no level-1 (per-warp) tile sizes in its gpucg.lowering_config}}
  linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 16]]>}
    ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

func.func @wrong_level_size(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>} {
  // expected-error @+1 {{'linalg.matmul' op lowering_config levels 0 and 1 need 3 tile sizes each, got 3 and 2}}
  linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 16], [32, 32]]>}
    ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

/// The accumulator of a fused epilogue must move into workgroup memory, with
/// a static shape: this one's size has no upper bound.
func.func @unbounded_temporary(%a: memref<?x64xf16>, %b: memref<64x64xf16>, %n: index)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, mma_kind = mma_sync>} {
  %t = memref.alloc(%n) : memref<?x64xf32>
  // expected-error @+1 {{'linalg.matmul' op writes its result into a temporary of type 'memref<?x64xf32>' whose sizes have no constant upper bound; its workgroup cannot share it in workgroup memory}}
  linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 16], [32, 32, 0], [16, 8, 16]]>}
    ins(%a, %b : memref<?x64xf16>, memref<64x64xf16>) outs(%t : memref<?x64xf32>)
  return
}

// -----

func.func @temporary_used_elsewhere(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, mma_kind = mma_sync>} {
  %t = memref.alloc() : memref<64x64xf32>
  // expected-error @+1 {{'linalg.matmul' op writes its result into a temporary that 'memref.copy' also uses; gpucg moves into workgroup memory only temporaries of linalg ops}}
  linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 16], [32, 32, 0], [16, 8, 16]]>}
    ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%t : memref<64x64xf32>)
  memref.copy %t, %c : memref<64x64xf32> to memref<64x64xf32>
  return
}
