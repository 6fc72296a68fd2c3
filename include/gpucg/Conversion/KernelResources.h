//===- KernelResources.h - What ptxas gave a kernel, and its occupancy ----===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A kernel's registers, stack frame and static workgroup memory are decided
// by ptxas, after MLIR: gpu-module-to-binary runs it and keeps only the
// cubin. The cubin records them (the `.nv.info` attributes EIATTR_REGCOUNT
// and EIATTR_FRAME_SIZE of the kernel's symbol, and the size of its
// `.nv.shared.<kernel>` section), which is what cuobjdump --dump-resource-
// usage reads too. From them and the launch, computeOccupancy applies the
// CUDA occupancy calculator's rules for the known chips.
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_CONVERSION_KERNELRESOURCES_H
#define GPUCG_CONVERSION_KERNELRESOURCES_H

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"

#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace mlir {
namespace gpucg {

/// What ptxas gave one kernel of a cubin.
struct KernelResources {
  /// Registers per thread.
  int64_t registers = 0;
  /// Bytes of local memory per thread for the kernel's stack frame: spilled
  /// registers, since gpucg's kernels keep no arrays in local memory. (ptxas
  /// -v reports it as `bytes stack frame`; the bytes of spill stores and
  /// loads it also reports are not in the cubin.)
  int64_t stackFrameBytes = 0;
  /// Bytes of static workgroup memory the kernel declares, as the CUDA
  /// driver reports them (CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES): without the
  /// 1 KB the system reserves per workgroup, which an sm_90 cubin counts in
  /// the kernel's section. Dynamic shared memory is the launch's.
  int64_t staticSharedBytes = 0;
};

/// Reads the resources of kernel `kernelName` from `cubin` (an ELF object as
/// ptxas writes it). On failure, returns std::nullopt and says why in
/// `error`.
std::optional<KernelResources>
readCubinResources(StringRef cubin, StringRef kernelName, std::string &error);

/// How many workgroups of a kernel one SM holds at once, and what limits
/// them.
struct Occupancy {
  int64_t workgroupsPerSm = 0;
  int64_t warpsPerSm = 0;
  int64_t maxWarpsPerSm = 0;
  /// "registers", "workgroup memory", "threads" or "workgroups" (the SM's
  /// limit on resident workgroups).
  StringRef limitedBy;
};

/// The occupancy of a kernel of `resources` launched with `threads` threads
/// per workgroup and `dynamicSharedBytes` of dynamic workgroup memory on
/// `target`'s chip, by the CUDA occupancy calculator's rules; std::nullopt
/// for a chip whose per-SM limits gpucg does not know (they are not part of
/// #gpucg.target).
std::optional<Occupancy> computeOccupancy(TargetAttr target,
                                          const KernelResources &resources,
                                          int64_t threads,
                                          int64_t dynamicSharedBytes);

/// `kernel K: R registers, S bytes of stack (spilled registers), W bytes of
/// workgroup memory (static + dynamic), N workgroups of T threads per SM
/// (X of Y warps, limited by L)`: the resource report of one kernel.
std::string describeResources(StringRef kernelName,
                              const KernelResources &resources,
                              std::optional<Occupancy> occupancy,
                              int64_t threads, int64_t dynamicSharedBytes);

} // namespace gpucg
} // namespace mlir

#endif // GPUCG_CONVERSION_KERNELRESOURCES_H
