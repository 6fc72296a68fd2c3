// RUN: gpucg-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(gpucg-generic-vectorization))' | FileCheck %s
// Everything printed parses and verifies again.
// RUN: gpucg-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(gpucg-generic-vectorization))' | gpucg-opt --split-input-file > /dev/null
// With a limit of 8, the 16-point reduction is split into K steps of 2.
// RUN: gpucg-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(gpucg-generic-vectorization{max-vector-elements=8}))' | FileCheck %s --check-prefix=LIMIT

// A thread's part of the seed row sum: 4 rows, a K step of 4.
// CHECK-LABEL: func.func @row_sum_tile
//   CHECK-DAG:   %[[A:.+]] = vector.transfer_read %{{.+}}[%c0, %c0], %{{.+}} {in_bounds = [true, true]} : memref<4x4xf32, strided<[100, 1], offset: ?>>, vector<4x4xf32>
//   CHECK-DAG:   %[[B:.+]] = vector.transfer_read %{{.+}}[%c0, %c0], %{{.+}} {in_bounds = [true, true]} : memref<4x4xf32, strided<[100, 1], offset: ?>>, vector<4x4xf32>
//   CHECK-DAG:   %[[ACC:.+]] = vector.transfer_read %{{.+}}[%c0], %{{.+}} {in_bounds = [true]} : memref<4xf32, strided<[1], offset: ?>>, vector<4xf32>
//       CHECK:   %[[S:.+]] = arith.addf %[[A]], %[[B]] : vector<4x4xf32>
//       CHECK:   %[[R:.+]] = vector.multi_reduction <add>, %[[S]], %[[ACC]] [1] : vector<4x4xf32> to vector<4xf32>
//       CHECK:   vector.transfer_write %[[R]], %{{.+}}[%c0] {in_bounds = [true]}
//   CHECK-NOT:   linalg.generic
//       CHECK:   return
// LIMIT-LABEL: func.func @row_sum_tile
//       LIMIT:   scf.for %{{.+}} = %c0 to %c4 step %c2
//       LIMIT:     vector.transfer_read {{.*}} vector<4x2xf32>
//       LIMIT:     vector.multi_reduction <add>, {{.*}} [1] : vector<4x2xf32> to vector<4xf32>
//   LIMIT-NOT:   linalg.generic
//       LIMIT:   return
func.func @row_sum_tile(%a: memref<4x4xf32, strided<[100, 1], offset: ?>>,
                        %b: memref<4x4xf32, strided<[100, 1], offset: ?>>,
                        %c: memref<4xf32, strided<[1], offset: ?>>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a, %b : memref<4x4xf32, strided<[100, 1], offset: ?>>, memref<4x4xf32, strided<[100, 1], offset: ?>>)
      outs(%c : memref<4xf32, strided<[1], offset: ?>>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.addf %s, %acc : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// Elementwise with a broadcast bias, f16: a thread's 1x8 tile.
// CHECK-LABEL: func.func @bias_add_f16
//       CHECK:   vector.transfer_read {{.*}} : memref<1x8xf16, strided<[4096, 1], offset: ?>>, vector<1x8xf16>
//       CHECK:   vector.transfer_read {{.*}} : memref<8xf16, strided<[1], offset: ?>>, vector<1x8xf16>
//       CHECK:   arith.addf {{.*}} : vector<1x8xf16>
//       CHECK:   vector.transfer_write {{.*}} : vector<1x8xf16>, memref<1x8xf16, strided<[4096, 1], offset: ?>>
func.func @bias_add_f16(%x: memref<1x8xf16, strided<[4096, 1], offset: ?>>,
                        %bias: memref<8xf16, strided<[1], offset: ?>>,
                        %y: memref<1x8xf16, strided<[4096, 1], offset: ?>>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias : memref<1x8xf16, strided<[4096, 1], offset: ?>>, memref<8xf16, strided<[1], offset: ?>>)
      outs(%y : memref<1x8xf16, strided<[4096, 1], offset: ?>>) {
  ^bb0(%a: f16, %b: f16, %out: f16):
    %s = arith.addf %a, %b : f16
    linalg.yield %s : f16
  }
  return
}

// -----

// On tensors too: the op is replaced by the vectors' write into its init.
// CHECK-LABEL: func.func @on_tensors
//       CHECK:   %[[R:.+]] = vector.transfer_write {{.*}} : vector<4xi32>, tensor<4xi32>
//       CHECK:   return %[[R]]
func.func @on_tensors(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = linalg.add ins(%a, %a : tensor<4xi32>, tensor<4xi32>) outs(%b : tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Left alone: a dynamic tile (the partial-tile path), a tile larger than the
// limit (65 points), an empty one, and a workgroup-wide copy into workgroup
// memory (gpucg-distribute-shared-memory-copy's).
// CHECK-LABEL: func.func @left_alone
//   CHECK-NOT:   vector.
//       CHECK:   linalg.generic
//       CHECK:   linalg.add
//       CHECK:   linalg.add
//       CHECK:   linalg.copy
//   CHECK-NOT:   vector.
//       CHECK:   return
func.func @left_alone(%d: memref<?x4xf32>, %dout: memref<?xf32>,
                      %big: memref<65xf32>, %empty: memref<0xf32>,
                      %g: memref<32x8xf16>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%d : memref<?x4xf32>) outs(%dout : memref<?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  }
  linalg.add ins(%big, %big : memref<65xf32>, memref<65xf32>) outs(%big : memref<65xf32>)
  linalg.add ins(%empty, %empty : memref<0xf32>, memref<0xf32>) outs(%empty : memref<0xf32>)
  %w = memref.alloc() : memref<32x8xf16, #gpu.address_space<workgroup>>
  linalg.copy ins(%g : memref<32x8xf16>) outs(%w : memref<32x8xf16, #gpu.address_space<workgroup>>)
  return
}

// -----

// Too many points (4 x 4 x 32 = 512) for one vector op: the reduction loop
// is tiled so that a step fits (K steps of 4: 64 points), each step one
// vector.contract of the thread's 4x4 outputs.
// CHECK-LABEL: func.func @thread_matmul
//       CHECK:   scf.for %{{.+}} = %c0 to %c32 step %c4
//       CHECK:     vector.transfer_read {{.*}} vector<4x4xf32>
//       CHECK:     vector.transfer_read {{.*}} vector<4x4xf32>
//       CHECK:     vector.contract {{.*}} vector<4x4xf32>, vector<4x4xf32> into vector<4x4xf32>
//       CHECK:     vector.transfer_write {{.*}} vector<4x4xf32>
//   CHECK-NOT:   linalg.matmul
func.func @thread_matmul(%a: memref<4x32xf32, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>,
                         %b: memref<32x4xf32, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>,
                         %c: memref<4x4xf32, strided<[256, 1], offset: ?>>) {
  linalg.matmul ins(%a, %b : memref<4x32xf32, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<32x4xf32, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>)
                outs(%c : memref<4x4xf32, strided<[256, 1], offset: ?>>)
  return
}

// -----

// A whole row of 100 per thread: steps of 4 (the largest power of two that
// divides 100), 128 bits each.
// CHECK-LABEL: func.func @thread_row
//       CHECK:   scf.for %{{.+}} = %c0 to %c100 step %c4
//       CHECK:     vector.transfer_read {{.*}} vector<1x4xf32>
//       CHECK:     vector.multi_reduction <add>
func.func @thread_row(%a: memref<1x100xf32, strided<[100, 1], offset: ?>>, %c: memref<1xf32, strided<[1], offset: ?>>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<1x100xf32, strided<[100, 1], offset: ?>>) outs(%c : memref<1xf32, strided<[1], offset: ?>>) {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  }
  return
}
