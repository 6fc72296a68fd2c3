// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-tensor-core-vectorization{mma=mma-sync}))'

/// A SIMT kernel is not a tensor-core kernel: left alone, whatever the
/// option says.
func.func @negative_simt(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulSimt, workgroup_size = [32, 8, 1]>} {
  linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 64, 32], [4, 2, 0]]>}
    ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// expected-error @+1 {{'func.func' op was given mma=mma-sync, but its pipeline MatmulTensorCore uses wmma}}
func.func @contradicting_option(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [32, 1, 1]>} {
  linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[16, 16, 16], [16, 16, 0], [16, 16, 16]]>}
    ins(%a, %b : memref<16x16xf16>, memref<16x16xf16>) outs(%c : memref<16x16xf32>)
  return
}

// -----

// expected-error @+1 {{'func.func' op has a tensor-core translation_info but no op with a gpucg.lowering_config}}
func.func @no_root(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [32, 1, 1]>} {
  linalg.matmul ins(%a, %b : memref<16x16xf16>, memref<16x16xf16>) outs(%c : memref<16x16xf32>)
  return
}

// -----

func.func @no_instruction_level(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [32, 1, 1]>} {
  // expected-error @+1 {{'linalg.matmul' op needs a contraction with one M, N and K loop and a level-2 (instruction) tile size per loop for tensor-core vectorization}}
  linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[16, 16, 16], [16, 16, 0]]>}
    ins(%a, %b : memref<16x16xf16>, memref<16x16xf16>) outs(%c : memref<16x16xf32>)
  return
}
