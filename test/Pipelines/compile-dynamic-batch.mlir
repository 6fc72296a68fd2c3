// gpucg-compile on attention's scores over [batch, heads, tokens, head
// dim] with a dynamic batch and a dynamic number of tokens, as torch-mlir
// exports them: the batch and the 32 heads share grid z, which the .abi
// counts at run time as the batch times 32 (`arg0.dim0 * 32`), the tokens
// give grid x and y (ceildivs of the sizes); wgmma on sm_90a, mma.sync on
// sm_80. With the heads dynamic too (@scores_heads), grid z is the
// product of the two run-time sizes (`arg0.dim0 * arg0.dim1`); four would
// be more than the ABI counts: compile-dynamic-batch-invalid.mlir.
// On sm_80, Q's and K's row pitches (128 and 128 * tokens f16) are
// multiples of 16 bytes whatever the tokens (getKnownRowPitchMultiple of an
// identity layout), so their copies are 16-byte cp.async with no run-time
// check and no register-staged branch (SASS LDGSTS, no LDG):
// gpucg-row-pitch-specialization leaves the body alone. 231 registers, no
// spills.
// RUN: rm -rf %t && mkdir -p %t/sm90a %t/sm80
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{chip=sm_90a format=isa output-dir=%t/sm90a report=true})' \
// RUN:   -o %t/sm90a/lowered.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: gpucg-opt %t/sm90a/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=ABI < %t/sm90a/scores_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/sm90a/scores_kernel.ptx -o %t/sm90a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: FileCheck %s --check-prefix=HEADS < %t/sm90a/scores_heads_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/sm90a/scores_heads_kernel.ptx -o %t/sm90a-heads.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{chip=sm_80 format=isa output-dir=%t/sm80})' -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=ABI < %t/sm80/scores_kernel.abi
// RUN: FileCheck %s --check-prefix=HEADS < %t/sm80/scores_heads_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/sm80/scores_kernel.ptx -o %t/sm80.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: FileCheck %s --check-prefix=SM80 < %t/sm80/scores_kernel.ptx
// RUN: %if sass %{ %sass_mix %t/sm80.cubin | FileCheck %s --check-prefix=SASS80 %}

// REMARK: remark: plan of @scores: pipeline MatmulWgmma (wgmma)
// REMARK: remark: plan of @scores_heads: pipeline MatmulWgmma (wgmma)

// ABI:      calling_convention memref_descriptors
// ABI-NEXT: grid_x ceildiv arg1.dim2 {{[0-9]+}}
// ABI-NEXT: grid_y ceildiv arg0.dim2 {{[0-9]+}}
// ABI-NEXT: grid_z arg0.dim0 * 32

// HEADS:      calling_convention memref_descriptors
// HEADS-NEXT: grid_x ceildiv arg1.dim2 {{[0-9]+}}
// HEADS-NEXT: grid_y ceildiv arg0.dim2 {{[0-9]+}}
// HEADS-NEXT: grid_z arg0.dim0 * arg0.dim1

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// SM80:     cp.async.cg.shared.global [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], 16, %r{{[0-9]+}};
// SM80-NOT: ld.global.v4
// SASS80:      kernel scores_kernel
// SASS80:      LDGSTS {{[1-9][0-9]*}}
// SASS80-NEXT: LDGDEPBAR {{[0-9]+}}
// SASS80:      LDG 0
// SASS80-NEXT: LDG.E.128 0

module {
  func.func @scores(%q: tensor<?x32x?x128xf16>, %k: tensor<?x32x?x128xf16>, %c: tensor<?x32x?x?xf32>) -> tensor<?x32x?x?xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<?x32x?x?xf32>) -> tensor<?x32x?x?xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, k) -> (b, h, m, k)>, affine_map<(b, h, m, n, k) -> (b, h, n, k)>, affine_map<(b, h, m, n, k) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<?x32x?x128xf16>, tensor<?x32x?x128xf16>) outs(%f : tensor<?x32x?x?xf32>) {
    ^bb0(%x: f16, %y: f16, %o: f32):
      %xf = arith.extf %x : f16 to f32
      %yf = arith.extf %y : f16 to f32
      %p = arith.mulf %xf, %yf : f32
      %s = arith.addf %o, %p : f32
      linalg.yield %s : f32
    } -> tensor<?x32x?x?xf32>
    return %r : tensor<?x32x?x?xf32>
  }
  func.func @scores_heads(%q: tensor<?x?x?x128xf16>, %k: tensor<?x?x?x128xf16>, %c: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, k) -> (b, h, m, k)>, affine_map<(b, h, m, n, k) -> (b, h, n, k)>, affine_map<(b, h, m, n, k) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>) outs(%f : tensor<?x?x?x?xf32>) {
    ^bb0(%x: f16, %y: f16, %o: f32):
      %xf = arith.extf %x : f16 to f32
      %yf = arith.extf %y : f16 to f32
      %p = arith.mulf %xf, %yf : f32
      %s = arith.addf %o, %p : f32
      linalg.yield %s : f32
    } -> tensor<?x?x?x?xf32>
    return %r : tensor<?x?x?x?xf32>
  }
}
