// gpucg-compile on an elementwise kernel with every size dynamic (a bias
// add and ReLU over f16 rows, as a model with a run-time hidden size gives
// it): the strategy plans Vectorize with 128-bit vectors (8 f16 per
// thread, 64 threads), and each global access of the full tiles is checked
// at run time for an aligned address (gpucg-version-vector-alignment), so
// the PTX has 16-byte loads and stores beside the element accesses of the
// misaligned rows and the partial tile; no spills.
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{chip=sm_80 format=isa output-dir=%t report=true})' \
// RUN:   -o %t/lowered.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/bias_relu_kernel.ptx
// RUN: FileCheck %s --check-prefix=ABI < %t/bias_relu_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/bias_relu_kernel.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if sass %{ %sass_mix %t/k.cubin | FileCheck %s --check-prefix=SASS %}

// REMARK: remark: plan of @bias_relu: pipeline Vectorize, workgroup 64x1x1 threads, workgroup tile 1x512, thread tile 1x8 on sm_80

// PTX-DAG: ld.global.v4.b32
// PTX-DAG: st.global.v4.b32
// PTX-DAG: ld.global.b16
// PTX-DAG: st.global.b16

// ABI: grid_x ceildiv arg0.dim1 512
// ABI-NEXT: grid_y arg0.dim0

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// SASS: kernel bias_relu_kernel
// SASS-DAG: LDG.E.128 {{[1-9]}}
// SASS-DAG: STG.E.128 {{[1-9]}}

func.func @bias_relu(%x: tensor<?x?xf16>, %b: tensor<?xf16>) -> tensor<?x?xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf16>
  %n = tensor.dim %x, %c1 : tensor<?x?xf16>
  %e = tensor.empty(%m, %n) : tensor<?x?xf16>
  %zero = arith.constant 0.0 : f16
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x, %b : tensor<?x?xf16>, tensor<?xf16>) outs(%e : tensor<?x?xf16>) {
  ^bb0(%a: f16, %c: f16, %o: f16):
    %s = arith.addf %a, %c : f16
    %t = arith.maximumf %s, %zero : f16
    linalg.yield %t : f16
  } -> tensor<?x?xf16>
  return %r : tensor<?x?xf16>
}
