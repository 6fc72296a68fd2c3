// gpucg-matmul-mma-sync (sm_80) on matmuls whose sizes are known only at
// run time, on the CPU emulator. Rows of a run-time pitch prove no
// alignment at compile time. gpucg-row-pitch-specialization gives each
// workgroup a copy of its body for A and B pitches that a run-time check
// finds multiples of 16 bytes, whose copies into workgroup memory are
// 16-byte cp.async; in the other copy they are register-staged, and
// gpucg-version-vector-alignment gives each global access a run-time check
// of its address (and of its mask being whole): a 16-byte vector.load or
// vector.store claiming that alignment where it holds, the element-wise
// access elsewhere. Cases:
// - @dynamic_f16 at 72 x 48 x 40 (every row 16-byte aligned: the cp.async
//   copy; partial tiles, a K tail of 8), 64 x 64 x 41 (A's rows 82 bytes
//   apart: one row in eight aligned; whole tiles, a K tail of 9 whose
//   vectors are partial) and 37 x 33 x 17 (every pitch odd);
// - @accumulate_bf16, C += A * B at 40 x 36 x 24 (C's rows 144 bytes: its
//   2-element loads and 4-element stores aligned; B's 72: every other row,
//   so the register-staged copy) and 40 x 32 x 24 (the cp.async copy);
// - @dynamic_i8 at 50 x 64 x 48 (i8 to i32; the cp.async copy).
// In order and reversed, the results must equal the untiled kernels'
// (small-integer inputs keep every sum exact), with the emulator checking
// every claimed alignment and that no global vector access leaves its
// memref.
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80})' \
// RUN:   --mlir-print-debuginfo -o %t.mlir 2>/dev/null
// RUN: gpucg-opt %t.mlir | FileCheck %s
// RUN: gpucg-opt %t.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.clean.mlir
// RUN: %mlir_runner_emulated %t.clean.mlir | %strip_address > %t.forward
// RUN: diff %t.ref %t.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.clean.mlir | %strip_address > %t.reverse
// RUN: diff %t.ref %t.reverse

// Mutations (mutate.py) of the run-time checks, each caught by the
// emulator. The row-pitch check of @dynamic_f16 taken as true: 64 x 64 x
// 41 runs the aligned copy, whose views round A's pitch down to a multiple
// of 8 (the 16-byte async copies stay aligned), so it reads A's rows 40
// elements apart instead of 41: wrong numbers.
// RUN: %mutate pitch-check-always 1 < %t.mlir \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.pitch.mlir
// RUN: %mlir_runner_emulated %t.pitch.mlir | %strip_address > %t.pitch
// RUN: not diff %t.ref %t.pitch
// The address check of the other copy's full tile's first reads of A left
// out (the 18th check in print order: the aligned copy's 17 come first,
// all of C): 64 x 64 x 41's rows of A are 82 bytes apart, so most take the
// 16-byte load misaligned (a GPU faults).
// RUN: %mutate assume-aligned 18 < %t.mlir \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.aligned.mlir
// RUN: not %mlir_runner_emulated %t.aligned.mlir 2>&1 | FileCheck %s --check-prefix=MISALIGNED
// MISALIGNED: gpucg-emulator: error: misaligned access: thread ({{[0-9]+}}, {{[0-9]+}}, 0) of workgroup (0, 0, 0) accesses address 0x{{[0-9a-f]+}}, which is not a multiple of the 16 bytes the access claims, at {{.*}}: vector.load (on a GPU, a misaligned wide access faults)
// The whole-mask check of the full tile's K loop's reads of A left out:
// the K tail's partial vector (K = 41) at an aligned address is read
// whole, past K (the 22nd check: after the four of the prologue).
// RUN: %mutate assume-whole 22 < %t.mlir \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.whole.mlir
// RUN: not %mlir_runner_emulated %t.whole.mlir 2>&1 | FileCheck %s --check-prefix=PAST-K
// PAST-K: gpucg-emulator: error: vector access out of bounds: thread ({{[0-9]+}}, {{[0-9]+}}, 0) of workgroup (0, 0, 0) accesses indices [40, 48) of dimension 1 (of 2, 0 outermost) of its memref, whose size there is 41, at {{.*}}: vector.load

// The aligned-pitch copy: A and B viewed with pitches built as multiples
// of 8 f16, and read by 16-byte async copies in the K loop.
// CHECK-LABEL: func.func @dynamic_f16
// CHECK:       %[[PITCHES:.+]] = arith.andi %{{.+}}, %{{.+}} : i1
// CHECK:       scf.if %[[PITCHES]] {
// CHECK:         %[[A8:.+]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [%{{.+}}, %{{.+}}], strides: [%{{.+}}, 1] : memref<?x?xf16> to memref<?x?xf16>
// CHECK:         %[[B8:.+]] = memref.reinterpret_cast %arg1 to offset: [0], sizes: [%{{.+}}, %{{.+}}], strides: [%{{.+}}, 1] : memref<?x?xf16> to memref<?x?xf16>
// CHECK:         scf.for
// CHECK:           nvgpu.device_async_copy %[[A8]][%{{.+}}, %{{.+}}], %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}], 8, %{{.+}} {bypassL1} : memref<?x?xf16> to memref<4x64x32xf16, #gpu.address_space<workgroup>>
// CHECK:           nvgpu.device_async_copy %[[B8]][%{{.+}}, %{{.+}}], %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}], 8, %{{.+}} {bypassL1} : memref<?x?xf16> to memref<4x32x64xf16, #gpu.address_space<workgroup>>
// CHECK:           nvgpu.mma.sync
// The other copy's steady-state K loop's read of A: 16 bytes claimed
// aligned where the address is and the vector whole, the masked read
// otherwise.
// CHECK:       } {gpucg.workgroup_specialization}
// CHECK-NEXT:  } else {
// CHECK:       scf.for
// CHECK:         %[[MASK:.+]] = vector.create_mask %[[COUNT:.+]] : vector<8xi1>
// CHECK:         memref.extract_aligned_pointer_as_index %arg0
// CHECK:         arith.remui %{{.+}}, %c16 : index
// CHECK:         %[[WHOLE:.+]] = arith.cmpi sge, %[[COUNT]], %c8 : index
// CHECK:         scf.if %{{.+}} -> (vector<8xf16>) {
// CHECK-NEXT:      vector.load %arg0[%{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<?x?xf16>, vector<8xf16>
// CHECK:         } else {
// CHECK-NEXT:      vector.transfer_read %arg0[%{{.+}}, %{{.+}}], %{{.+}}, %[[MASK]] {in_bounds = [true]} : memref<?x?xf16>, vector<8xf16>
// CHECK:         nvgpu.mma.sync
// C's stores after the loop: 4 f32 at a time where aligned.
// CHECK:       vector.store %{{.+}}, %arg2[%{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
// CHECK-LABEL: func.func @accumulate_bf16
// The accumulator's 2-element loads of C, 8 bytes where aligned.
// CHECK:       vector.load %arg2[%{{.+}}, %{{.+}}] {alignment = 8 : i64} : memref<?x?xf32>, vector<2xf32>
// CHECK-LABEL: func.func @dynamic_i8
// CHECK:       vector.load %arg0[%{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<?x?xi8>, vector<16xi8>

func.func @dynamic_f16(%a: tensor<?x?xf16>, %b: tensor<?x?xf16>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xf16>, tensor<?x?xf16>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

func.func @accumulate_bf16(%a: tensor<?x?xbf16>, %b: tensor<?x?xbf16>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xbf16>, tensor<?x?xbf16>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

func.func @dynamic_i8(%a: tensor<?x?xi8>, %b: tensor<?x?xi8>, %c: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %zero = arith.constant 0 : i32
  %f = linalg.fill ins(%zero : i32) outs(%c : tensor<?x?xi32>) -> tensor<?x?xi32>
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xi8>, tensor<?x?xi8>) outs(%f : tensor<?x?xi32>) -> tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %k0a = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<72x40xf16>
  %k0b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<40x48xf16>
  %k0c = tensor.empty() : tensor<72x48xf32>
  %k0da = tensor.cast %k0a : tensor<72x40xf16> to tensor<?x?xf16>
  %k0db = tensor.cast %k0b : tensor<40x48xf16> to tensor<?x?xf16>
  %k0dc = tensor.cast %k0c : tensor<72x48xf32> to tensor<?x?xf32>
  %k0dr = func.call @dynamic_f16(%k0da, %k0db, %k0dc) : (tensor<?x?xf16>, tensor<?x?xf16>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %k0r = tensor.cast %k0dr : tensor<?x?xf32> to tensor<72x48xf32>
  %k0m = bufferization.to_buffer %k0r : tensor<72x48xf32> to memref<72x48xf32>
  %k0u = memref.cast %k0m : memref<72x48xf32> to memref<*xf32>
  func.call @printMemrefF32(%k0u) : (memref<*xf32>) -> ()
  %k1a = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<64x41xf16>
  %k1b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<41x64xf16>
  %k1c = tensor.empty() : tensor<64x64xf32>
  %k1da = tensor.cast %k1a : tensor<64x41xf16> to tensor<?x?xf16>
  %k1db = tensor.cast %k1b : tensor<41x64xf16> to tensor<?x?xf16>
  %k1dc = tensor.cast %k1c : tensor<64x64xf32> to tensor<?x?xf32>
  %k1dr = func.call @dynamic_f16(%k1da, %k1db, %k1dc) : (tensor<?x?xf16>, tensor<?x?xf16>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %k1r = tensor.cast %k1dr : tensor<?x?xf32> to tensor<64x64xf32>
  %k1m = bufferization.to_buffer %k1r : tensor<64x64xf32> to memref<64x64xf32>
  %k1u = memref.cast %k1m : memref<64x64xf32> to memref<*xf32>
  func.call @printMemrefF32(%k1u) : (memref<*xf32>) -> ()
  %k2a = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<37x17xf16>
  %k2b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<17x33xf16>
  %k2c = tensor.empty() : tensor<37x33xf32>
  %k2da = tensor.cast %k2a : tensor<37x17xf16> to tensor<?x?xf16>
  %k2db = tensor.cast %k2b : tensor<17x33xf16> to tensor<?x?xf16>
  %k2dc = tensor.cast %k2c : tensor<37x33xf32> to tensor<?x?xf32>
  %k2dr = func.call @dynamic_f16(%k2da, %k2db, %k2dc) : (tensor<?x?xf16>, tensor<?x?xf16>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %k2r = tensor.cast %k2dr : tensor<?x?xf32> to tensor<37x33xf32>
  %k2m = bufferization.to_buffer %k2r : tensor<37x33xf32> to memref<37x33xf32>
  %k2u = memref.cast %k2m : memref<37x33xf32> to memref<*xf32>
  func.call @printMemrefF32(%k2u) : (memref<*xf32>) -> ()
  %k3a = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to bf16
    tensor.yield %e : bf16
  } : tensor<40x24xbf16>
  %k3b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to bf16
    tensor.yield %e : bf16
  } : tensor<24x36xbf16>
  %k3c = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 2) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<40x36xf32>
  %k3da = tensor.cast %k3a : tensor<40x24xbf16> to tensor<?x?xbf16>
  %k3db = tensor.cast %k3b : tensor<24x36xbf16> to tensor<?x?xbf16>
  %k3dc = tensor.cast %k3c : tensor<40x36xf32> to tensor<?x?xf32>
  %k3dr = func.call @accumulate_bf16(%k3da, %k3db, %k3dc) : (tensor<?x?xbf16>, tensor<?x?xbf16>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %k3r = tensor.cast %k3dr : tensor<?x?xf32> to tensor<40x36xf32>
  %k3m = bufferization.to_buffer %k3r : tensor<40x36xf32> to memref<40x36xf32>
  %k3u = memref.cast %k3m : memref<40x36xf32> to memref<*xf32>
  func.call @printMemrefF32(%k3u) : (memref<*xf32>) -> ()
  %k5a = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to bf16
    tensor.yield %e : bf16
  } : tensor<40x24xbf16>
  %k5b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to bf16
    tensor.yield %e : bf16
  } : tensor<24x32xbf16>
  %k5c = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 2) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<40x32xf32>
  %k5da = tensor.cast %k5a : tensor<40x24xbf16> to tensor<?x?xbf16>
  %k5db = tensor.cast %k5b : tensor<24x32xbf16> to tensor<?x?xbf16>
  %k5dc = tensor.cast %k5c : tensor<40x32xf32> to tensor<?x?xf32>
  %k5dr = func.call @accumulate_bf16(%k5da, %k5db, %k5dc) : (tensor<?x?xbf16>, tensor<?x?xbf16>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %k5r = tensor.cast %k5dr : tensor<?x?xf32> to tensor<40x32xf32>
  %k5m = bufferization.to_buffer %k5r : tensor<40x32xf32> to memref<40x32xf32>
  %k5u = memref.cast %k5m : memref<40x32xf32> to memref<*xf32>
  func.call @printMemrefF32(%k5u) : (memref<*xf32>) -> ()
  %k4a = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.trunci %w : i32 to i8
    tensor.yield %e : i8
  } : tensor<50x48xi8>
  %k4b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.trunci %w : i32 to i8
    tensor.yield %e : i8
  } : tensor<48x64xi8>
  %k4c = tensor.empty() : tensor<50x64xi32>
  %k4da = tensor.cast %k4a : tensor<50x48xi8> to tensor<?x?xi8>
  %k4db = tensor.cast %k4b : tensor<48x64xi8> to tensor<?x?xi8>
  %k4dc = tensor.cast %k4c : tensor<50x64xi32> to tensor<?x?xi32>
  %k4dr = func.call @dynamic_i8(%k4da, %k4db, %k4dc) : (tensor<?x?xi8>, tensor<?x?xi8>, tensor<?x?xi32>) -> tensor<?x?xi32>
  %k4r = tensor.cast %k4dr : tensor<?x?xi32> to tensor<50x64xi32>
  %k4m = bufferization.to_buffer %k4r : tensor<50x64xi32> to memref<50x64xi32>
  %k4u = memref.cast %k4m : memref<50x64xi32> to memref<*xi32>
  func.call @printMemrefI32(%k4u) : (memref<*xi32>) -> ()
  return
}
