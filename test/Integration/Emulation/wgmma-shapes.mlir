// gpucg-matmul-wgmma on the CPU emulator: TMA box loads with the 128-byte
// swizzle into a ring of stages, mbarrier phases and transaction counts,
// warpgroup MMA with asynchronous groups and per-thread accumulator
// fragments, and upstream's warpgroup.mma.store. Kernels: warp specialized
// (128x128 tiles, two consumers of 64 rows, 4 stages refilled: K = 512),
// one warpgroup of 128 rows (two 64-row accumulators, N = 64), 64x256
// bf16, a linear layer (B[n, k]: a wgmma per k16 step), a single K tile
// (one stage), one consumer of 128 rows, two consumers of 128 rows with
// N = 64, warp specialized with one stage (the consumers release the
// stage of the step they just retired). Small-integer inputs make every
// sum exact: the results must equal the untiled kernel's.
//
// Each kernel runs three ways: in order; in reverse; and with TMA data
// landing only when a thread waits on its mbarrier while wgmma groups read
// their tiles when issued (GPUCG_EMU_TMA=wait GPUCG_EMU_WGMMA=issue; the
// default is the other way round), so that both a missing wait and a stage
// refilled under a group in flight show.
//
// Before gpucg-lower-matmul-to-wgmma kept its accumulators at 64 rows, the
// second and seventh kernel here gave wrong rows: MLIR 22's store puts a
// 128-row accumulator's second block N/2 rows down, not 64. Before its
// consumers released the current stage when there is only one, the last
// deadlocked (on a GPU: a hang).

// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a},gpucg-test-emulate-on-cpu)' -o %t.mlir
// RUN: %mlir_runner_emulated %t.mlir | %strip_address > %t.forward
// RUN: diff %t.ref %t.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.mlir | %strip_address > %t.reverse
// RUN: diff %t.ref %t.reverse
// RUN: env GPUCG_EMU_TMA=wait GPUCG_EMU_WGMMA=issue %mlir_runner_emulated %t.mlir | %strip_address > %t.modes
// RUN: diff %t.ref %t.modes

// Staged stores (staged-store): the five kernels whose ring holds the
// staging buffer store their accumulators through it, then copy 16-byte
// pieces to C; the other three store from registers.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-staged-store=true},gpucg-test-emulate-on-cpu)' -o %t.s.mlir
// RUN: %mlir_runner_emulated %t.s.mlir | %strip_address > %t.s
// RUN: diff %t.ref %t.s
// RUN: env GPUCG_EMU_ORDER=reverse GPUCG_EMU_TMA=wait GPUCG_EMU_WGMMA=issue %mlir_runner_emulated %t.s.mlir | %strip_address > %t.s.modes
// RUN: diff %t.ref %t.s.modes
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-staged-store=true})' \
// RUN:   | FileCheck %s --check-prefix=STAGED
// STAGED-LABEL: func.func @ws_f16
// STAGED: memref.view %{{.+}}[%{{.+}}][] : memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>> to memref<128x136xf32, #gpu.address_space<workgroup>>
// STAGED: nvvm.fence.proxy
// STAGED: nvgpu.warpgroup.mma.store
// STAGED: nvvm.barrier
// STAGED: vector.transfer_read {{.+}} : memref<{{.+}}xf32{{.+}}#gpu.address_space<workgroup>>, vector<4xf32>
// STAGED: vector.transfer_write {{.+}} : vector<4xf32>, memref<
// A persistent grid reloads the ring for its next tile: no staging there.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-staged-store=true wgmma-persistent=true wgmma-persistent-workgroups=3})' \
// RUN:   | FileCheck %s --check-prefix=STAGED-PERSISTENT
// STAGED-PERSISTENT-LABEL: func.func @ws_f16
// STAGED-PERSISTENT: scf.forall (%{{.+}}) in (3)
// STAGED-PERSISTENT-NOT: xf32, #gpu.address_space<workgroup>>
// STAGED-PERSISTENT: nvgpu.warpgroup.mma.store {{.+}} to memref<64x128xf32, strided
// STAGED-LABEL: func.func @single_k_tile
// STAGED-NOT: xf32, #gpu.address_space<workgroup>>
// STAGED: nvgpu.warpgroup.mma.store {{.+}} to memref<64x64xf32, strided

// Persistent grids (warp-specialized kernels of more tiles loop over them
// on 3 or 1 workgroups, stages and phases running on across tiles):
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-persistent=true wgmma-persistent-workgroups=3},gpucg-test-emulate-on-cpu)' -o %t.p3.mlir
// RUN: %mlir_runner_emulated %t.p3.mlir | %strip_address > %t.p3
// RUN: diff %t.ref %t.p3
// RUN: env GPUCG_EMU_ORDER=reverse GPUCG_EMU_TMA=wait GPUCG_EMU_WGMMA=issue %mlir_runner_emulated %t.p3.mlir | %strip_address > %t.p3.modes
// RUN: diff %t.ref %t.p3.modes
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-persistent=true wgmma-persistent-workgroups=1},gpucg-test-emulate-on-cpu)' -o %t.p1.mlir
// RUN: %mlir_runner_emulated %t.p1.mlir | %strip_address > %t.p1
// RUN: diff %t.ref %t.p1
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-persistent=true wgmma-persistent-workgroups=3})' \
// RUN:   | FileCheck %s --check-prefix=PERSISTENT
// PERSISTENT-LABEL: func.func @ws_f16
// PERSISTENT: scf.forall (%[[WG:.+]]) in (3)
// PERSISTENT: scf.for %{{.+}} = %[[WG]] to %c4 step %c3
// PERSISTENT-LABEL: func.func @one_warpgroup_128x64
// PERSISTENT: scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (128, 128) step (128, 64)
// PERSISTENT-LABEL: func.func @linear_bf16
// PERSISTENT: scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (128, 256) step (128, 128)

// What ran.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a})' \
// RUN:   | gpucg-opt | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @ws_f16
// IR-SAME: workgroup_size = [384, 1, 1]{{.*}}pipeline_depth = 4
// IR: nvgpu.warpgroup.mma {{.*}}<fragmented = vector<64x128xf32>>
// IR: nvgpu.mbarrier.arrive %
// IR: nvgpu.tma.async.load
// IR-LABEL: func.func @one_warpgroup_128x64
// IR-COUNT-2: nvgpu.warpgroup.mma {{.*}}<fragmented = vector<64x64xf32>>
// IR-COUNT-2: nvgpu.warpgroup.mma.store

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @ws_f16(%a: tensor<256x512xf16>, %b: tensor<512x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    %r = linalg.matmul ins(%a, %b : tensor<256x512xf16>, tensor<512x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %r : tensor<256x256xf32>
  }
  func.func @one_warpgroup_128x64(%a: tensor<128x192xf16>, %b: tensor<192x128xf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
    %r = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 64, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
      ins(%a, %b : tensor<128x192xf16>, tensor<192x128xf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
    return %r : tensor<128x128xf32>
  }
  func.func @bf16_64x256(%a: tensor<192x128xbf16>, %b: tensor<128x256xbf16>, %c: tensor<192x256xf32>) -> tensor<192x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<192x256xf32>) -> tensor<192x256xf32>
    %r = linalg.matmul ins(%a, %b : tensor<192x128xbf16>, tensor<128x256xbf16>) outs(%f : tensor<192x256xf32>) -> tensor<192x256xf32>
    return %r : tensor<192x256xf32>
  }
  func.func @linear_bf16(%a: tensor<128x128xbf16>, %b: tensor<256x128xbf16>, %c: tensor<128x256xf32>) -> tensor<128x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>
    %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<128x128xbf16>, tensor<256x128xbf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
    return %r : tensor<128x256xf32>
  }
  func.func @single_k_tile(%a: tensor<128x64xf16>, %b: tensor<64x128xf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
    %r = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 1>>}
      ins(%a, %b : tensor<128x64xf16>, tensor<64x128xf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
    return %r : tensor<128x128xf32>
  }
  func.func @consumer_128_rows(%a: tensor<128x256xf16>, %b: tensor<256x128xf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
    %r = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [256, 1, 1], pipeline_depth = 3>>}
      ins(%a, %b : tensor<128x256xf16>, tensor<256x128xf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
    return %r : tensor<128x128xf32>
  }
  func.func @two_consumers_128_rows_n64(%a: tensor<256x128xbf16>, %b: tensor<128x128xbf16>, %c: tensor<256x128xf32>) -> tensor<256x128xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x128xf32>) -> tensor<256x128xf32>
    %r = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[256, 64, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2>>}
      ins(%a, %b : tensor<256x128xbf16>, tensor<128x128xbf16>) outs(%f : tensor<256x128xf32>) -> tensor<256x128xf32>
    return %r : tensor<256x128xf32>
  }
  func.func @warp_specialized_one_stage(%a: tensor<128x256xf16>, %b: tensor<256x128xf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
    %r = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 1>>}
      ins(%a, %b : tensor<128x256xf16>, tensor<256x128xf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
    return %r : tensor<128x128xf32>
  }
  func.func @main() {
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %ws_f16_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x512xf16>
    %ws_f16_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<512x256xf16>
    %ws_f16_c = tensor.empty() : tensor<256x256xf32>
    %ws_f16_r = func.call @ws_f16(%ws_f16_a, %ws_f16_b, %ws_f16_c) : (tensor<256x512xf16>, tensor<512x256xf16>, tensor<256x256xf32>) -> tensor<256x256xf32>
    %ws_f16_m = bufferization.to_buffer %ws_f16_r : tensor<256x256xf32> to memref<256x256xf32>
    %ws_f16_u = memref.cast %ws_f16_m : memref<256x256xf32> to memref<*xf32>
    func.call @printMemrefF32(%ws_f16_u) : (memref<*xf32>) -> ()
    %one_warpgroup_128x64_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x192xf16>
    %one_warpgroup_128x64_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<192x128xf16>
    %one_warpgroup_128x64_c = tensor.empty() : tensor<128x128xf32>
    %one_warpgroup_128x64_r = func.call @one_warpgroup_128x64(%one_warpgroup_128x64_a, %one_warpgroup_128x64_b, %one_warpgroup_128x64_c) : (tensor<128x192xf16>, tensor<192x128xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
    %one_warpgroup_128x64_m = bufferization.to_buffer %one_warpgroup_128x64_r : tensor<128x128xf32> to memref<128x128xf32>
    %one_warpgroup_128x64_u = memref.cast %one_warpgroup_128x64_m : memref<128x128xf32> to memref<*xf32>
    func.call @printMemrefF32(%one_warpgroup_128x64_u) : (memref<*xf32>) -> ()
    %bf16_64x256_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<192x128xbf16>
    %bf16_64x256_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<128x256xbf16>
    %bf16_64x256_c = tensor.empty() : tensor<192x256xf32>
    %bf16_64x256_r = func.call @bf16_64x256(%bf16_64x256_a, %bf16_64x256_b, %bf16_64x256_c) : (tensor<192x128xbf16>, tensor<128x256xbf16>, tensor<192x256xf32>) -> tensor<192x256xf32>
    %bf16_64x256_m = bufferization.to_buffer %bf16_64x256_r : tensor<192x256xf32> to memref<192x256xf32>
    %bf16_64x256_u = memref.cast %bf16_64x256_m : memref<192x256xf32> to memref<*xf32>
    func.call @printMemrefF32(%bf16_64x256_u) : (memref<*xf32>) -> ()
    %linear_bf16_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<128x128xbf16>
    %linear_bf16_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<256x128xbf16>
    %linear_bf16_c = tensor.empty() : tensor<128x256xf32>
    %linear_bf16_r = func.call @linear_bf16(%linear_bf16_a, %linear_bf16_b, %linear_bf16_c) : (tensor<128x128xbf16>, tensor<256x128xbf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
    %linear_bf16_m = bufferization.to_buffer %linear_bf16_r : tensor<128x256xf32> to memref<128x256xf32>
    %linear_bf16_u = memref.cast %linear_bf16_m : memref<128x256xf32> to memref<*xf32>
    func.call @printMemrefF32(%linear_bf16_u) : (memref<*xf32>) -> ()
    %single_k_tile_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x64xf16>
    %single_k_tile_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<64x128xf16>
    %single_k_tile_c = tensor.empty() : tensor<128x128xf32>
    %single_k_tile_r = func.call @single_k_tile(%single_k_tile_a, %single_k_tile_b, %single_k_tile_c) : (tensor<128x64xf16>, tensor<64x128xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
    %single_k_tile_m = bufferization.to_buffer %single_k_tile_r : tensor<128x128xf32> to memref<128x128xf32>
    %single_k_tile_u = memref.cast %single_k_tile_m : memref<128x128xf32> to memref<*xf32>
    func.call @printMemrefF32(%single_k_tile_u) : (memref<*xf32>) -> ()
    %consumer_128_rows_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x256xf16>
    %consumer_128_rows_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x128xf16>
    %consumer_128_rows_c = tensor.empty() : tensor<128x128xf32>
    %consumer_128_rows_r = func.call @consumer_128_rows(%consumer_128_rows_a, %consumer_128_rows_b, %consumer_128_rows_c) : (tensor<128x256xf16>, tensor<256x128xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
    %consumer_128_rows_m = bufferization.to_buffer %consumer_128_rows_r : tensor<128x128xf32> to memref<128x128xf32>
    %consumer_128_rows_u = memref.cast %consumer_128_rows_m : memref<128x128xf32> to memref<*xf32>
    func.call @printMemrefF32(%consumer_128_rows_u) : (memref<*xf32>) -> ()
    %two_consumers_128_rows_n64_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<256x128xbf16>
    %two_consumers_128_rows_n64_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<128x128xbf16>
    %two_consumers_128_rows_n64_c = tensor.empty() : tensor<256x128xf32>
    %two_consumers_128_rows_n64_r = func.call @two_consumers_128_rows_n64(%two_consumers_128_rows_n64_a, %two_consumers_128_rows_n64_b, %two_consumers_128_rows_n64_c) : (tensor<256x128xbf16>, tensor<128x128xbf16>, tensor<256x128xf32>) -> tensor<256x128xf32>
    %two_consumers_128_rows_n64_m = bufferization.to_buffer %two_consumers_128_rows_n64_r : tensor<256x128xf32> to memref<256x128xf32>
    %two_consumers_128_rows_n64_u = memref.cast %two_consumers_128_rows_n64_m : memref<256x128xf32> to memref<*xf32>
    func.call @printMemrefF32(%two_consumers_128_rows_n64_u) : (memref<*xf32>) -> ()
    %warp_specialized_one_stage_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x256xf16>
    %warp_specialized_one_stage_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x128xf16>
    %warp_specialized_one_stage_c = tensor.empty() : tensor<128x128xf32>
    %warp_specialized_one_stage_r = func.call @warp_specialized_one_stage(%warp_specialized_one_stage_a, %warp_specialized_one_stage_b, %warp_specialized_one_stage_c) : (tensor<128x256xf16>, tensor<256x128xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
    %warp_specialized_one_stage_m = bufferization.to_buffer %warp_specialized_one_stage_r : tensor<128x128xf32> to memref<128x128xf32>
    %warp_specialized_one_stage_u = memref.cast %warp_specialized_one_stage_m : memref<128x128xf32> to memref<*xf32>
    func.call @printMemrefF32(%warp_specialized_one_stage_u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
