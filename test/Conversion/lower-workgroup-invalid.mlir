// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(gpucg-lower-workgroup))'

/// Pipeline None has no in-workgroup stages of any kind.
// expected-error @+1 {{has translation_info pipeline 'None', which gpucg cannot lower to a GPU binary yet (supported: MatmulTensorCore, MatmulTensorCoreMmaSync, MatmulWgmma, SimtDistribute, Vectorize, MatmulSimt, WarpReduction)}}
func.func @negative_pipeline_none(%a: memref<4xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = None>} {
  return
}

// -----

/// gpucg-distribute-reduction, first of the warp-reduction stages, needs the
/// workgroup size: its threads split each row.
// expected-error @+1 {{has no workgroup_size in its gpucg.translation_info}}
func.func @negative_warp_reduction_no_workgroup_size(%a: memref<4xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction>} {
  return
}

// -----

/// Distributing the reduction needs the root op's lowering_config.
// expected-error @+1 {{has a gpucg.translation_info but no op with a gpucg.lowering_config}}
func.func @negative_warp_reduction_no_root(%a: memref<4xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
  return
}
