// RUN: gpucg-opt %s --gpucg-test-emulate-nvvm-conversions --split-input-file --verify-diagnostics | FileCheck %s
// RUN: gpucg-opt %s --gpucg-test-emulate-nvvm-conversions --split-input-file --verify-diagnostics | gpucg-opt --split-input-file > /dev/null

// NVVM's f8x2 conversions become calls of the emulator's models: the type
// as GPUCG_EMU_F8E4M3 (8) / GPUCG_EMU_F8E5M2 (9); the pair of bytes as an
// i32 whose lower byte is the vector's element 0; the f16x2 back.
// CHECK-LABEL: func.func @both
// CHECK-SAME: (%[[A:.+]]: f32, %[[B:.+]]: f32, %[[V:.+]]: vector<2xi8>)
// CHECK: %[[E4M3:.+]] = arith.constant 8 : i32
// CHECK: %[[P:.+]] = call @gpucg_emu_cvt_f32x2_to_f8x2(%[[A]], %[[B]], %[[E4M3]]) : (f32, f32, i32) -> i32
// CHECK: %[[R:.+]] = arith.trunci %[[P]] : i32 to i16
// CHECK: %[[W:.+]] = vector.bitcast %[[V]] : vector<2xi8> to vector<1xi16>
// CHECK: %[[X:.+]] = vector.extract %[[W]][0] : i16 from vector<1xi16>
// CHECK: %[[Y:.+]] = arith.extui %[[X]] : i16 to i32
// CHECK: %[[E5M2:.+]] = arith.constant 9 : i32
// CHECK: %[[H:.+]] = call @gpucg_emu_cvt_f8x2_to_f16x2(%[[Y]], %[[E5M2]]) : (i32, i32) -> i32
// CHECK: %[[HV:.+]] = vector.broadcast %[[H]] : i32 to vector<1xi32>
// CHECK: %[[F:.+]] = vector.bitcast %[[HV]] : vector<1xi32> to vector<2xf16>
// CHECK: return %[[R]], %[[F]]
func.func @both(%a: f32, %b: f32, %v: vector<2xi8>) -> (i16, vector<2xf16>) {
  %0 = nvvm.convert.f32x2.to.f8x2 %a, %b {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16 (f8E4M3FN)
  %1 = nvvm.convert.f8x2.to.f16x2 %v : vector<2xi8> (f8E5M2) -> vector<2xf16>
  return %0, %1 : i16, vector<2xf16>
}

// -----

func.func @relu(%a: f32, %b: f32) -> i16 {
  // expected-error @below {{'nvvm.convert.f32x2.to.f8x2' op has no emulator model: it models e4m3 and e5m2 results in an i16, rounded to nearest with satfinite, without relu}}
  %0 = nvvm.convert.f32x2.to.f8x2 %a, %b {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>, relu = true} : i16 (f8E4M3FN)
  return %0 : i16
}

// -----

func.func @relu_back(%v: vector<2xi8>) -> vector<2xf16> {
  // expected-error @below {{'nvvm.convert.f8x2.to.f16x2' op has no emulator model: it models e4m3 and e5m2 sources, without relu}}
  %0 = nvvm.convert.f8x2.to.f16x2 %v {relu = true} : vector<2xi8> (f8E4M3FN) -> vector<2xf16>
  return %0 : vector<2xf16>
}
