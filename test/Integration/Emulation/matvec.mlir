// Matrix-vector products (M = 1 or N = 1, both operands along K, as a
// linear layer on one token reads them) under the strategy's WarpReduction
// plan on the CPU emulator: each output element one workgroup's row, read
// in 128-bit steps by every thread and reduced across the warps. bf16, f16
// (N = 1), f32 accumulating into C, i8 -> i32, batches, and a bias, ReLU
// and bf16 cast fused into the same kernel. Bit-exact against the untiled
// kernels with small-integer inputs, workgroups in order and in reverse.

// The untiled kernels, run as they are, are the reference.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-warp-reduction{chip=sm_90a},gpucg-test-emulate-on-cpu{check-races=true})' -o %t.0.mlir
// RUN: %mlir_runner_emulated %t.0.mlir | %strip_address > %t.0.forward
// RUN: diff %t.ref %t.0.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.0.mlir | %strip_address > %t.0.reverse
// RUN: diff %t.ref %t.0.reverse
// The reference is not trivially right: its first numbers.
// RUN: FileCheck %s --check-prefix=REF < %t.ref
// REF: sizes = [1, 24]
// REF-NEXT: {{\[}}[2594, -2044, 523, -1035,
// REF: sizes = [20, 1]
// REF-NEXT: {{\[}}[282],
// REF-NEXT: [-1281],

// The plans: one workgroup per output element, whole rows, 128-bit steps.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_90a},func.func(gpucg-select-lowering-strategy))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=PLAN
// PLAN-LABEL: func.func @gemv_bf16
//  PLAN-SAME:   pipeline = WarpReduction, workgroup_size = [64, 1, 1]
//       PLAN:   tile_sizes = {{\[}}[1, 1, 512], [0, 0, 8]]
// PLAN-LABEL: func.func @gemv_n1_f16
//  PLAN-SAME:   pipeline = WarpReduction, workgroup_size = [32, 1, 1]
//       PLAN:   tile_sizes = {{\[}}[1, 1, 256], [0, 0, 8]]
// PLAN-LABEL: func.func @gemv_acc_f32
//  PLAN-SAME:   pipeline = WarpReduction, workgroup_size = [256, 1, 1]
//       PLAN:   tile_sizes = {{\[}}[1, 1, 1024], [0, 0, 4]]
// PLAN-LABEL: func.func @gemv_i8
//  PLAN-SAME:   pipeline = WarpReduction, workgroup_size = [64, 1, 1]
//       PLAN:   tile_sizes = {{\[}}[1, 1, 1024], [0, 0, 16]]
// PLAN-LABEL: func.func @gemv_bias_relu_bf16
//  PLAN-SAME:   pipeline = WarpReduction, workgroup_size = [64, 1, 1]
// PLAN-LABEL: func.func @batch_gemv_f16
//  PLAN-SAME:   pipeline = WarpReduction, workgroup_size = [32, 1, 1]
//       PLAN:   tile_sizes = {{\[}}[1, 1, 1, 256], [0, 0, 0, 8]]

// One kernel each, reduced across its warps; the fused epilogue in it.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-warp-reduction{chip=sm_90a})' \
// RUN:   | gpucg-opt | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @gemv_bf16
//  IR-SAME:   gpu.known_grid_size = array<i32: 24, 1, 1>
//       IR:   gpu.subgroup_reduce add
// IR-LABEL: func.func @gemv_bias_relu_bf16
//       IR:   gpu.subgroup_reduce add
//       IR:   arith.maximumf
//       IR:   arith.truncf
//   IR-NOT:   func.func @gemv_bias_relu_bf16_
// IR-LABEL: func.func @batch_gemv_f16
//  IR-SAME:   gpu.known_grid_size = array<i32: 8, 1, 3>

#nt = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]

// A linear layer on one token: y = x W^T, W as out x in.
func.func @gemv_bf16(%a: tensor<1x512xbf16>, %b: tensor<24x512xbf16>, %out: tensor<1x24xf32>) -> tensor<1x24xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%out : tensor<1x24xf32>) -> tensor<1x24xf32>
  %0 = linalg.matmul indexing_maps = #nt ins(%a, %b : tensor<1x512xbf16>, tensor<24x512xbf16>)
                     outs(%f : tensor<1x24xf32>) -> tensor<1x24xf32>
  return %0 : tensor<1x24xf32>
}

// N = 1: a matrix times a vector, the rows of A the reduced rows.
func.func @gemv_n1_f16(%a: tensor<20x256xf16>, %b: tensor<1x256xf16>, %out: tensor<20x1xf32>) -> tensor<20x1xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%out : tensor<20x1xf32>) -> tensor<20x1xf32>
  %0 = linalg.matmul indexing_maps = #nt ins(%a, %b : tensor<20x256xf16>, tensor<1x256xf16>)
                     outs(%f : tensor<20x1xf32>) -> tensor<20x1xf32>
  return %0 : tensor<20x1xf32>
}

// C += x W^T: the accumulator's own values are kept.
func.func @gemv_acc_f32(%a: tensor<1x1024xf32>, %b: tensor<12x1024xf32>, %c: tensor<1x12xf32>) -> tensor<1x12xf32> {
  %0 = linalg.matmul indexing_maps = #nt ins(%a, %b : tensor<1x1024xf32>, tensor<12x1024xf32>)
                     outs(%c : tensor<1x12xf32>) -> tensor<1x12xf32>
  return %0 : tensor<1x12xf32>
}

func.func @gemv_i8(%a: tensor<1x1024xi8>, %b: tensor<16x1024xi8>, %out: tensor<1x16xi32>) -> tensor<1x16xi32> {
  %zero = arith.constant 0 : i32
  %f = linalg.fill ins(%zero : i32) outs(%out : tensor<1x16xi32>) -> tensor<1x16xi32>
  %0 = linalg.matmul indexing_maps = #nt ins(%a, %b : tensor<1x1024xi8>, tensor<16x1024xi8>)
                     outs(%f : tensor<1x16xi32>) -> tensor<1x16xi32>
  return %0 : tensor<1x16xi32>
}

// The layer's bias, ReLU and cast back to bf16, in the same kernel.
func.func @gemv_bias_relu_bf16(%a: tensor<1x512xbf16>, %b: tensor<24x512xbf16>, %bias: tensor<24xf32>, %out: tensor<1x24xbf16>) -> tensor<1x24xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x24xf32>) -> tensor<1x24xf32>
  %0 = linalg.matmul indexing_maps = #nt ins(%a, %b : tensor<1x512xbf16>, tensor<24x512xbf16>)
                     outs(%f : tensor<1x24xf32>) -> tensor<1x24xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>,
                       affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%0, %bias : tensor<1x24xf32>, tensor<24xf32>) outs(%out : tensor<1x24xbf16>) {
  ^bb0(%x: f32, %y: f32, %o: bf16):
    %s = arith.addf %x, %y : f32
    %relu = arith.maximumf %s, %zero : f32
    %t = arith.truncf %relu : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1x24xbf16>
  return %r : tensor<1x24xbf16>
}

// One token per batch (three heads' queries against their keys).
func.func @batch_gemv_f16(%a: tensor<3x1x256xf16>, %b: tensor<3x8x256xf16>, %out: tensor<3x1x8xf32>) -> tensor<3x1x8xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%out : tensor<3x1x8xf32>) -> tensor<3x1x8xf32>
  %0 = linalg.batch_matmul
      indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>,
                       affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b : tensor<3x1x256xf16>, tensor<3x8x256xf16>)
      outs(%f : tensor<3x1x8xf32>) -> tensor<3x1x8xf32>
  return %0 : tensor<3x1x8xf32>
}

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefBF16(memref<*xbf16>) attributes {llvm.emit_c_interface}

func.func @main() {
  %c0_i32 = arith.constant 0 : i32
  %g1 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 4 + d1 * 4 + 0) mod 11)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 5 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.sitofp %w : i32 to bf16
    tensor.yield %e : bf16
  } : tensor<1x512xbf16>
  %g2 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 6 + d1 * 4 + 1) mod 11)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 5 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.sitofp %w : i32 to bf16
    tensor.yield %e : bf16
  } : tensor<24x512xbf16>
  %out1 = tensor.empty() : tensor<1x24xf32>
  %r1 = func.call @gemv_bf16(%g1, %g2, %out1) : (tensor<1x512xbf16>, tensor<24x512xbf16>, tensor<1x24xf32>) -> tensor<1x24xf32>
  %m1 = bufferization.to_buffer %r1 : tensor<1x24xf32> to memref<1x24xf32>
  %u1 = memref.cast %m1 : memref<1x24xf32> to memref<*xf32>
  func.call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %g3 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 4 + d1 * 4 + 2) mod 11)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 5 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<20x256xf16>
  %g4 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 4 + 0) mod 11)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 5 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<1x256xf16>
  %out2 = tensor.empty() : tensor<20x1xf32>
  %r2 = func.call @gemv_n1_f16(%g3, %g4, %out2) : (tensor<20x256xf16>, tensor<1x256xf16>, tensor<20x1xf32>) -> tensor<20x1xf32>
  %m2 = bufferization.to_buffer %r2 : tensor<20x1xf32> to memref<20x1xf32>
  %u2 = memref.cast %m2 : memref<20x1xf32> to memref<*xf32>
  func.call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  %g5 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 4 + 0) mod 11)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 5 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<1x1024xf32>
  %g6 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 8 + d1 * 4 + 1) mod 11)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 5 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<12x1024xf32>
  %g7 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 4 + 3) mod 11)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 5 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<1x12xf32>
  %r3 = func.call @gemv_acc_f32(%g5, %g6, %g7) : (tensor<1x1024xf32>, tensor<12x1024xf32>, tensor<1x12xf32>) -> tensor<1x12xf32>
  %m3 = bufferization.to_buffer %r3 : tensor<1x12xf32> to memref<1x12xf32>
  %u3 = memref.cast %m3 : memref<1x12xf32> to memref<*xf32>
  func.call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
  %g8 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 4 + 0) mod 11)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 5 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.trunci %w : i32 to i8
    tensor.yield %e : i8
  } : tensor<1x1024xi8>
  %g9 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 6 + d1 * 4 + 2) mod 11)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 5 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.trunci %w : i32 to i8
    tensor.yield %e : i8
  } : tensor<16x1024xi8>
  %out3 = tensor.empty() : tensor<1x16xi32>
  %r4 = func.call @gemv_i8(%g8, %g9, %out3) : (tensor<1x1024xi8>, tensor<16x1024xi8>, tensor<1x16xi32>) -> tensor<1x16xi32>
  %m4 = bufferization.to_buffer %r4 : tensor<1x16xi32> to memref<1x16xi32>
  %u4 = memref.cast %m4 : memref<1x16xi32> to memref<*xi32>
  func.call @printMemrefI32(%u4) : (memref<*xi32>) -> ()
  %g10 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 4 + d1 * 4 + 0) mod 11)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 5 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.sitofp %w : i32 to bf16
    tensor.yield %e : bf16
  } : tensor<1x512xbf16>
  %g11 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 6 + d1 * 4 + 1) mod 11)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 5 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.sitofp %w : i32 to bf16
    tensor.yield %e : bf16
  } : tensor<24x512xbf16>
  %g12 = tensor.generate {
  ^bb0(%i0: index):
    %s = affine.apply affine_map<(d0) -> ((d0 * 4 + 0) mod 11)>(%i0)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 5 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<24xf32>
  %out4 = tensor.empty() : tensor<1x24xbf16>
  %r5 = func.call @gemv_bias_relu_bf16(%g10, %g11, %g12, %out4) : (tensor<1x512xbf16>, tensor<24x512xbf16>, tensor<24xf32>, tensor<1x24xbf16>) -> tensor<1x24xbf16>
  %m5 = bufferization.to_buffer %r5 : tensor<1x24xbf16> to memref<1x24xbf16>
  %u5 = memref.cast %m5 : memref<1x24xbf16> to memref<*xbf16>
  func.call @printMemrefBF16(%u5) : (memref<*xbf16>) -> ()
  %g13 = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 2 + d1 * 2 + d2 * 4 + 0) mod 11)>(%i0, %i1, %i2)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 5 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<3x1x256xf16>
  %g14 = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 3 + d1 * 8 + d2 * 4 + 1) mod 11)>(%i0, %i1, %i2)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 5 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<3x8x256xf16>
  %out5 = tensor.empty() : tensor<3x1x8xf32>
  %r6 = func.call @batch_gemv_f16(%g13, %g14, %out5) : (tensor<3x1x256xf16>, tensor<3x8x256xf16>, tensor<3x1x8xf32>) -> tensor<3x1x8xf32>
  %m6 = bufferization.to_buffer %r6 : tensor<3x1x8xf32> to memref<3x1x8xf32>
  %u6 = memref.cast %m6 : memref<3x1x8xf32> to memref<*xf32>
  func.call @printMemrefF32(%u6) : (memref<*xf32>) -> ()
  return
}
