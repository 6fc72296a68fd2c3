// gpucg-matmul-wgmma for A[k, m] times B[n, k] (C = (B * A)^T, the "tt"
// layout), on the CPU emulator. MLIR 22's nvgpu.warpgroup.mma takes an
// M-contiguous (transposed) A only with an N-contiguous B, so the tile is
// computed as C^T = B^T * A^T at any size (wgmma::computesTransposed):
// B[n, k] is wgmma's K-major A, in boxes of its tile's rows of N, and A[k,
// m] its N-major B, in boxes of 64 columns of M; the accumulator (C's
// columns by C's rows) is stored into a transposed view of the staging
// buffer, and each consumer warpgroup runs the epilogue on its 64 columns
// of C. Kernels: an f16 256 x 256 x 384 (a user's plan of 256 rows of C,
// wgmma's widest N, by 128 columns on two consumers, 3 stages; the
// strategy's own for 4096^3, select-lowering-strategy-wgmma), bf16 136 x
// 200 x 104 with a column bias and a ReLU on one warpgroup (a user's
// 128x64 plan: partial tiles and a K tail), and C += A * B with M = 16 (the
// strategy's plan: one 64-row tile of C, a box of A's 64 columns, the rows
// past M padding). In order, reversed with TMA data at the wait and wgmma
// at issue, on a persistent grid of one workgroup, and split into two
// parts of K (split-k=2). Small-integer inputs keep every sum exact: the
// results must equal the untiled kernels'.
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a})' -o %t.wgmma.mlir
// RUN: gpucg-opt %t.wgmma.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.mlir
// RUN: %mlir_runner_emulated %t.mlir | %strip_address > %t.forward
// RUN: diff %t.ref %t.forward
// RUN: env GPUCG_EMU_ORDER=reverse GPUCG_EMU_TMA=wait GPUCG_EMU_WGMMA=issue %mlir_runner_emulated %t.mlir | %strip_address > %t.modes
// RUN: diff %t.ref %t.modes
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-persistent=true wgmma-persistent-workgroups=1},gpucg-test-emulate-on-cpu)' -o %t.p1.mlir
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.p1.mlir | %strip_address > %t.p1
// RUN: diff %t.ref %t.p1
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a split-k=2},gpucg-test-emulate-on-cpu)' -o %t.split.mlir
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.split.mlir | %strip_address > %t.split
// RUN: diff %t.ref %t.split
//
// Mutations: each kernel's C^T fragment stored untransposed (a row-major
// view in place of the transposed one) gives wrong numbers.
// RUN: %mutate untranspose-store 1 < %t.wgmma.mlir > %t.m1.mlir
// RUN: gpucg-opt %t.m1.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m1
// RUN: not diff -q %t.ref %t.m1
// RUN: %mutate untranspose-store 2 < %t.wgmma.mlir > %t.m2.mlir
// RUN: gpucg-opt %t.m2.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m2
// RUN: not diff -q %t.ref %t.m2
// RUN: %mutate untranspose-store 3 < %t.wgmma.mlir > %t.m3.mlir
// RUN: gpucg-opt %t.m3.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m3
// RUN: not diff -q %t.ref %t.m3
//
// What ran (and that it parses again).
// RUN: gpucg-opt %t.wgmma.mlir | FileCheck %s
// CHECK-LABEL: func.func @tt_square
// CHECK-SAME: workgroup_size = [384, 1, 1]
// CHECK: nvgpu.tma.create.descriptor %{{.+}} box[%c128, %c64] : memref<*xf16> -> <tensor = memref<128x64xf16
// CHECK: nvgpu.tma.create.descriptor %{{.+}} box[%c64, %c64] : memref<*xf16> -> <tensor = memref<64x64xf16
// CHECK: scf.forall ({{.*}}) = (0, 0) to (256, 256) step (256, 128)
// CHECK: nvgpu.warpgroup.mma {{.*}} {transposeB} : <tensor = memref<64x64xf16, {{.*}}>>, <tensor = memref<64x256xf16, {{.*}}>>, <fragmented = vector<64x256xf32>>
// CHECK: memref.transpose %{{.+}} (d0, d1) -> (d1, d0) : memref<256x64xf32, strided<[136, 1]>, {{.*}}> to memref<64x256xf32, strided<[1, 136]>,
// CHECK-LABEL: func.func @tt_bias_relu
// CHECK-SAME: workgroup_size = [128, 1, 1]
// CHECK: <fragmented = vector<64x128xf32>>
// CHECK: arith.maximumf
// CHECK-LABEL: func.func @tt_accumulate
// CHECK-SAME: workgroup_size = [256, 1, 1]
// CHECK: scf.forall ({{.*}}) = (0, 0) to (16, 256) step (64, 64)
// CHECK: <fragmented = vector<64x64xf32>>

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @tt_square(%a: tensor<384x256xf16>, %b: tensor<256x384xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[256, 128, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 3>>}
      ins(%a, %b : tensor<384x256xf16>, tensor<256x384xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %r : tensor<256x256xf32>
  }
  // A user's 128x64 plan on one warpgroup: wgmma's 64 rows are C's 64
  // columns, its N the 128 rows; 136 x 200 leaves partial tiles both ways
  // and K = 104 a tail.
  func.func @tt_bias_relu(%a: tensor<104x136xbf16>, %b: tensor<200x104xbf16>, %bias: tensor<200xf32>, %out: tensor<136x200xf32>) -> tensor<136x200xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<136x200xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<136x200xf32>) -> tensor<136x200xf32>
    %m = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 64, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
      ins(%a, %b : tensor<104x136xbf16>, tensor<200x104xbf16>) outs(%f : tensor<136x200xf32>) -> tensor<136x200xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<136x200xf32>, tensor<200xf32>) outs(%out : tensor<136x200xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      %q = arith.maximumf %s, %zero : f32
      linalg.yield %q : f32
    } -> tensor<136x200xf32>
    return %r : tensor<136x200xf32>
  }
  // C += A * B, a decode step's 16 rows of A[k, m] (32 bytes apart).
  func.func @tt_accumulate(%a: tensor<128x16xf16>, %b: tensor<256x128xf16>, %c: tensor<16x256xf32>) -> tensor<16x256xf32> {
    %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<128x16xf16>, tensor<256x128xf16>) outs(%c : tensor<16x256xf32>) -> tensor<16x256xf32>
    return %r : tensor<16x256xf32>
  }
  func.func @main() {
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
    %tt_square_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7 + (d1 floordiv 7) mod 3 + (d0 floordiv 7) mod 2)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<384x256xf16>
    %tt_square_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5 + (d0 floordiv 5) mod 3 + (d0 floordiv 15) mod 2)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x384xf16>
    %tt_square_2 = tensor.empty() : tensor<256x256xf32>
    %tt_square_r = func.call @tt_square(%tt_square_0, %tt_square_1, %tt_square_2) : (tensor<384x256xf16>, tensor<256x384xf16>, tensor<256x256xf32>) -> tensor<256x256xf32>
    %tt_square_m = bufferization.to_buffer %tt_square_r : tensor<256x256xf32> to memref<256x256xf32>
    %tt_square_u = memref.cast %tt_square_m : memref<256x256xf32> to memref<*xf32>
    func.call @printMemrefF32(%tt_square_u) : (memref<*xf32>) -> ()
    %tt_bias_relu_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7 + (d1 floordiv 7) mod 3 + (d0 floordiv 7) mod 2)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<104x136xbf16>
    %tt_bias_relu_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5 + (d0 floordiv 5) mod 3 + (d0 floordiv 15) mod 2)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<200x104xbf16>
    %tt_bias_relu_2 = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> (d0 mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<200xf32>
    %tt_bias_relu_3 = tensor.empty() : tensor<136x200xf32>
    %tt_bias_relu_r = func.call @tt_bias_relu(%tt_bias_relu_0, %tt_bias_relu_1, %tt_bias_relu_2, %tt_bias_relu_3) : (tensor<104x136xbf16>, tensor<200x104xbf16>, tensor<200xf32>, tensor<136x200xf32>) -> tensor<136x200xf32>
    %tt_bias_relu_m = bufferization.to_buffer %tt_bias_relu_r : tensor<136x200xf32> to memref<136x200xf32>
    %tt_bias_relu_u = memref.cast %tt_bias_relu_m : memref<136x200xf32> to memref<*xf32>
    func.call @printMemrefF32(%tt_bias_relu_u) : (memref<*xf32>) -> ()
    %tt_accumulate_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7 + (d1 floordiv 7) mod 3 + (d0 floordiv 7) mod 2)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x16xf16>
    %tt_accumulate_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5 + (d0 floordiv 5) mod 3 + (d0 floordiv 15) mod 2)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x128xf16>
    %tt_accumulate_2 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 4) mod 9 + (d0 floordiv 9) mod 2)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<16x256xf32>
    %tt_accumulate_r = func.call @tt_accumulate(%tt_accumulate_0, %tt_accumulate_1, %tt_accumulate_2) : (tensor<128x16xf16>, tensor<256x128xf16>, tensor<16x256xf32>) -> tensor<16x256xf32>
    %tt_accumulate_m = bufferization.to_buffer %tt_accumulate_r : tensor<16x256xf32> to memref<16x256xf32>
    %tt_accumulate_u = memref.cast %tt_accumulate_m : memref<16x256xf32> to memref<*xf32>
    func.call @printMemrefF32(%tt_accumulate_u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
