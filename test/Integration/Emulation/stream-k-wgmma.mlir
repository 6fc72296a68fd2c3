// Stream-K under gpucg-matmul-wgmma (sm_90a) on the CPU emulator: on the
// persistent grid, all tiles' K steps, tile by tile, split evenly over the
// workgroups, so a workgroup's steps may start or end inside a tile; each
// part of a tile goes to the workgroup's slot of the workspace, its K steps
// are counted into the tile's counter, and the workgroup whose steps
// complete the tile adds the parts of all its workgroups, in workgroup
// order, into the staging buffer before the epilogue (or the staged store).
// Kernels, with wgmma-stream-k=true on 5 workgroups asked of the strategy:
// a plain f16 matmul (its store staged for the sum), a bf16 linear layer
// with bias + ReLU to bf16 (one tile of 8 K steps over all 5 workgroups),
// a transposed decode step (16 x 200 x 512, C^T = B^T * A^T, whose
// consumers publish and add columns of C); and users' plans: partial tiles
// with a K tail (300 x 264 x 456 in 128x128 tiles on 7 workgroups: 72
// steps, ten or eleven each), C += A * B (3 workgroups, C's prior
// contents added once, to the sum) and two waves of tiles (8 of 3 K steps
// on 3 workgroups: the first 3 data-parallel, whole, the other 5 tiles'
// 15 steps split 5 per workgroup). Bit-exact against the untiled kernels
// (small-integer inputs: every order of the sum is exact) in order,
// reversed, and reversed with TMA data at the wait and wgmma at issue.
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-stream-k=true wgmma-persistent-workgroups=5})' -o %t.wgmma.mlir
// RUN: gpucg-opt %t.wgmma.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.mlir
// RUN: %mlir_runner_emulated %t.mlir | %strip_address > %t.forward
// RUN: diff %t.ref %t.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.mlir | %strip_address > %t.reverse
// RUN: diff %t.ref %t.reverse
// RUN: env GPUCG_EMU_ORDER=reverse GPUCG_EMU_TMA=wait GPUCG_EMU_WGMMA=issue %mlir_runner_emulated %t.mlir | %strip_address > %t.modes
// RUN: diff %t.ref %t.modes

// Mutations of the protocol (mutate.py), each caught in either order: a
// part's K steps counted twice (2 for the 4 or 1 of @sk_plain's parts:
// some tile never or twice completed) and a part left out of the sum
// (wrong numbers); the first workgroup to arrive summing, before the others
// published; the fence after a part's stores, and the one after the
// arrival, before the last workgroup reads the others' parts; the
// consumers' barrier between the flag's store and its read (a race on
// workgroup memory); the warpgroup's barrier between the sum and an
// epilogue that reads other threads' pieces (@sk_bias_relu's 8-element
// bf16 pieces: a race), and the one after the tile, before the next part
// stores over the staging buffer (wrong numbers).
// RUN: %mutate count-twice 1 < %t.wgmma.mlir | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.twice.mlir
// RUN: %mlir_runner_emulated %t.twice.mlir | %strip_address > %t.twice
// RUN: not diff -q %t.ref %t.twice
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.twice.mlir | %strip_address > %t.twice.reverse
// RUN: not diff -q %t.ref %t.twice.reverse
// RUN: %mutate skip-first-part 1 < %t.wgmma.mlir | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.skip.mlir
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.skip.mlir | %strip_address > %t.skip
// RUN: not diff -q %t.ref %t.skip
// RUN: %mutate first-arrival-sums 1 < %t.wgmma.mlir | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=EARLY
// EARLY: gpucg-emulator: error: unordered access to global memory at address 0x{{[0-9a-f]+}}: thread (0, 0, 0) of workgroup (0, 0, 0) read it at {{.*}}: vector.load and thread (0, 0, 0) of workgroup (1, 0, 0) stores it at {{.*}}: vector.store in the same launch
// RUN: %mutate drop-fence 1 < %t.wgmma.mlir | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.publish.mlir
// RUN: not %mlir_runner_emulated %t.publish.mlir 2>&1 | FileCheck %s --check-prefix=PUBLISH
// RUN: env GPUCG_EMU_ORDER=reverse not %mlir_runner_emulated %t.publish.mlir 2>&1 | FileCheck %s --check-prefix=PUBLISH
// PUBLISH: error: unordered access to global memory at address 0x{{[0-9a-f]+}}: thread ({{[0-9]+}}, 0, 0) of workgroup ({{[0-9]}}, 0, 0) stored it at {{.*}}: vector.store and thread ({{[0-9]+}}, 0, 0) of workgroup ({{[0-9]}}, 0, 0) reads it at
// RUN: %mutate drop-fence 2 < %t.wgmma.mlir | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=ACQUIRE
// ACQUIRE: error: unordered access to global memory at address 0x{{[0-9a-f]+}}: thread (0, 0, 0) of workgroup (0, 0, 0) stored it at {{.*}} and thread (0, 0, 0) of workgroup (1, 0, 0) reads it at {{.*}}: the second workgroup's atomic that saw the first's was not followed by a fence at gpu scope
// RUN: %mutate drop-named-barrier 3 < %t.wgmma.mlir | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=FLAG
// FLAG: error: race on workgroup memory at byte offset 0 of workgroup (0, 0, 0): thread (0, 0, 0) wrote it at {{.*}}: memref.store and thread (1, 0, 0) read it at {{.*}}: memref.load
// RUN: %mutate drop-named-barrier 9 < %t.wgmma.mlir | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=SUM
// SUM: error: race on workgroup memory at byte offset {{[0-9]+}} of workgroup ({{[0-9]}}, 0, 0): thread ({{[0-9]+}}, 0, 0) read it at {{.*}}: vector.transfer_read and thread ({{[0-9]+}}, 0, 0) wrote it at {{.*}}: vector.store
// RUN: %mutate drop-named-barrier 5 < %t.wgmma.mlir | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.next.mlir
// RUN: %mlir_runner_emulated %t.next.mlir | %strip_address > %t.next
// RUN: not diff -q %t.ref %t.next

// What ran: each kernel's plan, and in the first the parts' protocol.
// RUN: gpucg-opt %t.wgmma.mlir -mlir-print-local-scope | FileCheck %s
// CHECK-DAG: memref.global "private" @__gpucg_split_k_counters_sk_plain : memref<4xi32> = dense<0>
// CHECK-DAG: memref.global "private" @__gpucg_split_k_partials_sk_plain : memref<163840xf32> = uninitialized
// CHECK-LABEL: func.func @sk_plain
//  CHECK-SAME:   persistent_workgroups = 5, stream_k = true
//       CHECK:   scf.forall (%[[WG:.+]]) in (5)
// 4 tiles of 5 K steps: workgroup w runs steps 20 w / 5 = 4 w up to
// 4 w + 4, iteration i the tile 4 w / 5 + i of those they reach (up to
// ceil((4 w + 4) / 5)).
//       CHECK:   affine.apply affine_map<(d0) -> (d0 * 4)>(%[[WG]])
//       CHECK:   affine.apply affine_map<(d0) -> (d0 * 4 + 4)>(%[[WG]])
//       CHECK:   affine.apply affine_map<(d0) -> ((d0 * 4) floordiv 5)>(%[[WG]])
//       CHECK:   %[[N:.+]] = affine.apply affine_map<(d0) -> ((d0 * 4 + 4) ceildiv 5 - (d0 * 4) floordiv 5)>(%[[WG]])
//       CHECK:   scf.for %[[I:.+]] = %c0 to %[[N]] step %c1 {
//       CHECK:     %[[TILE:.+]] = affine.apply affine_map<(d0, d1) -> (d0 + (d1 * 4) floordiv 5)>(%[[I]], %[[WG]])
//       CHECK:     arith.maxsi
//       CHECK:     arith.minsi
//       CHECK:     nvgpu.warpgroup.mma
//       CHECK:     nvgpu.warpgroup.mma.store
//       CHECK:     %[[PART:.+]] = arith.ori
//       CHECK:     %[[LAST:.+]] = scf.if %[[PART]] -> (i1) {
//       CHECK:       vector.store {{.*}} : memref<163840xf32>, vector<4xf32>
//       CHECK:       nvvm.memory.barrier <gpu>
//       CHECK:       nvvm.barrier id = {{.*}} number_of_threads = %c256_i32
//       CHECK:       memref.atomic_rmw addi %{{.+}}, %{{.+}}[%[[TILE]]] : (i32, memref<4xi32>) -> i32
//       CHECK:     } else {
//       CHECK:     scf.if %[[LAST]] {
//       CHECK:       scf.if %[[PART]] {
//       CHECK:         vector.load {{.*}} : memref<163840xf32>, vector<4xf32>
//       CHECK:         arith.addf
//       CHECK:       vector.transfer_write {{.*}}, %arg2
// CHECK-LABEL: func.func @sk_bias_relu
//  CHECK-SAME:   persistent_workgroups = 5, stream_k = true
// CHECK-LABEL: func.func @sk_partial
//  CHECK-SAME:   persistent_workgroups = 7, stream_k = true
// CHECK-LABEL: func.func @sk_decode
//  CHECK-SAME:   persistent_workgroups = 5, stream_k = true
//       CHECK:   memref.transpose
// CHECK-LABEL: func.func @sk_accumulate
//  CHECK-SAME:   persistent_workgroups = 3, stream_k = true
// CHECK-LABEL: func.func @sk_waves
//  CHECK-SAME:   persistent_workgroups = 3, stream_k = true
//       CHECK:   arith.cmpi ult, %{{.+}}, %c1 : index

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @sk_plain(%a: tensor<256x320xf16>, %b: tensor<320x256xf16>) -> tensor<256x256xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
    %mm = linalg.matmul ins(%a, %b : tensor<256x320xf16>, tensor<320x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %mm : tensor<256x256xf32>
  }
  func.func @sk_bias_relu(%a: tensor<128x512xbf16>, %b: tensor<512x256xbf16>, %bias: tensor<256xf32>) -> tensor<128x256xbf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %mm = linalg.matmul ins(%a, %b : tensor<128x512xbf16>, tensor<512x256xbf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
    %o = tensor.empty() : tensor<128x256xbf16>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<128x256xf32>, tensor<256xf32>) outs(%o : tensor<128x256xbf16>) {
    ^bb0(%x: f32, %y: f32, %out: bf16):
      %s = arith.addf %x, %y : f32
      %relu = arith.maximumf %s, %zero : f32
      %t = arith.truncf %relu : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x256xbf16>
    return %r : tensor<128x256xbf16>
  }
  func.func @sk_partial(%a: tensor<300x456xbf16>, %b: tensor<456x264xbf16>) -> tensor<300x264xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<300x264xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<300x264xf32>) -> tensor<300x264xf32>
    %mm = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 3, persistent_workgroups = 7, stream_k = true>>} ins(%a, %b : tensor<300x456xbf16>, tensor<456x264xbf16>) outs(%f : tensor<300x264xf32>) -> tensor<300x264xf32>
    return %mm : tensor<300x264xf32>
  }
  func.func @sk_decode(%a: tensor<16x512xbf16>, %b: tensor<200x512xbf16>) -> tensor<16x200xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<16x200xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x200xf32>) -> tensor<16x200xf32>
    %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<16x512xbf16>, tensor<200x512xbf16>) outs(%f : tensor<16x200xf32>) -> tensor<16x200xf32>
    return %r : tensor<16x200xf32>
  }
  func.func @sk_accumulate(%a: tensor<256x192xf16>, %b: tensor<192x128xf16>, %c: tensor<256x128xf32>) -> tensor<256x128xf32> {
    %mm = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, persistent_workgroups = 3, stream_k = true>>} ins(%a, %b : tensor<256x192xf16>, tensor<192x128xf16>) outs(%c : tensor<256x128xf32>) -> tensor<256x128xf32>
    return %mm : tensor<256x128xf32>
  }
  func.func @sk_waves(%a: tensor<256x192xf16>, %b: tensor<192x512xf16>) -> tensor<256x512xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x512xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %mm = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 2, persistent_workgroups = 3, stream_k = true>>} ins(%a, %b : tensor<256x192xf16>, tensor<192x512xf16>) outs(%f : tensor<256x512xf32>) -> tensor<256x512xf32>
    return %mm : tensor<256x512xf32>
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefBF16(memref<*xbf16>) attributes {llvm.emit_c_interface}
  func.func @main() {
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
    %sk_plain_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x320xf16>
    %sk_plain_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<320x256xf16>
    %sk_plain_r = func.call @sk_plain(%sk_plain_0, %sk_plain_1) : (tensor<256x320xf16>, tensor<320x256xf16>) -> tensor<256x256xf32>
    %sk_plain_m = bufferization.to_buffer %sk_plain_r : tensor<256x256xf32> to memref<256x256xf32>
    %sk_plain_u = memref.cast %sk_plain_m : memref<256x256xf32> to memref<*xf32>
    func.call @printMemrefF32(%sk_plain_u) : (memref<*xf32>) -> ()
    %sk_bias_relu_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<128x512xbf16>
    %sk_bias_relu_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<512x256xbf16>
    %sk_bias_relu_2 = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<256xf32>
    %sk_bias_relu_r = func.call @sk_bias_relu(%sk_bias_relu_0, %sk_bias_relu_1, %sk_bias_relu_2) : (tensor<128x512xbf16>, tensor<512x256xbf16>, tensor<256xf32>) -> tensor<128x256xbf16>
    %sk_bias_relu_m = bufferization.to_buffer %sk_bias_relu_r : tensor<128x256xbf16> to memref<128x256xbf16>
    %sk_bias_relu_u = memref.cast %sk_bias_relu_m : memref<128x256xbf16> to memref<*xbf16>
    func.call @printMemrefBF16(%sk_bias_relu_u) : (memref<*xbf16>) -> ()
    %sk_partial_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<300x456xbf16>
    %sk_partial_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<456x264xbf16>
    %sk_partial_r = func.call @sk_partial(%sk_partial_0, %sk_partial_1) : (tensor<300x456xbf16>, tensor<456x264xbf16>) -> tensor<300x264xf32>
    %sk_partial_m = bufferization.to_buffer %sk_partial_r : tensor<300x264xf32> to memref<300x264xf32>
    %sk_partial_u = memref.cast %sk_partial_m : memref<300x264xf32> to memref<*xf32>
    func.call @printMemrefF32(%sk_partial_u) : (memref<*xf32>) -> ()
    %sk_decode_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<16x512xbf16>
    %sk_decode_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<200x512xbf16>
    %sk_decode_r = func.call @sk_decode(%sk_decode_0, %sk_decode_1) : (tensor<16x512xbf16>, tensor<200x512xbf16>) -> tensor<16x200xf32>
    %sk_decode_m = bufferization.to_buffer %sk_decode_r : tensor<16x200xf32> to memref<16x200xf32>
    %sk_decode_u = memref.cast %sk_decode_m : memref<16x200xf32> to memref<*xf32>
    func.call @printMemrefF32(%sk_decode_u) : (memref<*xf32>) -> ()
    %sk_accumulate_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x192xf16>
    %sk_accumulate_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<192x128xf16>
    %sk_accumulate_2 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 4) mod 9)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<256x128xf32>
    %sk_accumulate_r = func.call @sk_accumulate(%sk_accumulate_0, %sk_accumulate_1, %sk_accumulate_2) : (tensor<256x192xf16>, tensor<192x128xf16>, tensor<256x128xf32>) -> tensor<256x128xf32>
    %sk_accumulate_m = bufferization.to_buffer %sk_accumulate_r : tensor<256x128xf32> to memref<256x128xf32>
    %sk_accumulate_u = memref.cast %sk_accumulate_m : memref<256x128xf32> to memref<*xf32>
    func.call @printMemrefF32(%sk_accumulate_u) : (memref<*xf32>) -> ()
    %sk_waves_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x192xf16>
    %sk_waves_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<192x512xf16>
    %sk_waves_r = func.call @sk_waves(%sk_waves_0, %sk_waves_1) : (tensor<256x192xf16>, tensor<192x512xf16>) -> tensor<256x512xf32>
    %sk_waves_m = bufferization.to_buffer %sk_waves_r : tensor<256x512xf32> to memref<256x512xf32>
    %sk_waves_u = memref.cast %sk_waves_m : memref<256x512xf32> to memref<*xf32>
    func.call @printMemrefF32(%sk_waves_u) : (memref<*xf32>) -> ()
    return
  }
}
