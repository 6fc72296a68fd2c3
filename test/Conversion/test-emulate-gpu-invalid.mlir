// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-emulate-gpu)' \
// RUN:   -split-input-file -verify-diagnostics

func.func @async_launch(%n: index) {
  %c1 = arith.constant 1 : index
  %t = gpu.wait async
  // expected-error @below {{is asynchronous; the emulator runs synchronous launches only}}
  %l = gpu.launch async [%t] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

func.func @private_attribution() {
  %c1 = arith.constant 1 : index
  // expected-error @below {{has private attributions; the emulator does not model them}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             private(%p : memref<4xf32, #gpu.address_space<private>>) {
    gpu.terminator
  }
  return
}

// -----

func.func @two_blocks(%cond: i1) {
  %c1 = arith.constant 1 : index
  // expected-error @below {{has a body of 2 blocks; the emulator outlines single-block launch bodies}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    cf.br ^bb1
  ^bb1:
    gpu.terminator
  }
  return
}

// -----

func.func @strided_attribution() {
  %c1 = arith.constant 1 : index
  // expected-error @below {{has a workgroup attribution of type 'memref<4x4xf32, strided<[8, 1]>, #gpu.address_space<workgroup>>'; the emulator lays out static, identity-layout buffers of whole-byte elements}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             workgroup(%w : memref<4x4xf32, strided<[8, 1]>, #gpu.address_space<workgroup>>) {
    gpu.terminator
  }
  return
}

// -----

func.func @shuffle_f16(%v: f16, %out: memref<f16>) {
  %c1 = arith.constant 1 : index
  %o = arith.constant 1 : i32
  %w = arith.constant 32 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @below {{shuffles 'f16'; the emulator shuffles 32-bit values (i32, f32), as the NVVM lowering does}}
    %r, %ok = gpu.shuffle xor %v, %o, %w : f16
    memref.store %r, %out[] : memref<f16>
    gpu.terminator
  }
  return
}

// -----

func.func @mma_i4(%a: vector<4x8xi4>, %b: vector<2x8xi4>, %c: vector<2x2xi32>, %out: memref<2x2xi32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @below {{multiplies 'vector<4x8xi4>' into 'vector<2x2xi32>'; the emulator has no such mma.sync}}
    %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 64]} : (vector<4x8xi4>, vector<2x8xi4>, vector<2x2xi32>) -> vector<2x2xi32>
    %c0 = arith.constant 0 : index
    vector.store %d, %out[%c0, %c0] : memref<2x2xi32>, vector<2x2xi32>
    gpu.terminator
  }
  return
}

// -----

func.func @wmma_fragment(%m: memref<8x8xf16>, %n: memref<8x8xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @below {{uses fragment '!gpu.mma_matrix<4x4xf32, "COp">', whose elements do not split evenly over the 32 lanes of a warp}}
    %f = gpu.subgroup_mma_load_matrix %n[%c0, %c0] {leadDimension = 8 : index} : memref<8x8xf32> -> !gpu.mma_matrix<4x4xf32, "COp">
    gpu.subgroup_mma_store_matrix %f, %n[%c0, %c0] {leadDimension = 8 : index} : !gpu.mma_matrix<4x4xf32, "COp">, memref<8x8xf32>
    gpu.terminator
  }
  return
}

// -----

func.func @wmma_elementwise(%m: memref<16x16xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %f = gpu.subgroup_mma_load_matrix %m[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    // expected-error @below {{applies 'divs', which the emulator does not model}}
    %g = gpu.subgroup_mma_elementwise divs %f, %f : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %g, %m[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.terminator
  }
  return
}

// -----

func.func @async_copy_i4(%src: memref<64xi4>, %dst: memref<64xi4, #gpu.address_space<workgroup>>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @below {{copies elements of type 'i4'; the emulator copies whole bytes}}
    %t = nvgpu.device_async_copy %src[%c0], %dst[%c0], 32 : memref<64xi4> to memref<64xi4, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

func.func @unmodelled(%out: memref<index>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @below {{is not modelled by the CPU emulator (gpucg-test-emulate-gpu)}}
    %s = gpu.subgroup_id : index
    memref.store %s, %out[] : memref<index>
    gpu.terminator
  }
  return
}

// -----

func.func @permuted_transfer(%m: memref<8x8xf32, #gpu.address_space<workgroup>>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @below {{accesses workgroup memory through permutation map affine_map<(d0, d1) -> (d0)>; the race detector takes minor-identity transfers only (run with check-races=false)}}
    %v = vector.transfer_read %m[%c0, %c0], %pad {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<8x8xf32, #gpu.address_space<workgroup>>, vector<8xf32>
    vector.transfer_write %v, %m[%c0, %c0] {permutation_map = affine_map<(d0, d1) -> (d0)>} : vector<8xf32>, memref<8x8xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

func.func @whole_copy(%m: memref<8xf32, #gpu.address_space<workgroup>>, %g: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @below {{copies workgroup memory as a whole; the race detector does not follow it (run with check-races=false)}}
    memref.copy %g, %m : memref<8xf32> to memref<8xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

llvm.func @llvm_host() {
  %c1 = arith.constant 1 : index
  // expected-error @below {{is not in a func.func; the emulator outlines the launches of func.func hosts}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  llvm.return
}

// -----

func.func @clustered_reduce(%v: f32, %out: memref<f32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @below {{is not modelled by the CPU emulator (gpucg-test-emulate-gpu)}}
    %r = gpu.subgroup_reduce add %v cluster(size = 4) : (f32) -> f32
    memref.store %r, %out[] : memref<f32>
    gpu.terminator
  }
  return
}

// -----

// Hopper ops the emulator does not model: an mbarrier op other than
// create, init, arrive(.expect_tx) and try_wait.parity.
!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @mbarrier_test_wait() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %b = nvgpu.mbarrier.create -> !barriers
    nvgpu.mbarrier.init %b[%c0], %c1 : !barriers
    %t = nvgpu.mbarrier.arrive %b[%c0] : !barriers -> !nvgpu.mbarrier.token
    // expected-error @below {{'nvgpu.mbarrier.test.wait' op is not modelled by the CPU emulator (gpucg-test-emulate-gpu)}}
    %done = nvgpu.mbarrier.test.wait %b[%c0], %t : !barriers, !nvgpu.mbarrier.token
    gpu.terminator
  }
  return
}

// -----

// A tensor map made in the kernel (gpucg-build-gpu-launch hoists them).
func.func @tensor_map_in_kernel(%a: memref<64x64xf16>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %c64 = arith.constant 64 : index
    %u = memref.cast %a : memref<64x64xf16> to memref<*xf16>
    // expected-error @below {{creates a tensor map inside a gpu.launch; the emulator makes them on the host (run gpucg-build-gpu-launch first)}}
    %m = nvgpu.tma.create.descriptor %u box[%c64, %c64] : memref<*xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
    gpu.terminator
  }
  return
}

// -----

// A tensor map of an unranked argument: its sizes are unknown here.
func.func @tensor_map_unranked(%u: memref<*xf16>) {
  %c64 = arith.constant 64 : index
  // expected-error @below {{describes an unranked memref that is not a memref.cast of a ranked one of rank 1 to 5; the emulator reads the tensor's sizes and strides from the ranked memref}}
  %m = nvgpu.tma.create.descriptor %u box[%c64, %c64] : memref<*xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    nvgpu.tma.prefetch.descriptor %m : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
    gpu.terminator
  }
  return
}

// -----

// Out-of-bounds elements as NaN.
func.func @tensor_map_nan(%a: memref<64x64xf16>) {
  %c64 = arith.constant 64 : index
  %u = memref.cast %a : memref<64x64xf16> to memref<*xf16>
  // expected-error @below {{makes a tensor map of type '!nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = nan, interleave = none>'; the emulator models no interleave and zero fill}}
  %m = nvgpu.tma.create.descriptor %u box[%c64, %c64] : memref<*xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = nan, interleave = none>
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    nvgpu.tma.prefetch.descriptor %m : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = nan, interleave = none>
    gpu.terminator
  }
  return
}

// -----

// wgmma of e4m3 by e5m2 (nvgpu takes it; the emulator's wgmma takes one
// operand type).
!map = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!da = !nvgpu.warpgroup.descriptor<tensor = memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>>
!db = !nvgpu.warpgroup.descriptor<tensor = memref<32x64xf8E5M2, #gpu.address_space<workgroup>>>
func.func @wgmma_mixed_f8(%t: memref<64x64xf16>) {
  %c64 = arith.constant 64 : index
  %u = memref.cast %t : memref<64x64xf16> to memref<*xf16>
  %m = nvgpu.tma.create.descriptor %u box[%c64, %c64] : memref<*xf16> -> !map
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             workgroup(%w : memref<4096xi8, #gpu.address_space<workgroup>>) {
    %c0 = arith.constant 0 : index
    %c2048 = arith.constant 2048 : index
    %wa = memref.view %w[%c0][] : memref<4096xi8, #gpu.address_space<workgroup>> to memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>
    %wb = memref.view %w[%c2048][] : memref<4096xi8, #gpu.address_space<workgroup>> to memref<32x64xf8E5M2, #gpu.address_space<workgroup>>
    %da = nvgpu.warpgroup.generate.descriptor %wa, %m : memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>, !map -> !da
    %db = nvgpu.warpgroup.generate.descriptor %wb, %m : memref<32x64xf8E5M2, #gpu.address_space<workgroup>>, !map -> !db
    %acc = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
    // expected-error @below {{multiplies 'f8E4M3FN' by 'f8E5M2'; the emulator models wgmma of two f16, two bf16, two tf32, two f8E4M3FN or two f8E5M2 operands}}
    %r = nvgpu.warpgroup.mma %da, %db, %acc : !da, !db, !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
    gpu.terminator
  }
  return
}

// -----

// A wgmma descriptor that crosses a loop: its tile's swizzle is unknown.
!map = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!da = !nvgpu.warpgroup.descriptor<tensor = memref<64x16xf16, #gpu.address_space<workgroup>>>
!db = !nvgpu.warpgroup.descriptor<tensor = memref<16x64xf16, #gpu.address_space<workgroup>>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
func.func @wgmma_descriptor_argument(%t: memref<64x64xf16>) {
  %c64 = arith.constant 64 : index
  %u = memref.cast %t : memref<64x64xf16> to memref<*xf16>
  %m = nvgpu.tma.create.descriptor %u box[%c64, %c64] : memref<*xf16> -> !map
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             workgroup(%wa : memref<64x16xf16, #gpu.address_space<workgroup>>, %wb : memref<16x64xf16, #gpu.address_space<workgroup>>) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %da = nvgpu.warpgroup.generate.descriptor %wa, %m : memref<64x16xf16, #gpu.address_space<workgroup>>, !map -> !da
    %db = nvgpu.warpgroup.generate.descriptor %wb, %m : memref<16x64xf16, #gpu.address_space<workgroup>>, !map -> !db
    %acc = nvgpu.warpgroup.mma.init.accumulator -> !acc
    %r:2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%d = %da, %a = %acc) -> (!da, !acc) {
      // expected-error @below {{takes a descriptor that no nvgpu.warpgroup.generate.descriptor in the same region makes; the emulator reads the tile's swizzle from it}}
      %n = nvgpu.warpgroup.mma %d, %db, %a : !da, !db, !acc -> !acc
      scf.yield %d, %n : !da, !acc
    }
    gpu.terminator
  }
  return
}

// -----

// The accumulator stored to an f16 matrix.
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
func.func @wgmma_store_f16(%d: memref<64x64xf16>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %acc = nvgpu.warpgroup.mma.init.accumulator -> !acc
    // expected-error @below {{stores to 'memref<64x64xf16>'; the emulator stores f32 accumulators to 2-D f32 memrefs}}
    nvgpu.warpgroup.mma.store %acc, %d : !acc to memref<64x64xf16>
    gpu.terminator
  }
  return
}

// -----

// A tensor map from the caller: the emulator cannot make its own.
!map = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
func.func @tensor_map_argument(%m: !map) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             workgroup(%wg : memref<64x64xf16, #gpu.address_space<workgroup>>) {
    %c0 = arith.constant 0 : index
    %b = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    nvgpu.mbarrier.init %b[%c0], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    // expected-error @below {{takes a tensor map that no nvgpu.tma.create.descriptor of the host made; the emulator makes its own there}}
    nvgpu.tma.async.load %m[%c0, %c0], %b[%c0] to %wg : !map, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

// A tensor map of 4-bit elements.
func.func @tensor_map_i4(%a: memref<64x64xi4>) {
  %c64 = arith.constant 64 : index
  %u = memref.cast %a : memref<64x64xi4> to memref<*xi4>
  // expected-error @below {{describes elements of type 'i4'; the emulator copies whole bytes}}
  %m = nvgpu.tma.create.descriptor %u box[%c64, %c64] : memref<*xi4> -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xi4, #gpu.address_space<workgroup>>, swizzle = none, l2promo = none, oob = zero, interleave = none>
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    nvgpu.tma.prefetch.descriptor %m : !nvgpu.tensormap.descriptor<tensor = memref<64x64xi4, #gpu.address_space<workgroup>>, swizzle = none, l2promo = none, oob = zero, interleave = none>
    gpu.terminator
  }
  return
}

// -----

// wgmma into an f16 accumulator.
!map = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!da = !nvgpu.warpgroup.descriptor<tensor = memref<64x16xf16, #gpu.address_space<workgroup>>>
!db = !nvgpu.warpgroup.descriptor<tensor = memref<16x64xf16, #gpu.address_space<workgroup>>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf16>>
func.func @wgmma_f16_accumulator(%t: memref<64x64xf16>) {
  %c64 = arith.constant 64 : index
  %u = memref.cast %t : memref<64x64xf16> to memref<*xf16>
  %m = nvgpu.tma.create.descriptor %u box[%c64, %c64] : memref<*xf16> -> !map
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             workgroup(%wa : memref<64x16xf16, #gpu.address_space<workgroup>>, %wb : memref<16x64xf16, #gpu.address_space<workgroup>>) {
    %da = nvgpu.warpgroup.generate.descriptor %wa, %m : memref<64x16xf16, #gpu.address_space<workgroup>>, !map -> !da
    %db = nvgpu.warpgroup.generate.descriptor %wb, %m : memref<16x64xf16, #gpu.address_space<workgroup>>, !map -> !db
    %acc = nvgpu.warpgroup.mma.init.accumulator -> !acc
    // expected-error @below {{accumulates in 'f16'; the emulator models f32 accumulators}}
    %r = nvgpu.warpgroup.mma %da, %db, %acc {transposeB} : !da, !db, !acc -> !acc
    gpu.terminator
  }
  return
}

// -----

func.func @barrier_reduction() {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %true = arith.constant 1 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    // expected-error @below {{reduces a predicate over the barrier's threads; the emulator models nvvm.barrier without a reduction}}
    %n = nvvm.barrier #nvvm.reduction<popc> %true -> i32
    gpu.terminator
  }
  return
}

// -----

// Remote arrivals and cluster-scope waits: the emulator models the chains
// nvgpu.mbarrier.get -> llvm.inttoptr -> nvvm.mapa -> nvvm.mbarrier.arrive
// {scope = cluster} and nvgpu.mbarrier.get -> llvm.inttoptr ->
// nvvm.mbarrier.try_wait {scope = cluster} on a parity; an mbarrier's
// address used otherwise is refused.
!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
func.func @mbarrier_get_stored(%out: memref<i32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %bars = nvgpu.mbarrier.create -> !barriers
    // expected-error @below {{gives an address that 'memref.store' uses; the emulator models an mbarrier's address in a remote arrival, nvgpu.mbarrier.get -> llvm.inttoptr (to !llvm.ptr<3>) -> nvvm.mapa (to !llvm.ptr<7>) -> nvvm.mbarrier.arrive {scope = #nvvm.mem_scope<cluster>} (one arrival: no count, not relaxed), and in a cluster-scope wait, nvgpu.mbarrier.get -> llvm.inttoptr (to !llvm.ptr<3>) -> nvvm.mbarrier.try_wait on an i32 phase parity {scope = #nvvm.mem_scope<cluster>} (no ticks, not relaxed)}}
    %p = nvgpu.mbarrier.get %bars[%c1] : !barriers -> i32
    memref.store %p, %out[] : memref<i32>
    gpu.terminator
  }
  return
}

// -----

!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
func.func @mbarrier_get_loaded(%out: memref<i64>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %bars = nvgpu.mbarrier.create -> !barriers
    // expected-error @below {{gives an address that 'llvm.load' uses (through llvm.inttoptr); the emulator models an mbarrier's address in a remote arrival,}}
    %p = nvgpu.mbarrier.get %bars[%c1] : !barriers -> i32
    %ptr = llvm.inttoptr %p : i32 to !llvm.ptr<3>
    %v = llvm.load %ptr : !llvm.ptr<3> -> i64
    memref.store %v, %out[] : memref<i64>
    gpu.terminator
  }
  return
}

// -----

// nvvm.mapa of workgroup memory that is not an mbarrier (distributed
// shared memory).
func.func @mapa_not_mbarrier(%address: i32, %rank: i32) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %ptr = llvm.inttoptr %address : i32 to !llvm.ptr<3>
    // expected-error @below {{'nvvm.mapa' op maps an address that no nvgpu.mbarrier.get gives (through llvm.inttoptr); the emulator models an mbarrier's address in a remote arrival,}}
    %rp = nvvm.mapa %ptr, %rank : !llvm.ptr<3> -> !llvm.ptr<7>
    nvvm.mbarrier.arrive %rp {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
    gpu.terminator
  }
  return
}

// -----

!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
func.func @mapa_generic(%rank: i32) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %bars = nvgpu.mbarrier.create -> !barriers
    %p = nvgpu.mbarrier.get %bars[%c1] : !barriers -> i32
    %ptr = llvm.inttoptr %p : i32 to !llvm.ptr
    // expected-error @below {{'nvvm.mapa' op maps to a generic address; the emulator models an mbarrier's address in a remote arrival,}}
    %rp = nvvm.mapa %ptr, %rank : !llvm.ptr -> !llvm.ptr
    gpu.terminator
  }
  return
}

// -----

!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
func.func @mapa_loaded(%rank: i32, %out: memref<i64>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %bars = nvgpu.mbarrier.create -> !barriers
    %p = nvgpu.mbarrier.get %bars[%c1] : !barriers -> i32
    %ptr = llvm.inttoptr %p : i32 to !llvm.ptr<3>
    // expected-error @below {{'nvvm.mapa' op gives an address that 'llvm.load' uses; the emulator models an mbarrier's address in a remote arrival,}}
    %rp = nvvm.mapa %ptr, %rank : !llvm.ptr<3> -> !llvm.ptr<7>
    %v = llvm.load %rp : !llvm.ptr<7> -> i64
    memref.store %v, %out[] : memref<i64>
    gpu.terminator
  }
  return
}

// -----

func.func @remote_arrive_not_mapped(%rp: !llvm.ptr<7>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @below {{'nvvm.mbarrier.arrive' op arrives at a shared::cluster address that no nvvm.mapa of an nvgpu.mbarrier.get's address gives; the emulator models an mbarrier's address in a remote arrival,}}
    nvvm.mbarrier.arrive %rp {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
    gpu.terminator
  }
  return
}

// -----

!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
func.func @remote_arrive_count(%rank: i32, %n: i32) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %bars = nvgpu.mbarrier.create -> !barriers
    %p = nvgpu.mbarrier.get %bars[%c1] : !barriers -> i32
    %ptr = llvm.inttoptr %p : i32 to !llvm.ptr<3>
    %rp = nvvm.mapa %ptr, %rank : !llvm.ptr<3> -> !llvm.ptr<7>
    // expected-error @below {{'nvvm.mbarrier.arrive' op arrives with a count; the emulator models an mbarrier's address in a remote arrival,}}
    nvvm.mbarrier.arrive %rp, %n {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
    gpu.terminator
  }
  return
}

// -----

!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
func.func @remote_arrive_cta_scope(%rank: i32) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %bars = nvgpu.mbarrier.create -> !barriers
    %p = nvgpu.mbarrier.get %bars[%c1] : !barriers -> i32
    %ptr = llvm.inttoptr %p : i32 to !llvm.ptr<3>
    %rp = nvvm.mapa %ptr, %rank : !llvm.ptr<3> -> !llvm.ptr<7>
    // expected-error @below {{'nvvm.mbarrier.arrive' op has scope 'cta'; the emulator models an mbarrier's address in a remote arrival,}}
    nvvm.mbarrier.arrive %rp : !llvm.ptr<7>
    gpu.terminator
  }
  return
}

// -----

!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
func.func @remote_arrive_relaxed(%rank: i32) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %bars = nvgpu.mbarrier.create -> !barriers
    %p = nvgpu.mbarrier.get %bars[%c1] : !barriers -> i32
    %ptr = llvm.inttoptr %p : i32 to !llvm.ptr<3>
    %rp = nvvm.mapa %ptr, %rank : !llvm.ptr<3> -> !llvm.ptr<7>
    // expected-error @below {{'nvvm.mbarrier.arrive' op is relaxed; the emulator models an mbarrier's address in a remote arrival,}}
    nvvm.mbarrier.arrive %rp {scope = #nvvm.mem_scope<cluster>, relaxed = true} : !llvm.ptr<7>
    gpu.terminator
  }
  return
}

// A cluster-scope wait at an address that is not an mbarrier's.
// -----

!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
func.func @cluster_wait_not_mbarrier(%ptr0: !llvm.ptr<3>, %parity: i32, %state: i64, %ticks: i32, %out: memref<i1>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %bars = nvgpu.mbarrier.create -> !barriers
    %p = nvgpu.mbarrier.get %bars[%c1] : !barriers -> i32
    %ptr = llvm.inttoptr %p : i32 to !llvm.ptr<3>
    // expected-error @below {{'nvvm.mbarrier.try_wait' op waits at an address that no nvgpu.mbarrier.get gives (through llvm.inttoptr); the emulator models an mbarrier's address in a remote arrival,}}
    %done = nvvm.mbarrier.try_wait %ptr0, %parity {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<3>, i32 -> i1
    memref.store %done, %out[] : memref<i1>
    gpu.terminator
  }
  return
}

// A wait on a state (i64), not a phase parity.
// -----

!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
func.func @cluster_wait_state(%ptr0: !llvm.ptr<3>, %parity: i32, %state: i64, %ticks: i32, %out: memref<i1>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %bars = nvgpu.mbarrier.create -> !barriers
    %p = nvgpu.mbarrier.get %bars[%c1] : !barriers -> i32
    %ptr = llvm.inttoptr %p : i32 to !llvm.ptr<3>
    // expected-error @below {{'nvvm.mbarrier.try_wait' op waits on a state, not a phase parity; the emulator models an mbarrier's address in a remote arrival,}}
    %done = nvvm.mbarrier.try_wait %ptr, %state {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<3>, i64 -> i1
    memref.store %done, %out[] : memref<i1>
    gpu.terminator
  }
  return
}

// A wait with a time limit.
// -----

!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
func.func @cluster_wait_ticks(%ptr0: !llvm.ptr<3>, %parity: i32, %state: i64, %ticks: i32, %out: memref<i1>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %bars = nvgpu.mbarrier.create -> !barriers
    %p = nvgpu.mbarrier.get %bars[%c1] : !barriers -> i32
    %ptr = llvm.inttoptr %p : i32 to !llvm.ptr<3>
    // expected-error @below {{'nvvm.mbarrier.try_wait' op has a time limit; the emulator models an mbarrier's address in a remote arrival,}}
    %done = nvvm.mbarrier.try_wait %ptr, %parity, %ticks {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<3>, i32, i32 -> i1
    memref.store %done, %out[] : memref<i1>
    gpu.terminator
  }
  return
}

// A wait at CTA scope (nvgpu.mbarrier.try_wait.parity is the modelled one).
// -----

!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
func.func @cluster_wait_cta(%ptr0: !llvm.ptr<3>, %parity: i32, %state: i64, %ticks: i32, %out: memref<i1>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %bars = nvgpu.mbarrier.create -> !barriers
    %p = nvgpu.mbarrier.get %bars[%c1] : !barriers -> i32
    %ptr = llvm.inttoptr %p : i32 to !llvm.ptr<3>
    // expected-error @below {{'nvvm.mbarrier.try_wait' op has scope 'cta'; the emulator models an mbarrier's address in a remote arrival,}}
    %done = nvvm.mbarrier.try_wait %ptr, %parity : !llvm.ptr<3>, i32 -> i1
    memref.store %done, %out[] : memref<i1>
    gpu.terminator
  }
  return
}

// A relaxed wait.
// -----

!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
func.func @cluster_wait_relaxed(%ptr0: !llvm.ptr<3>, %parity: i32, %state: i64, %ticks: i32, %out: memref<i1>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %bars = nvgpu.mbarrier.create -> !barriers
    %p = nvgpu.mbarrier.get %bars[%c1] : !barriers -> i32
    %ptr = llvm.inttoptr %p : i32 to !llvm.ptr<3>
    // expected-error @below {{'nvvm.mbarrier.try_wait' op is relaxed; the emulator models an mbarrier's address in a remote arrival,}}
    %done = nvvm.mbarrier.try_wait %ptr, %parity {scope = #nvvm.mem_scope<cluster>, relaxed = true} : !llvm.ptr<3>, i32 -> i1
    memref.store %done, %out[] : memref<i1>
    gpu.terminator
  }
  return
}

// -----

// A local nvvm.mbarrier.arrive (nvgpu.mbarrier.arrive is the modelled one).
func.func @local_nvvm_arrive(%ptr: !llvm.ptr<3>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @below {{'nvvm.mbarrier.arrive' op is not modelled by the CPU emulator (gpucg-test-emulate-gpu)}}
    %state = nvvm.mbarrier.arrive %ptr : !llvm.ptr<3> -> i64
    gpu.terminator
  }
  return
}
