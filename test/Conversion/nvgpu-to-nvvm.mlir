// RUN: gpucg-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(gpucg-convert-nvgpu-to-nvvm)' \
// RUN:   | FileCheck %s
// The output parses and verifies again.
// RUN: gpucg-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(gpucg-convert-nvgpu-to-nvvm)' \
// RUN:   | gpucg-opt -split-input-file | FileCheck %s

/// bf16 m16n8k16 (upstream rejects bf16): each vector<2xbf16> row of A and B
/// is one i32 register, C goes in as 4 f32, the struct of 4 f32 comes back
/// as vector<2xf32> rows.
// CHECK-LABEL: func.func @mma_sync_bf16_m16n8k16
//       CHECK:   %[[A:.+]] = builtin.unrealized_conversion_cast %{{.+}} : vector<4x2xbf16> to !llvm.array<4 x vector<2xbf16>>
//       CHECK:   %[[A0:.+]] = llvm.extractvalue %[[A]][0] : !llvm.array<4 x vector<2xbf16>>
//       CHECK:   %[[A0I:.+]] = llvm.bitcast %[[A0]] : vector<2xbf16> to i32
//       CHECK:   %[[A3:.+]] = llvm.extractvalue %[[A]][3] : !llvm.array<4 x vector<2xbf16>>
//       CHECK:   %[[A3I:.+]] = llvm.bitcast %[[A3]] : vector<2xbf16> to i32
//       CHECK:   %[[B1:.+]] = llvm.extractvalue %{{.+}}[1] : !llvm.array<2 x vector<2xbf16>>
//       CHECK:   %[[B1I:.+]] = llvm.bitcast %[[B1]] : vector<2xbf16> to i32
//       CHECK:   %[[C0:.+]] = llvm.extractelement %{{.+}}[%{{.+}} : i32] : vector<2xf32>
//       CHECK:   %[[D:.+]] = nvvm.mma.sync A[%[[A0I]], %{{.+}}, %{{.+}}, %[[A3I]]] B[%{{.+}}, %[[B1I]]] C[%[[C0]], %{{.+}}, %{{.+}}, %{{.+}}]
//  CHECK-SAME:     layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>
//  CHECK-SAME:     multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>
//  CHECK-SAME:     shape = #nvvm.shape<m = 16, n = 8, k = 16>
//  CHECK-SAME:     : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
//       CHECK:   llvm.extractvalue %[[D]][0] : !llvm.struct<(f32, f32, f32, f32)>
//       CHECK:   llvm.extractvalue %[[D]][3] : !llvm.struct<(f32, f32, f32, f32)>
//       CHECK:   %[[R:.+]] = llvm.insertvalue %{{.+}}, %{{.+}}[1] : !llvm.array<2 x vector<2xf32>>
//       CHECK:   builtin.unrealized_conversion_cast %[[R]] : !llvm.array<2 x vector<2xf32>> to vector<2x2xf32>
//   CHECK-NOT:   nvgpu.
func.func @mma_sync_bf16_m16n8k16(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

/// bf16 m16n8k8: 2 registers of A, 1 of B.
// CHECK-LABEL: func.func @mma_sync_bf16_m16n8k8
//       CHECK:   llvm.bitcast %{{.+}} : vector<2xbf16> to i32
//       CHECK:   nvvm.mma.sync A[%{{.+}}, %{{.+}}] B[%{{.+}}] C[%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}]
//  CHECK-SAME:     multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>
//  CHECK-SAME:     shape = #nvvm.shape<m = 16, n = 8, k = 8>
//  CHECK-SAME:     : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
//   CHECK-NOT:   nvgpu.
func.func @mma_sync_bf16_m16n8k8(%a: vector<2x2xbf16>, %b: vector<1x2xbf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 8]} : (vector<2x2xbf16>, vector<1x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

/// tf32 m16n8k4 is upstream's: f32 rows of one element go in as i32.
// CHECK-LABEL: func.func @mma_sync_tf32_m16n8k4
//       CHECK:   llvm.bitcast %{{.+}} : vector<1xf32> to i32
//       CHECK:   nvvm.mma.sync A[%{{.+}}, %{{.+}}] B[%{{.+}}] C[%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}]
//  CHECK-SAME:     multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>
//  CHECK-SAME:     shape = #nvvm.shape<m = 16, n = 8, k = 4>
//  CHECK-SAME:     : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
//   CHECK-NOT:   nvgpu.
func.func @mma_sync_tf32_m16n8k4(%a: vector<2x1xf32>, %b: vector<1x1xf32>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 4], tf32Enabled} : (vector<2x1xf32>, vector<1x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

/// tf32 m16n8k8 is upstream's.
// CHECK-LABEL: func.func @mma_sync_tf32_m16n8k8
//       CHECK:   nvvm.mma.sync A[%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}] B[%{{.+}}, %{{.+}}] C[%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}]
//  CHECK-SAME:     multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>
//  CHECK-SAME:     shape = #nvvm.shape<m = 16, n = 8, k = 8>
//  CHECK-SAME:     : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
func.func @mma_sync_tf32_m16n8k8(%a: vector<4x1xf32>, %b: vector<2x1xf32>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

/// f16 -> f16 is upstream's and unchanged: vector<2xf16> operands, no
/// bitcast to i32.
// CHECK-LABEL: func.func @mma_sync_f16_f16
//   CHECK-NOT:   llvm.bitcast
//       CHECK:   nvvm.mma.sync A[%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}] B[%{{.+}}, %{{.+}}] C[%{{.+}}, %{{.+}}]
//  CHECK-SAME:     shape = #nvvm.shape<m = 16, n = 8, k = 16>
//  CHECK-SAME:     : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
func.func @mma_sync_f16_f16(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf16>) -> vector<2x2xf16> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
  return %d : vector<2x2xf16>
}

// -----

/// f16 -> f32 is upstream's.
// CHECK-LABEL: func.func @mma_sync_f16_f32
//       CHECK:   nvvm.mma.sync A[%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}] B[%{{.+}}, %{{.+}}] C[%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}]
//  CHECK-SAME:     shape = #nvvm.shape<m = 16, n = 8, k = 16>
//  CHECK-SAME:     : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
func.func @mma_sync_f16_f32(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

/// i8 is upstream's (s8, satfinite).
// CHECK-LABEL: func.func @mma_sync_i8
//       CHECK:   nvvm.mma.sync
//  CHECK-SAME:     intOverflowBehavior = #nvvm.mma_int_overflow<satfinite>
//  CHECK-SAME:     multiplicandAPtxType = #nvvm.mma_type<s8>, multiplicandBPtxType = #nvvm.mma_type<s8>
//  CHECK-SAME:     shape = #nvvm.shape<m = 16, n = 8, k = 32>
//  CHECK-SAME:     : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
func.func @mma_sync_i8(%a: vector<4x4xi8>, %b: vector<2x4xi8>, %c: vector<2x2xi32>) -> vector<2x2xi32> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 32]} : (vector<4x4xi8>, vector<2x4xi8>, vector<2x2xi32>) -> vector<2x2xi32>
  return %d : vector<2x2xi32>
}

// -----

/// f64 m8n8k4 is upstream's.
// CHECK-LABEL: func.func @mma_sync_f64
//       CHECK:   nvvm.mma.sync A[%{{.+}}] B[%{{.+}}] C[%{{.+}}, %{{.+}}]
//  CHECK-SAME:     shape = #nvvm.shape<m = 8, n = 8, k = 4>
//  CHECK-SAME:     : (f64, f64, f64) -> !llvm.struct<(f64, f64)>
func.func @mma_sync_f64(%a: vector<1x1xf64>, %b: vector<1x1xf64>, %c: vector<1x2xf64>) -> vector<1x2xf64> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [8, 8, 4]} : (vector<1x1xf64>, vector<1x1xf64>, vector<1x2xf64>) -> vector<1x2xf64>
  return %d : vector<1x2xf64>
}

// -----

/// ldmatrix of bf16 is upstream's (b16 elements, as f16): the i32 registers
/// are bitcast back to vector<2xbf16>.
// CHECK-LABEL: func.func @ldmatrix_bf16_transposed
//       CHECK:   %[[L:.+]] = nvvm.ldmatrix %{{.+}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 2 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
//       CHECK:   %[[L0:.+]] = llvm.extractvalue %[[L]][0] : !llvm.struct<(i32, i32)>
//       CHECK:   llvm.bitcast %[[L0]] : i32 to vector<2xbf16>
//   CHECK-NOT:   nvgpu.
func.func @ldmatrix_bf16_transposed(%m: memref<64x64xbf16, 3>, %i: index) -> vector<2x2xbf16> {
  %r = nvgpu.ldmatrix %m[%i, %i] {numTiles = 2 : i32, transpose = true} : memref<64x64xbf16, 3> -> vector<2x2xbf16>
  return %r : vector<2x2xbf16>
}

// -----

/// Tensor maps of 8-bit floats and of signless 8- and 16-bit integers, which
/// upstream has no CUtensorMapDataType for (its release build encodes them
/// as BFLOAT16, 2-byte elements): unsigned integers of their width, UINT8
/// (0) and UINT16 (1), as the kernel ABI's runtime encodes them. The other
/// arguments are upstream's: rank and descriptor, interleave none (0),
/// swizzle 128b (3), L2 promotion none (0), OOB zero (0), the box on the
/// stack.
// CHECK-LABEL: func.func @tensor_map_e4m3
//       CHECK:   %[[RANK:.+]] = llvm.extractvalue %{{.+}}[0] : !llvm.struct<(i64, ptr)>
//       CHECK:   %[[DESC:.+]] = llvm.extractvalue %{{.+}}[1] : !llvm.struct<(i64, ptr)>
//       CHECK:   %[[BOX:.+]] = llvm.alloca %{{.+}} x i64
//       CHECK:   llvm.store %{{.+}}, %{{.+}} : i64, !llvm.ptr
//       CHECK:   %[[TYPE:.+]] = llvm.mlir.constant(0 : i64) : i64
//       CHECK:   %[[SWIZZLE:.+]] = llvm.mlir.constant(3 : i64) : i64
//       CHECK:   llvm.call @mgpuTensorMapEncodeTiledMemref(%[[RANK]], %[[DESC]], %[[TYPE]], %{{.+}}, %[[SWIZZLE]], %{{.+}}, %{{.+}}, %[[BOX]])
// CHECK-LABEL: func.func @tensor_map_e5m2
//       CHECK:   %[[TYPE:.+]] = llvm.mlir.constant(0 : i64) : i64
//       CHECK:   llvm.call @mgpuTensorMapEncodeTiledMemref(%{{.+}}, %{{.+}}, %[[TYPE]],
/// Any 8-bit float, not only wgmma's two.
// CHECK-LABEL: func.func @tensor_map_e4m3fnuz
//       CHECK:   %[[TYPE:.+]] = llvm.mlir.constant(0 : i64) : i64
//       CHECK:   llvm.call @mgpuTensorMapEncodeTiledMemref(%{{.+}}, %{{.+}}, %[[TYPE]],
// CHECK-LABEL: func.func @tensor_map_i8
//       CHECK:   %[[TYPE:.+]] = llvm.mlir.constant(0 : i64) : i64
//       CHECK:   llvm.call @mgpuTensorMapEncodeTiledMemref(%{{.+}}, %{{.+}}, %[[TYPE]],
// CHECK-LABEL: func.func @tensor_map_i16
//       CHECK:   %[[TYPE:.+]] = llvm.mlir.constant(1 : i64) : i64
//       CHECK:   llvm.call @mgpuTensorMapEncodeTiledMemref(%{{.+}}, %{{.+}}, %[[TYPE]],
/// f16 is upstream's: FLOAT16 (6).
// CHECK-LABEL: func.func @tensor_map_f16
//       CHECK:   %[[TYPE:.+]] = llvm.mlir.constant(6 : i32) : i64
//       CHECK:   llvm.call @mgpuTensorMapEncodeTiledMemref(%{{.+}}, %{{.+}}, %[[TYPE]],
func.func @tensor_map_e4m3(%t: memref<128x256xf8E4M3FN>) -> !nvgpu.tensormap.descriptor<tensor = memref<64x128xf8E4M3FN, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> {
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %u = memref.cast %t : memref<128x256xf8E4M3FN> to memref<*xf8E4M3FN>
  %m = nvgpu.tma.create.descriptor %u box[%c64, %c128] : memref<*xf8E4M3FN> -> !nvgpu.tensormap.descriptor<tensor = memref<64x128xf8E4M3FN, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  return %m : !nvgpu.tensormap.descriptor<tensor = memref<64x128xf8E4M3FN, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
}
func.func @tensor_map_e5m2(%t: memref<128x256xf8E5M2>) -> !nvgpu.tensormap.descriptor<tensor = memref<64x128xf8E5M2, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> {
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %u = memref.cast %t : memref<128x256xf8E5M2> to memref<*xf8E5M2>
  %m = nvgpu.tma.create.descriptor %u box[%c64, %c128] : memref<*xf8E5M2> -> !nvgpu.tensormap.descriptor<tensor = memref<64x128xf8E5M2, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  return %m : !nvgpu.tensormap.descriptor<tensor = memref<64x128xf8E5M2, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
}
func.func @tensor_map_e4m3fnuz(%t: memref<128x256xf8E4M3FNUZ>) -> !nvgpu.tensormap.descriptor<tensor = memref<64x128xf8E4M3FNUZ, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> {
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %u = memref.cast %t : memref<128x256xf8E4M3FNUZ> to memref<*xf8E4M3FNUZ>
  %m = nvgpu.tma.create.descriptor %u box[%c64, %c128] : memref<*xf8E4M3FNUZ> -> !nvgpu.tensormap.descriptor<tensor = memref<64x128xf8E4M3FNUZ, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  return %m : !nvgpu.tensormap.descriptor<tensor = memref<64x128xf8E4M3FNUZ, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
}
func.func @tensor_map_i8(%t: memref<128x256xi8>) -> !nvgpu.tensormap.descriptor<tensor = memref<64x128xi8, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> {
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %u = memref.cast %t : memref<128x256xi8> to memref<*xi8>
  %m = nvgpu.tma.create.descriptor %u box[%c64, %c128] : memref<*xi8> -> !nvgpu.tensormap.descriptor<tensor = memref<64x128xi8, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  return %m : !nvgpu.tensormap.descriptor<tensor = memref<64x128xi8, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
}
func.func @tensor_map_i16(%t: memref<128x256xi16>) -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xi16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> {
  %c64 = arith.constant 64 : index
  %u = memref.cast %t : memref<128x256xi16> to memref<*xi16>
  %m = nvgpu.tma.create.descriptor %u box[%c64, %c64] : memref<*xi16> -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xi16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  return %m : !nvgpu.tensormap.descriptor<tensor = memref<64x64xi16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
}
func.func @tensor_map_f16(%t: memref<128x256xf16>) -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> {
  %c64 = arith.constant 64 : index
  %u = memref.cast %t : memref<128x256xf16> to memref<*xf16>
  %m = nvgpu.tma.create.descriptor %u box[%c64, %c64] : memref<*xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  return %m : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
}
