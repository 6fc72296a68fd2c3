// Tensor-core tiles and pipeline depth per chip: the workgroup tile, its
// warps, the K tile and the number of cp.async stages, for large and small
// problems (docs/passes/select-lowering-strategy.md, "Tensor-core tiles").

// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=SM80
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_90},func.func(gpucg-select-lowering-strategy))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=SM90
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_86},func.func(gpucg-select-lowering-strategy))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=SM86
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_75},func.func(gpucg-select-lowering-strategy))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=SM75

/// A large f16 -> f32 matmul. sm_80: 128x128x32 on 2x2 warps of 64x64
/// (about 248 registers per thread: two workgroups per SM), 4 stages of
/// 8 + 8 KB of A and B, into which the 64 KB C staging tile fits. sm_90: the
/// same (128x256 on 4x2 warps ran slower on an H100). sm_86: the sm_80 tile;
/// its 64 KB C tile keeps it at one workgroup per SM whatever the depth, so
/// 4 stages. sm_75: no cp.async (depth 1), and the 128x128 f32 C tile (66 KB
/// with WMMA's row padding) exceeds its 64 KB: 64x64.
// SM80-LABEL: func.func @matmul_f16_4096
//  SM80-SAME:   pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = mma_sync
//       SM80:   tile_sizes = {{\[}}[128, 128, 32], [64, 64, 0], [16, 8, 16]]
// SM90-LABEL: func.func @matmul_f16_4096
//  SM90-SAME:   pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = mma_sync
//       SM90:   tile_sizes = {{\[}}[128, 128, 32], [64, 64, 0], [16, 8, 16]]
// SM86-LABEL: func.func @matmul_f16_4096
//  SM86-SAME:   pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = mma_sync
//       SM86:   tile_sizes = {{\[}}[128, 128, 32], [64, 64, 0], [16, 8, 16]]
// SM75-LABEL: func.func @matmul_f16_4096
//  SM75-SAME:   pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], subgroup_size = 32, mma_kind = wmma
//       SM75:   tile_sizes = {{\[}}[64, 64, 32], [32, 32, 0], [16, 16, 16]]
func.func @matmul_f16_4096(%a: tensor<4096x4096xf16>, %b: tensor<4096x4096xf16>, %c: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4096x4096xf16>, tensor<4096x4096xf16>) outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}

/// bf16 takes mma.sync (m16n8k16) like f16, with the same tiles; sm_75 has
/// no bf16 tensor cores: the SIMT matmul.
// SM80-LABEL: func.func @matmul_bf16_4096
//  SM80-SAME:   pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = mma_sync
//       SM80:   tile_sizes = {{\[}}[128, 128, 32], [64, 64, 0], [16, 8, 16]]
// SM90-LABEL: func.func @matmul_bf16_4096
//  SM90-SAME:   pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = mma_sync
//       SM90:   tile_sizes = {{\[}}[128, 128, 32], [64, 64, 0], [16, 8, 16]]
// SM75-LABEL: func.func @matmul_bf16_4096
//  SM75-SAME:   pipeline = MatmulSimt
func.func @matmul_bf16_4096(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>, %c: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4096x4096xbf16>, tensor<4096x4096xbf16>) outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}

/// f16 accumulation halves the C staging tile (32 KB for 128x128): on sm_86
/// two workgroups then share the SM's 99 KB at 3 stages (2 x 48 KB), which
/// gpucg prefers to one workgroup at 4.
// SM80-LABEL: func.func @matmul_f16_acc_4096
//  SM80-SAME:   pipeline_depth = 4
//       SM80:   tile_sizes = {{\[}}[128, 128, 32], [64, 64, 0], [16, 8, 16]]
// SM86-LABEL: func.func @matmul_f16_acc_4096
//  SM86-SAME:   pipeline_depth = 3
//       SM86:   tile_sizes = {{\[}}[128, 128, 32], [64, 64, 0], [16, 8, 16]]
func.func @matmul_f16_acc_4096(%a: tensor<4096x4096xf16>, %b: tensor<4096x4096xf16>, %c: tensor<4096x4096xf16>) -> tensor<4096x4096xf16> {
  %0 = linalg.matmul ins(%a, %b : tensor<4096x4096xf16>, tensor<4096x4096xf16>) outs(%c : tensor<4096x4096xf16>) -> tensor<4096x4096xf16>
  return %0 : tensor<4096x4096xf16>
}

/// bf16 batch matmul: the batch loop is tiled by 1; 8 x 8 x 8 = 512
/// workgroups of 128x128.
// SM80-LABEL: func.func @batch_matmul_bf16
//  SM80-SAME:   pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = mma_sync
//       SM80:   tile_sizes = {{\[}}[1, 128, 128, 32], [1, 64, 64, 0], [0, 16, 8, 16]]
func.func @batch_matmul_bf16(%a: tensor<8x1024x1024xbf16>, %b: tensor<8x1024x1024xbf16>, %c: tensor<8x1024x1024xf32>) -> tensor<8x1024x1024xf32> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<8x1024x1024xbf16>, tensor<8x1024x1024xbf16>) outs(%c : tensor<8x1024x1024xf32>) -> tensor<8x1024x1024xf32>
  return %0 : tensor<8x1024x1024xf32>
}

/// bf16 with B transposed (N x K): the same tiles as with B as K x N.
// SM80-LABEL: func.func @matmul_transpose_b_bf16_2048
//  SM80-SAME:   pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = mma_sync
//       SM80:   tile_sizes = {{\[}}[128, 128, 32], [64, 64, 0], [16, 8, 16]]
// SM90-LABEL: func.func @matmul_transpose_b_bf16_2048
//  SM90-SAME:   pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = mma_sync
//       SM90:   tile_sizes = {{\[}}[128, 128, 32], [64, 64, 0], [16, 8, 16]]
func.func @matmul_transpose_b_bf16_2048(%a: tensor<2048x2048xbf16>, %b: tensor<2048x2048xbf16>, %c: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %0 : tensor<2048x2048xf32>
}

/// A small problem: 64x64 tiles would make 16 workgroups, 32x32 make 64 (the
/// most any candidate makes); K = 64 is two K steps, so depth 2.
// SM80-LABEL: func.func @matmul_f16_256x256x64
//  SM80-SAME:   pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync
//       SM80:   tile_sizes = {{\[}}[32, 32, 32], [16, 16, 0], [16, 8, 16]]
// SM90-LABEL: func.func @matmul_f16_256x256x64
//  SM90-SAME:   pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync
//       SM90:   tile_sizes = {{\[}}[32, 32, 32], [16, 16, 0], [16, 8, 16]]
func.func @matmul_f16_256x256x64(%a: tensor<256x64xf16>, %b: tensor<64x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<256x64xf16>, tensor<64x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

/// 1024^3: 128x128 tiles make 64 workgroups, fewer than the SMs; 64x64 make
/// 256. On sm_75 (40 SMs) 128x128 would make enough, but its f32 C staging
/// tile does not fit there.
// SM75-LABEL: func.func @matmul_f16_1024
//  SM75-SAME:   pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], subgroup_size = 32, mma_kind = wmma
//       SM75:   tile_sizes = {{\[}}[64, 64, 32], [32, 32, 0], [16, 16, 16]]
// SM80-LABEL: func.func @matmul_f16_1024
//  SM80-SAME:   pipeline_depth = 4
//       SM80:   tile_sizes = {{\[}}[64, 64, 32], [32, 32, 0], [16, 8, 16]]
// SM90-LABEL: func.func @matmul_f16_1024
//  SM90-SAME:   pipeline_depth = 4
//       SM90:   tile_sizes = {{\[}}[64, 64, 32], [32, 32, 0], [16, 8, 16]]
func.func @matmul_f16_1024(%a: tensor<1024x1024xf16>, %b: tensor<1024x1024xf16>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<1024x1024xf16>, tensor<1024x1024xf16>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

/// Unaligned M and N (4000): 128x128 tiles leave 5% of the grid's work to
/// padding, within the 1/8 allowed; workgroup specialization splits off the
/// partial tiles.
// SM80-LABEL: func.func @matmul_f16_unaligned_4000
//  SM80-SAME:   pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = mma_sync
//       SM80:   tile_sizes = {{\[}}[128, 128, 32], [64, 64, 0], [16, 8, 16]]
// SM90-LABEL: func.func @matmul_f16_unaligned_4000
//  SM90-SAME:   pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 3, mma_kind = mma_sync
//       SM90:   tile_sizes = {{\[}}[128, 128, 32], [64, 64, 0], [16, 8, 16]]
func.func @matmul_f16_unaligned_4000(%a: tensor<4000x4096xf16>, %b: tensor<4096x4000xf16>, %c: tensor<4000x4000xf32>) -> tensor<4000x4000xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4000x4096xf16>, tensor<4096x4000xf16>) outs(%c : tensor<4000x4000xf32>) -> tensor<4000x4000xf32>
  return %0 : tensor<4000x4000xf32>
}

/// Unaligned 1000x1000: 128x128 tiles make too few workgroups; 64x64 pad
/// 5% of the work.
// SM80-LABEL: func.func @matmul_f16_unaligned_1000
//       SM80:   tile_sizes = {{\[}}[64, 64, 32], [32, 32, 0], [16, 8, 16]]
func.func @matmul_f16_unaligned_1000(%a: tensor<1000x1024xf16>, %b: tensor<1024x1000xf16>, %c: tensor<1000x1000xf32>) -> tensor<1000x1000xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<1000x1024xf16>, tensor<1024x1000xf16>) outs(%c : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  return %0 : tensor<1000x1000xf32>
}

/// Unaligned and small (200x200): every candidate pads more than 1/8, so
/// 32x32 with partial tiles.
// SM80-LABEL: func.func @matmul_f16_unaligned_200
//       SM80:   tile_sizes = {{\[}}[32, 32, 32], [16, 16, 0], [16, 8, 16]]
func.func @matmul_f16_unaligned_200(%a: tensor<200x256xf16>, %b: tensor<256x200xf16>, %c: tensor<200x200xf32>) -> tensor<200x200xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<200x256xf16>, tensor<256x200xf16>) outs(%c : tensor<200x200xf32>) -> tensor<200x200xf32>
  return %0 : tensor<200x200xf32>
}

/// f32 operands run as TF32 on WMMA (16x16x8), K tile 16 (64 bytes), with
/// the same workgroup tiles; rows padded by 16 bytes.
// SM80-LABEL: func.func @matmul_tf32_4096
//  SM80-SAME:   pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = wmma
//       SM80:   tile_sizes = {{\[}}[128, 128, 16], [64, 64, 0], [16, 16, 8]]
// SM90-LABEL: func.func @matmul_tf32_4096
//  SM90-SAME:   pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = wmma
//       SM90:   tile_sizes = {{\[}}[128, 128, 16], [64, 64, 0], [16, 16, 8]]
func.func @matmul_tf32_4096(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>, %c: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32>) outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}

/// The same with partial tiles in M and N: workgroup specialization gives
/// them a path with its own operand buffers, which the full path's C staging
/// buffer does not overlap, so both count against sm_90's 232448 bytes. (With
/// 128x256 tiles, four stages, 4 x 26880 + 133120 = 240640 bytes, used to be
/// picked and then refused by gpucg-build-gpu-launch.) 128x128 tiles: four
/// stages of 4 x 17920 bytes and the 66560-byte C staging buffer fit.
// SM90-LABEL: func.func @matmul_tf32_unaligned
//  SM90-SAME:   pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = wmma
//       SM90:   tile_sizes = {{\[}}[128, 128, 16], [64, 64, 0], [16, 16, 8]]
func.func @matmul_tf32_unaligned(%a: tensor<4095x4096xf32>, %b: tensor<4096x4097xf32>, %c: tensor<4095x4097xf32>) -> tensor<4095x4097xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4095x4096xf32>, tensor<4096x4097xf32>) outs(%c : tensor<4095x4097xf32>) -> tensor<4095x4097xf32>
  return %0 : tensor<4095x4097xf32>
}
