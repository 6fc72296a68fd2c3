// The errors of gpucg-combine-split-k on split-K kernels it cannot
// combine: no workspace, no (or more than one) workgroup loop, no K loop,
// no part dimension, and K loops whose accumulators are not the mma.sync
// vectors of the workgroup tile starting from zero.
// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-combine-split-k))'

#plan = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [32, 1, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync, split_k = 2>
module {
  // expected-error @+1 {{'func.func' op splits K into 2 parts (split_k) but its module has no memref.globals @__gpucg_split_k_partials_no_globals and @__gpucg_split_k_counters_no_globals for the output tiles of its gpu.known_grid_size (run gpucg-create-split-k-workspace first)}}
  func.func @no_globals(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %out: memref<16x8xf32>, %cond: i1, %n: index) attributes {gpu.known_grid_size = array<i32: 1, 1, 2>, gpucg.translation_info = #plan} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %f0 = arith.constant 0.0 : f32
    %zero = arith.constant dense<0.0> : vector<2x2xf32>
    %one = arith.constant dense<1.0> : vector<2x2xf32>
    scf.forall (%y, %x, %p) in (1, 1, 2) {
      %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%it = %zero) -> (vector<2x2xf32>) {
        %d = nvgpu.mma.sync(%a, %b, %it) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        scf.yield %d : vector<2x2xf32>
      }
      %e = vector.extract %acc[0, 0] : f32 from vector<2x2xf32>
      memref.store %e, %out[%c0, %c0] : memref<16x8xf32>
    } {mapping = [#gpu.block<y>, #gpu.block<x>, #gpu.block<z>]}
    return
  }
}

// -----

#plan = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [32, 1, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync, split_k = 2>
module {
  memref.global "private" @__gpucg_split_k_partials_two_loops : memref<256xf32> = uninitialized
  memref.global "private" @__gpucg_split_k_counters_two_loops : memref<1xi32> = dense<0>
  // expected-error @+1 {{'func.func' op splits K into 2 parts (split_k) but has 2 workgroup loops; expected one}}
  func.func @two_loops(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %out: memref<16x8xf32>, %cond: i1, %n: index) attributes {gpu.known_grid_size = array<i32: 1, 1, 2>, gpucg.translation_info = #plan} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %f0 = arith.constant 0.0 : f32
    %zero = arith.constant dense<0.0> : vector<2x2xf32>
    %one = arith.constant dense<1.0> : vector<2x2xf32>
    scf.forall (%y, %x, %p) in (1, 1, 2) {
      %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%it = %zero) -> (vector<2x2xf32>) {
        %d = nvgpu.mma.sync(%a, %b, %it) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        scf.yield %d : vector<2x2xf32>
      }
      %e = vector.extract %acc[0, 0] : f32 from vector<2x2xf32>
      memref.store %e, %out[%c0, %c0] : memref<16x8xf32>
    } {mapping = [#gpu.block<y>, #gpu.block<x>, #gpu.block<z>]}
    scf.forall (%y, %x, %p) in (1, 1, 2) {
    } {mapping = [#gpu.block<y>, #gpu.block<x>, #gpu.block<z>]}
    return
  }
}

// -----

#plan = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [32, 1, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync, split_k = 2>
module {
  memref.global "private" @__gpucg_split_k_partials_no_k_loop : memref<256xf32> = uninitialized
  memref.global "private" @__gpucg_split_k_counters_no_k_loop : memref<1xi32> = dense<0>
  // expected-error @+1 {{'func.func' op splits K into 2 parts (split_k) but its workgroup tile has no K loop (an scf.for of nvgpu.mma.sync ops carrying the accumulators; run gpucg-vector-to-gpu first)}}
  func.func @no_k_loop(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %out: memref<16x8xf32>, %cond: i1, %n: index) attributes {gpu.known_grid_size = array<i32: 1, 1, 2>, gpucg.translation_info = #plan} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %f0 = arith.constant 0.0 : f32
    %zero = arith.constant dense<0.0> : vector<2x2xf32>
    %one = arith.constant dense<1.0> : vector<2x2xf32>
    scf.forall (%y, %x, %p) in (1, 1, 2) {
      %e = vector.extract %zero[0, 0] : f32 from vector<2x2xf32>
      memref.store %e, %out[%c0, %c0] : memref<16x8xf32>
    } {mapping = [#gpu.block<y>, #gpu.block<x>, #gpu.block<z>]}
    return
  }
}

// -----

#plan = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [32, 1, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync, split_k = 2>
module {
  memref.global "private" @__gpucg_split_k_partials_dynamic : memref<256xf32> = uninitialized
  memref.global "private" @__gpucg_split_k_counters_dynamic : memref<1xi32> = dense<0>
  func.func @dynamic(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %out: memref<16x8xf32>, %cond: i1, %n: index) attributes {gpu.known_grid_size = array<i32: 1, 1, 2>, gpucg.translation_info = #plan} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %f0 = arith.constant 0.0 : f32
    %zero = arith.constant dense<0.0> : vector<2x2xf32>
    %one = arith.constant dense<1.0> : vector<2x2xf32>
    // expected-error @+1 {{'scf.forall' op is the workgroup loop of a split-K kernel, but its dimension 0 has no static bounds}}
    scf.forall (%y, %x, %p) in (%n, 1, 2) {
      %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%it = %zero) -> (vector<2x2xf32>) {
        %d = nvgpu.mma.sync(%a, %b, %it) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        scf.yield %d : vector<2x2xf32>
      }
      %e = vector.extract %acc[0, 0] : f32 from vector<2x2xf32>
      memref.store %e, %out[%c0, %c0] : memref<16x8xf32>
    } {mapping = [#gpu.block<y>, #gpu.block<x>, #gpu.block<z>]}
    return
  }
}

// -----

#plan = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [32, 1, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync, split_k = 2>
module {
  memref.global "private" @__gpucg_split_k_partials_no_grid_z : memref<256xf32> = uninitialized
  memref.global "private" @__gpucg_split_k_counters_no_grid_z : memref<1xi32> = dense<0>
  func.func @no_grid_z(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %out: memref<16x8xf32>, %cond: i1, %n: index) attributes {gpu.known_grid_size = array<i32: 1, 1, 2>, gpucg.translation_info = #plan} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %f0 = arith.constant 0.0 : f32
    %zero = arith.constant dense<0.0> : vector<2x2xf32>
    %one = arith.constant dense<1.0> : vector<2x2xf32>
    // expected-error @+1 {{'scf.forall' op is the workgroup loop of a split-K kernel, but has no dimension on grid z (run gpucg-split-k-across-workgroups first)}}
    scf.forall (%y, %x) in (1, 1) {
      %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%it = %zero) -> (vector<2x2xf32>) {
        %d = nvgpu.mma.sync(%a, %b, %it) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        scf.yield %d : vector<2x2xf32>
      }
      %e = vector.extract %acc[0, 0] : f32 from vector<2x2xf32>
      memref.store %e, %out[%c0, %c0] : memref<16x8xf32>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }
}

// -----

#plan = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [32, 1, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync, split_k = 2>
module {
  memref.global "private" @__gpucg_split_k_partials_not_zero : memref<256xf32> = uninitialized
  memref.global "private" @__gpucg_split_k_counters_not_zero : memref<1xi32> = dense<0>
  func.func @not_zero(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %out: memref<16x8xf32>, %cond: i1, %n: index) attributes {gpu.known_grid_size = array<i32: 1, 1, 2>, gpucg.translation_info = #plan} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %f0 = arith.constant 0.0 : f32
    %zero = arith.constant dense<0.0> : vector<2x2xf32>
    %one = arith.constant dense<1.0> : vector<2x2xf32>
    scf.forall (%y, %x, %p) in (1, 1, 2) {
      // expected-error @+1 {{'scf.for' op is a K loop of a split-K kernel, but its accumulator #0 does not start from zero: each part of K must sum its own products, and the parts are added once}}
      %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%it = %one) -> (vector<2x2xf32>) {
        %d = nvgpu.mma.sync(%a, %b, %it) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        scf.yield %d : vector<2x2xf32>
      }
      %e = vector.extract %acc[0, 0] : f32 from vector<2x2xf32>
      memref.store %e, %out[%c0, %c0] : memref<16x8xf32>
    } {mapping = [#gpu.block<y>, #gpu.block<x>, #gpu.block<z>]}
    return
  }
}

// -----

#plan = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [32, 1, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync, split_k = 2>
module {
  memref.global "private" @__gpucg_split_k_partials_other_type : memref<256xf16> = uninitialized
  memref.global "private" @__gpucg_split_k_counters_other_type : memref<1xi32> = dense<0>
  func.func @other_type(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %out: memref<16x8xf32>, %cond: i1, %n: index) attributes {gpu.known_grid_size = array<i32: 1, 1, 2>, gpucg.translation_info = #plan} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %f0 = arith.constant 0.0 : f32
    %zero = arith.constant dense<0.0> : vector<2x2xf32>
    %one = arith.constant dense<1.0> : vector<2x2xf32>
    scf.forall (%y, %x, %p) in (1, 1, 2) {
      // expected-error @+1 {{'scf.for' op is a K loop of a split-K kernel, but its result #0 of type 'vector<2x2xf32>' is not a vector of 'f16' (an mma.sync accumulator)}}
      %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%it = %zero) -> (vector<2x2xf32>) {
        %d = nvgpu.mma.sync(%a, %b, %it) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        scf.yield %d : vector<2x2xf32>
      }
      %e = vector.extract %acc[0, 0] : f32 from vector<2x2xf32>
      memref.store %e, %out[%c0, %c0] : memref<16x8xf32>
    } {mapping = [#gpu.block<y>, #gpu.block<x>, #gpu.block<z>]}
    return
  }
}

// -----

#plan = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 1, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync, split_k = 2>
module {
  memref.global "private" @__gpucg_split_k_partials_threads : memref<256xf32> = uninitialized
  memref.global "private" @__gpucg_split_k_counters_threads : memref<1xi32> = dense<0>
  func.func @threads(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %out: memref<16x8xf32>, %cond: i1, %n: index) attributes {gpu.known_grid_size = array<i32: 1, 1, 2>, gpucg.translation_info = #plan} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %f0 = arith.constant 0.0 : f32
    %zero = arith.constant dense<0.0> : vector<2x2xf32>
    %one = arith.constant dense<1.0> : vector<2x2xf32>
    scf.forall (%y, %x, %p) in (1, 1, 2) {
      // expected-error @+1 {{'scf.for' op is a K loop of a split-K kernel whose 64 threads hold 4 accumulator elements each, not the 128 elements of the workgroup tile}}
      %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%it = %zero) -> (vector<2x2xf32>) {
        %d = nvgpu.mma.sync(%a, %b, %it) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        scf.yield %d : vector<2x2xf32>
      }
      %e = vector.extract %acc[0, 0] : f32 from vector<2x2xf32>
      memref.store %e, %out[%c0, %c0] : memref<16x8xf32>
    } {mapping = [#gpu.block<y>, #gpu.block<x>, #gpu.block<z>]}
    return
  }
}

// -----

#plan = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [32, 1, 1], subgroup_size = 32, pipeline_depth = 2, mma_kind = mma_sync, split_k = 2>
module {
  memref.global "private" @__gpucg_split_k_partials_yields : memref<256xf32> = uninitialized
  memref.global "private" @__gpucg_split_k_counters_yields : memref<1xi32> = dense<0>
  func.func @yields(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %out: memref<16x8xf32>, %cond: i1, %n: index) attributes {gpu.known_grid_size = array<i32: 1, 1, 2>, gpucg.translation_info = #plan} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %f0 = arith.constant 0.0 : f32
    %zero = arith.constant dense<0.0> : vector<2x2xf32>
    %one = arith.constant dense<1.0> : vector<2x2xf32>
    scf.forall (%y, %x, %p) in (1, 1, 2) {
      %r = scf.if %cond -> (f32) {
        // expected-error @+1 {{'scf.for' op is a K loop of a split-K kernel in a block whose terminator yields values; the rest of the block cannot be skipped by the workgroups that are not the last of their tile}}
        %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%it = %zero) -> (vector<2x2xf32>) {
          %d = nvgpu.mma.sync(%a, %b, %it) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
          scf.yield %d : vector<2x2xf32>
        }
        %e = vector.extract %acc[0, 0] : f32 from vector<2x2xf32>
        scf.yield %e : f32
      } else {
        scf.yield %f0 : f32
      }
      memref.store %r, %out[%c0, %c0] : memref<16x8xf32>
    } {mapping = [#gpu.block<y>, #gpu.block<x>, #gpu.block<z>]}
    return
  }
}
