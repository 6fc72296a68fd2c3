// gpucg-matmul-wgmma for a dynamic M (a prompt's tokens, known at run
// time), on the CPU emulator: the host builds A's (and C's) tensor maps
// from the run-time sizes, the grid's rows are ceildiv(M, tile M), and the
// staged store writes only the rows below M, which the kernel reads from
// A's size. Kernels (the strategy's plans): a prompt's A * B with B[k, n],
// run with M = 200 (a partial tile) and M = 1 (a decode step on the same
// kernel); a linear layer x * W^T on bf16 with a K tail, partial N and a
// column bias and an f16 cast fused; and attention's scores Q K^T over a
// batch of 2 with 40 query rows. In order, reversed with TMA data at the
// wait and wgmma at issue, and with a persistent grid asked for, which a
// dynamic M does not take (its plan says why). Small-integer inputs keep
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
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-persistent=true},gpucg-test-emulate-on-cpu)' -o %t.p.mlir
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true wgmma-persistent=true}))' -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOT-PERSISTENT
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.p.mlir | %strip_address > %t.p
// RUN: diff %t.ref %t.p

// What ran (and that it parses again).
// RUN: gpucg-opt %t.wgmma.mlir | FileCheck %s
// CHECK-LABEL: func.func @prompt
// CHECK-SAME: %[[A:.+]]: memref<?x256xf16>, %{{.+}}: memref<256x192xf16>
// CHECK: %[[CAST:.+]] = memref.cast %[[A]] : memref<?x256xf16> to memref<*xf16>
// CHECK: nvgpu.tma.create.descriptor %[[CAST]] box[%c128, %c64]
// CHECK: %[[M:.+]] = memref.dim %[[A]], %c0 : memref<?x256xf16>
// CHECK: scf.forall (%[[ROW:.+]], %{{.+}}) = (0, 0) to (%[[M]], 192) step (128, 64)
// The staged store's rows below M.
// CHECK: %[[R:.+]] = arith.addi %[[ROW]], %{{.+}} : index
// CHECK: arith.cmpi ult, %[[R]], %[[M]] : index
// CHECK-LABEL: func.func @linear_nt_bias
// CHECK: vector.transfer_write {{.*}} : vector<8xf16>, memref<?x200xf16>
// CHECK-LABEL: func.func @scores
// CHECK: memref.collapse_shape %arg0 {{\[}}[0, 1], [2]] : memref<2x?x128xf16> into memref<?x128xf16>
// The tile's matrix starts at row b * M of the stacked Q.
// CHECK: %[[QM:.+]] = memref.dim %arg0, %c1 : memref<2x?x128xf16>
// CHECK: scf.forall (%[[B:.+]], %{{.+}}, %{{.+}}) = (0, 0, 0) to (2, %[[QM]], 96)
// CHECK: arith.muli %[[B]], %[[QM]] : index

// The warp-specialized kernels would take a persistent grid but for M.
// NOT-PERSISTENT: remark: plan of @linear_nt_bias: {{.*}}; a persistent grid not taken: its M is dynamic, and a persistent grid's workgroups walk a tile count known when the kernel is compiled
// NOT-PERSISTENT: remark: plan of @scores: {{.*}}; a persistent grid not taken: its M is dynamic

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // A prompt's tokens times a weight stored K x N.
  func.func @prompt(%a: tensor<?x256xf16>, %b: tensor<256x192xf16>, %c: tensor<?x192xf32>) -> tensor<?x192xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<?x192xf32>) -> tensor<?x192xf32>
    %r = linalg.matmul ins(%a, %b : tensor<?x256xf16>, tensor<256x192xf16>) outs(%f : tensor<?x192xf32>) -> tensor<?x192xf32>
    return %r : tensor<?x192xf32>
  }
  // A linear layer x * W^T + bias to f16, K = 136 (a K tail), N = 200
  // (partial tiles).
  func.func @linear_nt_bias(%x: tensor<?x136xbf16>, %w: tensor<200x136xbf16>, %bias: tensor<200xf32>, %out: tensor<?x200xf16>) -> tensor<?x200xf16> {
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %rows = tensor.dim %x, %c0 : tensor<?x136xbf16>
    %e = tensor.empty(%rows) : tensor<?x200xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x200xf32>) -> tensor<?x200xf32>
    %m = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%x, %w : tensor<?x136xbf16>, tensor<200x136xbf16>) outs(%f : tensor<?x200xf32>) -> tensor<?x200xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<?x200xf32>, tensor<200xf32>) outs(%out : tensor<?x200xf16>) {
    ^bb0(%v: f32, %b: f32, %o: f16):
      %s = arith.addf %v, %b : f32
      %t = arith.truncf %s : f32 to f16
      linalg.yield %t : f16
    } -> tensor<?x200xf16>
    return %r : tensor<?x200xf16>
  }
  // Attention's scores Q K^T for a batch of 2, the queries' count dynamic.
  func.func @scores(%q: tensor<2x?x128xf16>, %k: tensor<2x96x128xf16>, %c: tensor<2x?x96xf32>) -> tensor<2x?x96xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<2x?x96xf32>) -> tensor<2x?x96xf32>
    %r = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%q, %k : tensor<2x?x128xf16>, tensor<2x96x128xf16>) outs(%f : tensor<2x?x96xf32>) -> tensor<2x?x96xf32>
    return %r : tensor<2x?x96xf32>
  }
  func.func @main() {
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
    %pb = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x192xf16>
    %pa200 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<200x256xf16>
    %pc200 = tensor.empty() : tensor<200x192xf32>
    %p200_k0 = tensor.cast %pa200 : tensor<200x256xf16> to tensor<?x256xf16>
    %p200_k2 = tensor.cast %pc200 : tensor<200x192xf32> to tensor<?x192xf32>
    %p200_kr = func.call @prompt(%p200_k0, %pb, %p200_k2) : (tensor<?x256xf16>, tensor<256x192xf16>, tensor<?x192xf32>) -> tensor<?x192xf32>
    %p200_r = tensor.cast %p200_kr : tensor<?x192xf32> to tensor<200x192xf32>
    %p200_m = bufferization.to_buffer %p200_r : tensor<200x192xf32> to memref<200x192xf32>
    %p200_u = memref.cast %p200_m : memref<200x192xf32> to memref<*xf32>
    func.call @printMemrefF32(%p200_u) : (memref<*xf32>) -> ()
    %pa1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<1x256xf16>
    %pc1 = tensor.empty() : tensor<1x192xf32>
    %p1_k0 = tensor.cast %pa1 : tensor<1x256xf16> to tensor<?x256xf16>
    %p1_k2 = tensor.cast %pc1 : tensor<1x192xf32> to tensor<?x192xf32>
    %p1_kr = func.call @prompt(%p1_k0, %pb, %p1_k2) : (tensor<?x256xf16>, tensor<256x192xf16>, tensor<?x192xf32>) -> tensor<?x192xf32>
    %p1_r = tensor.cast %p1_kr : tensor<?x192xf32> to tensor<1x192xf32>
    %p1_m = bufferization.to_buffer %p1_r : tensor<1x192xf32> to memref<1x192xf32>
    %p1_u = memref.cast %p1_m : memref<1x192xf32> to memref<*xf32>
    func.call @printMemrefF32(%p1_u) : (memref<*xf32>) -> ()
    %la = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<70x136xbf16>
    %lw = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<200x136xbf16>
    %lbias = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<200xf32>
    %lo = tensor.empty() : tensor<70x200xf16>
    %l_k0 = tensor.cast %la : tensor<70x136xbf16> to tensor<?x136xbf16>
    %l_k3 = tensor.cast %lo : tensor<70x200xf16> to tensor<?x200xf16>
    %l_kr = func.call @linear_nt_bias(%l_k0, %lw, %lbias, %l_k3) : (tensor<?x136xbf16>, tensor<200x136xbf16>, tensor<200xf32>, tensor<?x200xf16>) -> tensor<?x200xf16>
    %l_r = tensor.cast %l_kr : tensor<?x200xf16> to tensor<70x200xf16>
    %l_m = bufferization.to_buffer %l_r : tensor<70x200xf16> to memref<70x200xf16>
    %l_u = memref.cast %l_m : memref<70x200xf16> to memref<*xf16>
    func.call @printMemrefF16(%l_u) : (memref<*xf16>) -> ()
    %sq = tensor.generate {
    ^bb0(%i0: index, %i1: index, %i2: index):
      %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 3 + d1 * 5 + d2 * 1) mod 7)>(%i0, %i1, %i2)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<2x40x128xf16>
    %sk = tensor.generate {
    ^bb0(%i0: index, %i1: index, %i2: index):
      %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 1 + d1 * 2 + d2 * 3) mod 5)>(%i0, %i1, %i2)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<2x96x128xf16>
    %so = tensor.empty() : tensor<2x40x96xf32>
    %s_k0 = tensor.cast %sq : tensor<2x40x128xf16> to tensor<2x?x128xf16>
    %s_k2 = tensor.cast %so : tensor<2x40x96xf32> to tensor<2x?x96xf32>
    %s_kr = func.call @scores(%s_k0, %sk, %s_k2) : (tensor<2x?x128xf16>, tensor<2x96x128xf16>, tensor<2x?x96xf32>) -> tensor<2x?x96xf32>
    %s_r = tensor.cast %s_kr : tensor<2x?x96xf32> to tensor<2x40x96xf32>
    %s_m = bufferization.to_buffer %s_r : tensor<2x40x96xf32> to memref<2x40x96xf32>
    %s_u = memref.cast %s_m : memref<2x40x96xf32> to memref<*xf32>
    func.call @printMemrefF32(%s_u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
}
