// gpucg-matmul-wgmma with f32 (TF32) operands that are not K-contiguous,
// on the CPU emulator. wgmma reads 32-bit operands K-major only, so such an
// operand is restaged: TMA loads its tile as it lies (chunks of 32 columns
// of N or M, a K row each) into a load tile of the stage, and the producer
// warpgroup's 128 threads write it K-major into the tile wgmma reads, then
// fence the async proxy and arrive on the stage's full barrier (129
// arrivals: the loader's expect_tx and each producer thread's). Kernels,
// each the strategy's plan: linalg.matmul as users write it (A[m, k],
// B[k, n]) at 150 x 200 x 100 (partial M and N tiles, a K tail of 4), a
// decode step of 5 tokens (the transposed tile C^T = B^T * A^T, restaged B
// as wgmma's A) with a bias and ReLU, A[k, m] times B[n, k] (A restaged),
// and A[k, m] times B[k, n] with C += A * B (both restaged, a K tail of 8).
// Small-integer inputs are exact in TF32, so the results must equal the
// untiled kernels', threads in order and reversed, TMA data landing at the
// wait, wgmma reading at issue, on a persistent grid of one workgroup,
// stream-K over three, and with staged stores.
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
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-stream-k=true wgmma-persistent-workgroups=3},gpucg-test-emulate-on-cpu)' -o %t.sk.mlir
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.sk.mlir | %strip_address > %t.sk
// RUN: diff %t.ref %t.sk
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-staged-store=true},gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.staged
// RUN: diff %t.ref %t.staged
//
// Mutations (Inputs/mutate.py), each caught: the producer threads restage
// without waiting for the load tile (wrong numbers), and a full barrier
// that counts the loader's arrival alone (the consumers may multiply before
// the K-major tile is written; its extra arrivals deadlock the stage).
// RUN: %python %S/Inputs/mutate.py drop-mbarrier-wait 3 < %t.wgmma.mlir \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.unwaited.mlir
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.unwaited.mlir 2>&1 | %strip_address > %t.unwaited || true
// RUN: not diff -q %t.ref %t.unwaited
// RUN: %python %S/Inputs/mutate.py loader-only-full 1 < %t.wgmma.mlir \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.early.mlir
// RUN: env GPUCG_EMU_TMA=wait %mlir_runner_emulated %t.early.mlir 2>&1 | %strip_address > %t.early || true
// RUN: not diff -q %t.ref %t.early
//
// What ran (and that it parses again), for @matmul: 129 arrivals on each
// full barrier, a loaded barrier of the loader's alone; B's TMA boxes (32
// rows of K by 32 columns of N) land in the load tile after wgmma's A and
// B tiles (16 KB each) on the loaded barrier; every producer thread waits
// for it, moves 4x4 blocks (16-byte reads and writes), fences the async
// proxy and arrives; wgmma reads B K-major (no transposeB).
// RUN: gpucg-opt %t.wgmma.mlir | FileCheck %s
// CHECK-LABEL: func.func @matmul
// CHECK: nvgpu.mbarrier.init %[[FULL:.+]][%c0], %c129
// CHECK-NEXT: nvgpu.mbarrier.init %[[LOADED:.+]][%c0], %c1 :
// CHECK-NOT: transposeB
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%{{.+}}], %c16384
// CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[LOADED]][%{{.+}}], %c16384
// CHECK: nvgpu.tma.async.load %{{.+}}[%{{.+}}, %{{.+}}], %[[FULL]][%{{.+}}] to %{{.+}} : {{.+}} -> memref<128x32xf32
// CHECK: %[[B0:.+]] = arith.addi %{{.+}}, %c32768 : index
// CHECK-NEXT: memref.view %{{.+}}[%[[B0]]][] {{.+}} to memref<32x32xf32
// CHECK-NEXT: nvgpu.tma.async.load %{{.+}}[%{{.+}}, %{{.+}}], %[[LOADED]][%{{.+}}] to
// CHECK-COUNT-3: nvgpu.tma.async.load {{.+}}, %[[LOADED]]
// CHECK: nvgpu.mbarrier.try_wait.parity %[[LOADED]]
// CHECK-COUNT-4: vector.load {{.+}} : memref<4096xi32, #gpu.address_space<workgroup>>, vector<4xi32>
// CHECK-COUNT-4: vector.store {{.+}} : memref<4096xi32, #gpu.address_space<workgroup>>, vector<4xi32>
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>
// CHECK-NEXT: nvgpu.mbarrier.arrive %[[FULL]]
// CHECK-LABEL: func.func @decode
// CHECK-LABEL: func.func @main

#a_mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#a_km = affine_map<(d0, d1, d2) -> (d2, d0)>
#b_nk = affine_map<(d0, d1, d2) -> (d1, d2)>
#b_kn = affine_map<(d0, d1, d2) -> (d2, d1)>
#c_mn = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @matmul(%a: tensor<150x100xf32>, %b: tensor<100x200xf32>, %c: tensor<150x200xf32>) -> tensor<150x200xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<150x200xf32>) -> tensor<150x200xf32>
    %r = linalg.matmul indexing_maps = [#a_mk, #b_kn, #c_mn]
      ins(%a, %b : tensor<150x100xf32>, tensor<100x200xf32>) outs(%f : tensor<150x200xf32>) -> tensor<150x200xf32>
    return %r : tensor<150x200xf32>
  }
  func.func @decode(%a: tensor<5x96xf32>, %b: tensor<96x136xf32>, %c: tensor<5x136xf32>, %bias: tensor<136xf32>) -> tensor<5x136xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<5x136xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<5x136xf32>) -> tensor<5x136xf32>
    %r = linalg.matmul indexing_maps = [#a_mk, #b_kn, #c_mn]
      ins(%a, %b : tensor<5x96xf32>, tensor<96x136xf32>) outs(%f : tensor<5x136xf32>) -> tensor<5x136xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%r, %bias : tensor<5x136xf32>, tensor<136xf32>) outs(%c : tensor<5x136xf32>) {
    ^bb0(%v: f32, %u: f32, %o: f32):
      %y = arith.addf %v, %u : f32
      %z = arith.maximumf %y, %zero : f32
      linalg.yield %z : f32
    } -> tensor<5x136xf32>
    return %g : tensor<5x136xf32>
  }
  func.func @tn(%a: tensor<64x128xf32>, %b: tensor<192x64xf32>, %c: tensor<128x192xf32>) -> tensor<128x192xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<128x192xf32>) -> tensor<128x192xf32>
    %r = linalg.matmul indexing_maps = [#a_km, #b_nk, #c_mn]
      ins(%a, %b : tensor<64x128xf32>, tensor<192x64xf32>) outs(%f : tensor<128x192xf32>) -> tensor<128x192xf32>
    return %r : tensor<128x192xf32>
  }
  func.func @both(%a: tensor<72x128xf32>, %b: tensor<72x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
    %r = linalg.matmul indexing_maps = [#a_km, #b_kn, #c_mn]
      ins(%a, %b : tensor<72x128xf32>, tensor<72x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
    return %r : tensor<128x128xf32>
  }
  func.func @main() {
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
    %matmul_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<150x100xf32>
    %matmul_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<100x200xf32>
    %matmul_c = tensor.empty() : tensor<150x200xf32>
    %matmul_r = func.call @matmul(%matmul_a, %matmul_b, %matmul_c) : (tensor<150x100xf32>, tensor<100x200xf32>, tensor<150x200xf32>) -> tensor<150x200xf32>
    %matmul_m = bufferization.to_buffer %matmul_r : tensor<150x200xf32> to memref<150x200xf32>
    %matmul_u = memref.cast %matmul_m : memref<150x200xf32> to memref<*xf32>
    func.call @printMemrefF32(%matmul_u) : (memref<*xf32>) -> ()
    %decode_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<5x96xf32>
    %decode_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<96x136xf32>
    %decode_c = tensor.empty() : tensor<5x136xf32>
    %decode_bias = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<136xf32>
    %decode_r = func.call @decode(%decode_a, %decode_b, %decode_c, %decode_bias) : (tensor<5x96xf32>, tensor<96x136xf32>, tensor<5x136xf32>, tensor<136xf32>) -> tensor<5x136xf32>
    %decode_m = bufferization.to_buffer %decode_r : tensor<5x136xf32> to memref<5x136xf32>
    %decode_u = memref.cast %decode_m : memref<5x136xf32> to memref<*xf32>
    func.call @printMemrefF32(%decode_u) : (memref<*xf32>) -> ()
    %tn_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<64x128xf32>
    %tn_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<192x64xf32>
    %tn_c = tensor.empty() : tensor<128x192xf32>
    %tn_r = func.call @tn(%tn_a, %tn_b, %tn_c) : (tensor<64x128xf32>, tensor<192x64xf32>, tensor<128x192xf32>) -> tensor<128x192xf32>
    %tn_m = bufferization.to_buffer %tn_r : tensor<128x192xf32> to memref<128x192xf32>
    %tn_u = memref.cast %tn_m : memref<128x192xf32> to memref<*xf32>
    func.call @printMemrefF32(%tn_u) : (memref<*xf32>) -> ()
    %both_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<72x128xf32>
    %both_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<72x128xf32>
    %both_c = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 4) mod 9)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<128x128xf32>
    %both_r = func.call @both(%both_a, %both_b, %both_c) : (tensor<72x128xf32>, tensor<72x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>
    %both_m = bufferization.to_buffer %both_r : tensor<128x128xf32> to memref<128x128xf32>
    %both_u = memref.cast %both_m : memref<128x128xf32> to memref<*xf32>
    func.call @printMemrefF32(%both_u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
