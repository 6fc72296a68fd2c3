// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true}))' > /dev/null

// An all-parallel kernel the strategy plans one element per thread
// (SimtDistribute) is warned about, with the reason, and the report says
// the same: an odd innermost size whose loops cannot be merged into one run
// of elements (gpucg-collapse-elementwise-dims), or elements of no whole
// bytes. (This runs the strategy alone: a kernel whose loops the pipelines
// would merge is told to run the pass.)

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @bias(%x: tensor<64x4097xf16>, %b: tensor<4097xf16>) -> tensor<64x4097xf16> {
    %e = tensor.empty() : tensor<64x4097xf16>
    // expected-warning @+2 {{runs one element per thread (pipeline SimtDistribute), not in 128-bit vectors: its innermost size (4097) is odd, so no vector of 2 or more f16 divides its rows (a vector along them would start misaligned in most), and its loops cannot be merged into one run of elements (gpucg-collapse-elementwise-dims): an operand's indexing map keeps the innermost loop apart from the one outside it (a broadcast along the rows, or a transpose)}}
    // expected-remark @+1 {{plan of @bias: pipeline SimtDistribute, workgroup 128x1x1 threads, workgroup tile 1x128, thread tile 1x1 on sm_80; one element per thread: its innermost size (4097) is odd}}
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<64x4097xf16>, tensor<4097xf16>) outs(%e : tensor<64x4097xf16>) {
    ^bb0(%a: f16, %c: f16, %o: f16):
      %s = arith.addf %a, %c : f16
      linalg.yield %s : f16
    } -> tensor<64x4097xf16>
    return %r : tensor<64x4097xf16>
  }
}

// -----

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @dynamic_rows(%x: tensor<?x4097xf32>, %o: tensor<?x4097xf32>) -> tensor<?x4097xf32> {
    // expected-warning @+2 {{not in 128-bit vectors: its innermost size (4097) is odd, so no vector of 2 or more f32 divides its rows (a vector along them would start misaligned in most), and its loops cannot be merged into one run of elements (gpucg-collapse-elementwise-dims): the size of the loop outside the innermost one is dynamic}}
    // expected-remark @+1 {{; one element per thread: its innermost size (4097) is odd}}
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x4097xf32>) outs(%o : tensor<?x4097xf32>) {
    ^bb0(%a: f32, %p: f32):
      %s = arith.mulf %a, %a : f32
      linalg.yield %s : f32
    } -> tensor<?x4097xf32>
    return %r : tensor<?x4097xf32>
  }
}

// -----

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @odd_product(%x: tensor<7x4097xf16>) -> tensor<7x4097xf16> {
    %e = tensor.empty() : tensor<7x4097xf16>
    // expected-warning @+2 {{and its loops cannot be merged into one run of elements (gpucg-collapse-elementwise-dims): its loops 0 to 1 merged (28679 elements) take no wider vector}}
    // expected-remark @+1 {{plan of @odd_product: pipeline SimtDistribute}}
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<7x4097xf16>) outs(%e : tensor<7x4097xf16>) {
    ^bb0(%a: f16, %o: f16):
      %s = arith.addf %a, %a : f16
      linalg.yield %s : f16
    } -> tensor<7x4097xf16>
    return %r : tensor<7x4097xf16>
  }
}

// -----

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @mergeable(%x: tensor<64x4097xf16>) -> tensor<64x4097xf16> {
    %e = tensor.empty() : tensor<64x4097xf16>
    // expected-warning @+2 {{and its loops were not merged into one run of elements: run gpucg-collapse-elementwise-dims before the strategy (the pipelines do)}}
    // expected-remark @+1 {{plan of @mergeable: pipeline SimtDistribute}}
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x4097xf16>) outs(%e : tensor<64x4097xf16>) {
    ^bb0(%a: f16, %o: f16):
      %s = arith.addf %a, %a : f16
      linalg.yield %s : f16
    } -> tensor<64x4097xf16>
    return %r : tensor<64x4097xf16>
  }
}

// -----

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @bits(%x: tensor<8x13xi1>, %y: tensor<8x13xi1>) -> tensor<8x13xi1> {
    %e = tensor.empty() : tensor<8x13xi1>
    // expected-warning @+2 {{runs one element per thread (pipeline SimtDistribute), not in 128-bit vectors: its innermost size (13) is no multiple of a 128-bit vector (128 x i1), and narrower vectors of i1 are no whole bytes}}
    // expected-remark @+1 {{plan of @bits: pipeline SimtDistribute}}
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<8x13xi1>, tensor<8x13xi1>) outs(%e : tensor<8x13xi1>) {
    ^bb0(%a: i1, %b: i1, %o: i1):
      %s = arith.xori %a, %b : i1
      linalg.yield %s : i1
    } -> tensor<8x13xi1>
    return %r : tensor<8x13xi1>
  }
}

// -----

// A plan of the user's own: no warning.
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @users_plan(%x: tensor<64x4097xf16>, %b: tensor<4097xf16>) -> tensor<64x4097xf16> {
    %e = tensor.empty() : tensor<64x4097xf16>
    // expected-remark @+1 {{plan of @users_plan: pipeline SimtDistribute, workgroup 64x1x1 threads, workgroup tile 1x64, thread tile 1x1 on sm_80; one element per thread}}
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<64x4097xf16>, tensor<4097xf16>) outs(%e : tensor<64x4097xf16>)
      attrs = {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 64], [1, 1]]>,
        translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [64, 1, 1]>>} {
    ^bb0(%a: f16, %c: f16, %o: f16):
      %s = arith.addf %a, %c : f16
      linalg.yield %s : f16
    } -> tensor<64x4097xf16>
    return %r : tensor<64x4097xf16>
  }
}
