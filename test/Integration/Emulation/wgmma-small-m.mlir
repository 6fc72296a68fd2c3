// gpucg-matmul-wgmma for M below 64 (a decode step's tokens), on the CPU
// emulator: a tile of fewer than 64 rows of C is computed transposed, C^T
// = B^T * A^T, with B[n, k] as wgmma's A (64-row tiles of C's columns) and
// A[m, k] as its K-contiguous B (the M tile, rounded up to 8, as wgmma's
// N; TMA reads zeros past M). The accumulator goes through a transposed
// view of the staging buffer; each consumer then runs the epilogue on all
// of C's rows of its 64 columns. Kernels: a bf16 decode step of 16 x 200 x
// 136 (the strategy's plan: a producer and one consumer on 16x64 tiles,
// partial N and a K tail), two consumers on 40 x 256 x 128 with a column
// bias and an f16 cast (a user's 40x128 plan), and C += A * B with M = 7
// on one warpgroup (a user's 8x64 plan, one stage). In order, reversed
// with TMA data at the wait and wgmma at issue, and on a persistent grid
// of one workgroup (the warp-specialized kernels). Small-integer inputs
// keep every sum exact: the results must equal the untiled kernels'.
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a})' -o %t.wgmma.mlir
// RUN: gpucg-opt %t.wgmma.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.mlir
// RUN: %mlir_runner_emulated %t.mlir | %strip_address > %t.forward
// RUN: diff %t.ref %t.forward
// RUN: env GPUCG_EMU_ORDER=reverse GPUCG_EMU_TMA=wait GPUCG_EMU_WGMMA=issue %mlir_runner_emulated %t.mlir | %strip_address > %t.modes
// RUN: diff %t.ref %t.modes
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-persistent=true wgmma-persistent-workgroups=1})' -o %t.p1.wgmma.mlir
// RUN: gpucg-opt %t.p1.wgmma.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.p1.mlir
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.p1.mlir | %strip_address > %t.p1
// RUN: diff %t.ref %t.p1
// RUN: FileCheck %s --check-prefix=PERSISTENT < %t.p1.wgmma.mlir
// PERSISTENT-LABEL: func.func @decode
// PERSISTENT: scf.forall (%{{.+}}) in (1)
// PERSISTENT-LABEL: func.func @bias_f16
// PERSISTENT: scf.forall (%{{.+}}) in (1)
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

// What ran (and that it parses again).
// RUN: gpucg-opt %t.wgmma.mlir | FileCheck %s
// The strategy's plan for the decode step: 16x64 tiles, a producer and one
// consumer; B's tensor map has 64-row boxes (wgmma's A), A's 16-row boxes
// (wgmma's B).
// CHECK-LABEL: func.func @decode
// CHECK-SAME: workgroup_size = [256, 1, 1]
// CHECK: nvgpu.tma.create.descriptor %{{.+}} box[%c64, %c64] : memref<*xbf16> -> <tensor = memref<64x64xbf16
// CHECK: nvgpu.tma.create.descriptor %{{.+}} box[%c16, %c64] : memref<*xbf16> -> <tensor = memref<16x64xbf16
// CHECK: scf.forall ({{.*}}) = (0, 0) to (16, 200) step (16, 64)
// CHECK: nvgpu.warpgroup.mma %{{.+}}, %{{.+}}, %{{.+}} {{.*}}: <tensor = memref<64x16xbf16, {{.*}}>>, <tensor = memref<16x16xbf16, {{.*}}>>, <fragmented = vector<64x16xf32>>
// CHECK: %[[T:.+]] = memref.transpose %{{.+}} (d0, d1) -> (d1, d0) : memref<16x64xf32, strided<[72, 1]>, {{.*}}> to memref<64x16xf32, strided<[1, 72]>,
// CHECK-NEXT: nvgpu.warpgroup.mma.store %{{.+}}, %[[T]]
// The guard: C's rows (M = 16) and columns (N = 200, the tile's column
// offset the workgroup's B row).
// CHECK: %[[COLUMN:.+]] = arith.cmpi ult, %{{.+}}, %c200 : index
// CHECK: %[[ROW:.+]] = arith.cmpi ult, %{{.+}}, %c16 : index
// CHECK: %[[INSIDE:.+]] = arith.andi %[[ROW]], %[[COLUMN]] : i1
// CHECK-NEXT: scf.if %[[INSIDE]] {
// CHECK: vector.transfer_write {{.*}} : vector<4xf32>, memref<16x200xf32>
// CHECK-LABEL: func.func @bias_f16
// CHECK-SAME: workgroup_size = [384, 1, 1]
// CHECK: memref.transpose %{{.+}} : memref<40x64xf32, strided<[136, 1]>, {{.*}}> to memref<64x40xf32, strided<[1, 136]>,
// CHECK: vector.transfer_write {{.*}} : vector<8xf16>, memref<40x256xf16>
// CHECK-LABEL: func.func @accumulate
// CHECK: nvgpu.tma.create.descriptor %{{.+}} box[%c8, %c64]
// CHECK: <fragmented = vector<64x8xf32>>
// CHECK: arith.addf {{.*}} : vector<4xf32>
// CHECK-NEXT: vector.transfer_write {{.*}} : vector<4xf32>, memref<7x64xf32>

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // A decode step's linear layer (the strategy's plan): 16 tokens, N = 200
  // (three whole 64-column tiles and a partial one), K = 136 (a K tail).
  func.func @decode(%a: tensor<16x136xbf16>, %b: tensor<200x136xbf16>, %c: tensor<16x200xf32>) -> tensor<16x200xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<16x200xf32>) -> tensor<16x200xf32>
    %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] 
      ins(%a, %b : tensor<16x136xbf16>, tensor<200x136xbf16>) outs(%f : tensor<16x200xf32>) -> tensor<16x200xf32>
    return %r : tensor<16x200xf32>
  }
  // Two consumers (a user's 40x128 plan) on 40 x 256 x 128, a column bias
  // and an f16 cast: each consumer runs the epilogue on its 64 columns.
  func.func @bias_f16(%a: tensor<40x128xf16>, %b: tensor<256x128xf16>, %bias: tensor<256xf32>, %out: tensor<40x256xf16>) -> tensor<40x256xf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<40x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<40x256xf32>) -> tensor<40x256xf32>
    %m = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[40, 128, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2>>}
      ins(%a, %b : tensor<40x128xf16>, tensor<256x128xf16>) outs(%f : tensor<40x256xf32>) -> tensor<40x256xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<40x256xf32>, tensor<256xf32>) outs(%out : tensor<40x256xf16>) {
    ^bb0(%x: f32, %y: f32, %o: f16):
      %s = arith.addf %x, %y : f32
      %t = arith.truncf %s : f32 to f16
      linalg.yield %t : f16
    } -> tensor<40x256xf16>
    return %r : tensor<40x256xf16>
  }
  // C += A * B with M = 7 on one warpgroup (a user's 8x64 plan, one
  // stage): the row past M is padding.
  func.func @accumulate(%a: tensor<7x64xf16>, %b: tensor<64x64xf16>, %c: tensor<7x64xf32>) -> tensor<7x64xf32> {
    %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[8, 64, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 1>>}
      ins(%a, %b : tensor<7x64xf16>, tensor<64x64xf16>) outs(%c : tensor<7x64xf32>) -> tensor<7x64xf32>
    return %r : tensor<7x64xf32>
  }
  func.func @main() {
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
    %decode_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<16x136xbf16>
    %decode_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<200x136xbf16>
    %decode_2 = tensor.empty() : tensor<16x200xf32>
    %decode_r = func.call @decode(%decode_0, %decode_1, %decode_2) : (tensor<16x136xbf16>, tensor<200x136xbf16>, tensor<16x200xf32>) -> tensor<16x200xf32>
    %decode_m = bufferization.to_buffer %decode_r : tensor<16x200xf32> to memref<16x200xf32>
    %decode_u = memref.cast %decode_m : memref<16x200xf32> to memref<*xf32>
    func.call @printMemrefF32(%decode_u) : (memref<*xf32>) -> ()
    %bias_f16_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<40x128xf16>
    %bias_f16_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x128xf16>
    %bias_f16_2 = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<256xf32>
    %bias_f16_3 = tensor.empty() : tensor<40x256xf16>
    %bias_f16_r = func.call @bias_f16(%bias_f16_0, %bias_f16_1, %bias_f16_2, %bias_f16_3) : (tensor<40x128xf16>, tensor<256x128xf16>, tensor<256xf32>, tensor<40x256xf16>) -> tensor<40x256xf16>
    %bias_f16_m = bufferization.to_buffer %bias_f16_r : tensor<40x256xf16> to memref<40x256xf16>
    %bias_f16_u = memref.cast %bias_f16_m : memref<40x256xf16> to memref<*xf16>
    func.call @printMemrefF16(%bias_f16_u) : (memref<*xf16>) -> ()
    %accumulate_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<7x64xf16>
    %accumulate_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<64x64xf16>
    %accumulate_2 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 4) mod 9)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<7x64xf32>
    %accumulate_r = func.call @accumulate(%accumulate_0, %accumulate_1, %accumulate_2) : (tensor<7x64xf16>, tensor<64x64xf16>, tensor<7x64xf32>) -> tensor<7x64xf32>
    %accumulate_m = bufferization.to_buffer %accumulate_r : tensor<7x64xf32> to memref<7x64xf32>
    %accumulate_u = memref.cast %accumulate_m : memref<7x64xf32> to memref<*xf32>
    func.call @printMemrefF32(%accumulate_u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
}
