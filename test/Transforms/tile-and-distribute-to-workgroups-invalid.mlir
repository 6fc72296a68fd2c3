// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-tile-and-distribute-to-workgroups))'

// expected-error @+1 {{'func.func' op has a gpucg.translation_info and 0 ops with a gpucg.lowering_config; expected exactly one root op (run gpucg-select-lowering-strategy first)}}
func.func @no_root(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [64, 1, 1]>} {
  %e = tensor.empty() : tensor<64x64xf32>
  %0 = linalg.add ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @wrong_number_of_sizes(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [64, 1, 1]>} {
  %e = tensor.empty() : tensor<64x64xf32>
  // expected-error @+1 {{'linalg.add' op lowering_config level 0 has 3 tile sizes, but the op has 2 loops}}
  %0 = linalg.add {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 64, 1]]>}
    ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @four_grid_dims(%a: tensor<2x2x2x8xf32>, %b: tensor<2x2x2x8xf32>) -> tensor<2x2x2x8xf32>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [4, 1, 1]>} {
  %e = tensor.empty() : tensor<2x2x2x8xf32>
  // expected-error @+1 {{'linalg.add' op tiles 4 parallel loops across workgroups, but a grid has at most 3 dimensions}}
  %0 = linalg.add {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 1, 1, 4]]>}
    ins(%a, %b : tensor<2x2x2x8xf32>, tensor<2x2x2x8xf32>) outs(%e : tensor<2x2x2x8xf32>) -> tensor<2x2x2x8xf32>
  return %0 : tensor<2x2x2x8xf32>
}

// -----

/// A zero-size dimension (fuzzer seed 23, case 158: upstream's tiling crashed
/// on the zero-trip loop).
func.func @empty_iteration_space(%a: tensor<0x128x192xf16>, %init: tensor<192xf16>) -> tensor<192xf16>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [64, 1, 1]>} {
  // expected-error @+1 {{'linalg.reduce' op has an empty iteration space (loop 0 has 0 iterations): there is no workgroup to launch}}
  %r = linalg.reduce ins(%a : tensor<0x128x192xf16>) outs(%init : tensor<192xf16>) dimensions = [0, 1]
    {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[0, 0, 64], [0, 0, 1]]>}
    (%in: f16, %acc: f16) {
      %s = arith.addf %in, %acc : f16
      linalg.yield %s : f16
    }
  return %r : tensor<192xf16>
}
