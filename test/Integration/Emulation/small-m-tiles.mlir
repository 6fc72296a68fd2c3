// The strategy's small-M tiles under gpucg-matmul-mma-sync on the CPU
// emulator (select-lowering-strategy.md#small-m): all of a short M in one
// row (or few rows) of tiles 128 columns wide, the warps side by side
// along N (16x128 and 32x128 on 4 warps of 16x32 and 32x32; 64x128 on 2x2
// warps of 32x64), A and B staged by async copies and pipelined like the
// big tiles, and K split across workgroups to fill the SMs. The plans are
// the strategy's for larger shapes (select-lowering-strategy-small-m.mlir),
// given here as compilation_info on shapes the emulator runs quickly:
// M = 16 with B[n, k] (bf16, 4 parts), M = 20 with partial tiles in M and N
// (f16, the second row of tiles 4 rows deep, zero-filled), i8 into i32
// with M = 48 (two rows of 32-row tiles), M = 64 on 2x2 warps, and a bias +
// ReLU epilogue to bf16 without a split. Small-integer inputs keep every
// sum exact: the results must equal the untiled kernels', in both
// workgroup and thread orders, on sm_80 and sm_90.
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80})' -o %t.mma.mlir
// RUN: gpucg-opt %t.mma.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.mlir
// RUN: %mlir_runner_emulated %t.mlir | %strip_address > %t.forward
// RUN: diff %t.ref %t.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.mlir | %strip_address > %t.reverse
// RUN: diff %t.ref %t.reverse
// RUN: sed -e 's/chip = "sm_80"/chip = "sm_90"/' %s | gpucg-opt --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_90},gpucg-test-emulate-on-cpu)' -o %t.sm90.mlir
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.sm90.mlir | %strip_address > %t.sm90
// RUN: diff %t.ref %t.sm90

// What ran: the launch shapes, and async copies and ldmatrix in each
// kernel (no one-warp tile loading fragments from global memory).
// RUN: FileCheck %s < %t.mma.mlir
// CHECK-LABEL: func.func @m16_nt_bf16
//  CHECK-SAME:   gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 2, 1, 4>
//       CHECK:   nvgpu.device_async_copy
//       CHECK:   nvgpu.ldmatrix
//       CHECK:   nvgpu.mma.sync
// CHECK-LABEL: func.func @m20_partial_f16
//  CHECK-SAME:   gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 2, 2, 2>
//       CHECK:   nvgpu.device_async_copy
//       CHECK:   nvgpu.mma.sync
// CHECK-LABEL: func.func @m48_i8
//  CHECK-SAME:   gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 1, 2, 2>
//       CHECK:   nvgpu.mma.sync
// CHECK-LABEL: func.func @m64_f16
//  CHECK-SAME:   gpu.known_block_size = array<i32: 64, 2, 1>, gpu.known_grid_size = array<i32: 2, 1, 2>
//       CHECK:   nvgpu.mma.sync
// CHECK-LABEL: func.func @m16_bias_relu
//  CHECK-SAME:   gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 2, 1, 1>
//       CHECK:   nvgpu.device_async_copy
//       CHECK:   nvgpu.mma.sync

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @m16_nt_bf16(%a: tensor<16x512xbf16>, %b: tensor<256x512xbf16>) -> tensor<16x256xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<16x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[16, 128, 32], [16, 32, 0], [16, 8, 16]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [128, 1, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = mma_sync, split_k = 4>>}
      ins(%a, %b : tensor<16x512xbf16>, tensor<256x512xbf16>) outs(%f : tensor<16x256xf32>) -> tensor<16x256xf32>
    return %mm : tensor<16x256xf32>
  }
  func.func @m20_partial_f16(%a: tensor<20x256xf16>, %b: tensor<256x250xf16>) -> tensor<20x250xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<20x250xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<20x250xf32>) -> tensor<20x250xf32>
    %mm = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[16, 128, 32], [16, 32, 0], [16, 8, 16]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [128, 1, 1], subgroup_size = 32, pipeline_depth = 3, mma_kind = mma_sync, split_k = 2>>}
      ins(%a, %b : tensor<20x256xf16>, tensor<256x250xf16>) outs(%f : tensor<20x250xf32>) -> tensor<20x250xf32>
    return %mm : tensor<20x250xf32>
  }
  func.func @m48_i8(%a: tensor<48x512xi8>, %b: tensor<128x512xi8>) -> tensor<48x128xi32> {
    %zero = arith.constant 0 : i32
    %e = tensor.empty() : tensor<48x128xi32>
    %f = linalg.fill ins(%zero : i32) outs(%e : tensor<48x128xi32>) -> tensor<48x128xi32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 128, 64], [32, 32, 0], [16, 8, 32]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [128, 1, 1], subgroup_size = 32, pipeline_depth = 3, mma_kind = mma_sync, split_k = 2>>}
      ins(%a, %b : tensor<48x512xi8>, tensor<128x512xi8>) outs(%f : tensor<48x128xi32>) -> tensor<48x128xi32>
    return %mm : tensor<48x128xi32>
  }
  func.func @m64_f16(%a: tensor<64x256xf16>, %b: tensor<256x256xf16>) -> tensor<64x256xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
    %mm = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 128, 32], [32, 64, 0], [16, 8, 16]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 3, mma_kind = mma_sync, split_k = 2>>}
      ins(%a, %b : tensor<64x256xf16>, tensor<256x256xf16>) outs(%f : tensor<64x256xf32>) -> tensor<64x256xf32>
    return %mm : tensor<64x256xf32>
  }
  func.func @m16_bias_relu(%a: tensor<16x256xbf16>, %b: tensor<256x256xbf16>, %bias: tensor<256xf32>) -> tensor<16x256xbf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<16x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[16, 128, 32], [16, 32, 0], [16, 8, 16]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [128, 1, 1], subgroup_size = 32, pipeline_depth = 4, mma_kind = mma_sync>>}
      ins(%a, %b : tensor<16x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<16x256xf32>) -> tensor<16x256xf32>
    %o = tensor.empty() : tensor<16x256xbf16>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<16x256xf32>, tensor<256xf32>) outs(%o : tensor<16x256xbf16>) {
    ^bb0(%x: f32, %y: f32, %z: bf16):
      %s = arith.addf %x, %y : f32
      %relu = arith.maximumf %s, %zero : f32
      %t = arith.truncf %relu : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<16x256xbf16>
    return %r : tensor<16x256xbf16>
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefBF16(memref<*xbf16>) attributes {llvm.emit_c_interface}
  func.func @main() {
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
    %m16_nt_bf16_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<16x512xbf16>
    %m16_nt_bf16_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<256x512xbf16>
    %m16_nt_bf16_r = func.call @m16_nt_bf16(%m16_nt_bf16_a, %m16_nt_bf16_b) : (tensor<16x512xbf16>, tensor<256x512xbf16>) -> tensor<16x256xf32>
    %m16_nt_bf16_m = bufferization.to_buffer %m16_nt_bf16_r : tensor<16x256xf32> to memref<16x256xf32>
    %m16_nt_bf16_u = memref.cast %m16_nt_bf16_m : memref<16x256xf32> to memref<*xf32>
    func.call @printMemrefF32(%m16_nt_bf16_u) : (memref<*xf32>) -> ()
    %m20_partial_f16_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<20x256xf16>
    %m20_partial_f16_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x250xf16>
    %m20_partial_f16_r = func.call @m20_partial_f16(%m20_partial_f16_a, %m20_partial_f16_b) : (tensor<20x256xf16>, tensor<256x250xf16>) -> tensor<20x250xf32>
    %m20_partial_f16_m = bufferization.to_buffer %m20_partial_f16_r : tensor<20x250xf32> to memref<20x250xf32>
    %m20_partial_f16_u = memref.cast %m20_partial_f16_m : memref<20x250xf32> to memref<*xf32>
    func.call @printMemrefF32(%m20_partial_f16_u) : (memref<*xf32>) -> ()
    %m48_i8_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.trunci %w : i32 to i8
      tensor.yield %e : i8
    } : tensor<48x512xi8>
    %m48_i8_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.trunci %w : i32 to i8
      tensor.yield %e : i8
    } : tensor<128x512xi8>
    %m48_i8_r = func.call @m48_i8(%m48_i8_a, %m48_i8_b) : (tensor<48x512xi8>, tensor<128x512xi8>) -> tensor<48x128xi32>
    %m48_i8_m = bufferization.to_buffer %m48_i8_r : tensor<48x128xi32> to memref<48x128xi32>
    %m48_i8_u = memref.cast %m48_i8_m : memref<48x128xi32> to memref<*xi32>
    func.call @printMemrefI32(%m48_i8_u) : (memref<*xi32>) -> ()
    %m64_f16_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<64x256xf16>
    %m64_f16_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x256xf16>
    %m64_f16_r = func.call @m64_f16(%m64_f16_a, %m64_f16_b) : (tensor<64x256xf16>, tensor<256x256xf16>) -> tensor<64x256xf32>
    %m64_f16_m = bufferization.to_buffer %m64_f16_r : tensor<64x256xf32> to memref<64x256xf32>
    %m64_f16_u = memref.cast %m64_f16_m : memref<64x256xf32> to memref<*xf32>
    func.call @printMemrefF32(%m64_f16_u) : (memref<*xf32>) -> ()
    %m16_bias_relu_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<16x256xbf16>
    %m16_bias_relu_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<256x256xbf16>
    %m16_bias_relu_bias = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<256xf32>
    %m16_bias_relu_r = func.call @m16_bias_relu(%m16_bias_relu_a, %m16_bias_relu_b, %m16_bias_relu_bias) : (tensor<16x256xbf16>, tensor<256x256xbf16>, tensor<256xf32>) -> tensor<16x256xbf16>
    %m16_bias_relu_m = bufferization.to_buffer %m16_bias_relu_r : tensor<16x256xbf16> to memref<16x256xbf16>
    %m16_bias_relu_u = memref.cast %m16_bias_relu_m : memref<16x256xbf16> to memref<*xbf16>
    func.call @printMemrefBF16(%m16_bias_relu_u) : (memref<*xbf16>) -> ()
    return
  }
}
