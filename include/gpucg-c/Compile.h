/*===- Compile.h - Compile gpucg kernels from C without MLIR objects ------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* One call from MLIR source text to what gpucg-compile makes: each kernel's  *|
|* binary and its .abi text (docs/ABI.md), the module after the pipeline and  *|
|* the diagnostics, handed out through callbacks. A failure (bad source, bad  *|
|* pipeline, a pass that fails) returns a status and the diagnostics that say *|
|* why; it never aborts the process. Each call uses a context of its own:     *|
|* calls may run concurrently on different threads.                           *|
|*                                                                            *|
|*   MlirGpucgCompileOptions options = mlirGpucgCompileOptionsGetDefault();   *|
|*   options.chip = mlirStringRefCreateFromCString("sm_80");                  *|
|*   options.format = mlirStringRefCreateFromCString("isa");                  *|
|*   MlirGpucgCompileCallbacks callbacks = {0};                               *|
|*   callbacks.onKernel = saveKernel;        // binary + .abi of each kernel  *|
|*   callbacks.onDiagnostic = printDiagnostic;                                *|
|*   if (mlirGpucgCompile(source, &options, &callbacks) !=                    *|
|*       MlirGpucgCompileSuccess) ...                                         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GPUCG_C_COMPILE_H
#define GPUCG_C_COMPILE_H

#include "mlir-c/Diagnostics.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum MlirGpucgCompileStatus {
  MlirGpucgCompileSuccess = 0,
  /// An option is invalid (an unknown format, a null argument).
  MlirGpucgCompileInvalidArgument = 1,
  /// The source does not parse or verify.
  MlirGpucgCompileParseError = 2,
  /// The pipeline string does not parse (unknown pass, bad option, wrong
  /// nesting).
  MlirGpucgCompilePipelineError = 3,
  /// A pass failed.
  MlirGpucgCompilePassFailure = 4,
  /// The pipeline ran, but a launched kernel cannot be described by the
  /// kernel ABI (the errors of gpucg-export-kernels, docs/ABI.md).
  MlirGpucgCompileExportError = 5,
} MlirGpucgCompileStatus;

/// A short description of a status (MlirGpucgCompilePassFailure: "pass
/// failure").
MLIR_CAPI_EXPORTED MlirStringRef
mlirGpucgCompileStatusGetName(MlirGpucgCompileStatus status);

typedef struct MlirGpucgCompileOptions {
  /// A textual pass pipeline, either anchored (`builtin.module(...)`) or the
  /// passes to nest in the module (`gpucg-matmul-mma-sync{chip=sm_80}`).
  /// Empty: gpucg-compile with the options below.
  MlirStringRef pipeline;
  /// gpucg-compile's chip ("sm_80"); empty: the module's #gpucg.target.
  MlirStringRef chip;
  /// gpucg-compile's output: "isa" or "ptx" (PTX, needs no CUDA), "bin" or
  /// "cubin" (runs ptxas), "fatbin". Empty: "bin".
  MlirStringRef format;
  /// PTX features ("+ptx80"); empty: LLVM's default for the chip.
  MlirStringRef features;
  /// LLVM optimization level, 0 to 3.
  unsigned optLevel;
  /// Kernel memref arguments as bare pointers (gpucg-compile's
  /// bare-pointers), for each kernel whose memref arguments all have static
  /// shapes and identity layouts; memref descriptors for the others. Also
  /// selects the `calling_convention` of the ABI text of the kernels a
  /// custom pipeline leaves; it must match that pipeline's.
  bool barePointers;
  /// Print the module handed to onModule in MLIR's generic form.
  bool printGenericForm;
  /// Run the verifier after each pass (as gpucg-opt does).
  bool verifyEachPass;
  /// gpucg-compile's deterministic-reductions: never split a row of a
  /// floating-point sum across workgroups (whose atomic updates make the
  /// rounding depend on the order they finish in).
  bool deterministicReductions;
  /// gpucg-compile's wgmma-persistent: warp-specialized MatmulWgmma kernels
  /// (sm_90a) loop over their tiles on at most wgmmaPersistentWorkgroups
  /// workgroups (0: the target's SM count) instead of one workgroup each.
  bool wgmmaPersistent;
  int64_t wgmmaPersistentWorkgroups;
  /// gpucg-compile's wgmma-staged-store: MatmulWgmma kernels without a fused
  /// epilogue store C through shared memory with 16-byte stores where their
  /// ring holds the staging buffer.
  bool wgmmaStagedStore;
  /// gpucg-compile's workgroup-group-size: the workgroup loop's tiles start
  /// in groups of this many rows, column by column, for L2 reuse (1: row by
  /// row; 0: the strategy's default, groups of 8 rows for a wgmma matmul of
  /// more than one wave; negative: an error).
  int64_t workgroupGroupSize;
  /// gpucg-compile's nvvm-float8: f8E4M3FN and f8E5M2 conversions with
  /// NVVM's cvt instructions (sm_89+) instead of integer arithmetic.
  bool nvvmFloat8;
  /// gpucg-compile's wgmma-cluster-m / wgmma-cluster-n: warp-specialized
  /// MatmulWgmma kernels run in thread-block clusters of this many
  /// workgroups along M and N that share tiles by TMA multicast (1 x 1: no
  /// clusters; at most 8 workgroups).
  int64_t wgmmaClusterM;
  int64_t wgmmaClusterN;
  /// gpucg-compile's report: each kernel's plan as a remark (`plan of @F:
  /// ...`) through onDiagnostic.
  bool report;
  /// gpucg-compile's f32-precision: "tf32" (f32 operands of a contraction
  /// on tensor cores as TF32, where a tensor-core plan takes them) or
  /// "ieee" (IEEE f32 on the SIMT cores). Empty: "tf32".
  MlirStringRef f32Precision;
  /// gpucg-compile's split-k: MatmulTensorCoreMmaSync and MatmulWgmma
  /// kernels split each output tile's K loop into this many parts, one
  /// workgroup each, added in a fixed order (1: no split; 0: the strategy's
  /// default, the fewest parts that give a workgroup to every SM where the
  /// tiles alone are fewer than the SMs; negative: an error).
  int64_t splitK;
  /// gpucg-compile's wgmma-stream-k: warp-specialized MatmulWgmma kernels
  /// run stream-K on the persistent grid (wgmmaPersistentWorkgroups; this
  /// takes the grid without wgmmaPersistent): the last waves' K steps
  /// split evenly over its workgroups, partial tiles added in a fixed
  /// order.
  bool wgmmaStreamK;
} MlirGpucgCompileOptions;

/// gpucg-compile's defaults: empty pipeline, chip and features, format
/// "bin", optLevel 3, barePointers, verifyEachPass, no
/// deterministicReductions, no wgmmaPersistent (0 workgroups), no
/// wgmmaStagedStore, workgroupGroupSize 0, no nvvmFloat8, wgmmaClusterM and
/// wgmmaClusterN 1, no report, f32Precision empty ("tf32"), splitK 0, no
/// wgmmaStreamK.
MLIR_CAPI_EXPORTED MlirGpucgCompileOptions
mlirGpucgCompileOptionsGetDefault(void);

/// One launched kernel of the compiled module, as gpucg-export-kernels
/// would write it. Valid during the callback only.
typedef struct MlirGpucgCompiledKernel {
  /// The kernel's symbol ("matmul_kernel").
  MlirStringRef name;
  /// The file name gpucg-export-kernels gives its binary
  /// ("matmul_kernel.ptx"); the .abi file is `<name>.abi`.
  MlirStringRef binaryFileName;
  /// The bytes of the binary: PTX text (not NUL-terminated), a cubin or a
  /// fatbin.
  MlirStringRef binary;
  /// The text of the kernel's .abi file.
  MlirStringRef abi;
  /// What ptxas gave the kernel, read from a cubin binary (format "bin"):
  /// registers per thread, bytes of stack per thread (spilled registers),
  /// bytes of static workgroup memory. -1 for PTX and fatbin binaries.
  int64_t registers;
  int64_t stackFrameBytes;
  int64_t staticSharedBytes;
  /// Workgroups of this kernel one SM holds at once (the CUDA occupancy
  /// calculator's rules), or -1 where unknown.
  int64_t workgroupsPerSm;
} MlirGpucgCompiledKernel;

typedef void (*MlirGpucgKernelCallback)(const MlirGpucgCompiledKernel *kernel,
                                        void *userData);

/// One diagnostic: its severity, its location as MLIR prints it
/// ("kernel.mlir":3:5, or empty when unknown) and its message. Notes attached
/// to a diagnostic follow it as diagnostics of severity MlirDiagnosticNote.
typedef void (*MlirGpucgDiagnosticCallback)(MlirDiagnosticSeverity severity,
                                            MlirStringRef location,
                                            MlirStringRef message,
                                            void *userData);

/// Every callback may be NULL.
typedef struct MlirGpucgCompileCallbacks {
  /// Each kernel the module launches once the pipeline is done, in order.
  MlirGpucgKernelCallback onKernel;
  /// The module after the pipeline, printed (only when every stage
  /// succeeded).
  MlirStringCallback onModule;
  /// Each diagnostic, as it is emitted.
  MlirGpucgDiagnosticCallback onDiagnostic;
  void *userData;
} MlirGpucgCompileCallbacks;

/// Parses `source` (named `sourceName` in diagnostics; empty: "<source>"),
/// runs the pipeline of `options` on it and reports the results through
/// `callbacks`. Returns MlirGpucgCompileSuccess, or the first stage that
/// failed; the diagnostics say why.
MLIR_CAPI_EXPORTED MlirGpucgCompileStatus
mlirGpucgCompile(MlirStringRef source, MlirStringRef sourceName,
                 const MlirGpucgCompileOptions *options,
                 const MlirGpucgCompileCallbacks *callbacks);

#ifdef __cplusplus
}
#endif

#endif /* GPUCG_C_COMPILE_H */
