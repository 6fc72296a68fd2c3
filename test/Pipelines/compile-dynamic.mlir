// gpucg-compile on matmuls whose sizes are known only at run time, with the
// default bare-pointers=true: the kernels run on the tensor cores (the
// strategy plans a dynamic size as 1024: 64x64 tiles, a 64-byte K tile, 4
// stages) and take memref descriptors, which their .abi says (and a
// warning, for hosts lowered with bare pointers), with the grid as formulas
// of the sizes. A static kernel of the same module keeps bare
// pointers. Rows whose pitch is known only at run time prove no alignment
// at compile time: gpucg-row-pitch-specialization gives each workgroup a
// copy of its body for A and B pitches that a run-time check finds 16-byte
// multiples, whose copies are 16-byte cp.async (cp.async.cg ... 16,
// LDGSTS); in the other copy the f16 copies are register-staged, with a
// warning, and gpucg-version-vector-alignment checks each global load and
// store's address at run time: 16 bytes (ld.global.v4, LDG.E.128;
// st.global.v4 for C) where the row is aligned, element by element
// elsewhere; f32 (TF32) copies there are 4-byte cp.async. Both are
// software-pipelined over a K loop of run-time length (predicated prologue
// and epilogue).
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t})' \
// RUN:   -o %t/lowered.mlir 2> %t/warnings
// RUN: FileCheck %s --check-prefix=WARN < %t/warnings
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=ABI16 < %t/matmul_dynamic_f16_kernel.abi
// RUN: FileCheck %s --check-prefix=ABI32 < %t/matmul_dynamic_tf32_kernel.abi
// RUN: FileCheck %s --check-prefix=ABIS < %t/matmul_static_kernel.abi
// RUN: FileCheck %s --check-prefix=PTX16 < %t/matmul_dynamic_f16_kernel.ptx
// RUN: FileCheck %s --check-prefix=PTX32 < %t/matmul_dynamic_tf32_kernel.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/matmul_dynamic_f16_kernel.ptx -o %t/f16.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if sass %{ %sass_mix %t/f16.cubin | FileCheck %s --check-prefix=SASS16 %}
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/matmul_dynamic_tf32_kernel.ptx -o %t/tf32.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// WARN-DAG: warning: copies of 'memref<?x?xf16>' into workgroup memory are 16-byte cp.async only where a run-time check finds its row pitch a multiple of 16 bytes; at other pitches they load 2 byte(s) at a time into registers (16 where a row is aligned) and store 16-byte vectors
// WARN-DAG: warning: takes memref descriptors, not bare pointers: argument #0 has type 'memref<?x?xf16>' {{.+}} a host lowered with gpu-to-llvm must use use-bare-pointers-for-kernels=false to launch it
// WARN-DAG: warning: takes memref descriptors, not bare pointers: argument #0 has type 'memref<?x?xf32>'
// WARN-NOT: memref<?x?xf32>' into workgroup memory

// ABI16:      calling_convention memref_descriptors
// ABI16-NEXT: grid_x ceildiv arg1.dim1 64
// ABI16-NEXT: grid_y ceildiv arg0.dim0 64
// ABI16:      argument 0 function_argument 0 memref f16 ?x?
// ABI32:      calling_convention memref_descriptors
// ABIS:       calling_convention bare_pointers

// PTX16: .entry matmul_dynamic_f16_kernel
// PTX16: cp.async.cg.shared.global [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], 16, %r{{[0-9]+}};
// PTX16: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX16: ld.global.v4.b32
// PTX16: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX16: st.global.v4.b32
// SASS16:      kernel matmul_dynamic_f16_kernel
// SASS16:      HMMA {{[1-9][0-9]*}}
// SASS16:      LDGSTS {{[1-9][0-9]*}}
// SASS16:      LDG.E.128 {{[1-9][0-9]*}}
// SASS16:      STG.E.128 {{[1-9][0-9]*}}
// SASS16:      LDL 0
// SASS16-NEXT: STL 0
// PTX32: .entry matmul_dynamic_tf32_kernel
// PTX32: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
// PTX32: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 4, %r{{[0-9]+}};
// PTX32: wmma.mma.sync.aligned.row.row.m16n16k8.f32.tf32.tf32.f32

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @matmul_dynamic_f16(%a: tensor<?x?xf16>, %b: tensor<?x?xf16>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<?x?xf16>, tensor<?x?xf16>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
    return %0 : tensor<?x?xf32>
  }
  func.func @matmul_dynamic_tf32(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
    return %0 : tensor<?x?xf32>
  }
  func.func @matmul_static(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
}
