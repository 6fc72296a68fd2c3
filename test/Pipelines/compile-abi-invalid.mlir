// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpucg-compile{format=isa bare-pointers=false})'

// The grid of a kernel whose size is a scalar argument (%n elements of
// dynamically shaped buffers): the ABI file describes a grid only as
// constants and (ceildivs of) dimensions of memref arguments, which the
// launcher reads from the buffers it passes.
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  // expected-error @+1 {{'gpu.launch_func' op has a grid size that the kernel ABI cannot express (a constant, or a product of up to 3 dimensions of arguments, each or its ceildiv by a constant, and a constant)}}
  func.func @scalar_size(%a: tensor<?xf32>, %out: tensor<?xf32>, %n: index) -> tensor<?xf32> {
    %s = tensor.extract_slice %a[0] [%n] [1] : tensor<?xf32> to tensor<?xf32>
    %e = tensor.extract_slice %out[0] [%n] [1] : tensor<?xf32> to tensor<?xf32>
    %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%s : tensor<?xf32>) outs(%e : tensor<?xf32>) {
    ^bb0(%x: f32, %o: f32):
      %t = arith.addf %x, %x : f32
      linalg.yield %t : f32
    } -> tensor<?xf32>
    %r = tensor.insert_slice %0 into %out[0] [%n] [1] : tensor<?xf32> into tensor<?xf32>
    return %r : tensor<?xf32>
  }
}
