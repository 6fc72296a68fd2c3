// gpucg-vectorize (sm_80) on all-parallel kernels whose innermost size is
// known only at run time, or static but no multiple of a 128-bit vector,
// on the CPU emulator. A dynamic row takes 128-bit vectors (8 f16, 4 f32)
// in workgroup tiles of 64 threads; the full tiles run them, each global
// access checked at run time for its address being a multiple of 16 bytes
// (gpucg-version-vector-alignment: a row pitch that is a run-time size
// proves nothing at compile time), the partial tile past the row's end
// element by element. gpucg-row-pitch-specialization first gives each
// workgroup a copy of its body for input pitches that are multiples of 16
// bytes, whose loads need no check. Cases:
// - @bias_relu (f16, bias broadcast along the rows) at 3 x 1000 (rows of
//   2000 bytes: every row aligned; a partial tile of 488 columns) and
//   5 x 555 (rows of 1110 bytes: one row in eight aligned);
// - @scale_f32 at 4 x 260 (4 f32 per thread; rows of 1040 bytes, aligned)
//   and 3 x 257 (odd pitch);
// - @rows_of_100 (static 7 x 100 f16): the widest vector that divides 100,
//   4 f16 (8 bytes), its alignment known statically; @i8_rows (5 x 100
//   i8): 4 i8;
// - @transposed (f32, rank 3, every size dynamic, the second input read
//   transposed: its vector a gather along its rows) at 2 x 37 x 300.
// In order and reversed, the results must equal the untiled kernels',
// with the emulator checking every claimed alignment and that no global
// vector access leaves its memref.
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-vectorize{chip=sm_80})' -o %t.mlir
// RUN: gpucg-opt %t.mlir | FileCheck %s
// RUN: gpucg-opt %t.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.clean.mlir
// RUN: %mlir_runner_emulated %t.clean.mlir | %strip_address > %t.forward
// RUN: diff %t.ref %t.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.clean.mlir | %strip_address > %t.reverse
// RUN: diff %t.ref %t.reverse

// The address check of @bias_relu's load of X in the copy for pitches that
// are no multiple of 16 bytes left out (the second check in print order:
// C's store in the aligned copy comes first): 5 x 555's rows are 1110
// bytes apart, so most rows take the 16-byte load misaligned (a GPU
// faults).
// RUN: %mutate assume-aligned 2 < %t.mlir \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.aligned.mlir
// RUN: not %mlir_runner_emulated %t.aligned.mlir 2>&1 | FileCheck %s --check-prefix=MISALIGNED
// MISALIGNED: gpucg-emulator: error: misaligned access: thread ({{[0-9]+}}, 0, 0) of workgroup ({{[0-9]+}}, {{[0-9]+}}, 0) accesses address 0x{{[0-9a-f]+}}, which is not a multiple of the 16 bytes the access claims, at {{.*}}: vector.load (on a GPU, a misaligned wide access faults)

// The row-pitch check of @bias_relu taken as true: 5 x 555 runs the aligned
// copy, whose view rounds X's pitch down to 552 elements: wrong rows.
// RUN: %mutate pitch-check-always 1 < %t.mlir \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.pitch.mlir
// RUN: %mlir_runner_emulated %t.pitch.mlir | %strip_address > %t.pitch
// RUN: not diff %t.ref %t.pitch

// CHECK-LABEL: func.func @bias_relu
//  CHECK-SAME:   pipeline = Vectorize, workgroup_size = [64, 1, 1]
//       CHECK:   %[[VIEW:.+]] = memref.reinterpret_cast %arg0
//       CHECK:   vector.load %[[VIEW]][{{.+}}] {alignment = 16 : i64} : memref<?x?xf16>, vector<8xf16>
//       CHECK:   vector.store %{{.+}} {alignment = 16 : i64} : memref<?x?xf16>, vector<8xf16>
//       CHECK:   } else {
//       CHECK:   vector.load %arg0[{{.+}}] {alignment = 16 : i64} : memref<?x?xf16>, vector<8xf16>
//       CHECK:   } else {
//       CHECK:   vector.from_elements {{.+}} : vector<8xf16>
//       CHECK:   vector.store %{{.+}} {alignment = 16 : i64} : memref<?x?xf16>, vector<8xf16>
//       CHECK:   vector.transfer_write {{.+}} : vector<8xf16>, memref<?x?xf16>
//       CHECK:   memref.load
// CHECK-LABEL: func.func @scale_f32
//  CHECK-SAME:   pipeline = Vectorize, workgroup_size = [64, 1, 1]
//       CHECK:   vector.load %{{.+}} {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
// CHECK-LABEL: func.func @rows_of_100
//  CHECK-SAME:   pipeline = Vectorize, workgroup_size = [25, 1, 1]
//       CHECK:   vector.transfer_read {{.+}} : memref<7x100xf16>, vector<4xf16>
// CHECK-LABEL: func.func @transposed
//  CHECK-SAME:   pipeline = Vectorize, workgroup_size = [64, 1, 1]
// CHECK-LABEL: func.func @i8_rows
//  CHECK-SAME:   pipeline = Vectorize, workgroup_size = [25, 1, 1]

func.func @bias_relu(%x: tensor<?x?xf16>, %b: tensor<?xf16>) -> tensor<?x?xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf16>
  %n = tensor.dim %x, %c1 : tensor<?x?xf16>
  %e = tensor.empty(%m, %n) : tensor<?x?xf16>
  %zero = arith.constant 0.0 : f16
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x, %b : tensor<?x?xf16>, tensor<?xf16>) outs(%e : tensor<?x?xf16>) {
  ^bb0(%a: f16, %c: f16, %o: f16):
    %s = arith.addf %a, %c : f16
    %t = arith.maximumf %s, %zero : f16
    linalg.yield %t : f16
  } -> tensor<?x?xf16>
  return %r : tensor<?x?xf16>
}

func.func @scale_f32(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x, %y : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %p = arith.mulf %a, %c : f32
    %s = arith.subf %p, %a : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @rows_of_100(%x: tensor<7x100xf16>, %y: tensor<7x100xf16>) -> tensor<7x100xf16> {
  %e = tensor.empty() : tensor<7x100xf16>
  %r = linalg.add ins(%x, %y : tensor<7x100xf16>, tensor<7x100xf16>) outs(%e : tensor<7x100xf16>) -> tensor<7x100xf16>
  return %r : tensor<7x100xf16>
}

func.func @transposed(%x: tensor<?x?x?xf32>, %y: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = tensor.dim %x, %c0 : tensor<?x?x?xf32>
  %b = tensor.dim %x, %c1 : tensor<?x?x?xf32>
  %c = tensor.dim %x, %c2 : tensor<?x?x?xf32>
  %e = tensor.empty(%a, %b, %c) : tensor<?x?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, k, j)>, affine_map<(i, j, k) -> (i, j, k)>], iterator_types = ["parallel", "parallel", "parallel"]}
    ins(%x, %y : tensor<?x?x?xf32>, tensor<?x?x?xf32>) outs(%e : tensor<?x?x?xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.subf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
func.func @i8_rows(%x: tensor<5x100xi8>, %y: tensor<5x100xi8>) -> tensor<5x100xi8> {
  %e = tensor.empty() : tensor<5x100xi8>
  %r = linalg.add ins(%x, %y : tensor<5x100xi8>, tensor<5x100xi8>) outs(%e : tensor<5x100xi8>) -> tensor<5x100xi8>
  return %r : tensor<5x100xi8>
}
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI8(memref<*xi8>) attributes {llvm.emit_c_interface}
func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}

func.func @main() {
  %c3_i32 = arith.constant 3 : i32
  %c5_i32 = arith.constant 5 : i32
  // @bias_relu at 3 x 1000 and 5 x 555.
  %x0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 11)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c5_i32 : i32
    %f = arith.sitofp %w : i32 to f16
    tensor.yield %f : f16
  } : tensor<3x1000xf16>
  %b0 = tensor.generate {
  ^bb0(%i0: index):
    %s = affine.apply affine_map<(d0) -> ((d0 * 2) mod 7)>(%i0)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %f = arith.sitofp %w : i32 to f16
    tensor.yield %f : f16
  } : tensor<1000xf16>
  %x0d = tensor.cast %x0 : tensor<3x1000xf16> to tensor<?x?xf16>
  %b0d = tensor.cast %b0 : tensor<1000xf16> to tensor<?xf16>
  %r0d = func.call @bias_relu(%x0d, %b0d) : (tensor<?x?xf16>, tensor<?xf16>) -> tensor<?x?xf16>
  %r0 = tensor.cast %r0d : tensor<?x?xf16> to tensor<3x1000xf16>
  %r0m = bufferization.to_buffer %r0 : tensor<3x1000xf16> to memref<3x1000xf16>
  %r0u = memref.cast %r0m : memref<3x1000xf16> to memref<*xf16>
  func.call @printMemrefF16(%r0u) : (memref<*xf16>) -> ()
  %x1 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 13)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c5_i32 : i32
    %f = arith.sitofp %w : i32 to f16
    tensor.yield %f : f16
  } : tensor<5x555xf16>
  %b1 = tensor.generate {
  ^bb0(%i0: index):
    %s = affine.apply affine_map<(d0) -> ((d0 * 3) mod 5)>(%i0)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %f = arith.sitofp %w : i32 to f16
    tensor.yield %f : f16
  } : tensor<555xf16>
  %x1d = tensor.cast %x1 : tensor<5x555xf16> to tensor<?x?xf16>
  %b1d = tensor.cast %b1 : tensor<555xf16> to tensor<?xf16>
  %r1d = func.call @bias_relu(%x1d, %b1d) : (tensor<?x?xf16>, tensor<?xf16>) -> tensor<?x?xf16>
  %r1 = tensor.cast %r1d : tensor<?x?xf16> to tensor<5x555xf16>
  %r1m = bufferization.to_buffer %r1 : tensor<5x555xf16> to memref<5x555xf16>
  %r1u = memref.cast %r1m : memref<5x555xf16> to memref<*xf16>
  func.call @printMemrefF16(%r1u) : (memref<*xf16>) -> ()
  // @scale_f32 at 4 x 260 and 3 x 257.
  %x2 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 5 + d1 * 3) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %f = arith.sitofp %w : i32 to f32
    tensor.yield %f : f32
  } : tensor<4x260xf32>
  %y2 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 + d1 * 2) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %f = arith.sitofp %w : i32 to f32
    tensor.yield %f : f32
  } : tensor<4x260xf32>
  %x2d = tensor.cast %x2 : tensor<4x260xf32> to tensor<?x?xf32>
  %y2d = tensor.cast %y2 : tensor<4x260xf32> to tensor<?x?xf32>
  %r2d = func.call @scale_f32(%x2d, %y2d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %r2 = tensor.cast %r2d : tensor<?x?xf32> to tensor<4x260xf32>
  %r2m = bufferization.to_buffer %r2 : tensor<4x260xf32> to memref<4x260xf32>
  %r2u = memref.cast %r2m : memref<4x260xf32> to memref<*xf32>
  func.call @printMemrefF32(%r2u) : (memref<*xf32>) -> ()
  %x3 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %f = arith.sitofp %w : i32 to f32
    tensor.yield %f : f32
  } : tensor<3x257xf32>
  %y3 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %f = arith.sitofp %w : i32 to f32
    tensor.yield %f : f32
  } : tensor<3x257xf32>
  %x3d = tensor.cast %x3 : tensor<3x257xf32> to tensor<?x?xf32>
  %y3d = tensor.cast %y3 : tensor<3x257xf32> to tensor<?x?xf32>
  %r3d = func.call @scale_f32(%x3d, %y3d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %r3 = tensor.cast %r3d : tensor<?x?xf32> to tensor<3x257xf32>
  %r3m = bufferization.to_buffer %r3 : tensor<3x257xf32> to memref<3x257xf32>
  %r3u = memref.cast %r3m : memref<3x257xf32> to memref<*xf32>
  func.call @printMemrefF32(%r3u) : (memref<*xf32>) -> ()
  // @rows_of_100.
  %x4 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 2) mod 9)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c5_i32 : i32
    %f = arith.sitofp %w : i32 to f16
    tensor.yield %f : f16
  } : tensor<7x100xf16>
  %y4 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %f = arith.sitofp %w : i32 to f16
    tensor.yield %f : f16
  } : tensor<7x100xf16>
  %r4 = func.call @rows_of_100(%x4, %y4) : (tensor<7x100xf16>, tensor<7x100xf16>) -> tensor<7x100xf16>
  %r4m = bufferization.to_buffer %r4 : tensor<7x100xf16> to memref<7x100xf16>
  %r4u = memref.cast %r4m : memref<7x100xf16> to memref<*xf16>
  func.call @printMemrefF16(%r4u) : (memref<*xf16>) -> ()
  // @transposed at 2 x 37 x 300, @i8_rows.
  %tx = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 3 + d1 * 5 + d2) mod 7)>(%i0, %i1, %i2)
    %v = arith.index_cast %s : index to i32
    %f = arith.sitofp %v : i32 to f32
    tensor.yield %f : f32
  } : tensor<2x37x300xf32>
  %t_y = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 + d1 * 2 + d2 * 3) mod 5)>(%i0, %i1, %i2)
    %v = arith.index_cast %s : index to i32
    %f = arith.sitofp %v : i32 to f32
    tensor.yield %f : f32
  } : tensor<2x300x37xf32>
  %t_xd = tensor.cast %tx : tensor<2x37x300xf32> to tensor<?x?x?xf32>
  %t_yd = tensor.cast %t_y : tensor<2x300x37xf32> to tensor<?x?x?xf32>
  %t_rd = func.call @transposed(%t_xd, %t_yd) : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %t_r = tensor.cast %t_rd : tensor<?x?x?xf32> to tensor<2x37x300xf32>
  %t_rm = bufferization.to_buffer %t_r : tensor<2x37x300xf32> to memref<2x37x300xf32>
  %t_ru = memref.cast %t_rm : memref<2x37x300xf32> to memref<*xf32>
  func.call @printMemrefF32(%t_ru) : (memref<*xf32>) -> ()
  %t_a = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 11)>(%i0, %i1)
    %v = arith.index_cast %s : index to i8
    tensor.yield %v : i8
  } : tensor<5x100xi8>
  %t_b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 7) mod 13)>(%i0, %i1)
    %v = arith.index_cast %s : index to i8
    tensor.yield %v : i8
  } : tensor<5x100xi8>
  %t_c = func.call @i8_rows(%t_a, %t_b) : (tensor<5x100xi8>, tensor<5x100xi8>) -> tensor<5x100xi8>
  %t_cm = bufferization.to_buffer %t_c : tensor<5x100xi8> to memref<5x100xi8>
  %t_cu = memref.cast %t_cm : memref<5x100xi8> to memref<*xi8>
  func.call @printMemrefI8(%t_cu) : (memref<*xi8>) -> ()
  return
}
