// gpucg-compile on elementwise kernels over rows of 4097 f16 (a hidden size
// no 128-bit vector divides), as users write them: a residual add that
// returns a new tensor, and a bias add. The residual add's loops merge into
// one run of 64 * 4097 elements (gpucg-collapse-elementwise-dims): the
// strategy plans Vectorize, 8 f16 per thread in workgroup tiles of 1024,
// and the PTX has 16-byte loads and stores (the collapse_shape taken as a
// reinterpret_cast, whose alignment is the argument's) beside the element
// accesses of the partial last tile; the ABI names the arguments in their
// own shapes and the new tensor as a result. The bias is indexed by the
// column alone, which keeps the rows apart: one element per thread, and a
// warning that says why.
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{chip=sm_80 format=isa output-dir=%t report=true})' \
// RUN:   -o %t/lowered.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/residual_kernel.ptx
// RUN: FileCheck %s --check-prefix=ABI < %t/residual_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/residual_kernel.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if sass %{ %sass_mix %t/k.cubin | FileCheck %s --check-prefix=SASS %}

// REMARK: remark: plan of @residual: pipeline Vectorize, workgroup 128x1x1 threads, workgroup tile 1024, thread tile 8 on sm_80
// REMARK: warning: runs one element per thread (pipeline SimtDistribute), not in 128-bit vectors: its innermost size (4097) is odd, {{.+}}: an operand's indexing map keeps the innermost loop apart from the one outside it (a broadcast along the rows, or a transpose)
// REMARK: remark: plan of @bias: pipeline SimtDistribute

// PTX-LABEL: .entry residual_kernel
// PTX-DAG: ld.global.v4.b32
// PTX-DAG: st.global.v4.b32
// PTX-DAG: ld.global.b16
// PTX-DAG: st.global.b16

// ABI: grid_x 257
// ABI-NEXT: grid_y 1
// ABI: argument 0 function_argument 0 memref f16 64x4097
// ABI-NEXT: argument 1 function_argument 1 memref f16 64x4097
// ABI-NEXT: argument 2 function_argument 2 memref f16 64x4097
// ABI-NEXT: result 2 64 4097

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// SASS: kernel residual_kernel
// SASS-DAG: LDG.E.128 {{[1-9]}}
// SASS-DAG: STG.E.128 {{[1-9]}}

func.func @residual(%x: tensor<64x4097xf16>, %y: tensor<64x4097xf16>) -> tensor<64x4097xf16> {
  %e = tensor.empty() : tensor<64x4097xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x, %y : tensor<64x4097xf16>, tensor<64x4097xf16>) outs(%e : tensor<64x4097xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    linalg.yield %s : f16
  } -> tensor<64x4097xf16>
  return %r : tensor<64x4097xf16>
}

func.func @bias(%x: tensor<64x4097xf16>, %b: tensor<4097xf16>) -> tensor<64x4097xf16> {
  %e = tensor.empty() : tensor<64x4097xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x, %b : tensor<64x4097xf16>, tensor<4097xf16>) outs(%e : tensor<64x4097xf16>) {
  ^bb0(%a: f16, %c: f16, %o: f16):
    %s = arith.addf %a, %c : f16
    linalg.yield %s : f16
  } -> tensor<64x4097xf16>
  return %r : tensor<64x4097xf16>
}
