// Mutation tests of register-staged copies (40 x 41 x 103 f16: A's rows of
// 103 f16 and B's of 41 are 2-byte aligned, too narrow for cp.async, so
// each thread loads 8 elements into registers and stores them as one
// 16-byte vector; gpucg-software-pipelining issues the loads of step k+1
// before step k's MMAs and the stores after them). One bug planted in
// gpucg-matmul-mma-sync's output must give wrong numbers or a race report
// in at least one of the two thread orders. The clean kernel matches the
// untiled one in both.

// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: cat %t.ref %t.ref > %t.ref2
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80 depth=2})' \
// RUN:   --mlir-print-debuginfo -o %t.mlir 2>/dev/null
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: gpucg-opt %t.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.clean.mlir
// RUN: %mlir_runner_emulated < %t.clean.mlir | %strip_address > %t.clean
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated < %t.clean.mlir | %strip_address >> %t.clean
// RUN: diff %t.ref2 %t.clean

// The steady-state K loop: the next step's global reads first, one
// barrier, the loads from workgroup memory and the MMAs, then the stores of
// the next step's vectors; no async copy of A or B.
// CHECK:      scf.for
// CHECK:        vector.transfer_read %arg0{{.+}} : memref<40x103xf16>, vector<8xf16>
// CHECK:        vector.transfer_read %arg1{{.+}} : memref<103x41xf16>, vector<8xf16>
// CHECK:        gpu.barrier
// CHECK-NEXT:   nvgpu.ldmatrix
// CHECK:        nvgpu.mma.sync
// CHECK:        vector.store {{.+}} vector<8xf16>
// CHECK-NEXT:   vector.store {{.+}} vector<8xf16>
// CHECK-NEXT:   scf.yield
// CHECK-NOT:  nvgpu.device_async_copy %arg0
// CHECK-NOT:  nvgpu.device_async_copy %arg1

// The loop's barrier dropped: the stores of step k+1 race with the other
// threads' loads of step k+1 (and of step k's buffer).
// RUN: %mutate drop-barrier 1 < %t.mlir \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.no-barrier.mlir
// RUN: not %mlir_runner_emulated < %t.no-barrier.mlir > %t.no-barrier 2>&1 \
// RUN:   || env GPUCG_EMU_ORDER=reverse not %mlir_runner_emulated < %t.no-barrier.mlir >> %t.no-barrier 2>&1
// RUN: FileCheck %s --check-prefix=RACE < %t.no-barrier
// RACE: race on workgroup memory

// What lies past the matrix read as ones instead of zeros (the masked
// reads' padding): the K tail's columns of A and rows of B multiply to
// ones in every element of C.
// RUN: %mutate pad-global-reads < %t.mlir \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.ones.mlir
// RUN: %mlir_runner_emulated < %t.ones.mlir | %strip_address > %t.ones
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated < %t.ones.mlir | %strip_address >> %t.ones
// RUN: not diff -q %t.ref2 %t.ones

func.func @kernel(%a: tensor<40x103xf16>, %b: tensor<103x41xf16>, %c: tensor<40x41xf32>) -> tensor<40x41xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<40x41xf32>) -> tensor<40x41xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<40x103xf16>, tensor<103x41xf16>) outs(%f : tensor<40x41xf32>) -> tensor<40x41xf32>
  return %0 : tensor<40x41xf32>
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
  } : tensor<40x103xf16>
  %b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<103x41xf16>
  %c = tensor.empty() : tensor<40x41xf32>
  %r = func.call @kernel(%a, %b, %c) : (tensor<40x103xf16>, tensor<103x41xf16>, tensor<40x41xf32>) -> tensor<40x41xf32>
  %m = bufferization.to_buffer %r : tensor<40x41xf32> to memref<40x41xf32>
  %u = memref.cast %m : memref<40x41xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
