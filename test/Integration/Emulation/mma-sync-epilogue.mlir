// gpucg-matmul-mma-sync with fused epilogues on the CPU emulator: after the
// K loop each warp stores its accumulator fragments to the workgroup
// temporary that holds the matmul's result, a barrier makes them visible,
// and the epilogue runs on all 128 threads of the workgroup in vectors of
// 4 elements of a row (8 threads per 32-wide row, 16 rows per round), not
// on each warp's 16x16 of it by every lane of the warp. Kernels: bias +
// ReLU to bf16, bias + SiLU (exp) to f16, bias + tanh-GELU to f16, a column
// bias, a row scale and a residual add in f32, partial tiles (100x72x40 to
// f32; 70x136x64 with a bf16 residual and SiLU, whose last tile is 8
// columns wide), and a chain of two consumers (bias, then ReLU and a bf16
// cast).
// Small-integer inputs keep every sum exact: the results must equal the
// untiled kernels', in both thread orders and with the race detector.
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80})' -o %t.mma.mlir
// RUN: gpucg-opt %t.mma.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.mlir
// RUN: %mlir_runner_emulated %t.mlir | %strip_address > %t.forward
// RUN: diff %t.ref %t.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.mlir | %strip_address > %t.reverse
// RUN: diff %t.ref %t.reverse
// The same kernels for sm_90 (mma.sync there too), the module described as
// that chip.
// RUN: sed -e 's/chip = "sm_80"/chip = "sm_90"/' %s | gpucg-opt --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_90},gpucg-test-emulate-on-cpu)' -o %t.sm90.mlir
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.sm90.mlir | %strip_address > %t.sm90
// RUN: diff %t.ref %t.sm90

// The barrier between the fragments' stores and the epilogue matters:
// without it a thread reads elements another warp has not stored yet.
// RUN: %mutate drop-barrier 6 < %t.mma.mlir > %t.m6.mlir
// RUN: gpucg-opt %t.m6.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: race on workgroup memory

// What ran (and that it parses again): the epilogue of the first kernel.
// RUN: gpucg-opt %t.mma.mlir | FileCheck %s
// CHECK-LABEL: func.func @bias_relu_bf16
//       CHECK:   scf.forall
//       CHECK:     nvgpu.mma.sync
//       CHECK:     vector.store {{.+}} : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<2xf32>
//   CHECK-NOT:     scf.for
//       CHECK:     gpu.barrier
//   CHECK-NOT:     vector.store
//       CHECK:     scf.for
//       CHECK:       vector.load {{.+}} : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
//       CHECK:       vector.transfer_read {{.+}} : memref<128xf32>, vector<4xf32>
//       CHECK:       arith.maximumf {{.+}} : vector<4xf32>
//       CHECK:       arith.truncf {{.+}} : vector<4xf32> to vector<4xbf16>
//       CHECK:       vector.transfer_write {{.+}} : vector<4xbf16>, memref<128x128xbf16>
//       CHECK:     }
//       CHECK:   } {mapping = [#gpu.block<y>, #gpu.block<x>]}
// CHECK-LABEL: func.func @bias_silu_f16

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @bias_relu_bf16(%a: tensor<128x64xbf16>, %b: tensor<64x128xbf16>, %bias: tensor<128xf32>, %out: tensor<128x128xbf16>) -> tensor<128x128xbf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
    %m = linalg.matmul ins(%a, %b : tensor<128x64xbf16>, tensor<64x128xbf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<128x128xf32>, tensor<128xf32>) outs(%out : tensor<128x128xbf16>) {
    ^bb0(%x: f32, %y: f32, %o: bf16):
      %s0 = arith.addf %x, %y : f32
      %s = arith.addf %s0, %zero : f32
      %a1 = arith.maximumf %s, %zero : f32
      %tr = arith.truncf %a1 : f32 to bf16
      linalg.yield %tr : bf16
    } -> tensor<128x128xbf16>
    return %r : tensor<128x128xbf16>
  }
  func.func @bias_silu_f16(%a: tensor<64x64xf16>, %b: tensor<64x256xf16>, %bias: tensor<256xf32>, %out: tensor<64x256xf16>) -> tensor<64x256xf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
    %m = linalg.matmul ins(%a, %b : tensor<64x64xf16>, tensor<64x256xf16>) outs(%f : tensor<64x256xf32>) -> tensor<64x256xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<64x256xf32>, tensor<256xf32>) outs(%out : tensor<64x256xf16>) {
    ^bb0(%x: f32, %y: f32, %o: f16):
      %s0 = arith.addf %x, %y : f32
      %s = arith.addf %s0, %zero : f32
      %ng = arith.negf %s : f32
      %ex = math.exp %ng : f32
      %one = arith.constant 1.0 : f32
      %den = arith.addf %one, %ex : f32
      %a1 = arith.divf %s, %den : f32
      %tr = arith.truncf %a1 : f32 to f16
      linalg.yield %tr : f16
    } -> tensor<64x256xf16>
    return %r : tensor<64x256xf16>
  }
  func.func @bias_gelu_tanh_f16(%a: tensor<64x64xf16>, %b: tensor<64x128xf16>, %bias: tensor<128xf32>, %out: tensor<64x128xf16>) -> tensor<64x128xf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
    %m = linalg.matmul ins(%a, %b : tensor<64x64xf16>, tensor<64x128xf16>) outs(%f : tensor<64x128xf32>) -> tensor<64x128xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<64x128xf32>, tensor<128xf32>) outs(%out : tensor<64x128xf16>) {
    ^bb0(%x: f32, %y: f32, %o: f16):
      %s0 = arith.addf %x, %y : f32
      %s = arith.addf %s0, %zero : f32
      %half = arith.constant 0.5 : f32
      %k0 = arith.constant 0.797884583 : f32
      %k1 = arith.constant 0.044715 : f32
      %one = arith.constant 1.0 : f32
      %x2 = arith.mulf %s, %s : f32
      %x3 = arith.mulf %x2, %s : f32
      %i1 = arith.mulf %x3, %k1 : f32
      %i2 = arith.addf %s, %i1 : f32
      %i3 = arith.mulf %i2, %k0 : f32
      %th = math.tanh %i3 : f32
      %p = arith.addf %one, %th : f32
      %h = arith.mulf %s, %half : f32
      %a1 = arith.mulf %h, %p : f32
      %tr = arith.truncf %a1 : f32 to f16
      linalg.yield %tr : f16
    } -> tensor<64x128xf16>
    return %r : tensor<64x128xf16>
  }
  func.func @scale_bias_residual_f32(%a: tensor<128x32xf16>, %b: tensor<32x128xf16>, %bias: tensor<128xf32>, %scale: tensor<128xf32>, %res: tensor<128x128xf32>, %out: tensor<128x128xf32>) -> tensor<128x128xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
    %m = linalg.matmul ins(%a, %b : tensor<128x32xf16>, tensor<32x128xf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias, %scale, %res : tensor<128x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x128xf32>) outs(%out : tensor<128x128xf32>) {
    ^bb0(%x: f32, %y: f32, %sc: f32, %rv: f32, %o: f32):
      %s0 = arith.addf %x, %y : f32
      %s1 = arith.mulf %s0, %sc : f32
      %rf = arith.addf %rv, %zero : f32
      %s2 = arith.addf %s1, %rf : f32
      %s = arith.addf %s2, %zero : f32
      %a1 = arith.addf %s, %zero : f32
      %tr = arith.addf %a1, %zero : f32
      linalg.yield %tr : f32
    } -> tensor<128x128xf32>
    return %r : tensor<128x128xf32>
  }
  func.func @partial_bias_relu(%a: tensor<100x40xf16>, %b: tensor<40x72xf16>, %bias: tensor<72xf32>, %out: tensor<100x72xf32>) -> tensor<100x72xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<100x72xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<100x72xf32>) -> tensor<100x72xf32>
    %m = linalg.matmul ins(%a, %b : tensor<100x40xf16>, tensor<40x72xf16>) outs(%f : tensor<100x72xf32>) -> tensor<100x72xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<100x72xf32>, tensor<72xf32>) outs(%out : tensor<100x72xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s0 = arith.addf %x, %y : f32
      %s = arith.addf %s0, %zero : f32
      %a1 = arith.maximumf %s, %zero : f32
      %tr = arith.addf %a1, %zero : f32
      linalg.yield %tr : f32
    } -> tensor<100x72xf32>
    return %r : tensor<100x72xf32>
  }
  func.func @partial_silu_bf16(%a: tensor<70x64xbf16>, %b: tensor<64x136xbf16>, %bias: tensor<136xf32>, %res: tensor<70x136xbf16>, %out: tensor<70x136xbf16>) -> tensor<70x136xbf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<70x136xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<70x136xf32>) -> tensor<70x136xf32>
    %m = linalg.matmul ins(%a, %b : tensor<70x64xbf16>, tensor<64x136xbf16>) outs(%f : tensor<70x136xf32>) -> tensor<70x136xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias, %res : tensor<70x136xf32>, tensor<136xf32>, tensor<70x136xbf16>) outs(%out : tensor<70x136xbf16>) {
    ^bb0(%x: f32, %y: f32, %rv: bf16, %o: bf16):
      %s0 = arith.addf %x, %y : f32
      %rf = arith.extf %rv : bf16 to f32
      %s2 = arith.addf %s0, %rf : f32
      %s = arith.addf %s2, %zero : f32
      %ng = arith.negf %s : f32
      %ex = math.exp %ng : f32
      %one = arith.constant 1.0 : f32
      %den = arith.addf %one, %ex : f32
      %a1 = arith.divf %s, %den : f32
      %tr = arith.truncf %a1 : f32 to bf16
      linalg.yield %tr : bf16
    } -> tensor<70x136xbf16>
    return %r : tensor<70x136xbf16>
  }
  func.func @chain_bf16(%a: tensor<128x64xf16>, %b: tensor<64x128xf16>, %bias: tensor<128xf32>, %out: tensor<128x128xbf16>) -> tensor<128x128xbf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
    %m = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x128xf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<128x128xf32>, tensor<128xf32>) outs(%e : tensor<128x128xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %t = arith.addf %x, %y : f32
      linalg.yield %t : f32
    } -> tensor<128x128xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<128x128xf32>) outs(%out : tensor<128x128xbf16>) {
    ^bb0(%x: f32, %o: bf16):
      %relu = arith.maximumf %x, %zero : f32
      %t = arith.truncf %relu : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x128xbf16>
    return %r : tensor<128x128xbf16>
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefBF16(memref<*xbf16>) attributes {llvm.emit_c_interface}
  func.func @main() {
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
    %bias_relu_bf16_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<128x64xbf16>
    %bias_relu_bf16_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<64x128xbf16>
    %bias_relu_bf16_2 = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<128xf32>
    %bias_relu_bf16_out = tensor.empty() : tensor<128x128xbf16>
    %bias_relu_bf16_r = func.call @bias_relu_bf16(%bias_relu_bf16_0, %bias_relu_bf16_1, %bias_relu_bf16_2, %bias_relu_bf16_out) : (tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128xf32>, tensor<128x128xbf16>) -> (tensor<128x128xbf16>)
    %bias_relu_bf16_m = bufferization.to_buffer %bias_relu_bf16_r : tensor<128x128xbf16> to memref<128x128xbf16>
    %bias_relu_bf16_u = memref.cast %bias_relu_bf16_m : memref<128x128xbf16> to memref<*xbf16>
    func.call @printMemrefBF16(%bias_relu_bf16_u) : (memref<*xbf16>) -> ()
    %bias_silu_f16_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<64x64xf16>
    %bias_silu_f16_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<64x256xf16>
    %bias_silu_f16_2 = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<256xf32>
    %bias_silu_f16_out = tensor.empty() : tensor<64x256xf16>
    %bias_silu_f16_r = func.call @bias_silu_f16(%bias_silu_f16_0, %bias_silu_f16_1, %bias_silu_f16_2, %bias_silu_f16_out) : (tensor<64x64xf16>, tensor<64x256xf16>, tensor<256xf32>, tensor<64x256xf16>) -> (tensor<64x256xf16>)
    %bias_silu_f16_m = bufferization.to_buffer %bias_silu_f16_r : tensor<64x256xf16> to memref<64x256xf16>
    %bias_silu_f16_u = memref.cast %bias_silu_f16_m : memref<64x256xf16> to memref<*xf16>
    func.call @printMemrefF16(%bias_silu_f16_u) : (memref<*xf16>) -> ()
    %bias_gelu_tanh_f16_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<64x64xf16>
    %bias_gelu_tanh_f16_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<64x128xf16>
    %bias_gelu_tanh_f16_2 = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<128xf32>
    %bias_gelu_tanh_f16_out = tensor.empty() : tensor<64x128xf16>
    %bias_gelu_tanh_f16_r = func.call @bias_gelu_tanh_f16(%bias_gelu_tanh_f16_0, %bias_gelu_tanh_f16_1, %bias_gelu_tanh_f16_2, %bias_gelu_tanh_f16_out) : (tensor<64x64xf16>, tensor<64x128xf16>, tensor<128xf32>, tensor<64x128xf16>) -> (tensor<64x128xf16>)
    %bias_gelu_tanh_f16_m = bufferization.to_buffer %bias_gelu_tanh_f16_r : tensor<64x128xf16> to memref<64x128xf16>
    %bias_gelu_tanh_f16_u = memref.cast %bias_gelu_tanh_f16_m : memref<64x128xf16> to memref<*xf16>
    func.call @printMemrefF16(%bias_gelu_tanh_f16_u) : (memref<*xf16>) -> ()
    %scale_bias_residual_f32_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x32xf16>
    %scale_bias_residual_f32_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<32x128xf16>
    %scale_bias_residual_f32_2 = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<128xf32>
    %scale_bias_residual_f32_3 = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<128xf32>
    %scale_bias_residual_f32_4 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<128x128xf32>
    %scale_bias_residual_f32_out = tensor.empty() : tensor<128x128xf32>
    %scale_bias_residual_f32_r = func.call @scale_bias_residual_f32(%scale_bias_residual_f32_0, %scale_bias_residual_f32_1, %scale_bias_residual_f32_2, %scale_bias_residual_f32_3, %scale_bias_residual_f32_4, %scale_bias_residual_f32_out) : (tensor<128x32xf16>, tensor<32x128xf16>, tensor<128xf32>, tensor<128xf32>, tensor<128x128xf32>, tensor<128x128xf32>) -> (tensor<128x128xf32>)
    %scale_bias_residual_f32_m = bufferization.to_buffer %scale_bias_residual_f32_r : tensor<128x128xf32> to memref<128x128xf32>
    %scale_bias_residual_f32_u = memref.cast %scale_bias_residual_f32_m : memref<128x128xf32> to memref<*xf32>
    func.call @printMemrefF32(%scale_bias_residual_f32_u) : (memref<*xf32>) -> ()
    %partial_bias_relu_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<100x40xf16>
    %partial_bias_relu_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<40x72xf16>
    %partial_bias_relu_2 = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<72xf32>
    %partial_bias_relu_out = tensor.empty() : tensor<100x72xf32>
    %partial_bias_relu_r = func.call @partial_bias_relu(%partial_bias_relu_0, %partial_bias_relu_1, %partial_bias_relu_2, %partial_bias_relu_out) : (tensor<100x40xf16>, tensor<40x72xf16>, tensor<72xf32>, tensor<100x72xf32>) -> (tensor<100x72xf32>)
    %partial_bias_relu_m = bufferization.to_buffer %partial_bias_relu_r : tensor<100x72xf32> to memref<100x72xf32>
    %partial_bias_relu_u = memref.cast %partial_bias_relu_m : memref<100x72xf32> to memref<*xf32>
    func.call @printMemrefF32(%partial_bias_relu_u) : (memref<*xf32>) -> ()
    %partial_silu_bf16_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<70x64xbf16>
    %partial_silu_bf16_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<64x136xbf16>
    %partial_silu_bf16_2 = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<136xf32>
    %partial_silu_bf16_3 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 + d1 * 7) mod 6)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<70x136xbf16>
    %partial_silu_bf16_out = tensor.empty() : tensor<70x136xbf16>
    %partial_silu_bf16_r = func.call @partial_silu_bf16(%partial_silu_bf16_0, %partial_silu_bf16_1, %partial_silu_bf16_2, %partial_silu_bf16_3, %partial_silu_bf16_out) : (tensor<70x64xbf16>, tensor<64x136xbf16>, tensor<136xf32>, tensor<70x136xbf16>, tensor<70x136xbf16>) -> (tensor<70x136xbf16>)
    %partial_silu_bf16_m = bufferization.to_buffer %partial_silu_bf16_r : tensor<70x136xbf16> to memref<70x136xbf16>
    %partial_silu_bf16_u = memref.cast %partial_silu_bf16_m : memref<70x136xbf16> to memref<*xbf16>
    func.call @printMemrefBF16(%partial_silu_bf16_u) : (memref<*xbf16>) -> ()
    %chain_bf16_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x64xf16>
    %chain_bf16_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<64x128xf16>
    %chain_bf16_2 = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<128xf32>
    %chain_bf16_out = tensor.empty() : tensor<128x128xbf16>
    %chain_bf16_r = func.call @chain_bf16(%chain_bf16_0, %chain_bf16_1, %chain_bf16_2, %chain_bf16_out) : (tensor<128x64xf16>, tensor<64x128xf16>, tensor<128xf32>, tensor<128x128xbf16>) -> (tensor<128x128xbf16>)
    %chain_bf16_m = bufferization.to_buffer %chain_bf16_r : tensor<128x128xbf16> to memref<128x128xbf16>
    %chain_bf16_u = memref.cast %chain_bf16_m : memref<128x128xbf16> to memref<*xbf16>
    func.call @printMemrefBF16(%chain_bf16_u) : (memref<*xbf16>) -> ()
    return
  }
}
