// Split-K under gpucg-matmul-wgmma (sm_90a) on the CPU emulator: each
// output tile's K loop in parts on grid z (gpucg-split-k-across-workgroups,
// each part's TMA boxes from its offset along K), and in the warp-
// specialized kernel the consumer warpgroups publish their rows of the
// staged accumulator, count the workgroup's arrival (named barriers of the
// consumers), and the last workgroup of a tile adds the parts into the
// staging buffer, in part order, before the epilogue. Kernels, with
// split-k=2 asked of the strategy: a bf16 matmul without an epilogue (its
// store staged for the sum: staged_store), f16 with a bias + ReLU epilogue
// to bf16, a user's plan of 128 x 128 tiles over 300 x 264 (partial
// tiles), and transposed tiles (M below 64, C^T = B^T * A^T, whose
// consumers publish and add columns of C): a decode step of 16 x 200 x 512
// and a user's 40x128 plan on two consumers with a bias and an f16 cast;
// a weight gradient with A[k, m] (128 x 256 x 512); and K that the parts
// do not divide: parts of whole K steps, the last reaching past K, where
// TMA reads zeros (K = 456 and, transposed, 328, each in 2 parts).
// Bit-exact against the untiled kernels in order, reversed, and reversed
// with TMA data at the wait and wgmma at issue.
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a split-k=2})' -o %t.wgmma.mlir
// RUN: gpucg-opt %t.wgmma.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.mlir
// RUN: %mlir_runner_emulated %t.mlir | %strip_address > %t.forward
// RUN: diff %t.ref %t.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.mlir | %strip_address > %t.reverse
// RUN: diff %t.ref %t.reverse
// RUN: env GPUCG_EMU_ORDER=reverse GPUCG_EMU_TMA=wait GPUCG_EMU_WGMMA=issue %mlir_runner_emulated %t.mlir | %strip_address > %t.modes
// RUN: diff %t.ref %t.modes

// Mutations: an arrival counted twice and a part left out (wrong numbers),
// the first arrival summing (two workgroups store the tile), the consumers'
// barrier before the flag's read (a race on workgroup memory).
// RUN: %mutate count-twice 1 < %t.wgmma.mlir | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.twice.mlir
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.twice.mlir | %strip_address > %t.twice
// RUN: not diff -q %t.ref %t.twice
// RUN: %mutate skip-first-part 1 < %t.wgmma.mlir | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.skip.mlir
// RUN: %mlir_runner_emulated %t.skip.mlir | %strip_address > %t.skip
// RUN: not diff -q %t.ref %t.skip
// The same in the transposed decode step's sum of columns.
// RUN: %mutate skip-first-part 4 < %t.wgmma.mlir | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.skip4.mlir
// RUN: %mlir_runner_emulated %t.skip4.mlir | %strip_address > %t.skip4
// RUN: not diff -q %t.ref %t.skip4
// The first workgroup to arrive sums before the others published.
// RUN: %mutate first-arrival-sums 1 < %t.wgmma.mlir | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=EARLY
// EARLY: gpucg-emulator: error: unordered access to global memory at address 0x{{[0-9a-f]+}}: thread (0, 0, 0) of workgroup (0, 0, 0) read it at {{.*}}: vector.load and thread (0, 0, 0) of workgroup (0, 0, 1) stores it at {{.*}}: vector.store in the same launch
// The publishing order (split-k.mlir has the mma.sync kernel's): the fence
// after a part's stores, the consumers' named barrier between their fences
// and the arrival, the last workgroup's fence after its arrival.
// RUN: %mutate drop-fence 1 < %t.wgmma.mlir | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=PUBLISH
// PUBLISH: error: unordered access to global memory at address 0x{{[0-9a-f]+}}: thread (0, 0, 0) of workgroup (0, 0, 0) stored it at {{.*}} and thread (0, 0, 0) of workgroup (0, 0, 1) reads it at {{.*}}: no atomic of the second workgroup came after an atomic that the first workgroup ran after that fence
// RUN: %mutate drop-named-barrier 3 < %t.wgmma.mlir | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=ARRIVE
// ARRIVE: error: unordered access to global memory at address 0x{{[0-9a-f]+}}: thread (1, 0, 0) of workgroup (0, 0, 0) stored it at {{.*}} and thread (1, 0, 0) of workgroup (0, 0, 1) reads it at {{.*}}: no atomic of the second workgroup came after
// RUN: %mutate drop-fence 2 < %t.wgmma.mlir | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=ACQUIRE
// ACQUIRE: error: unordered access to global memory at address 0x{{[0-9a-f]+}}: thread (0, 0, 0) of workgroup (0, 0, 0) stored it at {{.*}} and thread (0, 0, 0) of workgroup (0, 0, 1) reads it at {{.*}}: the second workgroup's atomic that saw the first's was not followed by a fence at gpu scope
// RUN: %mutate drop-named-barrier 4 < %t.wgmma.mlir | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: race on workgroup memory

// What ran: the plans (staged_store taken for the sum), the parts on z,
// and the first kernel's protocol.
// RUN: gpucg-opt %t.wgmma.mlir -mlir-print-local-scope | FileCheck %s
// CHECK-LABEL: func.func @w_plain
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 2, 1, 2>
//  CHECK-SAME:   staged_store = true, split_k = 2
//       CHECK:   nvgpu.warpgroup.mma
//       CHECK:   nvgpu.warpgroup.mma.store
//       CHECK:   memref.get_global @__gpucg_split_k_partials_w_plain
//       CHECK:   vector.store {{.*}} : memref<65536xf32>, vector<4xf32>
//       CHECK:   nvvm.memory.barrier <gpu>
//       CHECK:   nvvm.barrier id = {{.*}} number_of_threads = %c256_i32
//       CHECK:   memref.atomic_rmw addi
// CHECK-LABEL: func.func @w_bias_relu
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 2, 2, 2>
// CHECK-LABEL: func.func @w_partial
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 3, 3, 2>
// The decode step: 4 tiles of 64 of C's columns (N = 200) in 2 parts; the
// fragment stored down C's columns, then 16 rows x 16 pieces published.
// (A transposed tile is always staged: no staged_store.)
// CHECK-LABEL: func.func @w_decode
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 4, 1, 2>
//  CHECK-SAME:   pipeline_depth = 4, split_k = 2
//       CHECK:   memref.transpose
//       CHECK:   nvgpu.warpgroup.mma.store
//       CHECK:   memref.get_global @__gpucg_split_k_partials_w_decode : memref<8192xf32>
//       CHECK:   scf.for %{{.+}} = %{{.+}} to %c256 step %c128
//       CHECK:     vector.store {{.*}} : memref<8192xf32>, vector<4xf32>
//       CHECK:   memref.atomic_rmw addi
// CHECK-LABEL: func.func @w_decode_bias
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 2, 1, 2>
// CHECK-LABEL: func.func @w_weight_grad
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 2, 1, 2>
//  CHECK-SAME:   staged_store = true, split_k = 2
// CHECK-LABEL: func.func @w_k_tail
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 2, 1, 2>
//  CHECK-SAME:   staged_store = true, split_k = 2
// Part p's K starts at p * 256 (4 steps of 64), not at p * 228.
//   CHECK-NOT:   func.func
//       CHECK:   scf.forall (%{{.+}}, %{{.+}}, %[[PART:.+]]) = (0, 0, 0) to (128, 256, 2) step (128, 128, 1)
//       CHECK:   affine.apply affine_map<(d0) -> (d0 * 256)>(%[[PART]])
// CHECK-LABEL: func.func @w_decode_tail
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 2, 1, 2>

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @w_plain(%a: tensor<128x1024xbf16>, %b: tensor<1024x256xbf16>) -> tensor<128x256xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %mm = linalg.matmul ins(%a, %b : tensor<128x1024xbf16>, tensor<1024x256xbf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
    return %mm : tensor<128x256xf32>
  }
  func.func @w_bias_relu(%a: tensor<256x512xf16>, %b: tensor<512x256xf16>, %bias: tensor<256xf32>) -> tensor<256x256xbf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
    %mm = linalg.matmul ins(%a, %b : tensor<256x512xf16>, tensor<512x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    %o = tensor.empty() : tensor<256x256xbf16>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<256x256xf32>, tensor<256xf32>) outs(%o : tensor<256x256xbf16>) {
    ^bb0(%x: f32, %y: f32, %out: bf16):
      %s = arith.addf %x, %y : f32
      %relu = arith.maximumf %s, %zero : f32
      %t = arith.truncf %relu : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x256xbf16>
    return %r : tensor<256x256xbf16>
  }
  func.func @w_partial(%a: tensor<300x512xbf16>, %b: tensor<512x264xbf16>) -> tensor<300x264xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<300x264xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<300x264xf32>) -> tensor<300x264xf32>
    %mm = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 4, split_k = 2>>} ins(%a, %b : tensor<300x512xbf16>, tensor<512x264xbf16>) outs(%f : tensor<300x264xf32>) -> tensor<300x264xf32>
    return %mm : tensor<300x264xf32>
  }
  // A decode step (M = 16, transposed: C^T = B^T * A^T, partial N) in the
  // strategy's plan, and two consumers of a user's transposed 40x128 plan
  // with a column bias and an f16 cast: each consumer publishes and sums
  // its 64 columns of all of C's rows.
  func.func @w_decode(%a: tensor<16x512xbf16>, %b: tensor<200x512xbf16>) -> tensor<16x200xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<16x200xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x200xf32>) -> tensor<16x200xf32>
    %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<16x512xbf16>, tensor<200x512xbf16>) outs(%f : tensor<16x200xf32>) -> tensor<16x200xf32>
    return %r : tensor<16x200xf32>
  }
  func.func @w_decode_bias(%a: tensor<40x256xf16>, %b: tensor<256x256xf16>, %bias: tensor<256xf32>) -> tensor<40x256xf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<40x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<40x256xf32>) -> tensor<40x256xf32>
    %m = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[40, 128, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2, split_k = 2>>}
      ins(%a, %b : tensor<40x256xf16>, tensor<256x256xf16>) outs(%f : tensor<40x256xf32>) -> tensor<40x256xf32>
    %o = tensor.empty() : tensor<40x256xf16>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<40x256xf32>, tensor<256xf32>) outs(%o : tensor<40x256xf16>) {
    ^bb0(%x: f32, %y: f32, %out: f16):
      %s = arith.addf %x, %y : f32
      %t = arith.truncf %s : f32 to f16
      linalg.yield %t : f16
    } -> tensor<40x256xf16>
    return %r : tensor<40x256xf16>
  }
  func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
  // A weight gradient, dW = X^T dY (A[k, m]): each part's TMA boxes of A
  // start at its rows of K.
  func.func @w_weight_grad(%x: tensor<512x128xbf16>, %dy: tensor<512x256xbf16>) -> tensor<128x256xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%x, %dy : tensor<512x128xbf16>, tensor<512x256xbf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
    return %r : tensor<128x256xf32>
  }
  // K not a multiple of the parts' whole K steps: 456 = 7.1 steps of 64 in
  // 2 parts of 4 steps (the last 200 of K and 56 zeros past it), and a
  // transposed decode step with K = 328 in 2 parts of 3 steps.
  func.func @w_k_tail(%a: tensor<128x456xf16>, %b: tensor<456x256xf16>) -> tensor<128x256xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %r = linalg.matmul ins(%a, %b : tensor<128x456xf16>, tensor<456x256xf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
    return %r : tensor<128x256xf32>
  }
  func.func @w_decode_tail(%a: tensor<24x328xbf16>, %b: tensor<128x328xbf16>) -> tensor<24x128xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<24x128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<24x128xf32>) -> tensor<24x128xf32>
    %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<24x328xbf16>, tensor<128x328xbf16>) outs(%f : tensor<24x128xf32>) -> tensor<24x128xf32>
    return %r : tensor<24x128xf32>
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefBF16(memref<*xbf16>) attributes {llvm.emit_c_interface}
  func.func @main() {
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
    %w_plain_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<128x1024xbf16>
    %w_plain_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<1024x256xbf16>
    %w_plain_r = func.call @w_plain(%w_plain_a, %w_plain_b) : (tensor<128x1024xbf16>, tensor<1024x256xbf16>) -> tensor<128x256xf32>
    %w_plain_m = bufferization.to_buffer %w_plain_r : tensor<128x256xf32> to memref<128x256xf32>
    %w_plain_u = memref.cast %w_plain_m : memref<128x256xf32> to memref<*xf32>
    func.call @printMemrefF32(%w_plain_u) : (memref<*xf32>) -> ()
    %w_bias_relu_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x512xf16>
    %w_bias_relu_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<512x256xf16>
    %w_bias_relu_bias = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<256xf32>
    %w_bias_relu_r = func.call @w_bias_relu(%w_bias_relu_a, %w_bias_relu_b, %w_bias_relu_bias) : (tensor<256x512xf16>, tensor<512x256xf16>, tensor<256xf32>) -> tensor<256x256xbf16>
    %w_bias_relu_m = bufferization.to_buffer %w_bias_relu_r : tensor<256x256xbf16> to memref<256x256xbf16>
    %w_bias_relu_u = memref.cast %w_bias_relu_m : memref<256x256xbf16> to memref<*xbf16>
    func.call @printMemrefBF16(%w_bias_relu_u) : (memref<*xbf16>) -> ()
    %w_partial_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<300x512xbf16>
    %w_partial_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<512x264xbf16>
    %w_partial_r = func.call @w_partial(%w_partial_a, %w_partial_b) : (tensor<300x512xbf16>, tensor<512x264xbf16>) -> tensor<300x264xf32>
    %w_partial_m = bufferization.to_buffer %w_partial_r : tensor<300x264xf32> to memref<300x264xf32>
    %w_partial_u = memref.cast %w_partial_m : memref<300x264xf32> to memref<*xf32>
    func.call @printMemrefF32(%w_partial_u) : (memref<*xf32>) -> ()
    %d_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<16x512xbf16>
    %d_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<200x512xbf16>
    %d_r = func.call @w_decode(%d_a, %d_b) : (tensor<16x512xbf16>, tensor<200x512xbf16>) -> tensor<16x200xf32>
    %d_m = bufferization.to_buffer %d_r : tensor<16x200xf32> to memref<16x200xf32>
    %d_u = memref.cast %d_m : memref<16x200xf32> to memref<*xf32>
    func.call @printMemrefF32(%d_u) : (memref<*xf32>) -> ()
    %e_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<40x256xf16>
    %e_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x256xf16>
    %e_bias = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<256xf32>
    %e_r = func.call @w_decode_bias(%e_a, %e_b, %e_bias) : (tensor<40x256xf16>, tensor<256x256xf16>, tensor<256xf32>) -> tensor<40x256xf16>
    %e_m = bufferization.to_buffer %e_r : tensor<40x256xf16> to memref<40x256xf16>
    %e_u = memref.cast %e_m : memref<40x256xf16> to memref<*xf16>
    func.call @printMemrefF16(%e_u) : (memref<*xf16>) -> ()
    %g_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<512x128xbf16>
    %g_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<512x256xbf16>
    %g_r = func.call @w_weight_grad(%g_a, %g_b) : (tensor<512x128xbf16>, tensor<512x256xbf16>) -> tensor<128x256xf32>
    %g_m = bufferization.to_buffer %g_r : tensor<128x256xf32> to memref<128x256xf32>
    %g_u = memref.cast %g_m : memref<128x256xf32> to memref<*xf32>
    func.call @printMemrefF32(%g_u) : (memref<*xf32>) -> ()
    %t_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x456xf16>
    %t_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<456x256xf16>
    %t_r = func.call @w_k_tail(%t_a, %t_b) : (tensor<128x456xf16>, tensor<456x256xf16>) -> tensor<128x256xf32>
    %t_m = bufferization.to_buffer %t_r : tensor<128x256xf32> to memref<128x256xf32>
    %t_u = memref.cast %t_m : memref<128x256xf32> to memref<*xf32>
    func.call @printMemrefF32(%t_u) : (memref<*xf32>) -> ()
    %u_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<24x328xbf16>
    %u_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<128x328xbf16>
    %u_r = func.call @w_decode_tail(%u_a, %u_b) : (tensor<24x328xbf16>, tensor<128x328xbf16>) -> tensor<24x128xf32>
    %u_m = bufferization.to_buffer %u_r : tensor<24x128xf32> to memref<24x128xf32>
    %u_u = memref.cast %u_m : memref<24x128xf32> to memref<*xf32>
    func.call @printMemrefF32(%u_u) : (memref<*xf32>) -> ()
    return
  }
}
