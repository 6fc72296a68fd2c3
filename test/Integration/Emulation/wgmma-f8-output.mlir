// gpucg-matmul-wgmma with an 8-bit float result: a fused epilogue scales
// the f32 accumulator and casts it to f8E4M3FN (arith.truncf, expanded into
// integer arithmetic by gpucg-expand-small-floats in the CPU stages here,
// in gpucg-convert-to-nvvm on the GPU). On the CPU emulator, equal to the
// untiled kernel on the CPU (whose casts are the same expansion, itself
// checked against APFloat: test/Integration/CPU/small-float-conversions.mlir).
// The inputs are small integers made by arith.sitofp to f8E4M3FN; the
// scaled sums (up to 2304 / 16) round to e4m3's 3 mantissa bits.
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a},gpucg-test-emulate-on-cpu)' -o %t.mlir
// RUN: %mlir_runner_emulated %t.mlir | %strip_address > %t.out
// RUN: diff %t.ref %t.out
// RUN: env GPUCG_EMU_ORDER=reverse GPUCG_EMU_TMA=wait GPUCG_EMU_WGMMA=issue %mlir_runner_emulated %t.mlir | %strip_address > %t.modes
// RUN: diff %t.ref %t.modes
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// OUT: sizes = [128, 256]
//
// With NVVM's conversions (gpucg-expand-small-floats{nvvm-float8=true}):
// the epilogue's vector<16xf32> cast becomes cvt.rn.satfinite.e4m3x2.f32
// on pairs of values, which the emulator models (and the host's casts back
// to f32, cvt.rn.f16x2.e4m3x2). Equal too; a swap of each pair's bytes is
// caught here (the numerics test converts scalars).
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a},gpucg-expand-small-floats{nvvm-float8=true},gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.nvvm
// RUN: diff %t.ref %t.nvvm
//
// What ran: wgmma on e4m3, the epilogue's cast of the staged accumulator.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a})' \
// RUN:   | gpucg-opt | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @linear_e4m3_scaled_out
// IR: nvgpu.warpgroup.mma {{.+}}f8E4M3FN
// IR: nvgpu.warpgroup.mma.store
// IR: arith.truncf {{.+}} to vector<{{[0-9]+}}xf8E4M3FN>

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @linear_e4m3_scaled_out(%a: tensor<128x256xf8E4M3FN>, %w: tensor<256x256xf8E4M3FN>, %out: tensor<128x256xf8E4M3FN>) -> tensor<128x256xf8E4M3FN> {
    %zero = arith.constant 0.0 : f32
    %scale = arith.constant 0.0625 : f32
    %e = tensor.empty() : tensor<128x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %w : tensor<128x256xf8E4M3FN>, tensor<256x256xf8E4M3FN>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<128x256xf32>) outs(%out : tensor<128x256xf8E4M3FN>) {
    ^bb0(%x: f32, %o: f8E4M3FN):
      %s = arith.mulf %x, %scale : f32
      %t = arith.truncf %s : f32 to f8E4M3FN
      linalg.yield %t : f8E4M3FN
    } -> tensor<128x256xf8E4M3FN>
    return %y : tensor<128x256xf8E4M3FN>
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %c3 = arith.constant 3 : i32
      %w = arith.subi %v, %c3 : i32
      %e = arith.sitofp %w : i32 to f8E4M3FN
      tensor.yield %e : f8E4M3FN
    } : tensor<128x256xf8E4M3FN>
    %w = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %c3 = arith.constant 3 : i32
      %x = arith.subi %v, %c3 : i32
      %e = arith.sitofp %x : i32 to f8E4M3FN
      tensor.yield %e : f8E4M3FN
    } : tensor<256x256xf8E4M3FN>
    %out = tensor.empty() : tensor<128x256xf8E4M3FN>
    %r = func.call @linear_e4m3_scaled_out(%a, %w, %out) : (tensor<128x256xf8E4M3FN>, tensor<256x256xf8E4M3FN>, tensor<128x256xf8E4M3FN>) -> tensor<128x256xf8E4M3FN>
    %r32 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %v = tensor.extract %r[%i0, %i1] : tensor<128x256xf8E4M3FN>
      %e = arith.extf %v : f8E4M3FN to f32
      tensor.yield %e : f32
    } : tensor<128x256xf32>
    %m = bufferization.to_buffer %r32 : tensor<128x256xf32> to memref<128x256xf32>
    %u = memref.cast %m : memref<128x256xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
