// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy{require-tensor-cores=true}))'

// The named tensor-core pipelines (require-tensor-cores) refuse a user's
// plan for another pipeline, which they would leave without MMA.

#config = #gpucg.lowering_config<tile_sizes = [[1, 256, 0], [1, 1, 0]]>
#info = #gpucg.translation_info<pipeline = None, workgroup_size = [256, 1, 1]>
func.func @pipeline_none(%a: tensor<16x32xf16>, %b: tensor<32x64xf16>, %c: tensor<16x64xf32>) -> tensor<16x64xf32> {
  // expected-error @+1 {{'linalg.matmul' op is planned for pipeline None by its gpucg.compilation_info, but this pipeline requires tensor cores (pipeline MatmulTensorCore or MatmulTensorCoreMmaSync)}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %b : tensor<16x32xf16>, tensor<32x64xf16>) outs(%c : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}

// -----

func.func @planned_simt(%a: tensor<16x32xf16>, %b: tensor<32x64xf16>, %c: tensor<16x64xf32>) -> tensor<16x64xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [64, 1, 1]>} {
  // expected-error @+1 {{'linalg.matmul' op is planned for pipeline SimtDistribute by its gpucg.lowering_config and gpucg.translation_info, but this pipeline requires tensor cores (pipeline MatmulTensorCore or MatmulTensorCoreMmaSync)}}
  %0 = linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 64, 0], [1, 1, 0]]>}
    ins(%a, %b : tensor<16x32xf16>, tensor<32x64xf16>) outs(%c : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}
