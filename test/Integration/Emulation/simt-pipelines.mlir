// The SIMT pipelines on the CPU emulator, each on the same kernels: a prime
// matmul (partial tiles everywhere), the 1x1x1 matmul, a MatmulSimt matmul
// of 8 warps whose tiles of A and B go through workgroup memory between
// barriers (its compilation_info), the same software-pipelined over cp.async
// with 2 and 3 stages (pipeline_depth), an 8-row matmul the strategy itself
// plans MatmulSimt with 2 stages, an elementwise kernel and short-row sums. Bit-exact against the untiled kernels with small-integer inputs.

// The untiled kernels, run as they are, are the reference.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// gpucg-simt:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-simt{chip=sm_80},gpucg-test-emulate-on-cpu)' -o %t.0.mlir
// RUN: %mlir_runner_emulated %t.0.mlir | %strip_address > %t.0.forward
// RUN: diff %t.ref %t.0.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.0.mlir | %strip_address > %t.0.reverse
// RUN: diff %t.ref %t.0.reverse
// gpucg-matmul-simt (A and B through workgroup memory for multi-warp workgroups):
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-simt{chip=sm_80},gpucg-test-emulate-on-cpu)' -o %t.1.mlir
// RUN: %mlir_runner_emulated %t.1.mlir | %strip_address > %t.1.forward
// RUN: diff %t.ref %t.1.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.1.mlir | %strip_address > %t.1.reverse
// RUN: diff %t.ref %t.1.reverse
// gpucg-vectorize:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-vectorize{chip=sm_80},gpucg-test-emulate-on-cpu)' -o %t.2.mlir
// RUN: %mlir_runner_emulated %t.2.mlir | %strip_address > %t.2.forward
// RUN: diff %t.ref %t.2.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.2.mlir | %strip_address > %t.2.reverse
// RUN: diff %t.ref %t.2.reverse
// gpucg-warp-reduction, whose non-reduction kernels take their own plan's SIMT stages:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-warp-reduction{chip=sm_80},gpucg-test-emulate-on-cpu)' -o %t.3.mlir
// RUN: %mlir_runner_emulated %t.3.mlir | %strip_address > %t.3.forward
// RUN: diff %t.ref %t.3.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.3.mlir | %strip_address > %t.3.reverse
// RUN: diff %t.ref %t.3.reverse

// What ran: the promoted matmul's barriers.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-simt{chip=sm_80})' \
// RUN:   | gpucg-opt | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @f32_promoted
// IR: gpu.barrier
// IR: #gpu.address_space<workgroup>
// IR-LABEL: func.func @f32_thin
// IR: scf.for
// IR: nvgpu.device_async_wait %{{.+}} {numGroups = 1 : i32}
// IR-LABEL: func.func @f32_pipelined
// IR: nvgpu.device_async_copy
// IR: scf.for
// IR: nvgpu.device_async_wait %{{.+}} {numGroups = 1 : i32}
// IR-LABEL: func.func @f32_pipelined_3
// IR: scf.for
// IR: nvgpu.device_async_wait %{{.+}} {numGroups = 2 : i32}

func.func @f32_prime(%in0: tensor<37x23xf32>, %in1: tensor<23x41xf32>, %out: tensor<37x41xf32>) -> tensor<37x41xf32> {
  %r = linalg.matmul ins(%in0, %in1 : tensor<37x23xf32>, tensor<23x41xf32>) outs(%out : tensor<37x41xf32>) -> tensor<37x41xf32>
  return %r : tensor<37x41xf32>
}

func.func @f32_1x1x1(%in0: tensor<1x1xf32>, %in1: tensor<1x1xf32>, %out: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %r = linalg.matmul ins(%in0, %in1 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%out : tensor<1x1xf32>) -> tensor<1x1xf32>
  return %r : tensor<1x1xf32>
}

func.func @f32_promoted(%in0: tensor<128x40xf32>, %in1: tensor<40x64xf32>, %out: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %r = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 8]]>,
      translation_info = #gpucg.translation_info<pipeline = MatmulSimt, workgroup_size = [16, 16, 1]>>}
    ins(%in0, %in1 : tensor<128x40xf32>, tensor<40x64xf32>) outs(%out : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}

func.func @f32_thin(%in0: tensor<8x96xf32>, %in1: tensor<96x64xf32>, %out: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %r = linalg.matmul ins(%in0, %in1 : tensor<8x96xf32>, tensor<96x64xf32>) outs(%out : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}

func.func @f32_pipelined(%in0: tensor<128x40xf32>, %in1: tensor<40x64xf32>, %out: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %r = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 8]]>,
      translation_info = #gpucg.translation_info<pipeline = MatmulSimt, workgroup_size = [8, 8, 1], pipeline_depth = 2>>}
    ins(%in0, %in1 : tensor<128x40xf32>, tensor<40x64xf32>) outs(%out : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}

func.func @f32_pipelined_3(%in0: tensor<128x48xf32>, %in1: tensor<48x64xf32>, %out: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %r = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>,
      translation_info = #gpucg.translation_info<pipeline = MatmulSimt, workgroup_size = [8, 8, 1], pipeline_depth = 3>>}
    ins(%in0, %in1 : tensor<128x48xf32>, tensor<48x64xf32>) outs(%out : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}

func.func @fma(%in0: tensor<33x65xf32>, %in1: tensor<33x65xf32>, %out: tensor<33x65xf32>) -> tensor<33x65xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
    ins(%in0, %in1 : tensor<33x65xf32>, tensor<33x65xf32>) outs(%out : tensor<33x65xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %t = arith.addf %p, %o : f32
    linalg.yield %t : f32
  } -> tensor<33x65xf32>
  return %r : tensor<33x65xf32>
}

func.func @rowsum(%in0: tensor<100x37xf32>, %out: tensor<100xf32>) -> tensor<100xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%in0 : tensor<100x37xf32>) outs(%out : tensor<100xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  } -> tensor<100xf32>
  return %r : tensor<100xf32>
}

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %f32_prime_0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<37x23xf32>
  %f32_prime_1 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<23x41xf32>
  %f32_prime_2 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 1) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<37x41xf32>
  %f32_prime_r = func.call @f32_prime(%f32_prime_0, %f32_prime_1, %f32_prime_2) : (tensor<37x23xf32>, tensor<23x41xf32>, tensor<37x41xf32>) -> tensor<37x41xf32>
  %f32_prime_m = bufferization.to_buffer %f32_prime_r : tensor<37x41xf32> to memref<37x41xf32>
  %f32_prime_u = memref.cast %f32_prime_m : memref<37x41xf32> to memref<*xf32>
  func.call @printMemrefF32(%f32_prime_u) : (memref<*xf32>) -> ()
  %f32_1x1x1_0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<1x1xf32>
  %f32_1x1x1_1 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<1x1xf32>
  %f32_1x1x1_2 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 1) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<1x1xf32>
  %f32_1x1x1_r = func.call @f32_1x1x1(%f32_1x1x1_0, %f32_1x1x1_1, %f32_1x1x1_2) : (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
  %f32_1x1x1_m = bufferization.to_buffer %f32_1x1x1_r : tensor<1x1xf32> to memref<1x1xf32>
  %f32_1x1x1_u = memref.cast %f32_1x1x1_m : memref<1x1xf32> to memref<*xf32>
  func.call @printMemrefF32(%f32_1x1x1_u) : (memref<*xf32>) -> ()
  %f32_promoted_0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<128x40xf32>
  %f32_promoted_1 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<40x64xf32>
  %f32_promoted_2 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 1) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<128x64xf32>
  %f32_promoted_r = func.call @f32_promoted(%f32_promoted_0, %f32_promoted_1, %f32_promoted_2) : (tensor<128x40xf32>, tensor<40x64xf32>, tensor<128x64xf32>) -> tensor<128x64xf32>
  %f32_promoted_m = bufferization.to_buffer %f32_promoted_r : tensor<128x64xf32> to memref<128x64xf32>
  %f32_promoted_u = memref.cast %f32_promoted_m : memref<128x64xf32> to memref<*xf32>
  func.call @printMemrefF32(%f32_promoted_u) : (memref<*xf32>) -> ()
  %f32_thin_0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<8x96xf32>
  %f32_thin_1 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<96x64xf32>
  %f32_thin_2 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 1) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<8x64xf32>
  %f32_thin_r = func.call @f32_thin(%f32_thin_0, %f32_thin_1, %f32_thin_2) : (tensor<8x96xf32>, tensor<96x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %f32_thin_m = bufferization.to_buffer %f32_thin_r : tensor<8x64xf32> to memref<8x64xf32>
  %f32_thin_u = memref.cast %f32_thin_m : memref<8x64xf32> to memref<*xf32>
  func.call @printMemrefF32(%f32_thin_u) : (memref<*xf32>) -> ()
  %f32_pipelined_0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<128x40xf32>
  %f32_pipelined_1 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<40x64xf32>
  %f32_pipelined_2 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 1) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<128x64xf32>
  %f32_pipelined_r = func.call @f32_pipelined(%f32_pipelined_0, %f32_pipelined_1, %f32_pipelined_2) : (tensor<128x40xf32>, tensor<40x64xf32>, tensor<128x64xf32>) -> tensor<128x64xf32>
  %f32_pipelined_m = bufferization.to_buffer %f32_pipelined_r : tensor<128x64xf32> to memref<128x64xf32>
  %f32_pipelined_u = memref.cast %f32_pipelined_m : memref<128x64xf32> to memref<*xf32>
  func.call @printMemrefF32(%f32_pipelined_u) : (memref<*xf32>) -> ()
  %f32_pipelined_3_0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<128x48xf32>
  %f32_pipelined_3_1 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<48x64xf32>
  %f32_pipelined_3_2 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 1) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<128x64xf32>
  %f32_pipelined_3_r = func.call @f32_pipelined_3(%f32_pipelined_3_0, %f32_pipelined_3_1, %f32_pipelined_3_2) : (tensor<128x48xf32>, tensor<48x64xf32>, tensor<128x64xf32>) -> tensor<128x64xf32>
  %f32_pipelined_3_m = bufferization.to_buffer %f32_pipelined_3_r : tensor<128x64xf32> to memref<128x64xf32>
  %f32_pipelined_3_u = memref.cast %f32_pipelined_3_m : memref<128x64xf32> to memref<*xf32>
  func.call @printMemrefF32(%f32_pipelined_3_u) : (memref<*xf32>) -> ()
  %fma_0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<33x65xf32>
  %fma_1 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<33x65xf32>
  %fma_2 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 1) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<33x65xf32>
  %fma_r = func.call @fma(%fma_0, %fma_1, %fma_2) : (tensor<33x65xf32>, tensor<33x65xf32>, tensor<33x65xf32>) -> tensor<33x65xf32>
  %fma_m = bufferization.to_buffer %fma_r : tensor<33x65xf32> to memref<33x65xf32>
  %fma_u = memref.cast %fma_m : memref<33x65xf32> to memref<*xf32>
  func.call @printMemrefF32(%fma_u) : (memref<*xf32>) -> ()
  %rowsum_0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<100x37xf32>
  %rowsum_1 = tensor.generate {
  ^bb0(%i0: index):
    %s = affine.apply affine_map<(d0) -> ((d0 * 2) mod 5)>(%i0)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<100xf32>
  %rowsum_r = func.call @rowsum(%rowsum_0, %rowsum_1) : (tensor<100x37xf32>, tensor<100xf32>) -> tensor<100xf32>
  %rowsum_m = bufferization.to_buffer %rowsum_r : tensor<100xf32> to memref<100xf32>
  %rowsum_u = memref.cast %rowsum_m : memref<100xf32> to memref<*xf32>
  func.call @printMemrefF32(%rowsum_u) : (memref<*xf32>) -> ()
  return
}
