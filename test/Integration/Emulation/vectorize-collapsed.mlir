// gpucg-vectorize (sm_80) on elementwise kernels over contiguous rows that
// no 128-bit vector divides, on the CPU emulator. gpucg-collapse-elementwise-
// dims merges their loops into one run of elements, which takes 128-bit
// vectors in workgroup tiles of 128 threads: the full tiles 16 bytes at a
// time from the arguments' own (aligned) base, the partial last tile
// element by element. Cases:
// - @residual (f16, 16 x 1001: rows of 2002 bytes, each but the first
//   misaligned) as 16016 elements, a new tensor returned: 15 full tiles of
//   1024 and a partial one of 656;
// - @scale_into (f32, 6 x 257, written into its destination argument) as
//   1542 elements, 2 f32 per thread (the widest dividing vector);
// - @heads (bf16 in, f32 out, ? x 4 x 1001, the leading size dynamic) as
//   ? x 4004, 4 f32 per thread, at 3 x 4 x 1001;
// - @i8_add (linalg.add, 5 x 4 x 100 i8: rows of 4) as 2000 elements, 16
//   per thread.
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

// CHECK-LABEL: func.func @residual
//  CHECK-SAME:   (%[[X:.+]]: memref<16x1001xf16>, %[[Y:.+]]: memref<16x1001xf16>, %[[OUT:.+]]: memref<16x1001xf16> {gpucg.result = [16, 1001]})
//  CHECK-SAME:   pipeline = Vectorize, workgroup_size = [128, 1, 1]
//   CHECK-DAG:   %[[XR:.+]] = memref.collapse_shape %[[X]] {{\[}}[0, 1]] : memref<16x1001xf16> into memref<16016xf16>
//   CHECK-DAG:   %[[OR:.+]] = memref.collapse_shape %[[OUT]] {{\[}}[0, 1]] : memref<16x1001xf16> into memref<16016xf16>
//       CHECK:   scf.forall ({{.+}}) = (0) to (16016) step (1024)
//       CHECK:     vector.transfer_read %[[XR]]{{.+}} : memref<16016xf16>, vector<8xf16>
//       CHECK:     vector.transfer_write {{.+}}, %[[OR]]{{.+}} : vector<8xf16>, memref<16016xf16>
//       CHECK:   } else {
//       CHECK:     memref.load %[[X]]
// CHECK-LABEL: func.func @scale_into
//  CHECK-SAME:   pipeline = Vectorize, workgroup_size = [128, 1, 1]
//       CHECK:     vector.transfer_read {{.+}} : memref<1542xf32>, vector<2xf32>
// CHECK-LABEL: func.func @heads
//  CHECK-SAME:   %{{.+}}: memref<?x4x1001xf32> {gpucg.result = ["arg0.dim0", 4, 1001]}
//  CHECK-SAME:   pipeline = Vectorize, workgroup_size = [128, 1, 1]
//       CHECK:     vector.transfer_read {{.+}} : memref<?x4004xbf16>, vector<4xbf16>
// CHECK-LABEL: func.func @i8_add
//  CHECK-SAME:   pipeline = Vectorize, workgroup_size = [125, 1, 1]
//       CHECK:     vector.transfer_read {{.+}} : memref<2000xi8>, vector<16xi8>

func.func @residual(%x: tensor<16x1001xf16>, %y: tensor<16x1001xf16>) -> tensor<16x1001xf16> {
  %e = tensor.empty() : tensor<16x1001xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x, %y : tensor<16x1001xf16>, tensor<16x1001xf16>) outs(%e : tensor<16x1001xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    linalg.yield %s : f16
  } -> tensor<16x1001xf16>
  return %r : tensor<16x1001xf16>
}

func.func @scale_into(%x: tensor<6x257xf32>, %o: tensor<6x257xf32>) -> tensor<6x257xf32> {
  %c3 = arith.constant 3.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : tensor<6x257xf32>) outs(%o : tensor<6x257xf32>) {
  ^bb0(%a: f32, %p: f32):
    %m = arith.mulf %a, %c3 : f32
    %s = arith.addf %m, %p : f32
    linalg.yield %s : f32
  } -> tensor<6x257xf32>
  return %r : tensor<6x257xf32>
}

func.func @heads(%x: tensor<?x4x1001xbf16>, %y: tensor<?x4x1001xbf16>) -> tensor<?x4x1001xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4x1001xbf16>
  %e = tensor.empty(%n) : tensor<?x4x1001xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j, k)>], iterator_types = ["parallel", "parallel", "parallel"]}
    ins(%x, %y : tensor<?x4x1001xbf16>, tensor<?x4x1001xbf16>) outs(%e : tensor<?x4x1001xf32>) {
  ^bb0(%a: bf16, %b: bf16, %o: f32):
    %p = arith.mulf %a, %b : bf16
    %s = arith.subf %p, %a : bf16
    %f = arith.extf %s : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<?x4x1001xf32>
  return %r : tensor<?x4x1001xf32>
}

func.func @i8_add(%x: tensor<5x4x100xi8>, %y: tensor<5x4x100xi8>) -> tensor<5x4x100xi8> {
  %e = tensor.empty() : tensor<5x4x100xi8>
  %r = linalg.add ins(%x, %y : tensor<5x4x100xi8>, tensor<5x4x100xi8>) outs(%e : tensor<5x4x100xi8>) -> tensor<5x4x100xi8>
  return %r : tensor<5x4x100xi8>
}

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI8(memref<*xi8>) attributes {llvm.emit_c_interface}
func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}

func.func @main() {
  %c3_i32 = arith.constant 3 : i32
  %c5_i32 = arith.constant 5 : i32
  %x0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 11)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c5_i32 : i32
    %f = arith.sitofp %w : i32 to f16
    tensor.yield %f : f16
  } : tensor<16x1001xf16>
  %y0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 7) mod 13)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %f = arith.sitofp %w : i32 to f16
    tensor.yield %f : f16
  } : tensor<16x1001xf16>
  %r0 = func.call @residual(%x0, %y0) : (tensor<16x1001xf16>, tensor<16x1001xf16>) -> tensor<16x1001xf16>
  %r0m = bufferization.to_buffer %r0 : tensor<16x1001xf16> to memref<16x1001xf16>
  %r0u = memref.cast %r0m : memref<16x1001xf16> to memref<*xf16>
  func.call @printMemrefF16(%r0u) : (memref<*xf16>) -> ()

  %x1 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 5 + d1 * 3) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %f = arith.sitofp %w : i32 to f32
    tensor.yield %f : f32
  } : tensor<6x257xf32>
  %o1 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 + d1 * 2) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %f = arith.sitofp %v : i32 to f32
    tensor.yield %f : f32
  } : tensor<6x257xf32>
  %r1 = func.call @scale_into(%x1, %o1) : (tensor<6x257xf32>, tensor<6x257xf32>) -> tensor<6x257xf32>
  %r1m = bufferization.to_buffer %r1 : tensor<6x257xf32> to memref<6x257xf32>
  %r1u = memref.cast %r1m : memref<6x257xf32> to memref<*xf32>
  func.call @printMemrefF32(%r1u) : (memref<*xf32>) -> ()

  %x2 = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 3 + d1 * 5 + d2) mod 9)>(%i0, %i1, %i2)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %f = arith.sitofp %w : i32 to bf16
    tensor.yield %f : bf16
  } : tensor<3x4x1001xbf16>
  %y2 = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 + d1 * 2 + d2 * 3) mod 7)>(%i0, %i1, %i2)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %f = arith.sitofp %w : i32 to bf16
    tensor.yield %f : bf16
  } : tensor<3x4x1001xbf16>
  %x2d = tensor.cast %x2 : tensor<3x4x1001xbf16> to tensor<?x4x1001xbf16>
  %y2d = tensor.cast %y2 : tensor<3x4x1001xbf16> to tensor<?x4x1001xbf16>
  %r2d = func.call @heads(%x2d, %y2d) : (tensor<?x4x1001xbf16>, tensor<?x4x1001xbf16>) -> tensor<?x4x1001xf32>
  %r2 = tensor.cast %r2d : tensor<?x4x1001xf32> to tensor<3x4x1001xf32>
  %r2m = bufferization.to_buffer %r2 : tensor<3x4x1001xf32> to memref<3x4x1001xf32>
  %r2u = memref.cast %r2m : memref<3x4x1001xf32> to memref<*xf32>
  func.call @printMemrefF32(%r2u) : (memref<*xf32>) -> ()

  %x3 = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 3 + d1 * 5 + d2) mod 11)>(%i0, %i1, %i2)
    %v = arith.index_cast %s : index to i8
    tensor.yield %v : i8
  } : tensor<5x4x100xi8>
  %y3 = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 2 + d1 + d2 * 7) mod 13)>(%i0, %i1, %i2)
    %v = arith.index_cast %s : index to i8
    tensor.yield %v : i8
  } : tensor<5x4x100xi8>
  %r3 = func.call @i8_add(%x3, %y3) : (tensor<5x4x100xi8>, tensor<5x4x100xi8>) -> tensor<5x4x100xi8>
  %r3m = bufferization.to_buffer %r3 : tensor<5x4x100xi8> to memref<5x4x100xi8>
  %r3u = memref.cast %r3m : memref<5x4x100xi8> to memref<*xi8>
  func.call @printMemrefI8(%r3u) : (memref<*xi8>) -> ()
  return
}
