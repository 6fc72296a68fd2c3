/*===- Dialects.h - C API of the gpucg dialect and its registration -------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* The gpucg dialect's handle (MLIR-C's dialect registration convention) and  *|
|* what a C program registers to parse and compile what gpucg-opt does: every *|
|* upstream dialect, extension and pass plus gpucg's. libGpucgCAPI.so holds   *|
|* these and the upstream MLIR C API (mlir-c/IR.h, mlir-c/Pass.h, ...) over   *|
|* the one shared libMLIR.so.                                                 *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GPUCG_C_DIALECTS_H
#define GPUCG_C_DIALECTS_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* mlirGetDialectHandle__gpucg__(): inserts or loads the gpucg dialect alone.
   Prefer mlirGpucgRegisterDialects, which also adds the interface models
   gpucg's passes need. */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Gpucg, gpucg);

/// Adds the gpucg dialect, and the dialects, interface models and LLVM IR
/// translations its passes rely on, to `registry`.
MLIR_CAPI_EXPORTED void mlirGpucgRegisterDialects(MlirDialectRegistry registry);

/// Adds what gpucg-opt has to `registry`: every upstream dialect and
/// extension, and mlirGpucgRegisterDialects.
MLIR_CAPI_EXPORTED void
mlirGpucgRegisterAllDialects(MlirDialectRegistry registry);

/// Registers every upstream pass and pass pipeline and every gpucg pass and
/// pipeline with the global registry, so that textual pipelines parse as in
/// gpucg-opt. Idempotent and thread-safe.
MLIR_CAPI_EXPORTED void mlirGpucgRegisterAllPasses(void);

/// Creates a context holding mlirGpucgRegisterAllDialects' dialects and the
/// LLVM IR translations, after mlirGpucgRegisterAllPasses. The caller owns
/// it (mlirContextDestroy).
MLIR_CAPI_EXPORTED MlirContext mlirGpucgContextCreate(void);

/// The version of gpucg ("0.1.0").
MLIR_CAPI_EXPORTED MlirStringRef mlirGpucgGetVersion(void);

#ifdef __cplusplus
}
#endif

#endif /* GPUCG_C_DIALECTS_H */
