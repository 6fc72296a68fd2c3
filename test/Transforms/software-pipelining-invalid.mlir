// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-software-pipelining{depth=4}))'
// RUN: not gpucg-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-software-pipelining{depth=2 schedule=nvidia-tensorcore}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NV2
// NV2: cannot use the nvidia-tensorcore schedule with depth 2: it keeps loads one stage ahead of the MMAs and needs a depth of at least 3
// RUN: not gpucg-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-software-pipelining{schedule=round-robin}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SCHED
// SCHED: for the --schedule option: Cannot find option named 'round-robin'!

/// Two buffers cannot keep four stages of copies in flight.
func.func @too_few_buffers(%g: memref<128x8xf16>, %init: f16) -> f16 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %smem = memref.alloc() {gpucg.num_buffers = 2 : i64} : memref<2x8xf16, #gpu.address_space<workgroup>>
  %r = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %init) -> (f16) {
    %b = arith.remui %k, %c2 : index
    %buf = memref.subview %smem[%b, 0] [1, 8] [1, 1] : memref<2x8xf16, #gpu.address_space<workgroup>> to memref<8xf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'nvgpu.device_async_copy' op copies into a workgroup buffer with 2 copies, but a depth-4 pipeline keeps 4 in flight: run gpucg-multi-buffering with num-buffers >= 4}}
    %t = nvgpu.device_async_copy %g[%k, %c0], %buf[%c0], 8 : memref<128x8xf16> to memref<8xf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %grp = nvgpu.device_async_create_group %t
    nvgpu.device_async_wait %grp
    %v = vector.load %buf[%c0] : memref<8xf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xf16>
    %m = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %v, %v, %acc : vector<8xf16>, vector<8xf16> into f16
    scf.yield %m : f16
  }
  return %r : f16
}

// -----

/// A K loop of 2 steps has fewer steps than the 4 stages.
func.func @too_few_iterations(%g: memref<128x8xf16>, %init: f16) -> f16 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %smem = memref.alloc() {gpucg.num_buffers = 4 : i64} : memref<4x8xf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'scf.for' op has 2 iterations; a depth-4 pipeline needs at least 4}}
  %r = scf.for %k = %c0 to %c2 step %c1 iter_args(%acc = %init) -> (f16) {
    %b = arith.remui %k, %c4 : index
    %buf = memref.subview %smem[%b, 0] [1, 8] [1, 1] : memref<4x8xf16, #gpu.address_space<workgroup>> to memref<8xf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %t = nvgpu.device_async_copy %g[%k, %c0], %buf[%c0], 8 : memref<128x8xf16> to memref<8xf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %grp = nvgpu.device_async_create_group %t
    nvgpu.device_async_wait %grp
    %v = vector.load %buf[%c0] : memref<8xf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xf16>
    %m = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %v, %v, %acc : vector<8xf16>, vector<8xf16> into f16
    scf.yield %m : f16
  }
  return %r : f16
}


// -----

/// A register-staged copy (a global read stored whole into workgroup memory)
/// into a buffer of one copy: the store of step k + 1 would overwrite the
/// data step k still reads.
func.func @staged_single_buffer(%g: memref<128x9xf16>, %init: f16) -> f16 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0.0 : f16
  %smem = memref.alloc() : memref<8xf16, #gpu.address_space<workgroup>>
  %r = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %init) -> (f16) {
    gpu.barrier
    %g8 = vector.transfer_read %g[%k, %c0], %pad {in_bounds = [true]} : memref<128x9xf16>, vector<8xf16>
    // expected-error @+1 {{'vector.store' op stores a register-staged copy into a workgroup buffer with 1 copies, but a depth-4 pipeline keeps 2 in use: run gpucg-multi-buffering with num-buffers >= 2}}
    vector.store %g8, %smem[%c0] : memref<8xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    gpu.barrier
    %v = vector.load %smem[%c0] : memref<8xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    %m = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %v, %v, %acc : vector<8xf16>, vector<8xf16> into f16
    scf.yield %m : f16
  }
  return %r : f16
}

// -----

/// Register-staged copies alone make a two-stage pipeline: a loop of one
/// step is too short for it.
func.func @staged_too_few_iterations(%g: memref<128x9xf16>, %init: f16) -> f16 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f16
  %smem = memref.alloc() {gpucg.num_buffers = 4 : i64} : memref<4x8xf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'scf.for' op has 1 iterations; a depth-4 pipeline needs at least 2}}
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%acc = %init) -> (f16) {
    gpu.barrier
    %g8 = vector.transfer_read %g[%k, %c0], %pad {in_bounds = [true]} : memref<128x9xf16>, vector<8xf16>
    vector.store %g8, %smem[%k, %c0] : memref<4x8xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    gpu.barrier
    %v = vector.load %smem[%k, %c0] : memref<4x8xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    %m = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %v, %v, %acc : vector<8xf16>, vector<8xf16> into f16
    scf.yield %m : f16
  }
  return %r : f16
}
