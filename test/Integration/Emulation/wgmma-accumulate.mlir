// gpucg-matmul-wgmma for C += A * B on the CPU emulator: no zero fill
// starts the accumulator, so the consumers stage the product in workgroup
// memory, meet at their warpgroup's barrier, and each thread adds the prior
// contents of C's tile to its 16-byte pieces: straight into C when nothing
// follows, or into the staging buffer ahead of a fused epilogue. Kernels:
// warp specialized (the strategy's plan; also on a persistent grid), one
// warpgroup with B[n, k] in bf16, and a residual the matmul starts from
// without writing it (bufferization copies it into the accumulator's
// temporary) followed by ReLU and an f16 cast. Small-integer inputs keep
// every sum exact: the results must equal the untiled kernels'.
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

// The sum must read every thread's stored fragment: without the warpgroup's
// named barrier (warp specialized) or the gpu.barrier (one warpgroup)
// after warpgroup.mma.store, threads add C to pieces not yet stored.
// RUN: %mutate drop-named-barrier 2 < %t.wgmma.mlir > %t.m1.mlir
// RUN: gpucg-opt %t.m1.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m1
// RUN: not diff -q %t.ref %t.m1
// RUN: %mutate drop-barrier 5 < %t.wgmma.mlir > %t.m2.mlir
// RUN: gpucg-opt %t.m2.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m2
// RUN: not diff -q %t.ref %t.m2
// RUN: %mutate drop-named-barrier 3 < %t.wgmma.mlir > %t.m3.mlir
// RUN: gpucg-opt %t.m3.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m3
// RUN: not diff -q %t.ref %t.m3
// The accumulator's load: without the add of C's prior contents each
// kernel's result is the bare product.
// RUN: %mutate drop-addend 1 < %t.wgmma.mlir > %t.m4.mlir
// RUN: gpucg-opt %t.m4.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m4
// RUN: not diff -q %t.ref %t.m4
// RUN: %mutate drop-addend 2 < %t.wgmma.mlir > %t.m5.mlir
// RUN: gpucg-opt %t.m5.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m5
// RUN: not diff -q %t.ref %t.m5
// RUN: %mutate drop-addend 3 < %t.wgmma.mlir > %t.m6.mlir
// RUN: gpucg-opt %t.m6.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m6
// RUN: not diff -q %t.ref %t.m6

// What ran (and that it parses again).
// RUN: gpucg-opt %t.wgmma.mlir | FileCheck %s
// CHECK-LABEL: func.func @ws_accumulate(
// CHECK-SAME: %[[C:[a-z0-9]+]]: memref<256x256xf32>)
// CHECK-SAME: workgroup_size = [384, 1, 1]
// CHECK-NOT: linalg.fill
// CHECK: %[[STAGING:.+]] = memref.view %{{.+}}[%c0][] : memref<131072xi8, #gpu.address_space<workgroup>> to memref<128x136xf32, #gpu.address_space<workgroup>>
// CHECK: nvgpu.warpgroup.mma.store
// CHECK-NEXT: %[[ID:.+]] = arith.addi
// CHECK-NEXT: %[[ID32:.+]] = arith.index_castui %[[ID]] : index to i32
// CHECK-NEXT: nvvm.barrier id = %[[ID32]] number_of_threads = %c128_i32
// CHECK: scf.for %{{.+}} = %{{.+}} to %c2048 step %c128
// CHECK: %[[PRODUCT:.+]] = vector.transfer_read %[[STAGING]]{{.*}} vector<4xf32>
// CHECK: %[[PRIOR:.+]] = vector.transfer_read %[[C]]{{.*}} vector<4xf32>
// CHECK-NEXT: %[[SUM:.+]] = arith.addf %[[PRODUCT]], %[[PRIOR]] : vector<4xf32>
// CHECK-NEXT: vector.transfer_write %[[SUM]], %[[C]]
// CHECK-NEXT: {{^ +}$}}
// CHECK-LABEL: func.func @one_warpgroup_bt(
// CHECK: nvgpu.warpgroup.mma.store
// CHECK-NEXT: gpu.barrier
// CHECK: arith.addf {{.*}} : vector<4xf32>
// CHECK-NEXT: vector.transfer_write {{.*}} : vector<4xf32>, memref<128x128xf32>
// CHECK-LABEL: func.func @residual_relu_f16(
// CHECK-SAME: %[[RES:[a-z0-9]+]]: memref<128x128xf32>
// CHECK-NOT: memref.copy
// CHECK: %[[STAGING:.+]] = memref.alloc() {alignment = 16 : i64} : memref<128x136xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for %{{.+}} = %{{.+}} to %c1024 step %c128
// CHECK: %[[PRODUCT:.+]] = vector.transfer_read %[[STAGING]]{{.*}} vector<8xf32>
// CHECK: %[[PRIOR:.+]] = vector.transfer_read %[[RES]]{{.*}} vector<8xf32>
// CHECK-NEXT: %[[SUM:.+]] = arith.addf %[[PRODUCT]], %[[PRIOR]] : vector<8xf32>
// CHECK-NEXT: vector.transfer_write %[[SUM]], %[[STAGING]]
// CHECK-NOT: vector.transfer_write {{.*}}, %[[RES]]
// CHECK: arith.maximumf
// CHECK: arith.subf
// CHECK: vector.transfer_write {{.*}} : vector<8xf16>, memref<128x128xf16>

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // The strategy's plan (warp specialized); C's prior contents are the
  // argument's, and so is the sum.
  func.func @ws_accumulate(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %r : tensor<256x256xf32>
  }
  // One warpgroup (a user's 64x128 plan), B[n, k] in bf16.
  func.func @one_warpgroup_bt(%a: tensor<128x192xbf16>, %b: tensor<128x192xbf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
    %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 128, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
      ins(%a, %b : tensor<128x192xbf16>, tensor<128x192xbf16>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
    return %r : tensor<128x128xf32>
  }
  // A residual R the matmul starts from but does not write, since the
  // epilogue reads it again (bufferization copies it into the accumulator's
  // temporary): relu(A * B + R) - R, cast to f16.
  func.func @residual_relu_f16(%a: tensor<128x128xf16>, %b: tensor<128x128xf16>, %res: tensor<128x128xf32>, %out: tensor<128x128xf16>) -> tensor<128x128xf16> {
    %zero = arith.constant 0.0 : f32
    %m = linalg.matmul ins(%a, %b : tensor<128x128xf16>, tensor<128x128xf16>) outs(%res : tensor<128x128xf32>) -> tensor<128x128xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %res : tensor<128x128xf32>, tensor<128x128xf32>) outs(%out : tensor<128x128xf16>) {
    ^bb0(%x: f32, %y: f32, %o: f16):
      %relu = arith.maximumf %x, %zero : f32
      %d = arith.subf %relu, %y : f32
      %t = arith.truncf %d : f32 to f16
      linalg.yield %t : f16
    } -> tensor<128x128xf16>
    return %r : tensor<128x128xf16>
  }
  func.func @main() {
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
    %ws_accumulate_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x256xf16>
    %ws_accumulate_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x256xf16>
    %ws_accumulate_2 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 4) mod 9)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<256x256xf32>
    %ws_accumulate_r = func.call @ws_accumulate(%ws_accumulate_0, %ws_accumulate_1, %ws_accumulate_2) : (tensor<256x256xf16>, tensor<256x256xf16>, tensor<256x256xf32>) -> tensor<256x256xf32>
    %ws_accumulate_m = bufferization.to_buffer %ws_accumulate_r : tensor<256x256xf32> to memref<256x256xf32>
    %ws_accumulate_u = memref.cast %ws_accumulate_m : memref<256x256xf32> to memref<*xf32>
    func.call @printMemrefF32(%ws_accumulate_u) : (memref<*xf32>) -> ()
    %one_warpgroup_bt_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<128x192xbf16>
    %one_warpgroup_bt_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<128x192xbf16>
    %one_warpgroup_bt_2 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 5 + d1 * 1) mod 9)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<128x128xf32>
    %one_warpgroup_bt_r = func.call @one_warpgroup_bt(%one_warpgroup_bt_0, %one_warpgroup_bt_1, %one_warpgroup_bt_2) : (tensor<128x192xbf16>, tensor<128x192xbf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
    %one_warpgroup_bt_m = bufferization.to_buffer %one_warpgroup_bt_r : tensor<128x128xf32> to memref<128x128xf32>
    %one_warpgroup_bt_u = memref.cast %one_warpgroup_bt_m : memref<128x128xf32> to memref<*xf32>
    func.call @printMemrefF32(%one_warpgroup_bt_u) : (memref<*xf32>) -> ()
    %residual_relu_f16_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x128xf16>
    %residual_relu_f16_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x128xf16>
    %residual_relu_f16_2 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 4) mod 9)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<128x128xf32>
    %residual_relu_f16_3 = tensor.empty() : tensor<128x128xf16>
    %residual_relu_f16_r = func.call @residual_relu_f16(%residual_relu_f16_0, %residual_relu_f16_1, %residual_relu_f16_2, %residual_relu_f16_3) : (tensor<128x128xf16>, tensor<128x128xf16>, tensor<128x128xf32>, tensor<128x128xf16>) -> tensor<128x128xf16>
    %residual_relu_f16_m = bufferization.to_buffer %residual_relu_f16_r : tensor<128x128xf16> to memref<128x128xf16>
    %residual_relu_f16_u = memref.cast %residual_relu_f16_m : memref<128x128xf16> to memref<*xf16>
    func.call @printMemrefF16(%residual_relu_f16_u) : (memref<*xf16>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
}
