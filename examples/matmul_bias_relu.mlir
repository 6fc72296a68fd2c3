// A kernel as gpucg takes it: a linalg.matmul on tensors (100x72x64, f16
// inputs, f32 accumulation) with a bias add and a ReLU after it, for an
// A100 (sm_80). @main is a host stand-in for running it on the CPU: it makes
// small-integer inputs, calls the kernel and prints the result.
//
// make demo runs it through gpucg's front half:
//   gpucg-select-lowering-strategy   -> mma.sync strategy, 32x32x32 tiles
//   gpucg-tile-and-distribute-to-workgroups -> scf.forall over #gpu.block
//   gpucg-bufferize                  -> memrefs
//   gpucg-workgroup-specialization   -> static full tiles, dynamic remainder
// and checks on the CPU that the result equals the untiled kernel's.

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @kernel(%a: tensor<100x64xf16>, %b: tensor<64x72xf16>,
                    %bias: tensor<72xf32>) -> tensor<100x72xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<100x72xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<100x72xf32>) -> tensor<100x72xf32>
    %m = linalg.matmul ins(%a, %b : tensor<100x64xf16>, tensor<64x72xf16>)
                       outs(%f : tensor<100x72xf32>) -> tensor<100x72xf32>
    %r = linalg.generic {
        indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                         affine_map<(d0, d1) -> (d1)>,
                         affine_map<(d0, d1) -> (d0, d1)>],
        iterator_types = ["parallel", "parallel"]}
        ins(%m, %bias : tensor<100x72xf32>, tensor<72xf32>)
        outs(%e : tensor<100x72xf32>) {
    ^bb0(%x: f32, %y: f32, %out: f32):
      %s = arith.addf %x, %y : f32
      %relu = arith.maximumf %s, %zero : f32
      linalg.yield %relu : f32
    } -> tensor<100x72xf32>
    return %r : tensor<100x72xf32>
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c3 = arith.constant 3 : i32
    %c2 = arith.constant 2 : i32
    %a = tensor.generate {
    ^bb0(%i: index, %k: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i, %k)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3 : i32
      %h = arith.sitofp %w : i32 to f16
      tensor.yield %h : f16
    } : tensor<100x64xf16>
    %b = tensor.generate {
    ^bb0(%k: index, %j: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%k, %j)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2 : i32
      %h = arith.sitofp %w : i32 to f16
      tensor.yield %h : f16
    } : tensor<64x72xf16>
    %bias = tensor.generate {
    ^bb0(%j: index):
      %s = affine.apply affine_map<(d0) -> (d0 mod 11)>(%j)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3 : i32
      %f = arith.sitofp %w : i32 to f32
      tensor.yield %f : f32
    } : tensor<72xf32>
    %r = func.call @kernel(%a, %b, %bias)
        : (tensor<100x64xf16>, tensor<64x72xf16>, tensor<72xf32>) -> tensor<100x72xf32>
    %m = bufferization.to_buffer %r : tensor<100x72xf32> to memref<100x72xf32>
    %u = memref.cast %m : memref<100x72xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
