// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(gpucg-simt-fallback))'

// A WarpReduction tile that reads its row again after the reduction (the
// normalization of a row by its maximum) has no SIMT distribution.
#row = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
func.func @row_program(%x: memref<1x256xf32>, %max: memref<1xf32>, %out: memref<1x256xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [64, 1, 1]>} {
  // expected-error @+1 {{has a WarpReduction workgroup tile with another op over its rows after it or a second reduction of them (softmax, RMSNorm, LayerNorm); only pipeline WarpReduction (gpucg-warp-reduction, gpucg-compile) distributes it, not SimtDistribute}}
  linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<1x256xf32>) outs(%max : memref<1xf32>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 256], [0, 4]]>} {
  ^bb0(%a: f32, %b: f32):
    %t = arith.maximumf %a, %b : f32
    linalg.yield %t : f32
  }
  // expected-note @+1 {{other op here}}
  linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : memref<1x256xf32>, memref<1xf32>) outs(%out : memref<1x256xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %t = arith.subf %a, %m : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// A hand-written plan whose level 0 does not have a size per loop.
func.func @wrong_level0(%a: memref<1x4096xf32>, %c: memref<1xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [1024, 1, 1], subgroup_size = 32>} {
  // expected-error @+1 {{has 1 level-0 tile sizes for 2 loops}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%a : memref<1x4096xf32>) outs(%c : memref<1xf32>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1], [0, 4]]>} {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  }
  return
}
