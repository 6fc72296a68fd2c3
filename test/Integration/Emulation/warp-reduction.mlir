// gpucg-warp-reduction on the CPU emulator: each row split over a
// workgroup's threads, partials combined by gpu.subgroup_reduce (lowered to
// butterfly shuffles as for NVVM) within warps and through workgroup memory
// across them. The odd-width rows take the Vectorize plan. Bit-exact against
// the untiled kernels with small-integer inputs.

// The untiled kernels, run as they are, are the reference.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// gpucg-warp-reduction's output, in order and in reverse:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-warp-reduction{chip=sm_80},gpucg-test-emulate-on-cpu)' -o %t.0.mlir
// RUN: %mlir_runner_emulated %t.0.mlir | %strip_address > %t.0.forward
// RUN: diff %t.ref %t.0.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.0.mlir | %strip_address > %t.0.reverse
// RUN: diff %t.ref %t.0.reverse

// What ran: shuffles and a barrier.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-warp-reduction{chip=sm_80})' \
// RUN:   | gpucg-opt | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @rowsum
// IR: gpu.subgroup_reduce add
// IR: gpu.barrier
// IR-LABEL: func.func @rowmax_sq
// IR: gpu.subgroup_reduce maximumf

func.func @rowsum(%in0: tensor<16x4096xf32>, %out: tensor<16xf32>) -> tensor<16xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%in0 : tensor<16x4096xf32>) outs(%out : tensor<16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

func.func @rowsum_odd(%in0: tensor<5x4099xf32>, %out: tensor<5xf32>) -> tensor<5xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%in0 : tensor<5x4099xf32>) outs(%out : tensor<5xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  } -> tensor<5xf32>
  return %r : tensor<5xf32>
}

func.func @rowmax_sq(%in0: tensor<8x2048xf32>, %out: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%in0 : tensor<8x2048xf32>) outs(%out : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %sq = arith.mulf %x, %x : f32
    %t = arith.maximumf %sq, %acc : f32
    linalg.yield %t : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %rowsum_0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<16x4096xf32>
  %rowsum_1 = tensor.generate {
  ^bb0(%i0: index):
    %s = affine.apply affine_map<(d0) -> ((d0 * 2) mod 5)>(%i0)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<16xf32>
  %rowsum_r = func.call @rowsum(%rowsum_0, %rowsum_1) : (tensor<16x4096xf32>, tensor<16xf32>) -> tensor<16xf32>
  %rowsum_m = bufferization.to_buffer %rowsum_r : tensor<16xf32> to memref<16xf32>
  %rowsum_u = memref.cast %rowsum_m : memref<16xf32> to memref<*xf32>
  func.call @printMemrefF32(%rowsum_u) : (memref<*xf32>) -> ()
  %rowsum_odd_0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<5x4099xf32>
  %rowsum_odd_1 = tensor.generate {
  ^bb0(%i0: index):
    %s = affine.apply affine_map<(d0) -> ((d0 * 2) mod 5)>(%i0)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<5xf32>
  %rowsum_odd_r = func.call @rowsum_odd(%rowsum_odd_0, %rowsum_odd_1) : (tensor<5x4099xf32>, tensor<5xf32>) -> tensor<5xf32>
  %rowsum_odd_m = bufferization.to_buffer %rowsum_odd_r : tensor<5xf32> to memref<5xf32>
  %rowsum_odd_u = memref.cast %rowsum_odd_m : memref<5xf32> to memref<*xf32>
  func.call @printMemrefF32(%rowsum_odd_u) : (memref<*xf32>) -> ()
  %rowmax_sq_0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<8x2048xf32>
  %rowmax_sq_1 = tensor.generate {
  ^bb0(%i0: index):
    %s = affine.apply affine_map<(d0) -> ((d0 * 2) mod 5)>(%i0)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<8xf32>
  %rowmax_sq_r = func.call @rowmax_sq(%rowmax_sq_0, %rowmax_sq_1) : (tensor<8x2048xf32>, tensor<8xf32>) -> tensor<8xf32>
  %rowmax_sq_m = bufferization.to_buffer %rowmax_sq_r : tensor<8xf32> to memref<8xf32>
  %rowmax_sq_u = memref.cast %rowmax_sq_m : memref<8xf32> to memref<*xf32>
  func.call @printMemrefF32(%rowmax_sq_u) : (memref<*xf32>) -> ()
  return
}
