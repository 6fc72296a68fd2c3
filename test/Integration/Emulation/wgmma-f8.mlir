// gpucg-matmul-wgmma on 8-bit floats, on the CPU emulator: A[m, k] and
// B[n, k] (`A * B^T`, the only form wgmma multiplies 8-bit floats in:
// it transposes 16-bit operands only) of f8E4M3FN or f8E5M2 loaded by TMA
// in 128x128-byte boxes, multiplied by one wgmma per k32 step (32 bytes of
// K, as k16 for 16-bit types) into f32. Kernels: e4m3 warp specialized
// (strategy: 128x128 tiles, 4 stages refilled: K = 768), e5m2 on one
// warpgroup (a user's 64x128 plan, 2 stages), e4m3 with a fused bias and
// ReLU. The inputs are small integers given as bit patterns (written
// before the CPU stages converted 8-bit floats); the reference is the same products in
// f16 on the CPU (Inputs/wgmma-f8-reference.mlir), and every sum is exact.
//
// RUN: gpucg-opt %S/Inputs/wgmma-f8-reference.mlir --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a},gpucg-test-emulate-on-cpu)' -o %t.mlir
// RUN: %mlir_runner_emulated %t.mlir | %strip_address > %t.forward
// RUN: diff %t.ref %t.forward
// RUN: env GPUCG_EMU_ORDER=reverse GPUCG_EMU_TMA=wait GPUCG_EMU_WGMMA=issue %mlir_runner_emulated %t.mlir | %strip_address > %t.modes
// RUN: diff %t.ref %t.modes
//
// Staged stores (the accumulator through the ring, 16-byte stores of C) and
// a persistent grid of one workgroup (@linear_e4m3's two tiles in turn, its
// stages and phases running on across them):
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-staged-store=true},gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.staged
// RUN: diff %t.ref %t.staged
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-persistent=true wgmma-persistent-workgroups=1},gpucg-test-emulate-on-cpu)' -o %t.p1.mlir
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.p1.mlir | %strip_address > %t.p1
// RUN: diff %t.ref %t.p1
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-persistent=true wgmma-persistent-workgroups=1})' \
// RUN:   | FileCheck %s --check-prefix=PERSISTENT
// PERSISTENT-LABEL: func.func @linear_e4m3
// PERSISTENT: scf.forall (%{{.+}}) in (1)
// PERSISTENT: scf.for %{{.+}} = %c0 to %c2 step %c1
//
// The e4m3 inputs read as e5m2 bits give other products: the test sees
// the element type.
// RUN: sed -e 's/%%lut_e4m3\[%%s\]/%%lut_e5m2[%%s]/' %s > %t.swapped.mlir
// RUN: gpucg-opt %t.swapped.mlir --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a},gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.swapped
// RUN: not diff -q %t.ref %t.swapped
//
// What ran.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a})' \
// RUN:   | gpucg-opt | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @linear_e4m3
// IR-SAME: workgroup_size = [384, 1, 1]{{.*}}pipeline_depth = 4
// IR: nvgpu.tma.create.descriptor {{.+}} box[%c128, %c128] : memref<*xf8E4M3FN> -> <tensor = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// IR-COUNT-4: nvgpu.warpgroup.mma {{.+}} : <tensor = memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>>, <tensor = memref<32x128xf8E4M3FN, #gpu.address_space<workgroup>>>
// IR-LABEL: func.func @linear_e5m2_one_warpgroup
// IR-SAME: workgroup_size = [128, 1, 1]{{.*}}pipeline_depth = 2
// IR-COUNT-4: nvgpu.warpgroup.mma {{.+}} : <tensor = memref<64x32xf8E5M2, #gpu.address_space<workgroup>>>, <tensor = memref<32x128xf8E5M2, #gpu.address_space<workgroup>>>
// IR-LABEL: func.func @linear_e4m3_bias_relu
// IR: nvgpu.warpgroup.mma.store
// IR: arith.maximumf

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @linear_e4m3(%a: tensor<128x768xf8E4M3FN>, %w: tensor<256x768xf8E4M3FN>, %c: tensor<128x256xf32>) -> tensor<128x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>
    %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %w : tensor<128x768xf8E4M3FN>, tensor<256x768xf8E4M3FN>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
    return %r : tensor<128x256xf32>
  }
  func.func @linear_e5m2_one_warpgroup(%a: tensor<128x384xf8E5M2>, %w: tensor<128x384xf8E5M2>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
    %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 128, 128]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
      ins(%a, %w : tensor<128x384xf8E5M2>, tensor<128x384xf8E5M2>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
    return %r : tensor<128x128xf32>
  }
  func.func @linear_e4m3_bias_relu(%a: tensor<128x256xf8E4M3FN>, %w: tensor<128x256xf8E4M3FN>, %bias: tensor<128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
    %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %w : tensor<128x256xf8E4M3FN>, tensor<128x256xf8E4M3FN>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%r, %bias : tensor<128x128xf32>, tensor<128xf32>) outs(%c : tensor<128x128xf32>) {
    ^bb0(%x: f32, %b: f32, %o: f32):
      %s = arith.addf %x, %b : f32
      %m = arith.maximumf %s, %zero : f32
      linalg.yield %m : f32
    } -> tensor<128x128xf32>
    return %y : tensor<128x128xf32>
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    // -3 .. 3 as e4m3 and e5m2 bit patterns.
    %lut_e4m3 = arith.constant dense<[-60, -64, -72, 0, 56, 64, 68]> : tensor<7xi8>
    %lut_e5m2 = arith.constant dense<[-62, -64, -68, 0, 60, 64, 66]> : tensor<7xi8>
    %c2_i32 = arith.constant 2 : i32
    %linear_e4m3_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %bits = tensor.extract %lut_e4m3[%s] : tensor<7xi8>
      %e = arith.bitcast %bits : i8 to f8E4M3FN
      tensor.yield %e : f8E4M3FN
    } : tensor<128x768xf8E4M3FN>
    %linear_e4m3_w = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 7)>(%i0, %i1)
      %bits = tensor.extract %lut_e4m3[%s] : tensor<7xi8>
      %e = arith.bitcast %bits : i8 to f8E4M3FN
      tensor.yield %e : f8E4M3FN
    } : tensor<256x768xf8E4M3FN>
    %linear_e4m3_c = tensor.empty() : tensor<128x256xf32>
    %linear_e4m3_r = func.call @linear_e4m3(%linear_e4m3_a, %linear_e4m3_w, %linear_e4m3_c) : (tensor<128x768xf8E4M3FN>, tensor<256x768xf8E4M3FN>, tensor<128x256xf32>) -> tensor<128x256xf32>
    %linear_e4m3_m = bufferization.to_buffer %linear_e4m3_r : tensor<128x256xf32> to memref<128x256xf32>
    %linear_e4m3_u = memref.cast %linear_e4m3_m : memref<128x256xf32> to memref<*xf32>
    func.call @printMemrefF32(%linear_e4m3_u) : (memref<*xf32>) -> ()
    %linear_e5m2_one_warpgroup_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %bits = tensor.extract %lut_e5m2[%s] : tensor<7xi8>
      %e = arith.bitcast %bits : i8 to f8E5M2
      tensor.yield %e : f8E5M2
    } : tensor<128x384xf8E5M2>
    %linear_e5m2_one_warpgroup_w = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 7)>(%i0, %i1)
      %bits = tensor.extract %lut_e5m2[%s] : tensor<7xi8>
      %e = arith.bitcast %bits : i8 to f8E5M2
      tensor.yield %e : f8E5M2
    } : tensor<128x384xf8E5M2>
    %linear_e5m2_one_warpgroup_c = tensor.empty() : tensor<128x128xf32>
    %linear_e5m2_one_warpgroup_r = func.call @linear_e5m2_one_warpgroup(%linear_e5m2_one_warpgroup_a, %linear_e5m2_one_warpgroup_w, %linear_e5m2_one_warpgroup_c) : (tensor<128x384xf8E5M2>, tensor<128x384xf8E5M2>, tensor<128x128xf32>) -> tensor<128x128xf32>
    %linear_e5m2_one_warpgroup_m = bufferization.to_buffer %linear_e5m2_one_warpgroup_r : tensor<128x128xf32> to memref<128x128xf32>
    %linear_e5m2_one_warpgroup_u = memref.cast %linear_e5m2_one_warpgroup_m : memref<128x128xf32> to memref<*xf32>
    func.call @printMemrefF32(%linear_e5m2_one_warpgroup_u) : (memref<*xf32>) -> ()
    %linear_e4m3_bias_relu_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %bits = tensor.extract %lut_e4m3[%s] : tensor<7xi8>
      %e = arith.bitcast %bits : i8 to f8E4M3FN
      tensor.yield %e : f8E4M3FN
    } : tensor<128x256xf8E4M3FN>
    %linear_e4m3_bias_relu_w = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 7)>(%i0, %i1)
      %bits = tensor.extract %lut_e4m3[%s] : tensor<7xi8>
      %e = arith.bitcast %bits : i8 to f8E4M3FN
      tensor.yield %e : f8E4M3FN
    } : tensor<128x256xf8E4M3FN>
    %linear_e4m3_bias_relu_bias = tensor.generate {
    ^bb0(%i: index):
      %s = affine.apply affine_map<(d0) -> (d0 mod 5)>(%i)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<128xf32>
    %linear_e4m3_bias_relu_c = tensor.empty() : tensor<128x128xf32>
    %linear_e4m3_bias_relu_r = func.call @linear_e4m3_bias_relu(%linear_e4m3_bias_relu_a, %linear_e4m3_bias_relu_w, %linear_e4m3_bias_relu_bias, %linear_e4m3_bias_relu_c) : (tensor<128x256xf8E4M3FN>, tensor<128x256xf8E4M3FN>, tensor<128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>
    %linear_e4m3_bias_relu_m = bufferization.to_buffer %linear_e4m3_bias_relu_r : tensor<128x128xf32> to memref<128x128xf32>
    %linear_e4m3_bias_relu_u = memref.cast %linear_e4m3_bias_relu_m : memref<128x128xf32> to memref<*xf32>
    func.call @printMemrefF32(%linear_e4m3_bias_relu_u) : (memref<*xf32>) -> ()
    return
  }
}
