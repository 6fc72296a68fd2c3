// gpucg-matmul-wgmma with a fused epilogue on the CPU emulator: the
// consumers store their accumulators to a staging buffer in workgroup
// memory (the ring of stages itself when it is large enough and no loads
// follow, after a barrier of all the consumers), meet at their
// warpgroup's named barrier (nvvm.barrier id = 1 + warpgroup, 128
// threads; one warpgroup: gpu.barrier), and run the elementwise consumers
// on 16-byte pieces of rows. Kernels: warp
// specialized bias + ReLU + f16 cast (strategy: 128x128 tiles, 4 stages
// next to the staging buffer), one warpgroup (a user's 128x64 plan) with a
// row scale and a column bias in f32, a linear layer (B[n, k]) with a bf16
// cast, warp specialized with one stage and a saturating i8 cast (16
// elements per piece), one consumer of 128 rows subtracting a row bias,
// warp specialized with a single K tile (four tiles), and a chain of two
// consumers (bias, then ReLU and a bf16 cast) whose intermediate result
// each piece keeps in a private buffer.
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

// Persistent grids: the consumers stage each tile in turn (a second named
// barrier keeps the next tile's stores behind this tile's reads).
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-persistent=true wgmma-persistent-workgroups=3},gpucg-test-emulate-on-cpu)' -o %t.p3.mlir
// RUN: %mlir_runner_emulated %t.p3.mlir | %strip_address > %t.p3
// RUN: diff %t.ref %t.p3
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-persistent=true wgmma-persistent-workgroups=1},gpucg-test-emulate-on-cpu)' -o %t.p1.mlir
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.p1.mlir | %strip_address > %t.p1
// RUN: diff %t.ref %t.p1

// Each barrier before the epilogue matters: without a warpgroup's named
// barrier (or the one warpgroup's gpu.barrier) threads read pieces of the
// staging buffer other threads have not stored yet; without the barrier
// of all the consumers (or of the one warpgroup) before a staging buffer
// in the ring, a warpgroup stores over stages whose wgmma groups another
// has not retired.
// RUN: %mutate drop-named-barrier 1 < %t.wgmma.mlir > %t.m1.mlir
// RUN: gpucg-opt %t.m1.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m1
// RUN: not diff -q %t.ref %t.m1
// RUN: %mutate drop-named-barrier 2 < %t.wgmma.mlir > %t.m2.mlir
// RUN: gpucg-opt %t.m2.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m2
// RUN: not diff -q %t.ref %t.m2
// RUN: %mutate drop-named-barrier 4 < %t.wgmma.mlir > %t.m3.mlir
// RUN: gpucg-opt %t.m3.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m3
// RUN: not diff -q %t.ref %t.m3
// RUN: %mutate drop-barrier 4 < %t.wgmma.mlir > %t.m4.mlir
// RUN: gpucg-opt %t.m4.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m4
// RUN: not diff -q %t.ref %t.m4
// RUN: %mutate drop-barrier 5 < %t.wgmma.mlir > %t.m5.mlir
// RUN: gpucg-opt %t.m5.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m5
// RUN: not diff -q %t.ref %t.m5
// With one K tile and two stages the producer loads the next tile at once,
// so without the second named barrier of a persistent grid the consumers'
// first warps store the next tile over rows their other warps still read.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-persistent=true wgmma-persistent-workgroups=1})' -o %t.p1.wgmma.mlir
// RUN: %mutate drop-named-barrier 9 < %t.p1.wgmma.mlir > %t.m9.mlir
// RUN: gpucg-opt %t.m9.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m9
// RUN: not diff -q %t.ref %t.m9
// RUN: %mutate drop-barrier 4 < %t.wgmma.mlir > %t.m4.mlir
// RUN: gpucg-opt %t.m4.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m4
// RUN: not diff -q %t.ref %t.m4

// What ran (and that it parses again).
// RUN: gpucg-opt %t.wgmma.mlir | FileCheck %s
// CHECK-LABEL: func.func @ws_bias_relu_f16
// CHECK-SAME: workgroup_size = [384, 1, 1]{{.*}}pipeline_depth = 4
// CHECK: scf.forall ({{.*}}) = (0, 0) to (256, 256) step (128, 128)
// CHECK: %[[RING:.+]] = memref.alloc() {alignment = 1024 : i64} : memref<131072xi8, #gpu.address_space<workgroup>>
// CHECK: %[[STAGING:.+]] = memref.view %[[RING]][%c0][] : memref<131072xi8, #gpu.address_space<workgroup>> to memref<128x136xf32, #gpu.address_space<workgroup>>
// CHECK: %[[WG:.+]] = arith.divui %{{.+}}, %c128
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.barrier id = %c3_i32 number_of_threads = %c256_i32
// CHECK: nvgpu.warpgroup.mma.store %{{.+}}, %{{.+}} : <fragmented = vector<64x128xf32>> to memref<64x128xf32, strided<[136, 1]>, #gpu.address_space<workgroup>>
// CHECK: %[[ID:.+]] = arith.addi %[[WG]], %c1
// CHECK: %[[ID32:.+]] = arith.index_castui %[[ID]] : index to i32
// CHECK: nvvm.barrier id = %[[ID32]] number_of_threads = %c128_i32
// CHECK: scf.for %{{.+}} = %{{.+}} to %c1024 step %c128
// CHECK: vector.transfer_read %[[STAGING]]{{.*}} vector<8xf32>
// CHECK: arith.maximumf {{.*}} : vector<8xf32>
// CHECK: vector.transfer_write {{.*}} : vector<8xf16>, memref<256x256xf16>
// CHECK-LABEL: func.func @one_warpgroup_scale_bias
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.warpgroup.mma.store
// CHECK: nvgpu.warpgroup.mma.store
// CHECK-NEXT: gpu.barrier
// CHECK: scf.for %{{.+}} = %thread_id_x to %c2048 step %c128
// CHECK: vector.transfer_write {{.*}} : vector<4xf32>, memref<128x128xf32>
// CHECK-LABEL: func.func @ws_one_stage_i8_out
// CHECK: scf.for %{{.+}} = %{{.+}} to %c512 step %c128
// CHECK: arith.fptosi {{.*}} : vector<16xf32> to vector<16xi8>
// CHECK-LABEL: func.func @ws_chain
// CHECK: memref.alloc() {alignment = 16 : i64} : memref<128x136xf32, #gpu.address_space<workgroup>>
// CHECK: memref.alloca() : memref<1x8xf32>
// CHECK: vector.transfer_write {{.*}} : vector<8xbf16>, memref<256x256xbf16>

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @ws_bias_relu_f16(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %bias: tensor<256xf32>, %out: tensor<256x256xf16>) -> tensor<256x256xf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
    %m = linalg.matmul ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<256x256xf32>, tensor<256xf32>) outs(%out : tensor<256x256xf16>) {
    ^bb0(%x: f32, %y: f32, %o: f16):
      %s = arith.addf %x, %y : f32
      %relu = arith.maximumf %s, %zero : f32
      %t = arith.truncf %relu : f32 to f16
      linalg.yield %t : f16
    } -> tensor<256x256xf16>
    return %r : tensor<256x256xf16>
  }
  func.func @one_warpgroup_scale_bias(%a: tensor<128x192xf16>, %b: tensor<192x128xf16>, %scale: tensor<128xf32>, %bias: tensor<128xf32>, %out: tensor<128x128xf32>) -> tensor<128x128xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%out : tensor<128x128xf32>) -> tensor<128x128xf32>
    %m = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 64, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
      ins(%a, %b : tensor<128x192xf16>, tensor<192x128xf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %scale, %bias : tensor<128x128xf32>, tensor<128xf32>, tensor<128xf32>) outs(%out : tensor<128x128xf32>) {
    ^bb0(%x: f32, %s: f32, %y: f32, %o: f32):
      %p = arith.mulf %x, %s : f32
      %q = arith.addf %p, %y : f32
      linalg.yield %q : f32
    } -> tensor<128x128xf32>
    return %r : tensor<128x128xf32>
  }
  func.func @linear_bf16_out(%a: tensor<128x128xbf16>, %b: tensor<256x128xbf16>, %bias: tensor<256xf32>, %out: tensor<128x256xbf16>) -> tensor<128x256xbf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %m = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<128x128xbf16>, tensor<256x128xbf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<128x256xf32>, tensor<256xf32>) outs(%out : tensor<128x256xbf16>) {
    ^bb0(%x: f32, %y: f32, %o: bf16):
      %s = arith.addf %x, %y : f32
      %t = arith.truncf %s : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x256xbf16>
    return %r : tensor<128x256xbf16>
  }
  func.func @ws_one_stage_i8_out(%a: tensor<128x256xf16>, %b: tensor<256x256xf16>, %out: tensor<128x256xi8>) -> tensor<128x256xi8> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %m = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 1>>}
      ins(%a, %b : tensor<128x256xf16>, tensor<256x256xf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<128x256xf32>) outs(%out : tensor<128x256xi8>) {
    ^bb0(%x: f32, %o: i8):
      %lo = arith.constant -128.0 : f32
      %hi = arith.constant 127.0 : f32
      %c1 = arith.maximumf %x, %lo : f32
      %c2 = arith.minimumf %c1, %hi : f32
      %t = arith.fptosi %c2 : f32 to i8
      linalg.yield %t : i8
    } -> tensor<128x256xi8>
    return %r : tensor<128x256xi8>
  }
  func.func @consumer_128_rows(%a: tensor<128x128xf16>, %b: tensor<128x128xf16>, %bias: tensor<128xf32>, %out: tensor<128x128xf32>) -> tensor<128x128xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%out : tensor<128x128xf32>) -> tensor<128x128xf32>
    %m = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [256, 1, 1], pipeline_depth = 2>>}
      ins(%a, %b : tensor<128x128xf16>, tensor<128x128xf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<128x128xf32>, tensor<128xf32>) outs(%out : tensor<128x128xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.subf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<128x128xf32>
    return %r : tensor<128x128xf32>
  }
  func.func @persistent_one_k_tile(%a: tensor<256x64xf16>, %b: tensor<64x256xf16>, %bias: tensor<256xf32>, %out: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
    %m = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2>>}
      ins(%a, %b : tensor<256x64xf16>, tensor<64x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<256x256xf32>, tensor<256xf32>) outs(%out : tensor<256x256xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<256x256xf32>
    return %r : tensor<256x256xf32>
  }
  func.func @ws_chain(%a: tensor<256x128xf16>, %b: tensor<128x256xf16>, %bias: tensor<256xf32>, %out: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
    %m = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<256x256xf32>, tensor<256xf32>) outs(%e : tensor<256x256xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %t = arith.addf %x, %y : f32
      linalg.yield %t : f32
    } -> tensor<256x256xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<256x256xf32>) outs(%out : tensor<256x256xbf16>) {
    ^bb0(%x: f32, %o: bf16):
      %relu = arith.maximumf %x, %zero : f32
      %t = arith.truncf %relu : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x256xbf16>
    return %r : tensor<256x256xbf16>
  }
  func.func @main() {
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
    %ws_bias_relu_f16_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x256xf16>
    %ws_bias_relu_f16_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x256xf16>
    %ws_bias_relu_f16_2 = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<256xf32>
    %ws_bias_relu_f16_3 = tensor.empty() : tensor<256x256xf16>
    %ws_bias_relu_f16_r0 = func.call @ws_bias_relu_f16(%ws_bias_relu_f16_0, %ws_bias_relu_f16_1, %ws_bias_relu_f16_2, %ws_bias_relu_f16_3) : (tensor<256x256xf16>, tensor<256x256xf16>, tensor<256xf32>, tensor<256x256xf16>) -> (tensor<256x256xf16>)
    %ws_bias_relu_f16_r0_m = bufferization.to_buffer %ws_bias_relu_f16_r0 : tensor<256x256xf16> to memref<256x256xf16>
    %ws_bias_relu_f16_r0_u = memref.cast %ws_bias_relu_f16_r0_m : memref<256x256xf16> to memref<*xf16>
    func.call @printMemrefF16(%ws_bias_relu_f16_r0_u) : (memref<*xf16>) -> ()
    %one_warpgroup_scale_bias_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x192xf16>
    %one_warpgroup_scale_bias_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<192x128xf16>
    %one_warpgroup_scale_bias_2 = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 7) mod 3)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c1_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<128xf32>
    %one_warpgroup_scale_bias_3 = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<128xf32>
    %one_warpgroup_scale_bias_4 = tensor.empty() : tensor<128x128xf32>
    %one_warpgroup_scale_bias_r0 = func.call @one_warpgroup_scale_bias(%one_warpgroup_scale_bias_0, %one_warpgroup_scale_bias_1, %one_warpgroup_scale_bias_2, %one_warpgroup_scale_bias_3, %one_warpgroup_scale_bias_4) : (tensor<128x192xf16>, tensor<192x128xf16>, tensor<128xf32>, tensor<128xf32>, tensor<128x128xf32>) -> (tensor<128x128xf32>)
    %one_warpgroup_scale_bias_r0_m = bufferization.to_buffer %one_warpgroup_scale_bias_r0 : tensor<128x128xf32> to memref<128x128xf32>
    %one_warpgroup_scale_bias_r0_u = memref.cast %one_warpgroup_scale_bias_r0_m : memref<128x128xf32> to memref<*xf32>
    func.call @printMemrefF32(%one_warpgroup_scale_bias_r0_u) : (memref<*xf32>) -> ()
    %linear_bf16_out_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<128x128xbf16>
    %linear_bf16_out_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<256x128xbf16>
    %linear_bf16_out_2 = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<256xf32>
    %linear_bf16_out_3 = tensor.empty() : tensor<128x256xbf16>
    %linear_bf16_out_r0 = func.call @linear_bf16_out(%linear_bf16_out_0, %linear_bf16_out_1, %linear_bf16_out_2, %linear_bf16_out_3) : (tensor<128x128xbf16>, tensor<256x128xbf16>, tensor<256xf32>, tensor<128x256xbf16>) -> (tensor<128x256xbf16>)
    %linear_bf16_out_r0_m = bufferization.to_buffer %linear_bf16_out_r0 : tensor<128x256xbf16> to memref<128x256xbf16>
    %linear_bf16_out_r0_u = memref.cast %linear_bf16_out_r0_m : memref<128x256xbf16> to memref<*xbf16>
    func.call @printMemrefBF16(%linear_bf16_out_r0_u) : (memref<*xbf16>) -> ()
    %ws_one_stage_i8_out_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x256xf16>
    %ws_one_stage_i8_out_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x256xf16>
    %ws_one_stage_i8_out_2 = tensor.empty() : tensor<128x256xi8>
    %ws_one_stage_i8_out_r0 = func.call @ws_one_stage_i8_out(%ws_one_stage_i8_out_0, %ws_one_stage_i8_out_1, %ws_one_stage_i8_out_2) : (tensor<128x256xf16>, tensor<256x256xf16>, tensor<128x256xi8>) -> (tensor<128x256xi8>)
    %ws_one_stage_i8_out_r0_w = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %v = tensor.extract %ws_one_stage_i8_out_r0[%i0, %i1] : tensor<128x256xi8>
      %w = arith.extsi %v : i8 to i32
      tensor.yield %w : i32
    } : tensor<128x256xi32>
    %ws_one_stage_i8_out_r0_w_m = bufferization.to_buffer %ws_one_stage_i8_out_r0_w : tensor<128x256xi32> to memref<128x256xi32>
    %ws_one_stage_i8_out_r0_w_u = memref.cast %ws_one_stage_i8_out_r0_w_m : memref<128x256xi32> to memref<*xi32>
    func.call @printMemrefI32(%ws_one_stage_i8_out_r0_w_u) : (memref<*xi32>) -> ()
    %consumer_128_rows_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x128xf16>
    %consumer_128_rows_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x128xf16>
    %consumer_128_rows_2 = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<128xf32>
    %consumer_128_rows_3 = tensor.empty() : tensor<128x128xf32>
    %consumer_128_rows_r0 = func.call @consumer_128_rows(%consumer_128_rows_0, %consumer_128_rows_1, %consumer_128_rows_2, %consumer_128_rows_3) : (tensor<128x128xf16>, tensor<128x128xf16>, tensor<128xf32>, tensor<128x128xf32>) -> (tensor<128x128xf32>)
    %consumer_128_rows_r0_m = bufferization.to_buffer %consumer_128_rows_r0 : tensor<128x128xf32> to memref<128x128xf32>
    %consumer_128_rows_r0_u = memref.cast %consumer_128_rows_r0_m : memref<128x128xf32> to memref<*xf32>
    func.call @printMemrefF32(%consumer_128_rows_r0_u) : (memref<*xf32>) -> ()
    %persistent_one_k_tile_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x64xf16>
    %persistent_one_k_tile_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<64x256xf16>
    %persistent_one_k_tile_2 = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<256xf32>
    %persistent_one_k_tile_3 = tensor.empty() : tensor<256x256xf32>
    %persistent_one_k_tile_r0 = func.call @persistent_one_k_tile(%persistent_one_k_tile_0, %persistent_one_k_tile_1, %persistent_one_k_tile_2, %persistent_one_k_tile_3) : (tensor<256x64xf16>, tensor<64x256xf16>, tensor<256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
    %persistent_one_k_tile_r0_m = bufferization.to_buffer %persistent_one_k_tile_r0 : tensor<256x256xf32> to memref<256x256xf32>
    %persistent_one_k_tile_r0_u = memref.cast %persistent_one_k_tile_r0_m : memref<256x256xf32> to memref<*xf32>
    func.call @printMemrefF32(%persistent_one_k_tile_r0_u) : (memref<*xf32>) -> ()
    %ws_chain_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x128xf16>
    %ws_chain_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x256xf16>
    %ws_chain_2 = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<256xf32>
    %ws_chain_3 = tensor.empty() : tensor<256x256xbf16>
    %ws_chain_r0 = func.call @ws_chain(%ws_chain_0, %ws_chain_1, %ws_chain_2, %ws_chain_3) : (tensor<256x128xf16>, tensor<128x256xf16>, tensor<256xf32>, tensor<256x256xbf16>) -> tensor<256x256xbf16>
    %ws_chain_r0_m = bufferization.to_buffer %ws_chain_r0 : tensor<256x256xbf16> to memref<256x256xbf16>
    %ws_chain_r0_u = memref.cast %ws_chain_r0_m : memref<256x256xbf16> to memref<*xbf16>
    func.call @printMemrefBF16(%ws_chain_r0_u) : (memref<*xbf16>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefBF16(memref<*xbf16>) attributes {llvm.emit_c_interface}
}
