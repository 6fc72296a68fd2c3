/*===- Passes.h - C API of gpucg's passes and pipelines -------------------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* Creation and registration of each pass, generated from Passes.td by        *|
|* mlir-tblgen -gen-pass-capi-header:                                         *|
|*   include/gpucg/Transforms/Passes.td (prefix Gpucg):                       *|
|*     mlirCreateGpucgMultiBuffering(), mlirRegisterGpucgMultiBuffering(),    *|
|*     ..., mlirRegisterGpucgPasses();                                        *|
|*   include/gpucg/Conversion/Passes.td (prefix GpucgConversion):             *|
|*     mlirCreateGpucgConversionBuildGPULaunch(), ...,                        *|
|*     mlirRegisterGpucgConversionPasses();                                   *|
|*   include/gpucg/Pipelines/Passes.td (prefix GpucgPipelines):               *|
|*     mlirCreateGpucgPipelinesLowerWorkgroup(), ...,                         *|
|*     mlirRegisterGpucgPipelinesPasses();                                    *|
|*   include/gpucg/Emulation/Passes.td (prefix GpucgEmulation, test only):    *|
|*     mlirCreateGpucgEmulationTestEmulateGpu(), ...,                         *|
|*     mlirRegisterGpucgEmulationPasses().                                    *|
|* Created passes take their default options; set others through a textual   *|
|* pipeline (mlirOpPassManagerAddPipeline, mlirParsePassPipeline).            *|
|*                                                                            *|
|* Also: the named pipelines, and the list of gpucg's passes and pipelines    *|
|* with their options, as `gpucg-opt --help` shows them.                      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GPUCG_C_PASSES_H
#define GPUCG_C_PASSES_H

#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include "gpucg-c/GpucgConversionPasses.capi.h.inc"
#include "gpucg-c/GpucgEmulationPasses.capi.h.inc"
#include "gpucg-c/GpucgPasses.capi.h.inc"
#include "gpucg-c/GpucgPipelinesPasses.capi.h.inc"

#ifdef __cplusplus
extern "C" {
#endif

/// Registers gpucg's passes and named pipelines (gpucg-compile,
/// gpucg-matmul-mma-sync, ...) with the global registry. Idempotent and
/// thread-safe, unlike the generated mlirRegisterGpucg*Passes().
MLIR_CAPI_EXPORTED void mlirGpucgRegisterPasses(void);

typedef enum MlirGpucgPassEntryKind {
  MlirGpucgPassEntryKindPass = 0,
  MlirGpucgPassEntryKindPipeline = 1,
} MlirGpucgPassEntryKind;

/// One of gpucg's passes or named pipelines.
typedef struct MlirGpucgPassEntry {
  /// The name in a textual pipeline ("gpucg-multi-buffering").
  MlirStringRef argument;
  /// Its one-line summary.
  MlirStringRef summary;
  MlirGpucgPassEntryKind kind;
  /// The op it runs on ("func.func", "builtin.module"); empty for any op.
  MlirStringRef anchor;
  /// Number of its options (mlirGpucgGetPassEntryOption).
  intptr_t numOptions;
} MlirGpucgPassEntry;

/// One option of a pass or pipeline.
typedef struct MlirGpucgPassOption {
  /// Its name ("num-buffers").
  MlirStringRef name;
  /// Its default as a textual pipeline writes it ("0", "true",
  /// "load-global-stage0"; empty for an empty string).
  MlirStringRef defaultValue;
  /// Its description.
  MlirStringRef description;
} MlirGpucgPassOption;

/// Number of gpucg's passes and named pipelines: passes first, then
/// pipelines, each in name order. Registers them (mlirGpucgRegisterPasses).
/// The strings of every entry and option live as long as the process.
MLIR_CAPI_EXPORTED intptr_t mlirGpucgGetNumPassEntries(void);

MLIR_CAPI_EXPORTED MlirGpucgPassEntry mlirGpucgGetPassEntry(intptr_t pos);

/// Option `optionPos` (in name order) of entry `entryPos`.
MLIR_CAPI_EXPORTED MlirGpucgPassOption
mlirGpucgGetPassEntryOption(intptr_t entryPos, intptr_t optionPos);

#ifdef __cplusplus
}
#endif

#endif /* GPUCG_C_PASSES_H */
