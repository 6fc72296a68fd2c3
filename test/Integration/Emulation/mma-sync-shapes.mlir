// gpucg-matmul-mma-sync on the CPU emulator: async copies into swizzled
// workgroup memory, ldmatrix (plain for A, .trans for B), and
// mma.sync m16n8k16 f16/bf16 -> f32 and m16n8k32 s8 -> s32, on aligned,
// unaligned (partial workgroup tiles), single-tile and deep-K (pipelined)
// shapes, partial tiles with deep K (the remainder's K loop gets its own
// buffers, unpipelined), and matmuls with a fused bias + ReLU epilogue (the
// accumulator shared through workgroup memory). Small-integer inputs make every sum exact: the results must equal
// the untiled kernel's bit for bit.

// The untiled kernels, run as they are, are the reference.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// gpucg-matmul-mma-sync's output, every thread a fiber, in order and in reverse:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80},gpucg-test-emulate-on-cpu)' -o %t.0.mlir
// RUN: %mlir_runner_emulated %t.0.mlir | %strip_address > %t.0.forward
// RUN: diff %t.ref %t.0.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.0.mlir | %strip_address > %t.0.reverse
// RUN: diff %t.ref %t.0.reverse
// Four stages of async copies in flight, the last iterations predicated:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80 depth=4 epilogue-peeling=false},gpucg-test-emulate-on-cpu)' -o %t.1.mlir
// RUN: %mlir_runner_emulated %t.1.mlir | %strip_address > %t.1.forward
// RUN: diff %t.ref %t.1.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.1.mlir | %strip_address > %t.1.reverse
// RUN: diff %t.ref %t.1.reverse

// What ran: the mma.sync shapes above.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80})' \
// RUN:   | gpucg-opt | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @f16_unaligned
// IR: nvgpu.mma.sync{{.*}}mmaShape = [16, 8, 16]{{.*}}vector<4x2xf16>
// IR-LABEL: func.func @f16_aligned
// IR: nvgpu.device_async_copy
// IR: nvgpu.ldmatrix {{.*}}transpose = false
// IR: nvgpu.ldmatrix {{.*}}transpose = true
// IR: nvgpu.mma.sync
// IR-LABEL: func.func @bf16_transpose_b
// IR: nvgpu.mma.sync{{.*}}vector<4x2xbf16>
// IR-LABEL: func.func @i8_s32
// IR: nvgpu.mma.sync{{.*}}mmaShape = [16, 8, 32]{{.*}}vector<4x4xi8>
// IR-LABEL: func.func @f16_deep
// IR: scf.for
// IR: nvgpu.device_async_wait {{.*}}numGroups = {{[1-9]}}
// IR-LABEL: func.func @bias_relu
// IR: memref.alloc() {{.*}}#gpu.address_space<workgroup>
// IR-NOT: memref.alloc(
// IR: nvgpu.mma.sync
// IR: gpu.barrier
// IR: arith.maximumf

func.func @f16_unaligned(%in0: tensor<37x16xf16>, %in1: tensor<16x33xf16>, %out: tensor<37x33xf32>) -> tensor<37x33xf32> {
  %r = linalg.matmul ins(%in0, %in1 : tensor<37x16xf16>, tensor<16x33xf16>) outs(%out : tensor<37x33xf32>) -> tensor<37x33xf32>
  return %r : tensor<37x33xf32>
}

func.func @f16_aligned(%in0: tensor<64x32xf16>, %in1: tensor<32x64xf16>, %out: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul ins(%in0, %in1 : tensor<64x32xf16>, tensor<32x64xf16>) outs(%out : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

func.func @f16_single_tile(%in0: tensor<16x16xf16>, %in1: tensor<16x16xf16>, %out: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.matmul ins(%in0, %in1 : tensor<16x16xf16>, tensor<16x16xf16>) outs(%out : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

func.func @bf16_transpose_b(%in0: tensor<32x16xbf16>, %in1: tensor<48x16xbf16>, %out: tensor<32x48xf32>) -> tensor<32x48xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%in0, %in1 : tensor<32x16xbf16>, tensor<48x16xbf16>) outs(%out : tensor<32x48xf32>) -> tensor<32x48xf32>
  return %r : tensor<32x48xf32>
}

func.func @i8_s32(%in0: tensor<32x64xi8>, %in1: tensor<64x32xi8>, %out: tensor<32x32xi32>) -> tensor<32x32xi32> {
  %r = linalg.matmul ins(%in0, %in1 : tensor<32x64xi8>, tensor<64x32xi8>) outs(%out : tensor<32x32xi32>) -> tensor<32x32xi32>
  return %r : tensor<32x32xi32>
}

func.func @f16_deep(%in0: tensor<70x128xf16>, %in1: tensor<128x40xf16>, %out: tensor<70x40xf32>) -> tensor<70x40xf32> {
  %r = linalg.matmul ins(%in0, %in1 : tensor<70x128xf16>, tensor<128x40xf16>) outs(%out : tensor<70x40xf32>) -> tensor<70x40xf32>
  return %r : tensor<70x40xf32>
}

func.func @bias_relu(%in0: tensor<48x16xf16>, %in1: tensor<16x40xf16>, %in2: tensor<40xf32>, %out: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%out : tensor<48x40xf32>) -> tensor<48x40xf32>
  %m = linalg.matmul ins(%in0, %in1 : tensor<48x16xf16>, tensor<16x40xf16>) outs(%f : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
    ins(%m, %in2 : tensor<48x40xf32>, tensor<40xf32>) outs(%out : tensor<48x40xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %relu = arith.maximumf %s, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @bias_relu_deep(%in0: tensor<64x128xf16>, %in1: tensor<128x64xf16>, %in2: tensor<64xf32>, %out: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%out : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.matmul ins(%in0, %in1 : tensor<64x128xf16>, tensor<128x64xf16>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
    ins(%m, %in2 : tensor<64x64xf32>, tensor<64xf32>) outs(%out : tensor<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %relu = arith.maximumf %s, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

func.func @f16_partial_deep(%in0: tensor<33x128xf16>, %in1: tensor<128x64xf16>, %out: tensor<33x64xf32>) -> tensor<33x64xf32> {
  %r = linalg.matmul ins(%in0, %in1 : tensor<33x128xf16>, tensor<128x64xf16>) outs(%out : tensor<33x64xf32>) -> tensor<33x64xf32>
  return %r : tensor<33x64xf32>
}

func.func @bf16_transpose_b_deep(%in0: tensor<96x80xbf16>, %in1: tensor<40x80xbf16>, %out: tensor<96x40xf32>) -> tensor<96x40xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%in0, %in1 : tensor<96x80xbf16>, tensor<40x80xbf16>) outs(%out : tensor<96x40xf32>) -> tensor<96x40xf32>
  return %r : tensor<96x40xf32>
}

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %f16_unaligned_0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<37x16xf16>
  %f16_unaligned_1 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<16x33xf16>
  %f16_unaligned_2 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 1) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<37x33xf32>
  %f16_unaligned_r = func.call @f16_unaligned(%f16_unaligned_0, %f16_unaligned_1, %f16_unaligned_2) : (tensor<37x16xf16>, tensor<16x33xf16>, tensor<37x33xf32>) -> tensor<37x33xf32>
  %f16_unaligned_m = bufferization.to_buffer %f16_unaligned_r : tensor<37x33xf32> to memref<37x33xf32>
  %f16_unaligned_u = memref.cast %f16_unaligned_m : memref<37x33xf32> to memref<*xf32>
  func.call @printMemrefF32(%f16_unaligned_u) : (memref<*xf32>) -> ()
  %f16_aligned_0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<64x32xf16>
  %f16_aligned_1 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<32x64xf16>
  %f16_aligned_2 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 1) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<64x64xf32>
  %f16_aligned_r = func.call @f16_aligned(%f16_aligned_0, %f16_aligned_1, %f16_aligned_2) : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %f16_aligned_m = bufferization.to_buffer %f16_aligned_r : tensor<64x64xf32> to memref<64x64xf32>
  %f16_aligned_u = memref.cast %f16_aligned_m : memref<64x64xf32> to memref<*xf32>
  func.call @printMemrefF32(%f16_aligned_u) : (memref<*xf32>) -> ()
  %f16_single_tile_0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<16x16xf16>
  %f16_single_tile_1 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<16x16xf16>
  %f16_single_tile_2 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 1) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<16x16xf32>
  %f16_single_tile_r = func.call @f16_single_tile(%f16_single_tile_0, %f16_single_tile_1, %f16_single_tile_2) : (tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %f16_single_tile_m = bufferization.to_buffer %f16_single_tile_r : tensor<16x16xf32> to memref<16x16xf32>
  %f16_single_tile_u = memref.cast %f16_single_tile_m : memref<16x16xf32> to memref<*xf32>
  func.call @printMemrefF32(%f16_single_tile_u) : (memref<*xf32>) -> ()
  %bf16_transpose_b_0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to bf16
    tensor.yield %e : bf16
  } : tensor<32x16xbf16>
  %bf16_transpose_b_1 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to bf16
    tensor.yield %e : bf16
  } : tensor<48x16xbf16>
  %bf16_transpose_b_2 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 1) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<32x48xf32>
  %bf16_transpose_b_r = func.call @bf16_transpose_b(%bf16_transpose_b_0, %bf16_transpose_b_1, %bf16_transpose_b_2) : (tensor<32x16xbf16>, tensor<48x16xbf16>, tensor<32x48xf32>) -> tensor<32x48xf32>
  %bf16_transpose_b_m = bufferization.to_buffer %bf16_transpose_b_r : tensor<32x48xf32> to memref<32x48xf32>
  %bf16_transpose_b_u = memref.cast %bf16_transpose_b_m : memref<32x48xf32> to memref<*xf32>
  func.call @printMemrefF32(%bf16_transpose_b_u) : (memref<*xf32>) -> ()
  %i8_s32_0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.trunci %w : i32 to i8
    tensor.yield %e : i8
  } : tensor<32x64xi8>
  %i8_s32_1 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.trunci %w : i32 to i8
    tensor.yield %e : i8
  } : tensor<64x32xi8>
  %i8_s32_2 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 1) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.addi %w, %c0_i32 : i32
    tensor.yield %e : i32
  } : tensor<32x32xi32>
  %i8_s32_r = func.call @i8_s32(%i8_s32_0, %i8_s32_1, %i8_s32_2) : (tensor<32x64xi8>, tensor<64x32xi8>, tensor<32x32xi32>) -> tensor<32x32xi32>
  %i8_s32_m = bufferization.to_buffer %i8_s32_r : tensor<32x32xi32> to memref<32x32xi32>
  %i8_s32_u = memref.cast %i8_s32_m : memref<32x32xi32> to memref<*xi32>
  func.call @printMemrefI32(%i8_s32_u) : (memref<*xi32>) -> ()
  %f16_deep_0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<70x128xf16>
  %f16_deep_1 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<128x40xf16>
  %f16_deep_2 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 1) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<70x40xf32>
  %f16_deep_r = func.call @f16_deep(%f16_deep_0, %f16_deep_1, %f16_deep_2) : (tensor<70x128xf16>, tensor<128x40xf16>, tensor<70x40xf32>) -> tensor<70x40xf32>
  %f16_deep_m = bufferization.to_buffer %f16_deep_r : tensor<70x40xf32> to memref<70x40xf32>
  %f16_deep_u = memref.cast %f16_deep_m : memref<70x40xf32> to memref<*xf32>
  func.call @printMemrefF32(%f16_deep_u) : (memref<*xf32>) -> ()
  %bias_relu_0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<48x16xf16>
  %bias_relu_1 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<16x40xf16>
  %bias_relu_2 = tensor.generate {
  ^bb0(%i0: index):
    %s = affine.apply affine_map<(d0) -> ((d0 * 1) mod 3)>(%i0)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<40xf32>
  %bias_relu_3 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<48x40xf32>
  %bias_relu_r = func.call @bias_relu(%bias_relu_0, %bias_relu_1, %bias_relu_2, %bias_relu_3) : (tensor<48x16xf16>, tensor<16x40xf16>, tensor<40xf32>, tensor<48x40xf32>) -> tensor<48x40xf32>
  %bias_relu_m = bufferization.to_buffer %bias_relu_r : tensor<48x40xf32> to memref<48x40xf32>
  %bias_relu_u = memref.cast %bias_relu_m : memref<48x40xf32> to memref<*xf32>
  func.call @printMemrefF32(%bias_relu_u) : (memref<*xf32>) -> ()
  %bias_relu_deep_0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<64x128xf16>
  %bias_relu_deep_1 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<128x64xf16>
  %bias_relu_deep_2 = tensor.generate {
  ^bb0(%i0: index):
    %s = affine.apply affine_map<(d0) -> ((d0 * 1) mod 3)>(%i0)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<64xf32>
  %bias_relu_deep_3 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<64x64xf32>
  %bias_relu_deep_r = func.call @bias_relu_deep(%bias_relu_deep_0, %bias_relu_deep_1, %bias_relu_deep_2, %bias_relu_deep_3) : (tensor<64x128xf16>, tensor<128x64xf16>, tensor<64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %bias_relu_deep_m = bufferization.to_buffer %bias_relu_deep_r : tensor<64x64xf32> to memref<64x64xf32>
  %bias_relu_deep_u = memref.cast %bias_relu_deep_m : memref<64x64xf32> to memref<*xf32>
  func.call @printMemrefF32(%bias_relu_deep_u) : (memref<*xf32>) -> ()
  %f16_partial_deep_0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<33x128xf16>
  %f16_partial_deep_1 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<128x64xf16>
  %f16_partial_deep_2 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 1) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<33x64xf32>
  %f16_partial_deep_r = func.call @f16_partial_deep(%f16_partial_deep_0, %f16_partial_deep_1, %f16_partial_deep_2) : (tensor<33x128xf16>, tensor<128x64xf16>, tensor<33x64xf32>) -> tensor<33x64xf32>
  %f16_partial_deep_m = bufferization.to_buffer %f16_partial_deep_r : tensor<33x64xf32> to memref<33x64xf32>
  %f16_partial_deep_u = memref.cast %f16_partial_deep_m : memref<33x64xf32> to memref<*xf32>
  func.call @printMemrefF32(%f16_partial_deep_u) : (memref<*xf32>) -> ()
  %bf16_transpose_b_deep_0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to bf16
    tensor.yield %e : bf16
  } : tensor<96x80xbf16>
  %bf16_transpose_b_deep_1 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to bf16
    tensor.yield %e : bf16
  } : tensor<40x80xbf16>
  %bf16_transpose_b_deep_2 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 1) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<96x40xf32>
  %bf16_transpose_b_deep_r = func.call @bf16_transpose_b_deep(%bf16_transpose_b_deep_0, %bf16_transpose_b_deep_1, %bf16_transpose_b_deep_2) : (tensor<96x80xbf16>, tensor<40x80xbf16>, tensor<96x40xf32>) -> tensor<96x40xf32>
  %bf16_transpose_b_deep_m = bufferization.to_buffer %bf16_transpose_b_deep_r : tensor<96x40xf32> to memref<96x40xf32>
  %bf16_transpose_b_deep_u = memref.cast %bf16_transpose_b_deep_m : memref<96x40xf32> to memref<*xf32>
  func.call @printMemrefF32(%bf16_transpose_b_deep_u) : (memref<*xf32>) -> ()
  return
}
