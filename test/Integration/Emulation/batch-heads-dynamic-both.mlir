// batch-heads-dynamic.mlir's kernels with the heads dynamic too: grid z
// is the batch times the heads, both counted at run time (the ABI's
// `argN.dimD * argN.dimE`), and each tile splits z's index into its batch
// and head (affine.delinearize_index by the run-time heads). Attention's
// scores Q K^T and values P V (wgmma on sm_90a; mma.sync on sm_80) and an
// elementwise add, through the stages of gpucg-compile, in order and with
// threads and workgroups reversed: the results must equal the untiled
// kernels'.
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_90a},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-lower-workgroup))' -o %t.sm90a.mlir
// RUN: gpucg-opt %t.sm90a.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.0.mlir
// RUN: %mlir_runner_emulated %t.0.mlir | %strip_address > %t.0.forward
// RUN: diff %t.ref %t.0.forward
// RUN: env GPUCG_EMU_ORDER=reverse GPUCG_EMU_TMA=wait GPUCG_EMU_WGMMA=issue %mlir_runner_emulated %t.0.mlir | %strip_address > %t.0.reverse
// RUN: diff %t.ref %t.0.reverse
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-lower-workgroup),gpucg-test-emulate-on-cpu)' -o %t.1.mlir
// RUN: %mlir_runner_emulated %t.1.mlir | %strip_address > %t.1.forward
// RUN: diff %t.ref %t.1.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.1.mlir | %strip_address > %t.1.reverse
// RUN: diff %t.ref %t.1.reverse

// The plans and the grid (and that the output parses again).
// RUN: gpucg-opt %t.sm90a.mlir | FileCheck %s
// CHECK: #[[PRODUCT:.+]] = affine_map<()[s0, s1] -> (s0 * s1)>
// CHECK-LABEL: func.func @scores
// CHECK-SAME: pipeline = MatmulWgmma
// CHECK-DAG: %[[B:.+]] = memref.dim %arg0, %c0 : memref<?x?x80x64xf16>
// CHECK-DAG: %[[H:.+]] = memref.dim %arg0, %c1 : memref<?x?x80x64xf16>
// CHECK: %[[Z:.+]] = affine.apply #[[PRODUCT]]()[%[[B]], %[[H]]]
// CHECK: scf.forall (%[[I:.+]], %{{.+}}, %{{.+}}) = (0, 0, 0) to (%[[Z]], 80, 72)
// CHECK: affine.delinearize_index %[[I]] into (%[[B]], %[[H]])
// CHECK: {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
// CHECK-LABEL: func.func @values
// CHECK-SAME: pipeline = MatmulWgmma
// CHECK-LABEL: func.func @add_heads
// CHECK: {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}

module {
  func.func @scores(%q: tensor<?x?x80x64xf16>, %k: tensor<?x?x72x64xf16>, %c: tensor<?x?x80x72xf32>) -> tensor<?x?x80x72xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<?x?x80x72xf32>) -> tensor<?x?x80x72xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, k) -> (b, h, m, k)>, affine_map<(b, h, m, n, k) -> (b, h, n, k)>, affine_map<(b, h, m, n, k) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<?x?x80x64xf16>, tensor<?x?x72x64xf16>) outs(%f : tensor<?x?x80x72xf32>) {
    ^bb0(%x: f16, %y: f16, %o: f32):
      %xf = arith.extf %x : f16 to f32
      %yf = arith.extf %y : f16 to f32
      %p = arith.mulf %xf, %yf : f32
      %s = arith.addf %o, %p : f32
      linalg.yield %s : f32
    } -> tensor<?x?x80x72xf32>
    return %r : tensor<?x?x80x72xf32>
  }
  func.func @values(%p: tensor<?x?x80x128xbf16>, %v: tensor<?x?x128x64xbf16>, %c: tensor<?x?x80x64xf32>) -> tensor<?x?x80x64xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<?x?x80x64xf32>) -> tensor<?x?x80x64xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, k) -> (b, h, m, k)>, affine_map<(b, h, m, n, k) -> (b, h, k, n)>, affine_map<(b, h, m, n, k) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<?x?x80x128xbf16>, tensor<?x?x128x64xbf16>) outs(%f : tensor<?x?x80x64xf32>) {
    ^bb0(%x: bf16, %y: bf16, %o: f32):
      %xf = arith.extf %x : bf16 to f32
      %yf = arith.extf %y : bf16 to f32
      %pr = arith.mulf %xf, %yf : f32
      %s = arith.addf %o, %pr : f32
      linalg.yield %s : f32
    } -> tensor<?x?x80x64xf32>
    return %r : tensor<?x?x80x64xf32>
  }
  func.func @add_heads(%x: tensor<?x?x5x40xf32>, %y: tensor<?x?x5x40xf32>) -> tensor<?x?x5x40xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %batch = tensor.dim %x, %c0 : tensor<?x?x5x40xf32>
    %heads = tensor.dim %x, %c1 : tensor<?x?x5x40xf32>
    %e = tensor.empty(%batch, %heads) : tensor<?x?x5x40xf32>
    %r = linalg.add ins(%x, %y : tensor<?x?x5x40xf32>, tensor<?x?x5x40xf32>) outs(%e : tensor<?x?x5x40xf32>) -> tensor<?x?x5x40xf32>
    return %r : tensor<?x?x5x40xf32>
  }
  func.func @main() {
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
    %q = tensor.generate {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      %s = affine.apply affine_map<(d0, d1, d2, d3) -> ((d0 * 3 + d1 * 5 + d2 * 1 + d3 * 2) mod 7)>(%i0, %i1, %i2, %i3)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<2x3x80x64xf16>
    %k = tensor.generate {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      %s = affine.apply affine_map<(d0, d1, d2, d3) -> ((d0 * 1 + d1 * 2 + d2 * 3 + d3 * 5) mod 5)>(%i0, %i1, %i2, %i3)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<2x3x72x64xf16>
    %sc = tensor.empty() : tensor<2x3x80x72xf32>
    %qd = tensor.cast %q : tensor<2x3x80x64xf16> to tensor<?x?x80x64xf16>
    %kd = tensor.cast %k : tensor<2x3x72x64xf16> to tensor<?x?x72x64xf16>
    %scd = tensor.cast %sc : tensor<2x3x80x72xf32> to tensor<?x?x80x72xf32>
    %srd = func.call @scores(%qd, %kd, %scd) : (tensor<?x?x80x64xf16>, tensor<?x?x72x64xf16>, tensor<?x?x80x72xf32>) -> tensor<?x?x80x72xf32>
    %sr = tensor.cast %srd : tensor<?x?x80x72xf32> to tensor<2x3x80x72xf32>
    %s_m = bufferization.to_buffer %sr : tensor<2x3x80x72xf32> to memref<2x3x80x72xf32>
    %s_u = memref.cast %s_m : memref<2x3x80x72xf32> to memref<*xf32>
    func.call @printMemrefF32(%s_u) : (memref<*xf32>) -> ()
    %p = tensor.generate {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      %s = affine.apply affine_map<(d0, d1, d2, d3) -> ((d0 * 1 + d1 * 3 + d2 * 5 + d3 * 2) mod 5)>(%i0, %i1, %i2, %i3)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<2x3x80x128xbf16>
    %vals = tensor.generate {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      %s = affine.apply affine_map<(d0, d1, d2, d3) -> ((d0 * 2 + d1 * 1 + d2 * 3 + d3 * 1) mod 7)>(%i0, %i1, %i2, %i3)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<2x3x128x64xbf16>
    %oc = tensor.empty() : tensor<2x3x80x64xf32>
    %pd = tensor.cast %p : tensor<2x3x80x128xbf16> to tensor<?x?x80x128xbf16>
    %valsd = tensor.cast %vals : tensor<2x3x128x64xbf16> to tensor<?x?x128x64xbf16>
    %ocd = tensor.cast %oc : tensor<2x3x80x64xf32> to tensor<?x?x80x64xf32>
    %od = func.call @values(%pd, %valsd, %ocd) : (tensor<?x?x80x128xbf16>, tensor<?x?x128x64xbf16>, tensor<?x?x80x64xf32>) -> tensor<?x?x80x64xf32>
    %o = tensor.cast %od : tensor<?x?x80x64xf32> to tensor<2x3x80x64xf32>
    %o_m = bufferization.to_buffer %o : tensor<2x3x80x64xf32> to memref<2x3x80x64xf32>
    %o_u = memref.cast %o_m : memref<2x3x80x64xf32> to memref<*xf32>
    func.call @printMemrefF32(%o_u) : (memref<*xf32>) -> ()
    %x = tensor.generate {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      %s = affine.apply affine_map<(d0, d1, d2, d3) -> ((d0 * 1 + d1 * 2 + d2 * 3 + d3 * 1) mod 9)>(%i0, %i1, %i2, %i3)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<2x3x5x40xf32>
    %y = tensor.generate {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      %s = affine.apply affine_map<(d0, d1, d2, d3) -> ((d0 * 2 + d1 * 1 + d2 * 1 + d3 * 3) mod 7)>(%i0, %i1, %i2, %i3)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<2x3x5x40xf32>
    %xd = tensor.cast %x : tensor<2x3x5x40xf32> to tensor<?x?x5x40xf32>
    %yd = tensor.cast %y : tensor<2x3x5x40xf32> to tensor<?x?x5x40xf32>
    %zd = func.call @add_heads(%xd, %yd) : (tensor<?x?x5x40xf32>, tensor<?x?x5x40xf32>) -> tensor<?x?x5x40xf32>
    %z = tensor.cast %zd : tensor<?x?x5x40xf32> to tensor<2x3x5x40xf32>
    %z_m = bufferization.to_buffer %z : tensor<2x3x5x40xf32> to memref<2x3x5x40xf32>
    %z_u = memref.cast %z_m : memref<2x3x5x40xf32> to memref<*xf32>
    func.call @printMemrefF32(%z_u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
