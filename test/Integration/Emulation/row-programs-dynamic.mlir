// Row programs and reductions over rows of a run-time size under
// gpucg-warp-reduction on the CPU emulator: the strategy plans
// WarpReduction with the whole row per workgroup (level 0 of the reduction
// loop untiled), 128 threads, 128-bit steps; gpucg-distribute-reduction
// runs the steps of the row's whole vectors, then the elements past the
// last one, one per thread (the row's tail). gpucg-row-pitch-specialization
// gives each workgroup a copy of its row program for 16-byte-aligned row
// pitches, whose steps are 16-byte loads with no check of their own; in the
// other copy each step's address is checked (gpucg-version-vector-alignment).
// Cases, each at an aligned row (multiples of 16 bytes: the aligned copy,
// whole vectors only or a tail) and an odd one:
// - @row_sum_f16, f16 rows summed in f32, at 3 x 1024 (no tail), 4 x 1000
//   (2000 bytes: aligned, a tail of 0 past 125 vectors of 8) and 5 x 1003
//   (a tail of 3; odd pitch);
// - @softmax2 (base 2) over f32 rows, at 3 x 1000 and 5 x 333 (a tail of 1);
// - @rmsnorm_f16 at 4 x 520 and 3 x 777 (a tail of 1).
// Bit-exact against the untiled kernels (sums of powers of two and small
// integers), with the race detector, in order and reversed.
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-warp-reduction{chip=sm_80})' -o %t.mlir
// RUN: gpucg-opt %t.mlir | FileCheck %s
// RUN: gpucg-opt %t.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu{check-races=true})' -o %t.clean.mlir
// RUN: %mlir_runner_emulated %t.clean.mlir | %strip_address > %t.forward
// RUN: diff %t.ref %t.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.clean.mlir | %strip_address > %t.reverse
// RUN: diff %t.ref %t.reverse

// The whole vectors' steps counted up to the row rounded up instead of
// down (mutate.py ceil-row-steps: the first rounding in print order,
// @row_sum_f16's): 5 x 1003's last step reads past the row.
// RUN: %mutate ceil-row-steps 1 < %t.mlir \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.ceil.mlir
// RUN: not %mlir_runner_emulated %t.ceil.mlir 2>&1 | FileCheck %s --check-prefix=PAST-ROW
// PAST-ROW: gpucg-emulator: error: vector access out of bounds: thread ({{[0-9]+}}, 0, 0) of workgroup ({{[0-9]+}}, 0, 0) accesses indices [{{[0-9]+}}, 1008) of dimension 1 (of 2, 0 outermost) of its memref, whose size there is 1003, at {{.*}}: vector.load

// CHECK-LABEL: func.func @row_sum_f16
//  CHECK-SAME:   pipeline = WarpReduction, workgroup_size = [128, 1, 1]
//       CHECK:   scf.if
//       CHECK:     scf.for
//       CHECK:       vector.load %{{.+}} {alignment = 16 : i64} : memref<?x?xf16>, vector<8xf16>
//       CHECK:     scf.for
//       CHECK:     gpu.subgroup_reduce add
//       CHECK:   } else {
//       CHECK:   {gpucg.row_pitch_specialization}
// CHECK-LABEL: func.func @softmax2
//  CHECK-SAME:   pipeline = WarpReduction, workgroup_size = [128, 1, 1]
//   CHECK-NOT:   memref.alloc({{.*}}) : memref<1x?xf32>
// CHECK-LABEL: func.func @rmsnorm_f16
//  CHECK-SAME:   pipeline = WarpReduction, workgroup_size = [128, 1, 1]

#row = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#one = affine_map<(d0) -> (d0)>

func.func @row_sum_f16(%x: tensor<?x?xf16>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %x, %c0 : tensor<?x?xf16>
  %e = tensor.empty(%m) : tensor<?xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
    ins(%x : tensor<?x?xf16>) outs(%acc : tensor<?xf32>) {
  ^bb0(%a: f16, %b: f32):
    %f = arith.extf %a : f16 to f32
    %t = arith.addf %f, %b : f32
    linalg.yield %t : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// Softmax in base 2: the row's maximum, 2^(x - max), their sum, and each
// element over the sum.
func.func @softmax2(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m) : tensor<?xf32>
  %macc = linalg.fill ins(%ninf : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %max = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
    ins(%x : tensor<?x?xf32>) outs(%macc : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %t = arith.maximumf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<?xf32>
  %er = tensor.empty(%m, %n) : tensor<?x?xf32>
  %ex = linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]}
    ins(%x, %max : tensor<?x?xf32>, tensor<?xf32>) outs(%er : tensor<?x?xf32>) {
  ^bb0(%a: f32, %mx: f32, %b: f32):
    %d = arith.subf %a, %mx : f32
    %t = math.exp2 %d : f32
    linalg.yield %t : f32
  } -> tensor<?x?xf32>
  %sacc = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
    ins(%ex : tensor<?x?xf32>) outs(%sacc : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<?xf32>
  %out = tensor.empty(%m, %n) : tensor<?x?xf32>
  %o = linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]}
    ins(%ex, %sum : tensor<?x?xf32>, tensor<?xf32>) outs(%out : tensor<?x?xf32>) {
  ^bb0(%a: f32, %s: f32, %b: f32):
    %t = arith.divf %a, %s : f32
    linalg.yield %t : f32
  } -> tensor<?x?xf32>
  return %o : tensor<?x?xf32>
}

// RMSNorm of f16 rows (sum of squares in f32), a weight per column.
func.func @rmsnorm_f16(%x: tensor<?x?xf16>, %w: tensor<?xf16>) -> tensor<?x?xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 0.25 : f32
  %m = tensor.dim %x, %c0 : tensor<?x?xf16>
  %n = tensor.dim %x, %c1 : tensor<?x?xf16>
  %ni = arith.index_cast %n : index to i32
  %nf = arith.sitofp %ni : i32 to f32
  %e = tensor.empty(%m) : tensor<?xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %ss = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
    ins(%x : tensor<?x?xf16>) outs(%acc : tensor<?xf32>) {
  ^bb0(%a: f16, %b: f32):
    %f = arith.extf %a : f16 to f32
    %sq = arith.mulf %f, %f : f32
    %t = arith.addf %sq, %b : f32
    linalg.yield %t : f32
  } -> tensor<?xf32>
  %rs = linalg.generic {indexing_maps = [#one, #one], iterator_types = ["parallel"]}
    ins(%ss : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %mean = arith.divf %a, %nf : f32
    %p = arith.addf %mean, %eps : f32
    %r = math.sqrt %p : f32
    %one = arith.constant 1.0 : f32
    %s = arith.divf %one, %r : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %out = tensor.empty(%m, %n) : tensor<?x?xf16>
  %o = linalg.generic {indexing_maps = [#row, #red, #col, #row], iterator_types = ["parallel", "parallel"]}
    ins(%x, %rs, %w : tensor<?x?xf16>, tensor<?xf32>, tensor<?xf16>) outs(%out : tensor<?x?xf16>) {
  ^bb0(%a: f16, %r: f32, %g: f16, %b: f16):
    %af = arith.extf %a : f16 to f32
    %gf = arith.extf %g : f16 to f32
    %mm = arith.mulf %af, %r : f32
    %t = arith.mulf %mm, %gf : f32
    %h = arith.truncf %t : f32 to f16
    linalg.yield %h : f16
  } -> tensor<?x?xf16>
  return %o : tensor<?x?xf16>
}

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}

func.func @main() {
  %rs1x = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7 - 3)>(%i0, %i1)
    %i = arith.index_cast %s : index to i32
    %e = arith.sitofp %i : i32 to f16
    tensor.yield %e : f16
  } : tensor<3x1024xf16>
  %rs1d = tensor.cast %rs1x : tensor<3x1024xf16> to tensor<?x?xf16>
  %rs1r = func.call @row_sum_f16(%rs1d) : (tensor<?x?xf16>) -> tensor<?xf32>
  %rs1c = tensor.cast %rs1r : tensor<?xf32> to tensor<3xf32>
  %rs1m = bufferization.to_buffer %rs1c : tensor<3xf32> to memref<3xf32>
  %rs1u = memref.cast %rs1m : memref<3xf32> to memref<*xf32>
  func.call @printMemrefF32(%rs1u) : (memref<*xf32>) -> ()
  %rs2x = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7 - 3)>(%i0, %i1)
    %i = arith.index_cast %s : index to i32
    %e = arith.sitofp %i : i32 to f16
    tensor.yield %e : f16
  } : tensor<4x1000xf16>
  %rs2d = tensor.cast %rs2x : tensor<4x1000xf16> to tensor<?x?xf16>
  %rs2r = func.call @row_sum_f16(%rs2d) : (tensor<?x?xf16>) -> tensor<?xf32>
  %rs2c = tensor.cast %rs2r : tensor<?xf32> to tensor<4xf32>
  %rs2m = bufferization.to_buffer %rs2c : tensor<4xf32> to memref<4xf32>
  %rs2u = memref.cast %rs2m : memref<4xf32> to memref<*xf32>
  func.call @printMemrefF32(%rs2u) : (memref<*xf32>) -> ()
  %rs3x = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7 - 3)>(%i0, %i1)
    %i = arith.index_cast %s : index to i32
    %e = arith.sitofp %i : i32 to f16
    tensor.yield %e : f16
  } : tensor<5x1003xf16>
  %rs3d = tensor.cast %rs3x : tensor<5x1003xf16> to tensor<?x?xf16>
  %rs3r = func.call @row_sum_f16(%rs3d) : (tensor<?x?xf16>) -> tensor<?xf32>
  %rs3c = tensor.cast %rs3r : tensor<?xf32> to tensor<5xf32>
  %rs3m = bufferization.to_buffer %rs3c : tensor<5xf32> to memref<5xf32>
  %rs3u = memref.cast %rs3m : memref<5xf32> to memref<*xf32>
  func.call @printMemrefF32(%rs3u) : (memref<*xf32>) -> ()
  %sm4x = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7 - 6)>(%i0, %i1)
    %i = arith.index_cast %s : index to i32
    %e = arith.sitofp %i : i32 to f32
    tensor.yield %e : f32
  } : tensor<3x1000xf32>
  %sm4d = tensor.cast %sm4x : tensor<3x1000xf32> to tensor<?x?xf32>
  %sm4r = func.call @softmax2(%sm4d) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %sm4c = tensor.cast %sm4r : tensor<?x?xf32> to tensor<3x1000xf32>
  %sm4m = bufferization.to_buffer %sm4c : tensor<3x1000xf32> to memref<3x1000xf32>
  %sm4u = memref.cast %sm4m : memref<3x1000xf32> to memref<*xf32>
  func.call @printMemrefF32(%sm4u) : (memref<*xf32>) -> ()
  %sm5x = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7 - 6)>(%i0, %i1)
    %i = arith.index_cast %s : index to i32
    %e = arith.sitofp %i : i32 to f32
    tensor.yield %e : f32
  } : tensor<5x333xf32>
  %sm5d = tensor.cast %sm5x : tensor<5x333xf32> to tensor<?x?xf32>
  %sm5r = func.call @softmax2(%sm5d) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %sm5c = tensor.cast %sm5r : tensor<?x?xf32> to tensor<5x333xf32>
  %sm5m = bufferization.to_buffer %sm5c : tensor<5x333xf32> to memref<5x333xf32>
  %sm5u = memref.cast %sm5m : memref<5x333xf32> to memref<*xf32>
  func.call @printMemrefF32(%sm5u) : (memref<*xf32>) -> ()
  %rn6x = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7 - 3)>(%i0, %i1)
    %i = arith.index_cast %s : index to i32
    %e = arith.sitofp %i : i32 to f16
    tensor.yield %e : f16
  } : tensor<4x520xf16>
  %rn6w = tensor.generate {
  ^bb0(%i0: index):
    %s = affine.apply affine_map<(d0) -> (d0 mod 3 - 1)>(%i0)
    %i = arith.index_cast %s : index to i32
    %e = arith.sitofp %i : i32 to f16
    tensor.yield %e : f16
  } : tensor<520xf16>
  %rn6d = tensor.cast %rn6x : tensor<4x520xf16> to tensor<?x?xf16>
  %rn6wd = tensor.cast %rn6w : tensor<520xf16> to tensor<?xf16>
  %rn6r = func.call @rmsnorm_f16(%rn6d, %rn6wd) : (tensor<?x?xf16>, tensor<?xf16>) -> tensor<?x?xf16>
  %rn6c = tensor.cast %rn6r : tensor<?x?xf16> to tensor<4x520xf16>
  %rn6m = bufferization.to_buffer %rn6c : tensor<4x520xf16> to memref<4x520xf16>
  %rn6u = memref.cast %rn6m : memref<4x520xf16> to memref<*xf16>
  func.call @printMemrefF16(%rn6u) : (memref<*xf16>) -> ()
  %rn7x = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7 - 3)>(%i0, %i1)
    %i = arith.index_cast %s : index to i32
    %e = arith.sitofp %i : i32 to f16
    tensor.yield %e : f16
  } : tensor<3x777xf16>
  %rn7w = tensor.generate {
  ^bb0(%i0: index):
    %s = affine.apply affine_map<(d0) -> (d0 mod 3 - 1)>(%i0)
    %i = arith.index_cast %s : index to i32
    %e = arith.sitofp %i : i32 to f16
    tensor.yield %e : f16
  } : tensor<777xf16>
  %rn7d = tensor.cast %rn7x : tensor<3x777xf16> to tensor<?x?xf16>
  %rn7wd = tensor.cast %rn7w : tensor<777xf16> to tensor<?xf16>
  %rn7r = func.call @rmsnorm_f16(%rn7d, %rn7wd) : (tensor<?x?xf16>, tensor<?xf16>) -> tensor<?x?xf16>
  %rn7c = tensor.cast %rn7r : tensor<?x?xf16> to tensor<3x777xf16>
  %rn7m = bufferization.to_buffer %rn7c : tensor<3x777xf16> to memref<3x777xf16>
  %rn7u = memref.cast %rn7m : memref<3x777xf16> to memref<*xf16>
  func.call @printMemrefF16(%rn7u) : (memref<*xf16>) -> ()
  return
}
