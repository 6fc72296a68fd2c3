// Input of expand-small-floats.mlir's nvvm-float8 run (its RUN lines).

// truncf f32 -> f8E4M3FN, to nearest even: cvt.rn.satfinite on pairs
// (the odd element with itself), PTX's first operand (the higher element)
// into the upper byte; then selects on the source's magnitude: from
// 0x43E80001 (above 464) NaN (0x7F, 0xFF), as arith (not satfinite) says;
// infinity and NaN too.
// CHECK-LABEL: func.func @truncf_e4m3
// CHECK-SAME: (%[[X:.+]]: vector<3xf32>)
// CHECK-DAG: %[[THRESHOLD:.+]] = arith.constant dense<1139277825> : vector<3xi32>
// CHECK: %[[E:.+]]:3 = vector.to_elements %[[X]] : vector<3xf32>
// CHECK: %[[P0:.+]] = nvvm.convert.f32x2.to.f8x2 %[[E]]#1, %[[E]]#0 {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16(f8E4M3FN)
// CHECK: %[[LOW:.+]] = arith.trunci %[[P0]] : i16 to i8
// CHECK: %[[SHIFTED:.+]] = arith.shrui %[[P0]], %{{.+}} : i16
// CHECK: %[[HIGH:.+]] = arith.trunci %[[SHIFTED]] : i16 to i8
// CHECK: %[[P1:.+]] = nvvm.convert.f32x2.to.f8x2 %[[E]]#2, %[[E]]#2
// CHECK: %[[LAST:.+]] = arith.trunci %[[P1]] : i16 to i8
// CHECK: %[[HW:.+]] = vector.from_elements %[[LOW]], %[[HIGH]], %[[LAST]] : vector<3xi8>
// CHECK-DAG: arith.cmpi uge, %{{.+}}, %[[THRESHOLD]] : vector<3xi32>
// CHECK-DAG: arith.extui %[[HW]] : vector<3xi8> to vector<3xi32>
// CHECK: %[[R:.+]] = arith.bitcast %{{.+}} : vector<3xi8> to vector<3xf8E4M3FN>
// CHECK: return %[[R]]
func.func @truncf_e4m3(%x: vector<3xf32>) -> vector<3xf8E4M3FN> {
  %0 = arith.truncf %x : vector<3xf32> to vector<3xf8E4M3FN>
  return %0 : vector<3xf8E4M3FN>
}

// From bf16: an exact extf to f32 first. Another rounding mode: integer
// arithmetic (PTX rounds 8-bit floats to nearest only).
// CHECK-LABEL: func.func @truncf_e5m2_modes
// CHECK: %[[F32:.+]] = arith.extf %{{.+}} : bf16 to f32
// CHECK: nvvm.convert.f32x2.to.f8x2 %[[F32]], %[[F32]] {{.+}} : i16(f8E5M2)
// CHECK-NOT: nvvm.convert
// CHECK: return
func.func @truncf_e5m2_modes(%x: bf16, %y: f32) -> (f8E5M2, f8E5M2) {
  %0 = arith.truncf %x : bf16 to f8E5M2
  %1 = arith.truncf %y toward_zero : f32 to f8E5M2
  return %0, %1 : f8E5M2, f8E5M2
}

// extf f8E5M2 -> f32 of a 2-D vector: flattened, pairs as vector<2xi8>
// (element 0 the lower byte, whose value PTX puts in the lower half),
// cvt.rn.f16x2, then an exact extf.
// CHECK-LABEL: func.func @extf_e5m2
// CHECK: %[[FLAT:.+]] = vector.shape_cast %{{.+}} : vector<2x2xi8> to vector<4xi8>
// CHECK: %[[B:.+]]:4 = vector.to_elements %[[FLAT]] : vector<4xi8>
// CHECK: %[[PAIR:.+]] = vector.from_elements %[[B]]#0, %[[B]]#1 : vector<2xi8>
// CHECK: %[[H:.+]] = nvvm.convert.f8x2.to.f16x2 %[[PAIR]] : vector<2xi8>(f8E5M2) -> vector<2xf16>
// CHECK: vector.extract %[[H]][0] : f16 from vector<2xf16>
// CHECK: vector.extract %[[H]][1] : f16 from vector<2xf16>
// CHECK: vector.shape_cast %{{.+}} : vector<4xf16> to vector<2x2xf16>
// CHECK: arith.extf %{{.+}} : vector<2x2xf16> to vector<2x2xf32>
func.func @extf_e5m2(%x: vector<2x2xf8E5M2>) -> vector<2x2xf32> {
  %0 = arith.extf %x : vector<2x2xf8E5M2> to vector<2x2xf32>
  return %0 : vector<2x2xf32>
}

// Formats NVVM has no f8x2 conversion for: integer arithmetic.
// CHECK-LABEL: func.func @other_formats
// CHECK-NOT: nvvm.convert
// CHECK: return
func.func @other_formats(%x: f32, %y: f8E4M3FNUZ) -> (f8E4M3, f32) {
  %0 = arith.truncf %x : f32 to f8E4M3
  %1 = arith.extf %y : f8E4M3FNUZ to f32
  return %0, %1 : f8E4M3, f32
}
