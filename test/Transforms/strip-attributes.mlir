// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-strip-attributes)' \
// RUN:   | FileCheck %s
// The result parses in a tool without the gpucg dialect.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-strip-attributes)' \
// RUN:   | mlir-opt | FileCheck %s

/// Every gpucg.* attribute goes, on every op; other attributes stay.
// CHECK-LABEL: module attributes {test.other = 1 : i64} {
// CHECK-LABEL: func.func @kernel
//  CHECK-SAME:   attributes {gpu.known_block_size = array<i32: 64, 2, 1>} {
//       CHECK:   linalg.matmul ins(
//   CHECK-NOT:   gpucg
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">, test.other = 1 : i64} {
  func.func @kernel(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32>
      attributes {gpu.known_block_size = array<i32: 64, 2, 1>,
                  gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>} {
    %0 = linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>}
      ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
}
