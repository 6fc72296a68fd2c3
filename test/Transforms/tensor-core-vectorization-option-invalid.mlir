// RUN: not gpucg-opt %s \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-tensor-core-vectorization{mma=mfma}))' 2>&1 \
// RUN:   | FileCheck %s
// RUN: not gpucg-opt %s \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-vector-to-gpu{mma=mfma}))' 2>&1 \
// RUN:   | FileCheck %s

/// An `mma` option that names no MMA family is refused by both passes that
/// take one when the pipeline is parsed, before any IR is touched.
// CHECK: for the --mma option: Cannot find option named 'mfma'!
func.func @unknown_mma_kind(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [32, 1, 1]>} {
  linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[16, 16, 16], [16, 16, 0], [16, 16, 16]]>}
    ins(%a, %b : memref<16x16xf16>, memref<16x16xf16>) outs(%c : memref<16x16xf32>)
  return
}
