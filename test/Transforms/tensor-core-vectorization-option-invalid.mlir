// RUN: gpucg-opt %s -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-tensor-core-vectorization{mma=mfma}))'
// RUN: gpucg-opt %s -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-vector-to-gpu{mma=mfma}))'

/// An `mma` option that names no MMA family is refused by both passes that
/// take one, on the kernel it would apply to.
// expected-error @+1 {{'func.func' op unknown mma kind 'mfma'; expected auto, wmma or mma-sync}}
func.func @unknown_mma_kind(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [32, 1, 1]>} {
  linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[16, 16, 16], [16, 16, 0], [16, 16, 16]]>}
    ins(%a, %b : memref<16x16xf16>, memref<16x16xf16>) outs(%c : memref<16x16xf32>)
  return
}
