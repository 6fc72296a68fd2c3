// The kernels go through the stages before the pass (%gpucg_tensorcore_front,
// tensor-core vectorization, shared-memory copy distribution), then through
// gpucg-vector-to-gpu.
// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(%gpucg_tensorcore_front,func.func(gpucg-tensor-core-vectorization,gpucg-distribute-shared-memory-copy,gpucg-vector-to-gpu))' \
// RUN:   | gpucg-opt -split-input-file --mlir-print-local-scope | FileCheck %s

/// WMMA: the accumulator is loaded once into an MMA matrix, carried across
/// the K loop and stored after it; each K step loads A and B from workgroup
/// memory and issues one 16x16x16 compute. Global-to-workgroup copies are
/// asynchronous (16 bytes, L1 bypassed), each group waited for.
// CHECK-LABEL: func.func @wmma_seed
//       CHECK:   %[[ACC:.+]] = gpu.subgroup_mma_load_matrix {{.+}} -> !gpu.mma_matrix<16x16xf32, "COp">
//       CHECK:   %[[R:.+]] = scf.for {{.+}} iter_args(%[[C:.+]] = %[[ACC]]) -> (!gpu.mma_matrix<16x16xf32, "COp">) {
//       CHECK:     %[[T:.+]] = nvgpu.device_async_copy {{.+}}, 8 {bypassL1} : memref<8xf16, {{.+}}> to memref<8xf16, {{.+}}#gpu.address_space<workgroup>>
//       CHECK:     %[[G:.+]] = nvgpu.device_async_create_group %[[T]]
//       CHECK:     nvgpu.device_async_wait %[[G]]
//       CHECK:     %[[A:.+]] = gpu.subgroup_mma_load_matrix {{.+}} -> !gpu.mma_matrix<16x16xf16, "AOp">
//       CHECK:     %[[B:.+]] = gpu.subgroup_mma_load_matrix {{.+}} -> !gpu.mma_matrix<16x16xf16, "BOp">
//       CHECK:     %[[D:.+]] = gpu.subgroup_mma_compute %[[A]], %[[B]], %[[C]]
//       CHECK:     scf.yield %[[D]]
//       CHECK:   gpu.subgroup_mma_store_matrix %[[R]]
//   CHECK-NOT:   vector.contract
func.func @wmma_seed(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>,
      translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

/// mma.sync: A through one ldmatrix x4, B (transposed) through ldmatrix x2
/// per 16x8 half, two m16n8k16 mma.sync per K step on register
/// accumulators. The double-buffered A and B buffers are swizzled: the
/// column of every async copy into them and every ldmatrix from them is
/// XORed with bits of the row.
// CHECK-LABEL: func.func @mma_sync_seed
//       CHECK:   scf.for {{.+}} iter_args(%[[C0:.+]] = %{{.+}}, %[[C1:.+]] = %{{.+}}) -> (vector<2x2xf32>, vector<2x2xf32>) {
//       CHECK:     %[[ACOPY:.+]] = arith.xori
//       CHECK:     nvgpu.device_async_copy %{{.+}}, %[[ASMEM:[a-z0-9_]+]][%{{.+}}, %{{.+}}, %[[ACOPY]]], 8 {bypassL1} : memref<512x128xf16> to memref<2x32x16xf16, #gpu.address_space<workgroup>>
//       CHECK:     %[[BCOPY:.+]] = arith.xori
//       CHECK:     nvgpu.device_async_copy %{{.+}}, %[[BSMEM:[a-z0-9_]+]][%{{.+}}, %{{.+}}, %[[BCOPY]]], 8 {bypassL1} : memref<128x512xf16> to memref<2x16x32xf16, #gpu.address_space<workgroup>>
//       CHECK:     %[[ACOL:.+]] = arith.xori
//       CHECK:     %[[A:.+]] = nvgpu.ldmatrix %[[ASMEM]][%{{.+}}, %{{.+}}, %[[ACOL]]] {numTiles = 4 : i32, transpose = false} {{.+}} -> vector<4x2xf16>
//       CHECK:     %[[B0COL:.+]] = arith.xori
//       CHECK:     %[[B0:.+]] = nvgpu.ldmatrix %[[BSMEM]][%{{.+}}, %{{.+}}, %[[B0COL]]] {numTiles = 2 : i32, transpose = true} {{.+}} -> vector<2x2xf16>
//       CHECK:     %[[B1COL:.+]] = arith.xori
//       CHECK:     %[[B1:.+]] = nvgpu.ldmatrix %[[BSMEM]][%{{.+}}, %{{.+}}, %[[B1COL]]] {numTiles = 2 : i32, transpose = true} {{.+}} -> vector<2x2xf16>
//       CHECK:     %[[D0:.+]] = nvgpu.mma.sync(%[[A]], %[[B0]], %[[C0]]) {mmaShape = [16, 8, 16]}
//       CHECK:     %[[D1:.+]] = nvgpu.mma.sync(%[[A]], %[[B1]], %[[C1]]) {mmaShape = [16, 8, 16]}
//       CHECK:     scf.yield %[[D0]], %[[D1]]
func.func @mma_sync_seed(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>,
      translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

/// f32 operands run as TF32 on WMMA (m16n16k8).
// CHECK-LABEL: func.func @wmma_tf32
//       CHECK:   gpu.subgroup_mma_compute {{.+}} : !gpu.mma_matrix<16x8xf32, "AOp">, !gpu.mma_matrix<8x16xf32, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
func.func @wmma_tf32(%a: tensor<256x64xf32>, %b: tensor<64x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<256x64xf32>, tensor<64x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

/// C produced by a fill, 4 warps: the mma.sync accumulators start as zero
/// fragments; after the K loop and a barrier, each lane stores its fragment
/// rows (64 bits) into the swizzled staging buffer, and after another
/// barrier the workgroup reads it back in 128-bit rows, also swizzled, and
/// writes them to C. C is never read.
// CHECK-LABEL: func.func @mma_sync_filled_staged
//   CHECK-DAG:   %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<2x2xf32>
//   CHECK-DAG:   %[[C_SMEM:.+]] = memref.alloc() : memref<64x64xf32, #gpu.address_space<workgroup>>
//   CHECK-NOT:   vector.load %{{.+}} : memref<256x256xf32>
//   CHECK-NOT:   nvgpu.device_async_copy %{{.+}} : memref<256x256xf32>
//       CHECK:   scf.for {{.+}} iter_args(%{{.+}} = %[[ZERO]], %{{.+}} = %[[ZERO]],
//       CHECK:     nvgpu.mma.sync
//       CHECK:     scf.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   gpu.barrier
//       CHECK:   arith.xori
//       CHECK:   vector.store %{{.+}}, %[[C_SMEM]][%{{.+}}, %{{.+}}] : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<2xf32>
//       CHECK:   gpu.barrier
//       CHECK:   %[[COL:.+]] = arith.xori
//       CHECK:   %[[ROW:.+]] = vector.load %[[C_SMEM]][%{{.+}}, %[[COL]]] : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
//       CHECK:   vector.transfer_write %[[ROW]], %{{.+}} {in_bounds = [true]} : vector<4xf32>, memref<256x256xf32>
func.func @mma_sync_filled_staged(%a: tensor<256x128xf16>, %b: tensor<128x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 32]]>,
      translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x128xf16>, tensor<128x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

/// bf16 operands: MLIR 22's conversion has no bf16 fragments, but m16n8k16
/// lays them out as f16's; gpucg converts the contraction as f16 and gives
/// the ldmatrix results and the mma.sync operands their bf16 type back.
// CHECK-LABEL: func.func @mma_sync_bf16
//   CHECK-NOT:   builtin.unrealized_conversion_cast
//       CHECK:   scf.for
//   CHECK-DAG:     %[[A:.+]] = nvgpu.ldmatrix {{.+}} {numTiles = 4 : i32, transpose = false} : memref<2x32x32xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
//   CHECK-DAG:     %[[B:.+]] = nvgpu.ldmatrix {{.+}} transpose = true} : memref<2x32x32xbf16, #gpu.address_space<workgroup>> -> vector<2x2xbf16>
//       CHECK:     nvgpu.mma.sync(%[[A]], %[[B]], %{{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
//   CHECK-NOT:   vector<4x2xf16>
//   CHECK-NOT:   builtin.unrealized_conversion_cast
func.func @mma_sync_bf16(%a: tensor<256x128xbf16>, %b: tensor<128x256xbf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 32]]>,
      translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x128xbf16>, tensor<128x256xbf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

/// bf16 with B transposed through indexing_maps: B is read row by row of N,
/// so its ldmatrix is not transposed.
// CHECK-LABEL: func.func @mma_sync_bf16_transposed_b
//       CHECK:   scf.for
//   CHECK-DAG:     %[[A:.+]] = nvgpu.ldmatrix {{.+}} transpose = false} : memref<2x32x32xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
//   CHECK-DAG:     %[[B:.+]] = nvgpu.ldmatrix {{.+}} transpose = false} : memref<2x32x32xbf16, #gpu.address_space<workgroup>> -> vector<2x2xbf16>
//       CHECK:     nvgpu.mma.sync(%[[A]], %[[B]], %{{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
func.func @mma_sync_bf16_transposed_b(%a: tensor<256x128xbf16>, %b: tensor<256x128xbf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 32]]>,
      translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x128xbf16>, tensor<256x128xbf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

/// Every shape on the tensor cores: 40 x 40 on 32 x 32 tiles, and K = 20
/// i8 (a K tail: one zero-padded step of the 32-wide K tile, and rows of 20
/// bytes, 4-byte aligned). Both branches of workgroup specialization run the
/// same mma.sync loop. Each zero-padded copy into workgroup memory becomes
/// one async copy whose source element count is the masked read's clamped
/// count (cp.async's src-size: the rest of the 4 or 8 bytes is zero-filled),
/// with integer padding too (upstream's createAsyncGroups refuses i8's). The
/// partial tile's C copy-in is a 16-byte (L1-bypassing) async copy of i32
/// with a count, and its stores are whole when the 4 elements lie inside C,
/// masked otherwise.
// CHECK-LABEL: func.func @mma_sync_i8_edges
//       CHECK:   scf.if
//       CHECK:     nvgpu.device_async_copy %{{.+}}, %{{.+}}, 4, %{{.+}} : memref<40x20xi8> to memref<32x32xi8, #gpu.address_space<workgroup>>
//       CHECK:     nvgpu.device_async_copy %{{.+}}, %{{.+}}, 8, %{{.+}} : memref<20x40xi8> to memref<32x32xi8, #gpu.address_space<workgroup>>
//       CHECK:     nvgpu.ldmatrix
//       CHECK:     nvgpu.mma.sync({{.+}}) {mmaShape = [16, 8, 32]}
//       CHECK:   } else {
//       CHECK:     nvgpu.device_async_copy %{{.+}}, %{{.+}}, 4, %{{.+}} {bypassL1} : memref<40x40xi32> to memref<32x32xi32, #gpu.address_space<workgroup>>
//       CHECK:     nvgpu.device_async_copy %{{.+}}, %{{.+}}, 4, %{{.+}} : memref<40x20xi8> to memref<32x32xi8, #gpu.address_space<workgroup>>
//       CHECK:     nvgpu.device_async_copy %{{.+}}, %{{.+}}, 8, %{{.+}} : memref<20x40xi8> to memref<32x32xi8, #gpu.address_space<workgroup>>
//       CHECK:     nvgpu.ldmatrix
//       CHECK:     nvgpu.mma.sync({{.+}}) {mmaShape = [16, 8, 32]}
//       CHECK:     scf.if
//       CHECK:       vector.transfer_write %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] {in_bounds = [true]} : vector<4xi32>, memref<40x40xi32>
//  CHECK-NEXT:     } else {
//       CHECK:       vector.transfer_write %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true]} : vector<4xi32>, memref<40x40xi32>
//   CHECK-NOT:   vector.contract
//   CHECK-NOT:   linalg.matmul
func.func @mma_sync_i8_edges(%a: tensor<40x20xi8>, %b: tensor<20x40xi8>, %c: tensor<40x40xi32>) -> tensor<40x40xi32> {
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 32]]>,
      translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], pipeline_depth = 1>>}
    ins(%a, %b : tensor<40x20xi8>, tensor<20x40xi8>) outs(%c : tensor<40x40xi32>) -> tensor<40x40xi32>
  return %0 : tensor<40x40xi32>
}

// -----

/// A's rows of 39 f16 (78 bytes) are 2-byte aligned: cp.async, which needs
/// its 4, 8 or 16 bytes aligned to their size, would fault. Its copies stay
/// register-staged (a masked 8 x f16 read of global memory, stored whole
/// into workgroup memory), however the views of the distributed copy hide
/// the row pitch; B's rows of 40 f16 (80 bytes) take 16-byte async copies.
// CHECK-LABEL: func.func @mma_sync_odd_pitch
//       CHECK:   scf.for
//       CHECK:     %[[A:.+]] = vector.transfer_read %{{.+}}, %{{.+}} {in_bounds = [true]} : memref<40x39xf16>, vector<8xf16>
//       CHECK:     vector.store %[[A]], %{{.+}} : memref<32x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
//       CHECK:     nvgpu.device_async_copy %{{.+}}, %{{.+}}, 8, %{{.+}} {bypassL1} : memref<39x40xf16> to memref<32x32xf16, #gpu.address_space<workgroup>>
//   CHECK-NOT:     nvgpu.device_async_copy {{.+}} : memref<40x39xf16>
//       CHECK:     nvgpu.mma.sync
func.func @mma_sync_odd_pitch(%a: tensor<40x39xf16>, %b: tensor<39x40xf16>, %c: tensor<40x40xf32>) -> tensor<40x40xf32> {
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 32]]>,
      translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], pipeline_depth = 1>>}
    ins(%a, %b : tensor<40x39xf16>, tensor<39x40xf16>) outs(%c : tensor<40x40xf32>) -> tensor<40x40xf32>
  return %0 : tensor<40x40xf32>
}
