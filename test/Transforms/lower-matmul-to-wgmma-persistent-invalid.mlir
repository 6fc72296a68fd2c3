// RUN: gpucg-opt %s -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-lower-matmul-to-wgmma{persistent=true}))'

// A persistent grid takes its size (the SM count) and its room for a fused
// epilogue's staging buffer (the shared memory) from the function's
// gpucg.target; this one has none.

#ws = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>

// expected-error @+1 {{'func.func' op asks for a persistent grid but has no gpucg.target (its SM count and shared memory size are the grid's limits)}}
func.func @no_target(%a: memref<256x128xf16>, %b: memref<128x256xf16>, %c: memref<256x256xf32>) attributes {gpucg.translation_info = #ws} {
  %zero = arith.constant 0.0 : f32
  scf.forall (%i, %j) = (0, 0) to (256, 256) step (128, 128) {
    %av = memref.subview %a[%i, 0] [128, 128] [1, 1] : memref<256x128xf16> to memref<128x128xf16, strided<[128, 1], offset: ?>>
    %bv = memref.subview %b[0, %j] [128, 128] [1, 1] : memref<128x256xf16> to memref<128x128xf16, strided<[256, 1], offset: ?>>
    %cv = memref.subview %c[%i, %j] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%cv : memref<128x128xf32, strided<[256, 1], offset: ?>>)
    linalg.matmul {gpucg.lowering_config = #config} ins(%av, %bv : memref<128x128xf16, strided<[128, 1], offset: ?>>, memref<128x128xf16, strided<[256, 1], offset: ?>>) outs(%cv : memref<128x128xf32, strided<[256, 1], offset: ?>>)
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}
