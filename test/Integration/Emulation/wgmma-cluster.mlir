// gpucg-matmul-wgmma with thread-block clusters on the CPU emulator: the
// workgroups of a cluster run together, each loading a slice of the tiles
// it shares (A along its row of the cluster, B along its column) and
// multicasting it, releasing a stage to its peers by remote mbarrier
// arrivals. Kernels (2 x 2 tiles each): warp specialized f16 (strategy's
// 128x128 tiles, 4 stages, K = 512: stages refilled, B[k, n] sliced in K
// rows), a bf16 linear layer (B[n, k] sliced in N rows), a fused bias +
// ReLU (staged in the ring), and a user's plan of one stage (the consumers
// release the stage of the step they just retired). Small-integer inputs:
// the results must equal the untiled kernel's bit for bit.
//
// Clusters of 2 x 2, 2 x 1 and 1 x 2 workgroups, one workgroup per tile
// or on a persistent grid; each in order, in reverse, and with TMA data
// landing at the wait while wgmma reads at issue.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-cluster-m=2 wgmma-cluster-n=2},gpucg-test-emulate-on-cpu)' -o %t.22.mlir
// RUN: %mlir_runner_emulated %t.22.mlir | %strip_address > %t.22
// RUN: diff %t.ref %t.22
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.22.mlir | %strip_address > %t.22.reverse
// RUN: diff %t.ref %t.22.reverse
// RUN: env GPUCG_EMU_TMA=wait GPUCG_EMU_WGMMA=issue %mlir_runner_emulated %t.22.mlir | %strip_address > %t.22.modes
// RUN: diff %t.ref %t.22.modes
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-cluster-m=2},gpucg-test-emulate-on-cpu)' -o %t.21.mlir
// RUN: %mlir_runner_emulated %t.21.mlir | %strip_address > %t.21
// RUN: diff %t.ref %t.21
// RUN: env GPUCG_EMU_ORDER=reverse GPUCG_EMU_TMA=wait GPUCG_EMU_WGMMA=issue %mlir_runner_emulated %t.21.mlir | %strip_address > %t.21.modes
// RUN: diff %t.ref %t.21.modes
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-cluster-n=2},gpucg-test-emulate-on-cpu)' -o %t.12.mlir
// RUN: %mlir_runner_emulated %t.12.mlir | %strip_address > %t.12
// RUN: diff %t.ref %t.12
// RUN: env GPUCG_EMU_ORDER=reverse GPUCG_EMU_TMA=wait GPUCG_EMU_WGMMA=issue %mlir_runner_emulated %t.12.mlir | %strip_address > %t.12.modes
// RUN: diff %t.ref %t.12.modes

// On persistent grids: 2 workgroups (one cluster of 2 along M) and 3
// (rounded down to 2: one cluster of 2 along N) loop over the kernels'
// 2 cluster tiles, stages and phases running on across them.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-cluster-m=2 wgmma-persistent=true wgmma-persistent-workgroups=2},gpucg-test-emulate-on-cpu)' -o %t.p21.mlir
// RUN: %mlir_runner_emulated %t.p21.mlir | %strip_address > %t.p21
// RUN: diff %t.ref %t.p21
// RUN: env GPUCG_EMU_ORDER=reverse GPUCG_EMU_TMA=wait GPUCG_EMU_WGMMA=issue %mlir_runner_emulated %t.p21.mlir | %strip_address > %t.p21.modes
// RUN: diff %t.ref %t.p21.modes
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-cluster-n=2 wgmma-persistent=true wgmma-persistent-workgroups=3},gpucg-test-emulate-on-cpu)' -o %t.p12.mlir
// RUN: %mlir_runner_emulated %t.p12.mlir | %strip_address > %t.p12
// RUN: diff %t.ref %t.p12
// RUN: env GPUCG_EMU_ORDER=reverse GPUCG_EMU_TMA=wait GPUCG_EMU_WGMMA=issue %mlir_runner_emulated %t.p12.mlir | %strip_address > %t.p12.modes
// RUN: diff %t.ref %t.p12.modes
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-cluster-n=2 wgmma-persistent=true wgmma-persistent-workgroups=3})' \
// RUN:   | FileCheck %s --check-prefix=PERSISTENT
// PERSISTENT-LABEL: func.func @ws_f16
// PERSISTENT: scf.forall (%{{.+}}) in (2)
// PERSISTENT: } {gpucg.cluster_shape = array<i64: 2, 1, 1>, mapping = [#gpu.block<x>]}

// What ran: every kernel in clusters, multicasting.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-cluster-m=2 wgmma-cluster-n=2})' -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// IR-LABEL: func.func @ws_f16
// IR: nvgpu.tma.async.load {{.+}} multicast_mask
// IR: } {gpucg.cluster_shape = array<i64: 2, 2, 1>
// IR-LABEL: func.func @linear_bf16
// IR: } {gpucg.cluster_shape = array<i64: 2, 2, 1>
// IR-LABEL: func.func @bias_relu_f16
// IR: } {gpucg.cluster_shape = array<i64: 2, 2, 1>
// IR-LABEL: func.func @one_stage
// IR: } {gpucg.cluster_shape = array<i64: 2, 2, 1>

// Mutations of the 2 x 2 kernels (the first kernel's), each caught:
// the producer's wait on its peer barrier removed (it refills a stage its
// peers' consumers may still read): wrong numbers.
// RUN: %mutate pass-cluster-wait 1 < %t.mlir > %t.m0.mlir
// RUN: gpucg-opt %t.m0.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.m0.emu.mlir
// RUN: %mlir_runner_emulated %t.m0.emu.mlir | %strip_address > %t.m0
// RUN: not diff -q %t.ref %t.m0
// The cluster barrier after the barriers' initialisation removed: a peer
// multicasts into (or waits on) a barrier not yet initialised.
// RUN: %mutate drop-cluster-wait 1 < %t.mlir > %t.m1.mlir
// RUN: gpucg-opt %t.m1.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=INIT
// INIT: gpucg-emulator: error: {{.+}}nvgpu.tma.async.load: multicasts to mbarrier 0 of the group made at {{.+}} in CTA rank 1 (workgroup (1, 0, 0)), which has not initialized it
// One remote arrival removed: that peer's barrier never completes.
// RUN: %mutate drop-remote-arrive 1 < %t.mlir > %t.m2.mlir
// RUN: gpucg-opt %t.m2.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=ARRIVE
// ARRIVE: gpucg-emulator: error: workgroup (0, 0, 0): deadlock: {{.+}}nvgpu.mbarrier.try_wait.parity

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @ws_f16(%a: tensor<256x512xf16>, %b: tensor<512x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    %r = linalg.matmul
      ins(%a, %b : tensor<256x512xf16>, tensor<512x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %r : tensor<256x256xf32>
  }
  func.func @linear_bf16(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %r : tensor<256x256xf32>
  }
  func.func @bias_relu_f16(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %bias: tensor<256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %zero = arith.constant 0.0 : f32
    %t = tensor.empty() : tensor<256x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%t : tensor<256x256xf32>) -> tensor<256x256xf32>
    %r = linalg.matmul
      ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%r, %bias : tensor<256x256xf32>, tensor<256xf32>) outs(%c : tensor<256x256xf32>) {
    ^bb0(%x: f32, %bb: f32, %o: f32):
      %s = arith.addf %x, %bb : f32
      %m = arith.maximumf %s, %zero : f32
      linalg.yield %m : f32
    } -> tensor<256x256xf32>
    return %y : tensor<256x256xf32>
  }
  func.func @one_stage(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    %r = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 1>>}
      ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %r : tensor<256x256xf32>
  }
  func.func @main() {
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
    %linear_bf16_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<256x256xbf16>
    %linear_bf16_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<256x256xbf16>
    %linear_bf16_c = tensor.empty() : tensor<256x256xf32>
    %linear_bf16_r = func.call @linear_bf16(%linear_bf16_a, %linear_bf16_b, %linear_bf16_c) : (tensor<256x256xbf16>, tensor<256x256xbf16>, tensor<256x256xf32>) -> tensor<256x256xf32>
    %linear_bf16_m = bufferization.to_buffer %linear_bf16_r : tensor<256x256xf32> to memref<256x256xf32>
    %linear_bf16_u = memref.cast %linear_bf16_m : memref<256x256xf32> to memref<*xf32>
    func.call @printMemrefF32(%linear_bf16_u) : (memref<*xf32>) -> ()
    %bias_relu_f16_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x256xf16>
    %bias_relu_f16_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x256xf16>
    %bias_relu_f16_bias = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<256xf32>
    %bias_relu_f16_c = tensor.empty() : tensor<256x256xf32>
    %bias_relu_f16_r = func.call @bias_relu_f16(%bias_relu_f16_a, %bias_relu_f16_b, %bias_relu_f16_bias, %bias_relu_f16_c) : (tensor<256x256xf16>, tensor<256x256xf16>, tensor<256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
    %bias_relu_f16_m = bufferization.to_buffer %bias_relu_f16_r : tensor<256x256xf32> to memref<256x256xf32>
    %bias_relu_f16_u = memref.cast %bias_relu_f16_m : memref<256x256xf32> to memref<*xf32>
    func.call @printMemrefF32(%bias_relu_f16_u) : (memref<*xf32>) -> ()
    %one_stage_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x256xf16>
    %one_stage_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x256xf16>
    %one_stage_c = tensor.empty() : tensor<256x256xf32>
    %one_stage_r = func.call @one_stage(%one_stage_a, %one_stage_b, %one_stage_c) : (tensor<256x256xf16>, tensor<256x256xf16>, tensor<256x256xf32>) -> tensor<256x256xf32>
    %one_stage_m = bufferization.to_buffer %one_stage_r : tensor<256x256xf32> to memref<256x256xf32>
    %one_stage_u = memref.cast %one_stage_m : memref<256x256xf32> to memref<*xf32>
    func.call @printMemrefF32(%one_stage_u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
