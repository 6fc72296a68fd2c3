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

// Six tiled loops: the outer four share grid z, linearized, which the ABI
// counts as a constant times at most 3 run-time sizes: four dynamic ones
// are refused (tile-and-distribute-to-workgroups.mlir has the static case
// and dynamic ones).
func.func @six_grid_dims_dynamic(%a: tensor<?x?x?x?x2x8xf32>, %b: tensor<?x?x?x?x2x8xf32>, %e: tensor<?x?x?x?x2x8xf32>) -> tensor<?x?x?x?x2x8xf32>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [4, 1, 1]>} {
  // expected-error @+1 {{'linalg.add' op tiles 6 parallel loops across workgroups; a grid has 3 dimensions, so the outer 4 share grid z, whose workgroups are counted as a constant times at most 3 run-time sizes, and loops 0, 1, 2, 3 are dynamic (give all but 3 a static size, or pass the batches as fewer dimensions)}}
  %0 = linalg.add {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 1, 1, 1, 1, 4]]>}
    ins(%a, %b : tensor<?x?x?x?x2x8xf32>, tensor<?x?x?x?x2x8xf32>) outs(%e : tensor<?x?x?x?x2x8xf32>) -> tensor<?x?x?x?x2x8xf32>
  return %0 : tensor<?x?x?x?x2x8xf32>
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

// -----

/// The matmul's result is returned and consumed: the consumer is not the
/// only user, so the workgroup loop holds the matmul alone and the ReLU stays
/// outside, where no workgroup runs it (an sm_80 mma.sync kernel used to fail
/// in the vector-to-GPU conversion instead).
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @consumer_of_returned_result(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>) -> (tensor<512x512xf32>, tensor<512x512xf32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = mma_sync>} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  // expected-note @+1 {{the workgroup loop}}
  %m = linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 32], [16, 16, 0], [16, 8, 16]]>}
    ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  // expected-error @+1 {{'linalg.generic' op is outside the workgroup loop of the kernel's root 'linalg.matmul'; the loop fuses the root's producers and a chain of elementwise consumers, each the only user of the value before it, and this op reads the loop's result #0, which has 2 uses (compute it in a function of its own)}}
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%m : tensor<512x512xf32>) outs(%e : tensor<512x512xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<512x512xf32>
  return %m, %r : tensor<512x512xf32>, tensor<512x512xf32>
}

// -----

/// A chain whose first consumer's result is also returned: the loop fuses the
/// bias, whose result then has two users, and stops there.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @chain_with_returned_link(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>, %bias: tensor<512xf32>) -> (tensor<512x512xf32>, tensor<512x512xf16>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = mma_sync>} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %e16 = tensor.empty() : tensor<512x512xf16>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  %m = linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 32], [16, 16, 0], [16, 8, 16]]>}
    ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  // expected-note @+1 {{the workgroup loop}}
  %biased = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
    ins(%m, %bias : tensor<512x512xf32>, tensor<512xf32>) outs(%e : tensor<512x512xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<512x512xf32>
  // expected-error @+1 {{'linalg.generic' op is outside the workgroup loop of the kernel's root 'linalg.matmul'; the loop fuses the root's producers and a chain of elementwise consumers, each the only user of the value before it, and this op reads the loop's result #0, which has 2 uses (compute it in a function of its own)}}
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%biased : tensor<512x512xf32>) outs(%e16 : tensor<512x512xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<512x512xf16>
  return %biased, %r : tensor<512x512xf32>, tensor<512x512xf16>
}

// -----

/// The matmul's only consumer holds an scf.if in its payload: not
/// elementwise in linalg's sense (linalg::isElementwise), so the loop does
/// not fuse it although it is the result's only user.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @consumer_with_region_payload(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>) -> tensor<512x512xf32>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = mma_sync>} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  // expected-note @+1 {{the workgroup loop}}
  %m = linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 32], [16, 16, 0], [16, 8, 16]]>}
    ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  // expected-error @+1 {{'linalg.generic' op is outside the workgroup loop of the kernel's root 'linalg.matmul'; the loop fuses the root's producers and a chain of elementwise consumers, each the only user of the value before it, and this op reads the loop's result #0, which has 1 uses; a link of the chain is an elementwise linalg op on tensors (parallel loops, permutation maps, a payload of scalar elementwise ops) that reads the value before it and writes its one result with identity maps, and this op is not (compute it in a function of its own)}}
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%m : tensor<512x512xf32>) outs(%e : tensor<512x512xf32>) {
  ^bb0(%x: f32, %o: f32):
    %positive = arith.cmpf ogt, %x, %zero : f32
    %y = scf.if %positive -> f32 {
      scf.yield %x : f32
    } else {
      scf.yield %zero : f32
    }
    linalg.yield %y : f32
  } -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}

// -----

// A root on tensors with no outs (a linalg.generic that only reads): it
// has no result, and upstream's tileConsumerAndFuseProducersUsingSCF tiles
// ops through their results.
#id = affine_map<(d0) -> (d0)>
func.func @tensor_root_without_results(%a: tensor<64xf32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [64, 1, 1]>} {
  // expected-error @+1 {{'linalg.generic' op is a linalg op on tensors without results (no outs): it computes nothing a kernel could write, and workgroup tiling tiles an op on tensors through its results}}
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
    ins(%a : tensor<64xf32>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[16]]>} {
  ^bb0(%x: f32):
    linalg.yield
  }
  return
}
