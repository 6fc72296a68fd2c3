// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=SM80
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_75},func.func(gpucg-select-lowering-strategy))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=SM75
// Running the pass again keeps (and re-verifies) its own decisions.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy, gpucg-select-lowering-strategy))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=SM80

/// f16 matmul: mma.sync on sm_80 (m16n8k16, deepest K), WMMA on sm_75.
/// sm_80: 64x64 tiles would give 64 workgroups for 108 SMs, 32x32 give 256;
/// 4 stages (one per K step of 32). sm_75 (40 SMs): 64x64, no cp.async.
// SM80-LABEL: func.func @matmul_f16_512x512x128
//  SM80-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = mma_sync>
//       SM80:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[32, 32, 32], [16, 16, 0], [16, 8, 16]]>
// SM75-LABEL: func.func @matmul_f16_512x512x128
//  SM75-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], subgroup_size = 32, mma_kind = wmma>
//       SM75:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[64, 64, 32], [32, 32, 0], [16, 16, 16]]>
func.func @matmul_f16_512x512x128(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

/// A large matmul takes 128x128 over 2x2 warps (64x64 warp tiles); on
/// sm_80 4 stages of 16 KB in the opt-in shared memory (more tiles and chips:
/// select-lowering-strategy-tensor-core.mlir). f16 accumulation.
// SM80-LABEL: func.func @matmul_f16_4096
//  SM80-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = mma_sync>
//       SM80:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[128, 128, 32], [64, 64, 0], [16, 8, 16]]>
// SM75-LABEL: func.func @matmul_f16_4096
//  SM75-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], subgroup_size = 32, mma_kind = wmma>
//       SM75:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[128, 128, 32], [64, 64, 0], [16, 16, 16]]>
func.func @matmul_f16_4096(%a: tensor<4096x4096xf16>, %b: tensor<4096x4096xf16>, %c: tensor<4096x4096xf16>) -> tensor<4096x4096xf16> {
  %0 = linalg.matmul ins(%a, %b : tensor<4096x4096xf16>, tensor<4096x4096xf16>) outs(%c : tensor<4096x4096xf16>) -> tensor<4096x4096xf16>
  return %0 : tensor<4096x4096xf16>
}

/// f32 runs as TF32 on WMMA (16x16x8) on sm_80: MLIR 22 converts TF32 only
/// for WMMA; sm_75 has no TF32, so SIMT.
// SM80-LABEL: func.func @matmul_f32_1024
//  SM80-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = wmma>
//       SM80:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[64, 64, 16], [32, 32, 0], [16, 16, 8]]>
// SM75-LABEL: func.func @matmul_f32_1024
//  SM75-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulSimt, workgroup_size = [32, 8, 1]>
//       SM75:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[32, 128, 32], [4, 4, 0]]>
func.func @matmul_f32_1024(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

/// f32 with M = 8, too few rows for a tensor-core workgroup tile: the SIMT
/// matmul, 8x32 tiles on 8x8 threads. On sm_80 its A and B tiles (1 KB and
/// 4 KB per K step of 32) are copied with cp.async two stages deep (both fit
/// the static 48 KB); sm_75 has no cp.async.
// SM80-LABEL: func.func @matmul_f32_thin
//  SM80-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulSimt, workgroup_size = [8, 8, 1], pipeline_depth = 2>
//       SM80:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[8, 32, 32], [1, 4, 0]]>
// SM75-LABEL: func.func @matmul_f32_thin
//  SM75-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulSimt, workgroup_size = [8, 8, 1]>
func.func @matmul_f32_thin(%a: tensor<8x256xf32>, %b: tensor<256x256xf32>, %c: tensor<8x256xf32>) -> tensor<8x256xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<8x256xf32>, tensor<256x256xf32>) outs(%c : tensor<8x256xf32>) -> tensor<8x256xf32>
  return %0 : tensor<8x256xf32>
}

/// bf16: mma.sync (m16n8k16) on sm_80, like f16; sm_75 has no bf16 tensor
/// cores (and WMMA lowers no bf16), so the SIMT matmul.
// SM80-LABEL: func.func @matmul_bf16
//  SM80-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync>
//       SM80:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[32, 32, 32], [16, 16, 0], [16, 8, 16]]>
// SM75-LABEL: func.func @matmul_bf16
//  SM75-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulSimt, workgroup_size = [32, 8, 1]>
//       SM75:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[32, 128, 32], [4, 4, 0]]>
func.func @matmul_bf16(%a: tensor<256x64xbf16>, %b: tensor<64x256xbf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<256x64xbf16>, tensor<64x256xbf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

/// i8 x i8 -> i32: m16n8k32 mma.sync; K tile 64 (64 bytes of A per row).
// SM80-LABEL: func.func @matmul_i8
//  SM80-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = mma_sync>
//       SM80:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[32, 32, 64], [16, 16, 0], [16, 8, 32]]>
// SM75-LABEL: func.func @matmul_i8
//  SM75-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, mma_kind = mma_sync>
//       SM75:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[32, 32, 64], [16, 16, 0], [8, 8, 16]]>
func.func @matmul_i8(%a: tensor<256x256xi8>, %b: tensor<256x256xi8>, %c: tensor<256x256xi32>) -> tensor<256x256xi32> {
  %0 = linalg.matmul ins(%a, %b : tensor<256x256xi8>, tensor<256x256xi8>) outs(%c : tensor<256x256xi32>) -> tensor<256x256xi32>
  return %0 : tensor<256x256xi32>
}

/// M = 37 and N = 33 do not divide any tile: 32x32 tiles, partial ones for
/// workgroup specialization; K = 16 is one whole K tile.
// SM80-LABEL: func.func @matmul_unaligned
//  SM80-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, mma_kind = mma_sync>
//       SM80:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[32, 32, 16], [16, 16, 0], [16, 8, 16]]>
// SM75-LABEL: func.func @matmul_unaligned
//  SM75-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], subgroup_size = 32, mma_kind = wmma>
//       SM75:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[32, 32, 16], [16, 16, 0], [16, 16, 16]]>
func.func @matmul_unaligned(%a: tensor<37x16xf16>, %b: tensor<16x33xf16>, %c: tensor<37x33xf32>) -> tensor<37x33xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<37x16xf16>, tensor<16x33xf16>) outs(%c : tensor<37x33xf32>) -> tensor<37x33xf32>
  return %0 : tensor<37x33xf32>
}

/// K = 17 is no multiple of any K tile: the smallest tile (a multiple of the
/// instruction's K) that holds it, 32, one zero-padded step (no pipeline).
// SM80-LABEL: func.func @matmul_k17
//  SM80-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, mma_kind = mma_sync>
//       SM80:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[32, 32, 32], [16, 16, 0], [16, 8, 16]]>
// SM75-LABEL: func.func @matmul_k17
//  SM75-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], subgroup_size = 32, mma_kind = wmma>
//       SM75:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[32, 32, 32], [16, 16, 0], [16, 16, 16]]>
func.func @matmul_k17(%a: tensor<64x17xf16>, %b: tensor<17x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x17xf16>, tensor<17x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

/// K = 40 spans two K tiles of 32 (64 bytes of f16), the second 8 long and
/// zero-padded: a two-stage pipeline over both steps.
// SM80-LABEL: func.func @matmul_k40
//  SM80-SAME:   pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync
//       SM80:   tile_sizes = {{\[}}[32, 32, 32], [16, 16, 0], [16, 8, 16]]
func.func @matmul_k40(%a: tensor<64x40xf16>, %b: tensor<40x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x40xf16>, tensor<40x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

/// Dynamic shapes run on the tensor cores, planned as if each dynamic size
/// were 1024 (64 x 64 tiles, a 64-byte K tile, 4 stages): partial tiles and
/// a K tail are zero-padded whatever the sizes turn out to be. f32 is TF32
/// on WMMA; sm_75 has no TF32, and f32 stays SimtDistribute there.
// SM80-LABEL: func.func @matmul_dyn
//  SM80-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = wmma>
//       SM80:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[64, 64, 16], [32, 32, 0], [16, 16, 8]]>
// SM75-LABEL: func.func @matmul_dyn
//  SM75-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [256, 1, 1]>
//       SM75:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[1, 256, 0], [1, 1, 0]]>
func.func @matmul_dyn(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// SM80-LABEL: func.func @matmul_dyn_f16
//  SM80-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = mma_sync>
//       SM80:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[64, 64, 32], [32, 32, 0], [16, 8, 16]]>
// SM75-LABEL: func.func @matmul_dyn_f16
//  SM75-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], subgroup_size = 32, mma_kind = wmma>
//       SM75:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[64, 64, 32], [32, 32, 0], [16, 16, 16]]>
func.func @matmul_dyn_f16(%a: tensor<?x?xf16>, %b: tensor<?x?xf16>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xf16>, tensor<?x?xf16>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

/// Batch matmul: batch loop tiled by 1 (one more grid dimension).
// SM80-LABEL: func.func @bmm
//  SM80-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync>
//       SM80:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[1, 32, 32, 32], [1, 16, 16, 0], [0, 16, 8, 16]]>
// SM75-LABEL: func.func @bmm
//  SM75-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], subgroup_size = 32, mma_kind = wmma>
//       SM75:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[1, 32, 32, 32], [1, 16, 16, 0], [0, 16, 16, 16]]>
func.func @bmm(%a: tensor<4x128x64xf16>, %b: tensor<4x64x256xf16>, %c: tensor<4x128x256xf32>) -> tensor<4x128x256xf32> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<4x128x64xf16>, tensor<4x64x256xf16>) outs(%c : tensor<4x128x256xf32>) -> tensor<4x128x256xf32>
  return %0 : tensor<4x128x256xf32>
}

/// Transposed B through indexing_maps is a contraction like any other.
// SM80-LABEL: func.func @matmul_tb
//  SM80-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync>
//       SM80:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[32, 32, 32], [16, 16, 0], [16, 8, 16]]>
// SM75-LABEL: func.func @matmul_tb
//  SM75-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], subgroup_size = 32, mma_kind = wmma>
//       SM75:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[32, 32, 32], [16, 16, 0], [16, 16, 16]]>
func.func @matmul_tb(%a: tensor<256x64xf16>, %b: tensor<512x64xf16>, %c: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<256x64xf16>, tensor<512x64xf16>) outs(%c : tensor<256x512xf32>) -> tensor<256x512xf32>
  return %0 : tensor<256x512xf32>
}

/// Rows of 32 f32 (128 bytes) divide into warps, but are shorter than one
/// 128-bit step of a whole warp (512 bytes): Vectorize, not WarpReduction.
// SM80-LABEL: func.func @rows_of_32
//  SM80-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = Vectorize, workgroup_size = [64, 1, 1]>
//       SM80:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[256, 4], [4, 0]]>
/// Rows of 128 f32 (512 bytes): one warp per row, 4 per lane.
// SM80-LABEL: func.func @rows_of_128
//  SM80-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1], subgroup_size = 32>
//       SM80:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[1, 128], [0, 4]]>
func.func @rows_of_32(%a: tensor<4096x32xf32>, %c: tensor<4096xf32>) -> tensor<4096xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4096x32xf32>) outs(%c : tensor<4096xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  } -> tensor<4096xf32>
  return %0 : tensor<4096xf32>
}
func.func @rows_of_128(%a: tensor<4096x128xf32>, %c: tensor<4096xf32>) -> tensor<4096xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4096x128xf32>) outs(%c : tensor<4096xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  } -> tensor<4096xf32>
  return %0 : tensor<4096xf32>
}

/// The seed row reduction: rows of 100 are too short for warp reduction, so
/// Vectorize: 256 rows per workgroup of 64 threads, 4 rows per thread, a
/// 128-bit K step (4 f32); 100000 % 256 leaves a partial tile.
// SM80-LABEL: func.func @rowsum
//  SM80-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = Vectorize, workgroup_size = [64, 1, 1]>
//       SM80:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[256, 4], [4, 0]]>
// SM75-LABEL: func.func @rowsum
//  SM75-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = Vectorize, workgroup_size = [64, 1, 1]>
//       SM75:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[256, 4], [4, 0]]>
func.func @rowsum(%a: tensor<100000x100xf32>, %b: tensor<100000x100xf32>, %c: tensor<100000xf32>) -> tensor<100000xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a, %b : tensor<100000x100xf32>, tensor<100000x100xf32>) outs(%c : tensor<100000xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.addf %s, %acc : f32
    linalg.yield %t : f32
  } -> tensor<100000xf32>
  return %0 : tensor<100000xf32>
}

/// Rows of 4096 f32: WarpReduction, 1024 threads x 4-wide vectors per row.
// SM80-LABEL: func.func @rowsum_wide
//  SM80-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [1024, 1, 1], subgroup_size = 32>
//       SM80:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[1, 4096], [0, 4]]>
// SM75-LABEL: func.func @rowsum_wide
//  SM75-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [1024, 1, 1], subgroup_size = 32>
//       SM75:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[1, 4096], [0, 4]]>
func.func @rowsum_wide(%a: tensor<512x4096xf32>, %c: tensor<512xf32>) -> tensor<512xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<512x4096xf32>) outs(%c : tensor<512xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  } -> tensor<512xf32>
  return %0 : tensor<512xf32>
}

/// Elementwise f32 with an inner size divisible by 4: Vectorize, 128 threads x 4.
// SM80-LABEL: func.func @add
//  SM80-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = Vectorize, workgroup_size = [128, 1, 1]>
//       SM80:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[1, 512], [1, 4]]>
// SM75-LABEL: func.func @add
//  SM75-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = Vectorize, workgroup_size = [128, 1, 1]>
//       SM75:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[1, 512], [1, 4]]>
func.func @add(%a: tensor<1024x1000xf32>, %b: tensor<1024x1000xf32>) -> tensor<1024x1000xf32> {
  %e = tensor.empty() : tensor<1024x1000xf32>
  %0 = linalg.add ins(%a, %b : tensor<1024x1000xf32>, tensor<1024x1000xf32>) outs(%e : tensor<1024x1000xf32>) -> tensor<1024x1000xf32>
  return %0 : tensor<1024x1000xf32>
}

/// Inner size 35 is no multiple of 8 f16: SimtDistribute; 64 threads cover 35.
// SM80-LABEL: func.func @add_odd
//  SM80-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [64, 1, 1]>
//       SM80:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[1, 64], [1, 1]]>
// SM75-LABEL: func.func @add_odd
//  SM75-SAME:   gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [64, 1, 1]>
//       SM75:   gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[1, 64], [1, 1]]>
func.func @add_odd(%a: tensor<33x35xf16>, %b: tensor<33x35xf16>) -> tensor<33x35xf16> {
  %e = tensor.empty() : tensor<33x35xf16>
  %0 = linalg.add ins(%a, %b : tensor<33x35xf16>, tensor<33x35xf16>) outs(%e : tensor<33x35xf16>) -> tensor<33x35xf16>
  return %0 : tensor<33x35xf16>
}

/// No linalg op: not a kernel, left alone.
// SM80-LABEL: func.func @notkernel
//   SM80-NOT:   gpucg.
// SM75-LABEL: func.func @notkernel
//   SM75-NOT:   gpucg.
func.func @notkernel(%a: index) -> index { return %a : index }
