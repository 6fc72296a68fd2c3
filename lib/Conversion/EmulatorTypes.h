//===- EmulatorTypes.h - The emulator runtime's type codes ------*- C++ -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Conversion: the element type codes and flags of
// libgpucg_emulator's C API (GPUCG_EMU_* in
// runtime/include/gpucg_emulator.h), for the passes that emit calls into it.
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_LIB_CONVERSION_EMULATORTYPES_H
#define GPUCG_LIB_CONVERSION_EMULATORTYPES_H

#include <cstdint>

namespace mlir {
namespace gpucg {

/// The runtime's type codes for MMA operands and 8-bit float conversions.
enum class EmulatorType : int32_t {
  F16 = 0,
  BF16 = 1,
  TF32 = 2,
  F32 = 3,
  F64 = 4,
  S8 = 5,
  U8 = 6,
  S32 = 7,
  F8E4M3 = 8,
  F8E5M2 = 9,
};

/// GPUCG_EMU_TMA_MULTICAST: set in gpucg_emu_tma_load's mask when the op
/// has a multicast_mask operand, so that a mask of 0 is reported rather
/// than taken for a load to the issuing block alone.
constexpr int32_t kEmulatorTmaMulticast = 1 << 16;

} // namespace gpucg
} // namespace mlir

#endif // GPUCG_LIB_CONVERSION_EMULATORTYPES_H
