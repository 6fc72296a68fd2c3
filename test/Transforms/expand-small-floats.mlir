// RUN: gpucg-opt %s --gpucg-expand-small-floats --split-input-file --verify-diagnostics | FileCheck %s
// Every output parses and verifies again:
// RUN: gpucg-opt %s --gpucg-expand-small-floats --split-input-file --verify-diagnostics | gpucg-opt --split-input-file > /dev/null
// RUN: gpucg-opt %S/Inputs/expand-small-floats-nvvm.mlir --gpucg-expand-small-floats=nvvm-float8 | FileCheck %S/Inputs/expand-small-floats-nvvm.mlir
// RUN: gpucg-opt %S/Inputs/expand-small-floats-nvvm.mlir --gpucg-expand-small-floats=nvvm-float8 | gpucg-opt > /dev/null

// An extf from f8E4M3FN: the bits in i32, a normal number rebiased (the
// exponent bias 7 to 127: + 120 << 23), a subnormal its mantissa times
// 2^-9, NaN (magnitude 0x7F, the only one) quiet.
// CHECK-LABEL: func.func @extf_e4m3
// CHECK-SAME: (%[[X:.+]]: vector<4xf8E4M3FN>)
// CHECK-DAG: %[[UNIT:.+]] = arith.constant dense<0.001953125> : vector<4xf32>
// CHECK-DAG: %[[REBIAS:.+]] = arith.constant dense<1006632960> : vector<4xi32>
// CHECK-DAG: %[[NAN:.+]] = arith.constant dense<2143289344> : vector<4xi32>
// CHECK: %[[BITS:.+]] = arith.bitcast %[[X]] : vector<4xf8E4M3FN> to vector<4xi8>
// CHECK: arith.extui %[[BITS]] : vector<4xi8> to vector<4xi32>
// CHECK: arith.addi %{{.+}}, %[[REBIAS]] : vector<4xi32>
// CHECK: %[[SUB:.+]] = arith.uitofp %{{.+}} : vector<4xi32> to vector<4xf32>
// CHECK: arith.mulf %[[SUB]], %[[UNIT]] : vector<4xf32>
// CHECK: arith.ori %{{.+}}, %[[NAN]] : vector<4xi32>
// CHECK: %[[F32:.+]] = arith.bitcast %{{.+}} : vector<4xi32> to vector<4xf32>
// CHECK: return %[[F32]]
// CHECK-NOT: arith.extf
func.func @extf_e4m3(%x: vector<4xf8E4M3FN>) -> vector<4xf32> {
  %0 = arith.extf %x : vector<4xf8E4M3FN> to vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

// To f16: through f32, then an exact truncf.
// CHECK-LABEL: func.func @extf_e5m2_to_f16
// CHECK: %[[F32:.+]] = arith.bitcast %{{.+}} : i32 to f32
// CHECK: %[[H:.+]] = arith.truncf %[[F32]] : f32 to f16
// CHECK: return %[[H]]
func.func @extf_e5m2_to_f16(%x: f8E5M2) -> f16 {
  %0 = arith.extf %x : f8E5M2 to f16
  return %0 : f16
}

// -----

// A truncf from f32 to f8E4M3FN: in i32, the magnitude rounded to 3
// mantissa bits (a shift of 20, ties to even: half 0x80000) and rebiased
// (- 120 << 3 = 960); a magnitude from 464 (0x43E80000 + 1: 464 is a tie
// that rounds to 448) becomes NaN (0x7F), as do infinity and NaN.
// CHECK-LABEL: func.func @truncf_e4m3
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK-DAG: %[[HALF:.+]] = arith.constant 524288 : i32
// CHECK-DAG: %[[REBIAS:.+]] = arith.constant 960 : i32
// CHECK-DAG: %[[THRESHOLD:.+]] = arith.constant 1139277825 : i32
// CHECK: %[[BITS:.+]] = arith.bitcast %[[X]] : f32 to i32
// CHECK: arith.cmpi ugt, %{{.+}}, %[[HALF]] : i32
// CHECK: arith.subi %{{.+}}, %[[REBIAS]] : i32
// CHECK: arith.cmpi uge, %{{.+}}, %[[THRESHOLD]] : i32
// CHECK: %[[I8:.+]] = arith.trunci %{{.+}} : i32 to i8
// CHECK: %[[R:.+]] = arith.bitcast %[[I8]] : i8 to f8E4M3FN
// CHECK: return %[[R]]
func.func @truncf_e4m3(%x: f32) -> f8E4M3FN {
  %0 = arith.truncf %x : f32 to f8E4M3FN
  return %0 : f8E4M3FN
}

// -----

// Toward zero never rounds up: no tie test, and the saturation threshold
// is the largest finite value, 448 (0x43E00000), which the op keeps.
// CHECK-LABEL: func.func @truncf_e4m3_toward_zero
// CHECK-NOT: 524288
// CHECK: arith.constant 1138753536 : i32
// CHECK-NOT: arith.truncf
func.func @truncf_e4m3_toward_zero(%x: f32) -> f8E4M3FN {
  %0 = arith.truncf %x toward_zero : f32 to f8E4M3FN
  return %0 : f8E4M3FN
}

// -----

// From f16 to f8E5M2FNUZ (whose normal range starts below f16's): through
// f32. From a small float to a smaller one: through f32 as well.
// CHECK-LABEL: func.func @truncf_through_f32
// CHECK: arith.extf %{{.+}} : f16 to f32
// CHECK: arith.bitcast %{{.+}} : f32 to i32
// CHECK: arith.bitcast %{{.+}} : i8 to f8E5M2FNUZ
// CHECK: arith.bitcast %{{.+}} : f8E4M3FN to i8
// CHECK: arith.bitcast %{{.+}} : i4 to f4E2M1FN
// CHECK-NOT: arith.truncf %{{.+}} : {{.+}} to f
func.func @truncf_through_f32(%x: f16, %y: f8E4M3FN) -> (f8E5M2FNUZ, f4E2M1FN) {
  %0 = arith.truncf %x : f16 to f8E5M2FNUZ
  %1 = arith.truncf %y : f8E4M3FN to f4E2M1FN
  return %0, %1 : f8E5M2FNUZ, f4E2M1FN
}

// -----

// Other arithmetic on small floats: in f32 (upstream's emulation), between
// expanded conversions.
// CHECK-LABEL: func.func @addf_e4m3
// CHECK: %[[SUM:.+]] = arith.addf %{{.+}}, %{{.+}} : f32
// CHECK: arith.bitcast %[[SUM]] : f32 to i32
// CHECK: arith.bitcast %{{.+}} : i8 to f8E4M3FN
// CHECK-NOT: arith.extf
func.func @addf_e4m3(%x: f8E4M3FN, %y: f8E4M3FN) -> f8E4M3FN {
  %0 = arith.addf %x, %y : f8E4M3FN
  return %0 : f8E4M3FN
}

// -----

// f8E8M0FNU: upstream's expansion.
// CHECK-LABEL: func.func @extf_e8m0
// CHECK-NOT: arith.extf
func.func @extf_e8m0(%x: f8E8M0FNU) -> f32 {
  %0 = arith.extf %x : f8E8M0FNU to f32
  return %0 : f32
}

// -----

// Wide floats are not touched.
// CHECK-LABEL: func.func @wide
// CHECK: arith.extf %{{.+}} : f16 to f32
// CHECK: arith.truncf %{{.+}} : f32 to bf16
func.func @wide(%x: f16) -> bf16 {
  %0 = arith.extf %x : f16 to f32
  %1 = arith.truncf %0 : f32 to bf16
  return %1 : bf16
}

// -----

func.func @truncf_from_f80(%x: f80) -> f8E4M3FN {
  // expected-error @below {{'arith.truncf' op has no expansion from 'f80' to 'f8E4M3FN': it reads f16, bf16, f32, f64 and floats of 8 bits and fewer}}
  %0 = arith.truncf %x : f80 to f8E4M3FN
  return %0 : f8E4M3FN
}

// -----

func.func @truncf_e8m0_downward(%x: f32) -> f8E8M0FNU {
  // expected-error @below {{'arith.truncf' op was not expanded into integer arithmetic (f8E8M0FNU: upstream's expansion, which this pass uses, does not take this one)}}
  %0 = arith.truncf %x downward : f32 to f8E8M0FNU
  return %0 : f8E8M0FNU
}
