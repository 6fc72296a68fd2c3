//===- ExportKernels.h - Binaries and launch facts for C callers -*- C++
//-*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What gpucg-export-kernels writes, as a function: the C API returns the same
// binaries and .abi texts without going through files.
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_CONVERSION_EXPORTKERNELS_H
#define GPUCG_CONVERSION_EXPORTKERNELS_H

#include "gpucg/Conversion/KernelResources.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeRange.h"
#include "mlir/Support/LLVM.h"

#include <string>
#include <vector>

namespace mlir {
namespace gpucg {

/// One launched kernel as gpucg-export-kernels writes it (docs/ABI.md).
struct KernelExport {
  /// The kernel's symbol in the binary.
  std::string kernelName;
  /// `<kernel>.cubin`, `.ptx`, `.fatbin` or `.bc`, by the object's format.
  std::string binaryFileName;
  /// `<kernel>.abi`.
  std::string abiFileName;
  /// The contents of the .abi file.
  std::string abi;
  /// The bytes of the gpu.binary object; owned by the module's context.
  StringRef binary;
  /// Threads per workgroup (0 when the block size is not a constant) and
  /// bytes of dynamic workgroup memory of the launch.
  int64_t threads = 0;
  int64_t dynamicSharedBytes = 0;
  /// What ptxas gave the kernel, read from a cubin object (format `bin`);
  /// std::nullopt for PTX and fatbin objects, and when the cubin could not
  /// be read (`resourceError` says why).
  std::optional<KernelResources> resources;
  std::string resourceError;
  /// The occupancy those resources allow, where the chip's SM limits are
  /// known (computeOccupancy).
  std::optional<Occupancy> occupancy;
};

/// Whether a kernel taking arguments of `types` can take each memref as a
/// bare pointer: every memref has a static shape and an identity layout.
/// With `bare-pointers=true`, gpucg-convert-to-nvvm lowers such kernels
/// with bare pointers and the others with memref descriptors, and
/// gpucg-export-kernels says which in each `.abi` (docs/ABI.md).
bool canPassBarePointers(TypeRange types);

/// Describes every `gpu.launch_func` of `module` whose kernel module has been
/// serialized, in walk order. With `useBarePointers`, a kernel whose
/// arguments allow bare pointers (canPassBarePointers) is described with the
/// `calling_convention` `bare_pointers`, the others with
/// `memref_descriptors`; without, all with `memref_descriptors`. It must
/// match how the kernels were lowered.
/// On a launch the kernel ABI cannot describe, emits an error on the
/// offending op and fails.
FailureOr<std::vector<KernelExport>> describeKernels(ModuleOp module,
                                                     bool useBarePointers);

} // namespace gpucg
} // namespace mlir

#endif // GPUCG_CONVERSION_EXPORTKERNELS_H
