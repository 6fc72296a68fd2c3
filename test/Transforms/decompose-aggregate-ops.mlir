// RUN: gpucg-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-decompose-aggregate-ops))' \
// RUN:   | FileCheck %s

/// linalg.softmax becomes its four structured ops: the row maximum (from
/// NaN), the exponential of the difference, the row sum (from 0) and the
/// division; nothing of linalg.softmax is left.
// CHECK-LABEL: func.func @softmax
//  CHECK-SAME:   (%[[X:.+]]: tensor<64x1024xf32>, %[[OUT:.+]]: tensor<64x1024xf32>)
//       CHECK:   %[[EMPTY:.+]] = tensor.empty() : tensor<64xf32>
//       CHECK:   %[[MAXINIT:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[EMPTY]] : tensor<64xf32>)
//       CHECK:   %[[MAX:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]{{.+}} ins(%[[X]] : tensor<64x1024xf32>) outs(%[[MAXINIT]] : tensor<64xf32>)
//       CHECK:     arith.maxnumf
//       CHECK:   %[[EXP:.+]] = linalg.generic {{.+}} ins(%[[X]], %[[MAX]] : tensor<64x1024xf32>, tensor<64xf32>) outs(%[[OUT]] : tensor<64x1024xf32>)
//       CHECK:     arith.subf
//       CHECK:     math.exp
//       CHECK:   %[[SUMINIT:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[EMPTY]] : tensor<64xf32>)
//       CHECK:   %[[SUM:.+]] = linalg.generic {{.+}} ins(%[[EXP]] : tensor<64x1024xf32>) outs(%[[SUMINIT]] : tensor<64xf32>)
//       CHECK:     arith.addf
//       CHECK:   %[[R:.+]] = linalg.generic {{.+}} ins(%[[EXP]], %[[SUM]] : tensor<64x1024xf32>, tensor<64xf32>) outs(%[[OUT]] : tensor<64x1024xf32>)
//       CHECK:     arith.divf
//       CHECK:   return %[[R]]
//   CHECK-NOT:   linalg.softmax
func.func @softmax(%x: tensor<64x1024xf32>, %out: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %0 = linalg.softmax dimension(1) ins(%x : tensor<64x1024xf32>) outs(%out : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  return %0 : tensor<64x1024xf32>
}

// -----

/// Structured ops are left alone.
// CHECK-LABEL: func.func @matmul
//       CHECK:   linalg.matmul
func.func @matmul(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<16x16xf16>, tensor<16x16xf16>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}
