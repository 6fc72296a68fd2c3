// gpucg-matmul-wgmma with f32 operands, multiplied as TF32 (wgmma
// m64nNk8.tf32: K tiles of 32 f32, one 128-byte swizzled row), on the CPU
// emulator. wgmma reads 32-bit operands K-major only, so MatmulWgmma takes
// f32 with A[m, k] and B[n, k] (a linear layer in f32, x * W^T). Kernels:
// 128 x 200 x 100 (the strategy's plan: a partial N tile and a K tail of 4),
// a decode step of 5 tokens (the transposed tile, C^T = W * x^T) with a bias
// and a bf16 cast, and C += A * B on one warpgroup and one stage (a user's
// 64x64 plan). In order, reversed with TMA data at the wait and wgmma at
// issue, and on a persistent grid of one workgroup. Small-integer inputs
// are exact in TF32, so the results must equal the untiled kernels' (the
// emulator drops the low 13 mantissa bits as the tensor cores do:
// test/Emulator/hopper.test).
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a})' -o %t.wgmma.mlir
// RUN: gpucg-opt %t.wgmma.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.mlir
// RUN: %mlir_runner_emulated %t.mlir | %strip_address > %t.forward
// RUN: diff %t.ref %t.forward
// RUN: env GPUCG_EMU_ORDER=reverse GPUCG_EMU_TMA=wait GPUCG_EMU_WGMMA=issue %mlir_runner_emulated %t.mlir | %strip_address > %t.modes
// RUN: diff %t.ref %t.modes
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-persistent=true wgmma-persistent-workgroups=1},gpucg-test-emulate-on-cpu)' -o %t.p1.mlir
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.p1.mlir | %strip_address > %t.p1
// RUN: diff %t.ref %t.p1

// What ran (and that it parses again): f32 tensor maps in boxes of 32
// columns, and four k8 ops per K tile on tf32 descriptors.
// RUN: gpucg-opt %t.wgmma.mlir | FileCheck %s
// CHECK-LABEL: func.func @linear
// CHECK: nvgpu.tma.create.descriptor %{{.*}} : memref<*xf32> -> <tensor = memref<{{[0-9]+}}x32xf32, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK-COUNT-4: = nvgpu.warpgroup.mma {{.*}} : <tensor = memref<64x8xtf32, #gpu.address_space<workgroup>>>, <tensor = memref<8x{{[0-9]+}}xtf32, #gpu.address_space<workgroup>>>
// CHECK-NOT: = nvgpu.warpgroup.mma %
// CHECK-LABEL: func.func @decode
// CHECK-COUNT-4: = nvgpu.warpgroup.mma {{.*}} : <tensor = memref<64x8xtf32, #gpu.address_space<workgroup>>>, <tensor = memref<8x8xtf32, #gpu.address_space<workgroup>>>
// CHECK-NOT: = nvgpu.warpgroup.mma %
// CHECK-LABEL: func.func @accumulate
// CHECK-COUNT-4: = nvgpu.warpgroup.mma {{.*}} : <tensor = memref<64x8xtf32, #gpu.address_space<workgroup>>>, <tensor = memref<8x64xtf32, #gpu.address_space<workgroup>>>
// CHECK-NOT: = nvgpu.warpgroup.mma %
// CHECK-LABEL: func.func @main

#a_mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#b_nk = affine_map<(d0, d1, d2) -> (d1, d2)>
#c_mn = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @linear(%x: tensor<128x100xf32>, %w: tensor<200x100xf32>, %y: tensor<128x200xf32>) -> tensor<128x200xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%y : tensor<128x200xf32>) -> tensor<128x200xf32>
    %r = linalg.matmul indexing_maps = [#a_mk, #b_nk, #c_mn]
      ins(%x, %w : tensor<128x100xf32>, tensor<200x100xf32>) outs(%f : tensor<128x200xf32>) -> tensor<128x200xf32>
    return %r : tensor<128x200xf32>
  }
  func.func @decode(%x: tensor<5x96xf32>, %w: tensor<136x96xf32>, %bias: tensor<136xf32>, %out: tensor<5x136xbf16>) -> tensor<5x136xbf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<5x136xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<5x136xf32>) -> tensor<5x136xf32>
    %r = linalg.matmul indexing_maps = [#a_mk, #b_nk, #c_mn]
      ins(%x, %w : tensor<5x96xf32>, tensor<136x96xf32>) outs(%f : tensor<5x136xf32>) -> tensor<5x136xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%r, %bias : tensor<5x136xf32>, tensor<136xf32>) outs(%out : tensor<5x136xbf16>) {
    ^bb0(%v: f32, %t: f32, %o: bf16):
      %y = arith.addf %v, %t : f32
      %q = arith.truncf %y : f32 to bf16
      linalg.yield %q : bf16
    } -> tensor<5x136xbf16>
    return %g : tensor<5x136xbf16>
  }
  func.func @accumulate(%a: tensor<64x128xf32>, %b: tensor<64x128xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %r = linalg.matmul indexing_maps = [#a_mk, #b_nk, #c_mn]
      {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 32]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 1>>}
      ins(%a, %b : tensor<64x128xf32>, tensor<64x128xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %r : tensor<64x64xf32>
  }
  func.func @main() {
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
    %x = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<128x100xf32>
    %wt = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<200x100xf32>
    %y = tensor.empty() : tensor<128x200xf32>
    %r0 = func.call @linear(%x, %wt, %y) : (tensor<128x100xf32>, tensor<200x100xf32>, tensor<128x200xf32>) -> tensor<128x200xf32>
    %m0 = bufferization.to_buffer %r0 : tensor<128x200xf32> to memref<128x200xf32>
    %u0 = memref.cast %m0 : memref<128x200xf32> to memref<*xf32>
    func.call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
    %x1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<5x96xf32>
    %w1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<136x96xf32>
    %bias1 = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<136xf32>
    %o1 = tensor.empty() : tensor<5x136xbf16>
    %r1 = func.call @decode(%x1, %w1, %bias1, %o1) : (tensor<5x96xf32>, tensor<136x96xf32>, tensor<136xf32>, tensor<5x136xbf16>) -> tensor<5x136xbf16>
    %m1 = bufferization.to_buffer %r1 : tensor<5x136xbf16> to memref<5x136xbf16>
    %u1 = memref.cast %m1 : memref<5x136xbf16> to memref<*xbf16>
    func.call @printMemrefBF16(%u1) : (memref<*xbf16>) -> ()
    %a2 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<64x128xf32>
    %b2 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<64x128xf32>
    %c2 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 4) mod 9)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<64x64xf32>
    %r2 = func.call @accumulate(%a2, %b2, %c2) : (tensor<64x128xf32>, tensor<64x128xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %m2 = bufferization.to_buffer %r2 : tensor<64x64xf32> to memref<64x64xf32>
    %u2 = memref.cast %m2 : memref<64x64xf32> to memref<*xf32>
    func.call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefBF16(memref<*xbf16>) attributes {llvm.emit_c_interface}
}
