// gpucg-reorder-workgroups on the CPU emulator: the grouped order is a
// permutation of the workgroup loop's tiles, so every kernel must still equal
// the untiled one. A 640x384 matmul: 20 x 12 tiles of 32x32 with mma.sync
// (groups of 2 rows from group-size 3, the largest divisor of 20 not above 3;
// groups of 4), 5 x 3 tiles of 128x128 with wgmma (one group of all 5 rows:
// column by column), and the wgmma kernel on a persistent grid of 4
// workgroups, whose tile loop feeds the reordered indices.

// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80 workgroup-group-size=3},gpucg-test-emulate-on-cpu)' -o %t.m3.mlir
// RUN: %mlir_runner_emulated %t.m3.mlir | %strip_address > %t.m3
// RUN: diff %t.ref %t.m3
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80 workgroup-group-size=4},gpucg-test-emulate-on-cpu)' -o %t.m4.mlir
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.m4.mlir | %strip_address > %t.m4
// RUN: diff %t.ref %t.m4
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a workgroup-group-size=8},gpucg-test-emulate-on-cpu)' -o %t.w.mlir
// RUN: %mlir_runner_emulated %t.w.mlir | %strip_address > %t.w
// RUN: diff %t.ref %t.w
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a workgroup-group-size=5 wgmma-persistent=true wgmma-persistent-workgroups=4},gpucg-test-emulate-on-cpu)' -o %t.wp.mlir
// RUN: %mlir_runner_emulated %t.wp.mlir | %strip_address > %t.wp
// RUN: diff %t.ref %t.wp
// RUN: FileCheck %s --check-prefix=OUT < %t.wp
// OUT: rank = 2 offset = 0 sizes = [640, 384]

// The pipelines' option is the strategy's (each kernel's plan records it as
// workgroup_group_size); the pass after workgroup tiling reads the plan:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a workgroup-group-size=5})' \
// RUN:   --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: gpucg-select-lowering-strategy{{{.*}} workgroup-group-size=5}
// PIPELINE-NEXT: gpucg-tile-and-distribute-to-workgroups,
// PIPELINE-NEXT: gpucg-reorder-workgroups{{$}}
// The orders the runs above took:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy{workgroup-group-size=3},gpucg-tile-and-distribute-to-workgroups,gpucg-reorder-workgroups))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=MMA
// MMA-LABEL: func.func @grouped
// MMA: affine_map<(d0) -> ((d0 floordiv 24) * 2 + d0 mod 2)>
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_90a},func.func(gpucg-select-lowering-strategy{mma=wgmma workgroup-group-size=8},gpucg-tile-and-distribute-to-workgroups,gpucg-reorder-workgroups))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=WGMMA
// WGMMA-LABEL: func.func @grouped
// WGMMA: scf.forall {{.+}} to (640, 384) step (128, 128)
// WGMMA: affine_map<(d0) -> ((d0 floordiv 15) * 5 + d0 mod 5)>

func.func @grouped(%in0: tensor<640x64xf16>, %in1: tensor<64x384xf16>, %out: tensor<640x384xf32>) -> tensor<640x384xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%out : tensor<640x384xf32>) -> tensor<640x384xf32>
  %r = linalg.matmul ins(%in0, %in1 : tensor<640x64xf16>, tensor<64x384xf16>) outs(%f : tensor<640x384xf32>) -> tensor<640x384xf32>
  return %r : tensor<640x384xf32>
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %a = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<640x64xf16>
  %b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<64x384xf16>
  %c = tensor.empty() : tensor<640x384xf32>
  %r = func.call @grouped(%a, %b, %c) : (tensor<640x64xf16>, tensor<64x384xf16>, tensor<640x384xf32>) -> tensor<640x384xf32>
  %m = bufferization.to_buffer %r : tensor<640x384xf32> to memref<640x384xf32>
  %u = memref.cast %m : memref<640x384xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
