// gpucg-matmul-wgmma for a small M (a decode step, M below 64) whose
// operands take no transposed tile (C^T = B^T * A^T needs A[m, k] and
// B[n, k]): B[k, n] would be wgmma's transposed A times an untransposed B,
// which MLIR 22's nvgpu refuses, and A[k, m] an N-major B narrower than its
// 64-column boxes. Such a matmul takes one 64-row wgmma tile, the rows past
// M padding: A's TMA box of 64 rows (or 64 columns of M) reads zeros past
// the matrix, and the staged store writes only the M rows. Kernels: a bf16
// decode step of 16 x 200 x 136 with B[k, n] (the strategy's plan: 64x64
// tiles, a producer and one consumer; partial N and a K tail), a weight
// gradient's A[k, m] with M = 24 and a ReLU (the strategy's plan), and C +=
// A * B with M = 32 on one warpgroup (a user's 64x128 plan). In order,
// reversed with TMA data at the wait and wgmma at issue, and split into two
// parts of K (split-k=2; the decode step's K = 136 in parts of 128 and 8).
// Small-integer inputs keep every sum exact: the results must equal the
// untiled kernels'.
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a})' -o %t.wgmma.mlir
// RUN: gpucg-opt %t.wgmma.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.mlir
// RUN: %mlir_runner_emulated %t.mlir | %strip_address > %t.forward
// RUN: diff %t.ref %t.forward
// RUN: env GPUCG_EMU_ORDER=reverse GPUCG_EMU_TMA=wait GPUCG_EMU_WGMMA=issue %mlir_runner_emulated %t.mlir | %strip_address > %t.modes
// RUN: diff %t.ref %t.modes
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a split-k=2})' -o %t.split.wgmma.mlir
// RUN: gpucg-opt %t.split.wgmma.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.split.mlir
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.split.mlir | %strip_address > %t.split
// RUN: diff %t.ref %t.split
//
// Mutations: each kernel's staged store with its row test (the row inside
// M) left out writes, or for C += A * B first reads, the padded rows past
// M, which the emulator's bounds check of global vector transfers reports.
// RUN: %mutate unguard-rows 1 < %t.wgmma.mlir > %t.m1.mlir
// RUN: gpucg-opt %t.m1.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.m1e.mlir
// RUN: not %mlir_runner_emulated %t.m1e.mlir 2>&1 | FileCheck %s --check-prefix=PAST-M16
// PAST-M16: gpucg-emulator: error: vector access out of bounds: thread ({{[0-9]+}}, 0, 0) of workgroup ({{[0-9]+}}, 0, 0) accesses indices [16, 17) of dimension 0 (of 2, 0 outermost) of its memref, whose size there is 16, at {{.*}}: vector.transfer_write
// RUN: %mutate unguard-rows 2 < %t.wgmma.mlir > %t.m2.mlir
// RUN: gpucg-opt %t.m2.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.m2e.mlir
// RUN: not %mlir_runner_emulated %t.m2e.mlir 2>&1 | FileCheck %s --check-prefix=PAST-M24
// PAST-M24: gpucg-emulator: error: vector access out of bounds: {{.*}} accesses indices [24, 25) of dimension 0 (of 2, 0 outermost) of its memref, whose size there is 24, at {{.*}}: vector.transfer_write
// RUN: %mutate unguard-rows 3 < %t.wgmma.mlir > %t.m3.mlir
// RUN: gpucg-opt %t.m3.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.m3e.mlir
// RUN: not %mlir_runner_emulated %t.m3e.mlir 2>&1 | FileCheck %s --check-prefix=PAST-M32
// PAST-M32: gpucg-emulator: error: vector access out of bounds: {{.*}} accesses indices [32, 33) of dimension 0 (of 2, 0 outermost) of its memref, whose size there is 32, at {{.*}}: vector.transfer_read
//
// What ran (and that it parses again): A's boxes of 64 rows (or, A[k, m],
// 64 columns of M) over a matrix of fewer, one 64-row tile along M, the
// row test against M.
// RUN: gpucg-opt %t.wgmma.mlir | FileCheck %s
// CHECK-LABEL: func.func @decode_b_kn
// CHECK-SAME: workgroup_size = [256, 1, 1]
// CHECK: nvgpu.tma.create.descriptor %{{.+}} box[%c64, %c64] : memref<*xbf16> -> <tensor = memref<64x64xbf16
// CHECK: scf.forall ({{.*}}) = (0, 0) to (16, 200) step (64, 64)
// CHECK: nvgpu.warpgroup.mma {{.*}} {transposeB} : <tensor = memref<64x64xbf16, {{.*}}>>, <tensor = memref<64x64xbf16, {{.*}}>>, <fragmented = vector<64x64xf32>>
// CHECK: arith.cmpi ult, %{{.+}}, %c16 : index
// CHECK: vector.transfer_write {{.*}} : vector<4xf32>, memref<16x200xf32>
// CHECK-LABEL: func.func @a_km_relu
// CHECK: nvgpu.tma.create.descriptor %{{.+}} box[%c64, %c64] : memref<*xf16>
// CHECK: scf.forall ({{.*}}) = (0, 0) to (24, 256) step (64, 64)
// CHECK: nvgpu.warpgroup.mma {{.*}} {transposeA, transposeB, waitGroup = 4 : i64} : <tensor = memref<64x16xf16
// CHECK: arith.cmpi ult, %{{.+}}, %c24 : index
// CHECK-LABEL: func.func @accumulate
// CHECK-SAME: workgroup_size = [128, 1, 1]
// CHECK: scf.forall ({{.*}}) = (0, 0) to (32, 256) step (64, 128)
// CHECK: arith.cmpi ult, %{{.+}}, %c32 : index

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // A decode step whose weights are stored [k, n] (the strategy's plan): 16
  // tokens, N = 200 (three whole 64-column tiles and a partial one), K =
  // 136 (a K tail).
  func.func @decode_b_kn(%a: tensor<16x136xbf16>, %b: tensor<136x200xbf16>, %c: tensor<16x200xf32>) -> tensor<16x200xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<16x200xf32>) -> tensor<16x200xf32>
    %r = linalg.matmul ins(%a, %b : tensor<16x136xbf16>, tensor<136x200xbf16>) outs(%f : tensor<16x200xf32>) -> tensor<16x200xf32>
    return %r : tensor<16x200xf32>
  }
  // A weight gradient's X^T (A[k, m], 24 rows of M: 48 bytes apart) with
  // a ReLU.
  func.func @a_km_relu(%a: tensor<128x24xf16>, %b: tensor<128x256xf16>, %c: tensor<24x256xf32>) -> tensor<24x256xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<24x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<24x256xf32>) -> tensor<24x256xf32>
    %m = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<128x24xf16>, tensor<128x256xf16>) outs(%f : tensor<24x256xf32>) -> tensor<24x256xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<24x256xf32>) outs(%c : tensor<24x256xf32>) {
    ^bb0(%x: f32, %o: f32):
      %q = arith.maximumf %x, %zero : f32
      linalg.yield %q : f32
    } -> tensor<24x256xf32>
    return %r : tensor<24x256xf32>
  }
  // C += A * B with M = 32 and B[k, n] on one warpgroup (a user's 64x128
  // plan, two stages).
  func.func @accumulate(%a: tensor<32x192xf16>, %b: tensor<192x256xf16>, %c: tensor<32x256xf32>) -> tensor<32x256xf32> {
    %r = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 128, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
      ins(%a, %b : tensor<32x192xf16>, tensor<192x256xf16>) outs(%c : tensor<32x256xf32>) -> tensor<32x256xf32>
    return %r : tensor<32x256xf32>
  }
  func.func @main() {
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
    %decode_b_kn_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7 + (d0 floordiv 7) mod 3 + (d1 floordiv 7) mod 2)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<16x136xbf16>
    %decode_b_kn_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5 + (d1 floordiv 5) mod 3 + (d1 floordiv 15) mod 2)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<136x200xbf16>
    %decode_b_kn_2 = tensor.empty() : tensor<16x200xf32>
    %decode_b_kn_r = func.call @decode_b_kn(%decode_b_kn_0, %decode_b_kn_1, %decode_b_kn_2) : (tensor<16x136xbf16>, tensor<136x200xbf16>, tensor<16x200xf32>) -> tensor<16x200xf32>
    %decode_b_kn_m = bufferization.to_buffer %decode_b_kn_r : tensor<16x200xf32> to memref<16x200xf32>
    %decode_b_kn_u = memref.cast %decode_b_kn_m : memref<16x200xf32> to memref<*xf32>
    func.call @printMemrefF32(%decode_b_kn_u) : (memref<*xf32>) -> ()
    %a_km_relu_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7 + (d1 floordiv 7) mod 3 + (d0 floordiv 7) mod 2)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x24xf16>
    %a_km_relu_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5 + (d1 floordiv 5) mod 3 + (d1 floordiv 15) mod 2)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x256xf16>
    %a_km_relu_2 = tensor.empty() : tensor<24x256xf32>
    %a_km_relu_r = func.call @a_km_relu(%a_km_relu_0, %a_km_relu_1, %a_km_relu_2) : (tensor<128x24xf16>, tensor<128x256xf16>, tensor<24x256xf32>) -> tensor<24x256xf32>
    %a_km_relu_m = bufferization.to_buffer %a_km_relu_r : tensor<24x256xf32> to memref<24x256xf32>
    %a_km_relu_u = memref.cast %a_km_relu_m : memref<24x256xf32> to memref<*xf32>
    func.call @printMemrefF32(%a_km_relu_u) : (memref<*xf32>) -> ()
    %accumulate_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7 + (d0 floordiv 7) mod 3 + (d1 floordiv 7) mod 2)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<32x192xf16>
    %accumulate_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5 + (d1 floordiv 5) mod 3 + (d1 floordiv 15) mod 2)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<192x256xf16>
    %accumulate_2 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 4) mod 9 + (d0 floordiv 9) mod 2)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<32x256xf32>
    %accumulate_r = func.call @accumulate(%accumulate_0, %accumulate_1, %accumulate_2) : (tensor<32x192xf16>, tensor<192x256xf16>, tensor<32x256xf32>) -> tensor<32x256xf32>
    %accumulate_m = bufferization.to_buffer %accumulate_r : tensor<32x256xf32> to memref<32x256xf32>
    %accumulate_u = memref.cast %accumulate_m : memref<32x256xf32> to memref<*xf32>
    func.call @printMemrefF32(%accumulate_u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
