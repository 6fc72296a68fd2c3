//===- ApfloatOracle.cpp - APFloat conversions for tests ------------------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Test only: the meaning of arith.extf / arith.truncf, for programs run by
// mlir-runner that check an expansion of them (test/Integration/CPU/
// small-float-conversions.mlir). Upstream's libmlir_apfloat_wrappers.so has
// a conversion too, but it takes no rounding mode (MLIR 22's
// convert-arith-to-apfloat drops truncf's) and upstream's pass cannot lower
// f64 conversions; this one takes both.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/APFloat.h"

#include <cstdint>

extern "C" {
/// Converts the bits `bits` of a value of semantics `from` to semantics
/// `to` (llvm::APFloatBase::Semantics values) rounding by `mode` (arith's
/// RoundingMode: 0 to_nearest_even, 1 downward, 2 upward, 3 toward_zero,
/// 4 to_nearest_away), and returns the result's bits.
__attribute__((visibility("default"))) int64_t
gpucg_test_apfloat_convert(int32_t from, int32_t to, int32_t mode,
                           int64_t bits) {
  using llvm::APFloatBase;
  const llvm::fltSemantics &fromSem =
      APFloatBase::EnumToSemantics(static_cast<APFloatBase::Semantics>(from));
  const llvm::fltSemantics &toSem =
      APFloatBase::EnumToSemantics(static_cast<APFloatBase::Semantics>(to));
  static const llvm::RoundingMode modes[] = {
      llvm::RoundingMode::NearestTiesToEven, llvm::RoundingMode::TowardNegative,
      llvm::RoundingMode::TowardPositive, llvm::RoundingMode::TowardZero,
      llvm::RoundingMode::NearestTiesToAway};
  llvm::APFloat value(
      fromSem, llvm::APInt(APFloatBase::semanticsSizeInBits(fromSem),
                           static_cast<uint64_t>(bits)));
  bool losesInfo = false;
  (void)value.convert(toSem, modes[mode], &losesInfo);
  return static_cast<int64_t>(value.bitcastToAPInt().getZExtValue());
}
}
