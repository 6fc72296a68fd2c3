//===- EmulatorRuntime.h - The emulator's C API, for MLIR -------*- C++ -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Emulation: libgpucg_emulator's C API
// (runtime/include/gpucg_emulator.h) as the passes that emit calls into it
// see it. The function types of the declarations they emit are derived from
// the header's prototypes and the type codes are the header's constants, so a
// change to the runtime's API that the compiler side does not follow is a
// build error here, not a wrong call in an emulated kernel.
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_LIB_EMULATION_EMULATORRUNTIME_H
#define GPUCG_LIB_EMULATION_EMULATORRUNTIME_H

#include "gpucg_emulator.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cstdint>
#include <type_traits>

namespace mlir {
namespace gpucg {

/// The runtime's type codes for MMA operands and 8-bit float conversions.
enum class EmulatorType : int32_t {
  F16 = GPUCG_EMU_F16,
  BF16 = GPUCG_EMU_BF16,
  TF32 = GPUCG_EMU_TF32,
  F32 = GPUCG_EMU_F32,
  F64 = GPUCG_EMU_F64,
  S8 = GPUCG_EMU_S8,
  U8 = GPUCG_EMU_U8,
  S32 = GPUCG_EMU_S32,
  F8E4M3 = GPUCG_EMU_F8E4M3,
  F8E5M2 = GPUCG_EMU_F8E5M2,
};

/// GPUCG_EMU_TMA_MULTICAST: set in gpucg_emu_tma_load's mask when the op
/// has a multicast_mask operand, so that a mask of 0 is reported rather
/// than taken for a load to the issuing block alone.
constexpr int32_t kEmulatorTmaMulticast = GPUCG_EMU_TMA_MULTICAST;

namespace detail {
/// The MLIR type of a parameter or result of the runtime's C API: integers
/// by their width, float as f32, pointers (sites, closures) as !llvm.ptr.
template <typename T> Type getEmulatorCType(MLIRContext *context) {
  if constexpr (std::is_pointer_v<T>) {
    return LLVM::LLVMPointerType::get(context);
  } else if constexpr (std::is_same_v<T, float>) {
    return Float32Type::get(context);
  } else {
    static_assert(std::is_integral_v<T> && sizeof(T) >= 4,
                  "a gpucg_emulator.h type with no MLIR counterpart here");
    return IntegerType::get(context, 8 * sizeof(T));
  }
}

template <typename Function> struct EmulatorFunctionType;
template <typename Result, typename... Args>
struct EmulatorFunctionType<Result(Args...)> {
  static FunctionType get(MLIRContext *context) {
    SmallVector<Type> inputs = {getEmulatorCType<Args>(context)...};
    SmallVector<Type> results;
    if constexpr (!std::is_void_v<Result>)
      results.push_back(getEmulatorCType<Result>(context));
    return FunctionType::get(context, inputs, results);
  }
};
} // namespace detail

/// One entry point of the runtime: its symbol and the MLIR type of its
/// prototype in gpucg_emulator.h.
struct EmulatorFunction {
  StringRef name;
  FunctionType (*getType)(MLIRContext *);
};

} // namespace gpucg
} // namespace mlir

/// The EmulatorFunction of `function`, a name declared in gpucg_emulator.h.
#define GPUCG_EMULATOR_FUNCTION(function)                                      \
  (::mlir::gpucg::EmulatorFunction{                                            \
      #function,                                                               \
      &::mlir::gpucg::detail::EmulatorFunctionType<decltype(function)>::get})

#endif // GPUCG_LIB_EMULATION_EMULATORRUNTIME_H
