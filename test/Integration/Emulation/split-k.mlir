// Split-K under gpucg-matmul-mma-sync on the CPU emulator: each output
// tile's K loop in parts on grid z (gpucg-split-k-across-workgroups), each
// part's accumulators published to the kernel's workspace, the arrivals
// counted atomically and the last workgroup of the tile adding the parts in
// part order before the epilogue (gpucg-combine-split-k). Kernels, with
// split-k=4 asked of the strategy: a plain f16 matmul into f32 (4 parts of
// 128), a bf16 matmul with a bias + ReLU epilogue to bf16, partial tiles
// (100 x 72, workgroup specialization's two K loops), i8 into i32, and a
// user's plan of 3 parts (compilation_info). Small-integer inputs keep every
// sum exact: the results must equal the untiled kernels', in both
// workgroup and thread orders, with the race detectors on (workgroup memory,
// and global stores of two workgroups).
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80 split-k=4})' -o %t.mma.mlir
// RUN: gpucg-opt %t.mma.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.mlir
// RUN: %mlir_runner_emulated %t.mlir | %strip_address > %t.forward
// RUN: diff %t.ref %t.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.mlir | %strip_address > %t.reverse
// RUN: diff %t.ref %t.reverse
// The same kernels for sm_90 (mma.sync there too).
// RUN: sed -e 's/chip = "sm_80"/chip = "sm_90"/' %s | gpucg-opt --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_90 split-k=4},gpucg-test-emulate-on-cpu)' -o %t.sm90.mlir
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.sm90.mlir | %strip_address > %t.sm90
// RUN: diff %t.ref %t.sm90

// Mutations of the protocol, each caught. An arrival counted twice: no
// workgroup sees itself last, C is never written.
// RUN: %mutate count-twice 1 < %t.mma.mlir | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.twice.mlir
// RUN: %mlir_runner_emulated %t.twice.mlir | %strip_address > %t.twice
// RUN: not diff -q %t.ref %t.twice
// A part left out of the sum (the loop over the parts starts at 1).
// RUN: %mutate skip-first-part 1 < %t.mma.mlir | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.skip.mlir
// RUN: %mlir_runner_emulated %t.skip.mlir | %strip_address > %t.skip
// RUN: not diff -q %t.ref %t.skip
// The first workgroup to arrive sums (and resets the counter), before the
// others published: it reads the other parts' partial sums before they are
// stored, and nothing orders its read before their stores.
// RUN: %mutate first-arrival-sums 1 < %t.mma.mlir | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=EARLY
// EARLY: gpucg-emulator: error: unordered access to global memory at address 0x{{[0-9a-f]+}}: thread (0, 0, 0) of workgroup (0, 0, 0) read it at {{.*}}: vector.load and thread (0, 0, 0) of workgroup (0, 0, 1) stores it at {{.*}}: vector.store in the same launch, with nothing that orders the two: the first thread did not fence at gpu scope
// The order that publishes a part's partial sums to the tile's last
// workgroup (docs/Emulator-runtime.md, "Global memory"): without the fence
// after a part's stores, without the barrier between every thread's fence
// and thread 0's arrival, or without the last workgroup's fence after its
// arrival, its read of another part's sums is unordered.
// RUN: %mutate drop-fence 1 < %t.mma.mlir | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=PUBLISH
// PUBLISH: error: unordered access to global memory at address 0x{{[0-9a-f]+}}: thread (0, 0, 0) of workgroup (0, 0, 0) stored it at {{.*}}: vector.store and thread (0, 0, 0) of workgroup (0, 0, 3) reads it at {{.*}}: vector.load in the same launch, with nothing that orders the two: no atomic of the second workgroup came after an atomic that the first workgroup ran after that fence
// RUN: %mutate drop-barrier 9 < %t.mma.mlir | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=ARRIVE
// ARRIVE: error: unordered access to global memory at address 0x{{[0-9a-f]+}}: thread (1, 0, 0) of workgroup (0, 0, 0) stored it at {{.*}} and thread (1, 0, 0) of workgroup (0, 0, 3) reads it at {{.*}}: no atomic of the second workgroup came after an atomic that the first workgroup ran after that fence (with a barrier between them
// RUN: %mutate drop-fence 2 < %t.mma.mlir | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=ACQUIRE
// ACQUIRE: error: unordered access to global memory at address 0x{{[0-9a-f]+}}: thread (0, 0, 0) of workgroup (0, 0, 0) stored it at {{.*}} and thread (0, 0, 0) of workgroup (0, 0, 3) reads it at {{.*}}: the second workgroup's atomic that saw the first's was not followed by a fence at gpu scope
// The barrier between thread 0's flag and the workgroup's read of it.
// RUN: %mutate drop-barrier 10 < %t.mma.mlir | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: race on workgroup memory

// What ran (and that it parses again): the grids (4 parts on z, 3 for the
// user's plan) and the first kernel's protocol.
// RUN: gpucg-opt %t.mma.mlir | FileCheck %s
// CHECK: memref.global "private" @__gpucg_split_k_{{counters|partials}}_plain_f16
// CHECK-LABEL: func.func @plain_f16
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 4, 2, 4>
//  CHECK-SAME:   split_k = 4
//       CHECK:   scf.forall
//       CHECK:     nvgpu.mma.sync
//       CHECK:     memref.get_global @__gpucg_split_k_partials_plain_f16 : memref<32768xf32>
//       CHECK:     vector.store {{.*}} : memref<32768xf32>, vector<4xf32>
//       CHECK:     nvvm.memory.barrier <gpu>
//       CHECK:     gpu.barrier
//       CHECK:     scf.if
//       CHECK:       memref.atomic_rmw addi
//       CHECK:       nvvm.memory.barrier <gpu>
//       CHECK:     gpu.barrier
//       CHECK:     scf.if
//       CHECK:       scf.for {{.*}} to %c4{{[_0-9]*}} step
//       CHECK:         vector.load {{.*}} : memref<32768xf32>, vector<4xf32>
// CHECK-LABEL: func.func @bias_relu_bf16
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 4, 4, 4>
// CHECK-LABEL: func.func @partial_f16
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 3, 4, 4>
// CHECK-LABEL: func.func @int8
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 2, 2, 4>
//       CHECK:   memref.atomic_rmw addi
// CHECK-LABEL: func.func @user_split3
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 2, 2, 3>

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @plain_f16(%a: tensor<64x512xf16>, %b: tensor<512x128xf16>) -> tensor<64x128xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
    %mm = linalg.matmul ins(%a, %b : tensor<64x512xf16>, tensor<512x128xf16>) outs(%f : tensor<64x128xf32>) -> tensor<64x128xf32>
    return %mm : tensor<64x128xf32>
  }
  func.func @bias_relu_bf16(%a: tensor<128x256xbf16>, %b: tensor<256x128xbf16>, %bias: tensor<128xf32>) -> tensor<128x128xbf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
    %mm = linalg.matmul ins(%a, %b : tensor<128x256xbf16>, tensor<256x128xbf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
    %o = tensor.empty() : tensor<128x128xbf16>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<128x128xf32>, tensor<128xf32>) outs(%o : tensor<128x128xbf16>) {
    ^bb0(%x: f32, %y: f32, %out: bf16):
      %s = arith.addf %x, %y : f32
      %relu = arith.maximumf %s, %zero : f32
      %t = arith.truncf %relu : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x128xbf16>
    return %r : tensor<128x128xbf16>
  }
  func.func @partial_f16(%a: tensor<100x256xf16>, %b: tensor<256x72xf16>) -> tensor<100x72xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<100x72xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<100x72xf32>) -> tensor<100x72xf32>
    %mm = linalg.matmul ins(%a, %b : tensor<100x256xf16>, tensor<256x72xf16>) outs(%f : tensor<100x72xf32>) -> tensor<100x72xf32>
    return %mm : tensor<100x72xf32>
  }
  func.func @int8(%a: tensor<64x512xi8>, %b: tensor<512x64xi8>) -> tensor<64x64xi32> {
    %zero = arith.constant 0 : i32
    %e = tensor.empty() : tensor<64x64xi32>
    %f = linalg.fill ins(%zero : i32) outs(%e : tensor<64x64xi32>) -> tensor<64x64xi32>
    %mm = linalg.matmul ins(%a, %b : tensor<64x512xi8>, tensor<512x64xi8>) outs(%f : tensor<64x64xi32>) -> tensor<64x64xi32>
    return %mm : tensor<64x64xi32>
  }
  func.func @user_split3(%a: tensor<64x192xf16>, %b: tensor<192x64xf16>) -> tensor<64x64xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
    %mm = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 32], [16, 16, 0], [16, 8, 16]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync, split_k = 3>>} ins(%a, %b : tensor<64x192xf16>, tensor<192x64xf16>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %mm : tensor<64x64xf32>
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefBF16(memref<*xbf16>) attributes {llvm.emit_c_interface}
  func.func @main() {
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
    %plain_f16_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<64x512xf16>
    %plain_f16_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<512x128xf16>
    %plain_f16_r = func.call @plain_f16(%plain_f16_a, %plain_f16_b) : (tensor<64x512xf16>, tensor<512x128xf16>) -> tensor<64x128xf32>
    %plain_f16_m = bufferization.to_buffer %plain_f16_r : tensor<64x128xf32> to memref<64x128xf32>
    %plain_f16_u = memref.cast %plain_f16_m : memref<64x128xf32> to memref<*xf32>
    func.call @printMemrefF32(%plain_f16_u) : (memref<*xf32>) -> ()
    %bias_relu_bf16_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<128x256xbf16>
    %bias_relu_bf16_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<256x128xbf16>
    %bias_relu_bf16_bias = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<128xf32>
    %bias_relu_bf16_r = func.call @bias_relu_bf16(%bias_relu_bf16_a, %bias_relu_bf16_b, %bias_relu_bf16_bias) : (tensor<128x256xbf16>, tensor<256x128xbf16>, tensor<128xf32>) -> tensor<128x128xbf16>
    %bias_relu_bf16_m = bufferization.to_buffer %bias_relu_bf16_r : tensor<128x128xbf16> to memref<128x128xbf16>
    %bias_relu_bf16_u = memref.cast %bias_relu_bf16_m : memref<128x128xbf16> to memref<*xbf16>
    func.call @printMemrefBF16(%bias_relu_bf16_u) : (memref<*xbf16>) -> ()
    %partial_f16_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<100x256xf16>
    %partial_f16_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x72xf16>
    %partial_f16_r = func.call @partial_f16(%partial_f16_a, %partial_f16_b) : (tensor<100x256xf16>, tensor<256x72xf16>) -> tensor<100x72xf32>
    %partial_f16_m = bufferization.to_buffer %partial_f16_r : tensor<100x72xf32> to memref<100x72xf32>
    %partial_f16_u = memref.cast %partial_f16_m : memref<100x72xf32> to memref<*xf32>
    func.call @printMemrefF32(%partial_f16_u) : (memref<*xf32>) -> ()
    %int8_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.trunci %w : i32 to i8
      tensor.yield %e : i8
    } : tensor<64x512xi8>
    %int8_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.trunci %w : i32 to i8
      tensor.yield %e : i8
    } : tensor<512x64xi8>
    %int8_r = func.call @int8(%int8_a, %int8_b) : (tensor<64x512xi8>, tensor<512x64xi8>) -> tensor<64x64xi32>
    %int8_m = bufferization.to_buffer %int8_r : tensor<64x64xi32> to memref<64x64xi32>
    %int8_u = memref.cast %int8_m : memref<64x64xi32> to memref<*xi32>
    func.call @printMemrefI32(%int8_u) : (memref<*xi32>) -> ()
    %user_split3_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<64x192xf16>
    %user_split3_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<192x64xf16>
    %user_split3_r = func.call @user_split3(%user_split3_a, %user_split3_b) : (tensor<64x192xf16>, tensor<192x64xf16>) -> tensor<64x64xf32>
    %user_split3_m = bufferization.to_buffer %user_split3_r : tensor<64x64xf32> to memref<64x64xf32>
    %user_split3_u = memref.cast %user_split3_m : memref<64x64xf32> to memref<*xf32>
    func.call @printMemrefF32(%user_split3_u) : (memref<*xf32>) -> ()
    return
  }
}
