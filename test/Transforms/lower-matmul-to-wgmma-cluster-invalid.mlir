// Cluster options the pass refuses, on a kernel it would cluster.
// RUN: not gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-lower-matmul-to-wgmma{cluster-m=4 cluster-n=4}))' 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: not gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-lower-matmul-to-wgmma{cluster-n=0}))' 2>&1 | FileCheck %s --check-prefix=ZERO

// SIZE: error: 'func.func' op asks for clusters of 4 x 4 workgroups; a cluster has 1 to 8 (the portable cluster size)
// ZERO: error: 'func.func' op asks for clusters of 1 x 0 workgroups; a cluster has 1 to 8 (the portable cluster size)

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @matmul_kn(%arg0: memref<256x256xf16>, %arg1: memref<256x256xf16>, %arg2: memref<256x256xf32>) -> memref<256x256xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2>} {
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
