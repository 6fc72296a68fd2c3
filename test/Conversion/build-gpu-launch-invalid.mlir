// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(gpucg-build-gpu-launch))'

// expected-error @+1 {{has 2 scf.forall loops over #gpu.block; a kernel has one workgroup loop}}
func.func @two_workgroup_loops(%a: memref<64xf32>) attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [32, 1, 1]>} {
  // expected-note @+1 {{workgroup loop here}}
  scf.forall (%i) in (2) {
  } {mapping = [#gpu.block<x>]}
  // expected-note @+1 {{workgroup loop here}}
  scf.forall (%i) in (2) {
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @returns_new_buffer(%a: memref<64xf32>) -> memref<64xf32> attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [32, 1, 1]>} {
  %b = memref.alloc() : memref<64xf32>
  // expected-error @+1 {{returns a value (#0) that is not a kernel argument; a kernel must write its results into its arguments}}
  return %b : memref<64xf32>
}

// -----

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  // expected-error @+1 {{needs 200000 bytes of workgroup memory, more than the sm_80 opt-in limit of}}
  func.func @over_optin(%a: memref<64xf32>) attributes {
      gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [32, 1, 1]>} {
    %big = memref.alloc() : memref<200000xi8, #gpu.address_space<workgroup>>
    return
  }
}

// -----

func.func @alloc_in_loop(%a: memref<64xf32>) attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [32, 1, 1]>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error @+1 {{allocates workgroup memory inside 'scf.for'; workgroup allocations must be at the top of the kernel}}
    %wg = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @dynamic_workgroup_alloc(%n: index) attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [32, 1, 1]>} {
  // expected-error @+1 {{a launch needs a static shape and an identity layout}}
  %wg = memref.alloc(%n) : memref<?xf32, #gpu.address_space<workgroup>>
  return
}

// -----

// expected-error @+1 {{has a translation_info without a workgroup_size; the block size of its launch is unknown}}
func.func @no_workgroup_size(%a: memref<64xf32>) attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute>} {
  return
}

// -----

func.func @bound_from_memory(%a: memref<64xf32>, %n: memref<index>) attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [32, 1, 1]>} {
  // expected-note @+1 {{defined here}}
  %ub = memref.load %n[] : memref<index>
  // expected-error @+1 {{the workgroup loop's bound depends on 'memref.load', which cannot be computed on the host}}
  scf.forall (%i) = (0) to (%ub) step (32) {
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @nested_workgroup_loop(%a: memref<64xf32>) attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [32, 1, 1]>} {
  %true = arith.constant true
  scf.if %true {
    // expected-error @+1 {{is the kernel's workgroup loop but is nested in 'scf.if'; it must be directly in the function body}}
    scf.forall (%i) in (2) {
    } {mapping = [#gpu.block<x>]}
  }
  return
}

// -----

func.func @linear_block_mapping(%a: memref<64xf32>) attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [32, 1, 1]>} {
  // expected-error @+1 {{only #gpu.block<x>, <y> and <z> are supported}}
  scf.forall (%i) in (2) {
  } {mapping = [#gpu.block<linear_dim_0>]}
  return
}

// -----

func.func @multi_block(%a: memref<64xf32>) attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [32, 1, 1]>} {
  cf.br ^bb1
^bb1:
  return
}
// expected-error @-6 {{has 2 blocks; a kernel body must be a single block}}

// -----

func.func @index_workgroup_memory(%a: memref<64xf32>) attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [32, 1, 1]>} {
  // expected-error @+1 {{allocates workgroup memory of element type 'index'; only integer and float elements have a size the launch can reserve}}
  %wg = memref.alloc() : memref<16xindex, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @workgroup_alloca(%a: memref<64xf32>) attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [32, 1, 1]>} {
  // expected-error @+1 {{allocates workgroup memory on the stack; use memref.alloc}}
  %wg = memref.alloca() : memref<16xf32, #gpu.address_space<workgroup>>
  return
}

// -----

// expected-error @+1 {{already contains a gpu.launch}}
func.func @already_launched(%a: memref<64xf32>) attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [32, 1, 1]>} {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

func.func @tensor_workgroup_loop(%a: tensor<64xf32>) -> tensor<64xf32> attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [32, 1, 1]>} {
  // expected-error @+1 {{is a workgroup loop over tensors (1 shared_outs); bufferize the kernel first}}
  %r = scf.forall (%i) in (2) shared_outs(%o = %a) -> (tensor<64xf32>) {
  } {mapping = [#gpu.block<x>]}
  return %r : tensor<64xf32>
}

// -----

func.func @dynamic_workgroup_alloc(%a: memref<64xf32>, %n: index) attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [32, 1, 1]>} {
  // expected-error @+1 {{allocates workgroup memory of type 'memref<?xf32, #gpu.address_space<workgroup>>'; a launch needs a static shape and an identity layout}}
  %s = memref.alloc(%n) : memref<?xf32, #gpu.address_space<workgroup>>
  scf.forall (%i) in (2) {
    %v = memref.load %a[%i] : memref<64xf32>
    memref.store %v, %s[%i] : memref<?xf32, #gpu.address_space<workgroup>>
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @linear_block_mapping(%a: memref<64xf32>) attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [32, 1, 1]>} {
  // expected-error @+1 {{maps a dimension to #gpu.block<linear_dim_0>; only #gpu.block<x>, <y> and <z> are supported}}
  scf.forall (%i) in (2) {
  } {mapping = [#gpu.block<linear_dim_0>]}
  return
}

// -----

!map = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
func.func @tensor_map_in_loop(%a: memref<128x64xf16>) attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1]>} {
  %c64 = arith.constant 64 : index
  %u = memref.cast %a : memref<128x64xf16> to memref<*xf16>
  scf.forall (%i) in (2) {
    // expected-error @+1 {{'nvgpu.tma.create.descriptor' op is not at the top level of @tensor_map_in_loop; a kernel's tensor maps are built on the host before its launch}}
    %m = nvgpu.tma.create.descriptor %u box[%c64, %c64] : memref<*xf16> -> !map
    nvgpu.tma.prefetch.descriptor %m : !map
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

!map = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
func.func @tensor_map_of_loaded_size(%a: memref<128x64xf16>, %n: memref<index>) attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1]>} {
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{'memref.load' op computes a tensor map's operand in the kernel; tensor maps are built on the host from constants and function arguments}}
  %box = memref.load %n[] : memref<index>
  %u = memref.cast %a : memref<128x64xf16> to memref<*xf16>
  %m = nvgpu.tma.create.descriptor %u box[%box, %c64] : memref<*xf16> -> !map
  scf.forall (%i) in (2) {
    nvgpu.tma.prefetch.descriptor %m : !map
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

/// Clusters must tile the grid: 3 workgroups along y do not take clusters
/// of 2.
func.func @cluster_not_dividing_grid(%a: memref<384x256xf32>) attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [64, 1, 1]>} {
  // expected-error @+1 {{asks for clusters of 2 workgroups along y, which must divide the grid's 3}}
  scf.forall (%i, %j) = (0, 0) to (384, 256) step (128, 128) {
    %v = memref.load %a[%i, %j] : memref<384x256xf32>
    memref.store %v, %a[%j, %i] : memref<384x256xf32>
  } {gpucg.cluster_shape = array<i64: 1, 2, 1>, mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

// -----

/// A dynamic number of workgroups along y (a dynamic M's rows of tiles)
/// takes no clusters along y; clusters of one along y and two along x
/// would (build-gpu-launch.mlir).
func.func @cluster_dynamic_grid(%a: memref<?x256xf32>) attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [64, 1, 1]>} {
  %c0 = arith.constant 0 : index
  %rows = memref.dim %a, %c0 : memref<?x256xf32>
  // expected-error @+1 {{asks for clusters of 2 workgroups along y, which must divide the grid's dynamic size}}
  scf.forall (%i, %j) = (0, 0) to (%rows, 256) step (128, 128) {
    %v = memref.load %a[%i, %j] : memref<?x256xf32>
    memref.store %v, %a[%j, %i] : memref<?x256xf32>
  } {gpucg.cluster_shape = array<i64: 1, 2, 1>, mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}
