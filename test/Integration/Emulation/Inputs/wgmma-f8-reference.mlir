// The reference of ../wgmma-f8.mlir: the same products of small integers,
// in f16, untiled, on the CPU (gpucg-test-lower-to-cpu). Not a test itself.
module {
  func.func @linear_e4m3(%a: tensor<128x768xf16>, %w: tensor<256x768xf16>, %c: tensor<128x256xf32>) -> tensor<128x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>
    %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %w : tensor<128x768xf16>, tensor<256x768xf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
    return %r : tensor<128x256xf32>
  }
  func.func @linear_e5m2_one_warpgroup(%a: tensor<128x384xf16>, %w: tensor<128x384xf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
    %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %w : tensor<128x384xf16>, tensor<128x384xf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
    return %r : tensor<128x128xf32>
  }
  func.func @linear_e4m3_bias_relu(%a: tensor<128x256xf16>, %w: tensor<128x256xf16>, %bias: tensor<128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
    %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %w : tensor<128x256xf16>, tensor<128x256xf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%r, %bias : tensor<128x128xf32>, tensor<128xf32>) outs(%c : tensor<128x128xf32>) {
    ^bb0(%x: f32, %b: f32, %o: f32):
      %s = arith.addf %x, %b : f32
      %m = arith.maximumf %s, %zero : f32
      linalg.yield %m : f32
    } -> tensor<128x128xf32>
    return %y : tensor<128x128xf32>
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c3_i32 = arith.constant 3 : i32
    %c2_i32 = arith.constant 2 : i32
    %linear_e4m3_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x768xf16>
    %linear_e4m3_w = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x768xf16>
    %linear_e4m3_c = tensor.empty() : tensor<128x256xf32>
    %linear_e4m3_r = func.call @linear_e4m3(%linear_e4m3_a, %linear_e4m3_w, %linear_e4m3_c) : (tensor<128x768xf16>, tensor<256x768xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
    %linear_e4m3_m = bufferization.to_buffer %linear_e4m3_r : tensor<128x256xf32> to memref<128x256xf32>
    %linear_e4m3_u = memref.cast %linear_e4m3_m : memref<128x256xf32> to memref<*xf32>
    func.call @printMemrefF32(%linear_e4m3_u) : (memref<*xf32>) -> ()
    %linear_e5m2_one_warpgroup_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x384xf16>
    %linear_e5m2_one_warpgroup_w = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x384xf16>
    %linear_e5m2_one_warpgroup_c = tensor.empty() : tensor<128x128xf32>
    %linear_e5m2_one_warpgroup_r = func.call @linear_e5m2_one_warpgroup(%linear_e5m2_one_warpgroup_a, %linear_e5m2_one_warpgroup_w, %linear_e5m2_one_warpgroup_c) : (tensor<128x384xf16>, tensor<128x384xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
    %linear_e5m2_one_warpgroup_m = bufferization.to_buffer %linear_e5m2_one_warpgroup_r : tensor<128x128xf32> to memref<128x128xf32>
    %linear_e5m2_one_warpgroup_u = memref.cast %linear_e5m2_one_warpgroup_m : memref<128x128xf32> to memref<*xf32>
    func.call @printMemrefF32(%linear_e5m2_one_warpgroup_u) : (memref<*xf32>) -> ()
    %linear_e4m3_bias_relu_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x256xf16>
    %linear_e4m3_bias_relu_w = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x256xf16>
    %linear_e4m3_bias_relu_bias = tensor.generate {
    ^bb0(%i: index):
      %s = affine.apply affine_map<(d0) -> (d0 mod 5)>(%i)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<128xf32>
    %linear_e4m3_bias_relu_c = tensor.empty() : tensor<128x128xf32>
    %linear_e4m3_bias_relu_r = func.call @linear_e4m3_bias_relu(%linear_e4m3_bias_relu_a, %linear_e4m3_bias_relu_w, %linear_e4m3_bias_relu_bias, %linear_e4m3_bias_relu_c) : (tensor<128x256xf16>, tensor<128x256xf16>, tensor<128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>
    %linear_e4m3_bias_relu_m = bufferization.to_buffer %linear_e4m3_bias_relu_r : tensor<128x128xf32> to memref<128x128xf32>
    %linear_e4m3_bias_relu_u = memref.cast %linear_e4m3_bias_relu_m : memref<128x128xf32> to memref<*xf32>
    func.call @printMemrefF32(%linear_e4m3_bias_relu_u) : (memref<*xf32>) -> ()
    return
  }
}
