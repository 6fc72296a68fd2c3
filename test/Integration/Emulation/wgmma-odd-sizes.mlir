// gpucg-matmul-wgmma on sizes that are not whole tiles, on the CPU
// emulator: the TMA boxes run past the matrix and read zeros there (the
// tensor maps are on the whole arguments), the K loop takes K / 64 rounded
// up steps (the last past K), and the accumulator of a kernel with partial
// tiles is staged and stored in pieces, each only if it lies inside M x N.
// Kernels: warp specialized 128x128 on 200 x 136 x 200 (partial in M, N
// and K), the strategy's plan for a bf16 linear layer with K = 40 (one K
// tile, mostly padding), a column bias and an f16 cast on 130 x 264 x 72
// (the strategy's one-warpgroup 64x64 tiles; 8-element f16 pieces), and
// C += A * B on 72 x 200 x 136. In order, reversed with TMA data at the
// wait and wgmma at issue, and on a persistent grid of 3 workgroups
// (warp-specialized kernels; the others keep a workgroup per tile).
// Small-integer inputs keep every sum exact: the results must equal the
// untiled kernels'. (A guard that let a piece past the matrix through
// would write outside C's buffer, which the emulator does not check: the
// FileCheck lines below hold the guard, and the sweep the values.)
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a})' -o %t.wgmma.mlir
// RUN: gpucg-opt %t.wgmma.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.mlir
// RUN: %mlir_runner_emulated %t.mlir | %strip_address > %t.forward
// RUN: diff %t.ref %t.forward
// RUN: env GPUCG_EMU_ORDER=reverse GPUCG_EMU_TMA=wait GPUCG_EMU_WGMMA=issue %mlir_runner_emulated %t.mlir | %strip_address > %t.modes
// RUN: diff %t.ref %t.modes
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-persistent=true wgmma-persistent-workgroups=3},gpucg-test-emulate-on-cpu)' -o %t.p3.mlir
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.p3.mlir | %strip_address > %t.p3
// RUN: diff %t.ref %t.p3

// What ran (and that it parses again).
// RUN: gpucg-opt %t.wgmma.mlir | FileCheck %s
// CHECK-LABEL: func.func @ws_partial
// CHECK: nvgpu.tma.create.descriptor %{{.+}} box[%c128, %c64]
// CHECK: scf.forall ({{.*}}) = (0, 0) to (200, 136) step (128, 128)
// Four K steps, the last past K = 200.
// CHECK: scf.for %{{.+}} = %c0 to %c4 step %c1 iter_args
// CHECK: nvgpu.warpgroup.mma.store
// CHECK: %[[COLUMN:.+]] = arith.cmpi ult, %{{.+}}, %c136 : index
// CHECK: %[[ROW:.+]] = arith.cmpi ult, %{{.+}}, %c200 : index
// CHECK: %[[INSIDE:.+]] = arith.andi %[[ROW]], %[[COLUMN]] : i1
// CHECK-NEXT: scf.if %[[INSIDE]] {
// CHECK-NEXT: vector.transfer_read
// CHECK: vector.transfer_write {{.*}} : vector<4xf32>, memref<200x136xf32>
// CHECK-LABEL: func.func @k_tail_only
// CHECK-SAME: workgroup_size = [384, 1, 1]
// CHECK-LABEL: func.func @bias_f16
// CHECK-SAME: workgroup_size = [128, 1, 1]
// CHECK: %[[COLUMN:.+]] = arith.cmpi ult, %{{.+}}, %c264 : index
// CHECK: %[[ROW:.+]] = arith.cmpi ult, %{{.+}}, %c130 : index
// CHECK: %[[INSIDE:.+]] = arith.andi %[[ROW]], %[[COLUMN]] : i1
// CHECK-NEXT: scf.if %[[INSIDE]] {
// CHECK: vector.transfer_write {{.*}} : vector<8xf16>, memref<130x264xf16>
// CHECK-LABEL: func.func @accumulate
// CHECK: scf.if
// CHECK: arith.addf {{.*}} : vector<4xf32>
// CHECK-NEXT: vector.transfer_write {{.*}} : vector<4xf32>, memref<72x200xf32>

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // Warp specialized 128x128 (a user's plan) on 200 x 136 x 200: the last
  // row and column of tiles are partial, and so is the last K tile.
  func.func @ws_partial(%a: tensor<200x200xf16>, %b: tensor<200x136xf16>, %c: tensor<200x136xf32>) -> tensor<200x136xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<200x136xf32>) -> tensor<200x136xf32>
    %r = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 3>>}
      ins(%a, %b : tensor<200x200xf16>, tensor<200x136xf16>) outs(%f : tensor<200x136xf32>) -> tensor<200x136xf32>
    return %r : tensor<200x136xf32>
  }
  // The strategy's plan for a linear layer (B[n, k], bf16) with K = 40:
  // one K tile, most of it past K.
  func.func @k_tail_only(%a: tensor<100x40xbf16>, %b: tensor<72x40xbf16>, %c: tensor<100x72xf32>) -> tensor<100x72xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<100x72xf32>) -> tensor<100x72xf32>
    %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<100x40xbf16>, tensor<72x40xbf16>) outs(%f : tensor<100x72xf32>) -> tensor<100x72xf32>
    return %r : tensor<100x72xf32>
  }
  // A column bias and an f16 cast on 130 x 264 (the strategy's plan): the
  // partial tiles' pieces are 8 f16 wide, which divides N.
  func.func @bias_f16(%a: tensor<130x72xf16>, %b: tensor<72x264xf16>, %bias: tensor<264xf32>, %out: tensor<130x264xf16>) -> tensor<130x264xf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<130x264xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<130x264xf32>) -> tensor<130x264xf32>
    %m = linalg.matmul ins(%a, %b : tensor<130x72xf16>, tensor<72x264xf16>) outs(%f : tensor<130x264xf32>) -> tensor<130x264xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<130x264xf32>, tensor<264xf32>) outs(%out : tensor<130x264xf16>) {
    ^bb0(%x: f32, %y: f32, %o: f16):
      %s = arith.addf %x, %y : f32
      %t = arith.truncf %s : f32 to f16
      linalg.yield %t : f16
    } -> tensor<130x264xf16>
    return %r : tensor<130x264xf16>
  }
  // C += A * B on 72 x 200 x 136 (a user's warp-specialized 128x128 plan):
  // partial tiles that add C's prior contents.
  func.func @accumulate(%a: tensor<72x136xf16>, %b: tensor<136x200xf16>, %c: tensor<72x200xf32>) -> tensor<72x200xf32> {
    %r = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2>>}
      ins(%a, %b : tensor<72x136xf16>, tensor<136x200xf16>) outs(%c : tensor<72x200xf32>) -> tensor<72x200xf32>
    return %r : tensor<72x200xf32>
  }
  func.func @main() {
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
    %ws_partial_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<200x200xf16>
    %ws_partial_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<200x136xf16>
    %ws_partial_2 = tensor.empty() : tensor<200x136xf32>
    %ws_partial_r = func.call @ws_partial(%ws_partial_0, %ws_partial_1, %ws_partial_2) : (tensor<200x200xf16>, tensor<200x136xf16>, tensor<200x136xf32>) -> tensor<200x136xf32>
    %ws_partial_m = bufferization.to_buffer %ws_partial_r : tensor<200x136xf32> to memref<200x136xf32>
    %ws_partial_u = memref.cast %ws_partial_m : memref<200x136xf32> to memref<*xf32>
    func.call @printMemrefF32(%ws_partial_u) : (memref<*xf32>) -> ()
    %k_tail_only_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<100x40xbf16>
    %k_tail_only_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<72x40xbf16>
    %k_tail_only_2 = tensor.empty() : tensor<100x72xf32>
    %k_tail_only_r = func.call @k_tail_only(%k_tail_only_0, %k_tail_only_1, %k_tail_only_2) : (tensor<100x40xbf16>, tensor<72x40xbf16>, tensor<100x72xf32>) -> tensor<100x72xf32>
    %k_tail_only_m = bufferization.to_buffer %k_tail_only_r : tensor<100x72xf32> to memref<100x72xf32>
    %k_tail_only_u = memref.cast %k_tail_only_m : memref<100x72xf32> to memref<*xf32>
    func.call @printMemrefF32(%k_tail_only_u) : (memref<*xf32>) -> ()
    %bias_f16_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<130x72xf16>
    %bias_f16_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<72x264xf16>
    %bias_f16_2 = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<264xf32>
    %bias_f16_3 = tensor.empty() : tensor<130x264xf16>
    %bias_f16_r = func.call @bias_f16(%bias_f16_0, %bias_f16_1, %bias_f16_2, %bias_f16_3) : (tensor<130x72xf16>, tensor<72x264xf16>, tensor<264xf32>, tensor<130x264xf16>) -> tensor<130x264xf16>
    %bias_f16_m = bufferization.to_buffer %bias_f16_r : tensor<130x264xf16> to memref<130x264xf16>
    %bias_f16_u = memref.cast %bias_f16_m : memref<130x264xf16> to memref<*xf16>
    func.call @printMemrefF16(%bias_f16_u) : (memref<*xf16>) -> ()
    %accumulate_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<72x136xf16>
    %accumulate_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<136x200xf16>
    %accumulate_2 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 4) mod 9)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<72x200xf32>
    %accumulate_r = func.call @accumulate(%accumulate_0, %accumulate_1, %accumulate_2) : (tensor<72x136xf16>, tensor<136x200xf16>, tensor<72x200xf32>) -> tensor<72x200xf32>
    %accumulate_m = bufferization.to_buffer %accumulate_r : tensor<72x200xf32> to memref<72x200xf32>
    %accumulate_u = memref.cast %accumulate_m : memref<72x200xf32> to memref<*xf32>
    func.call @printMemrefF32(%accumulate_u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
}
