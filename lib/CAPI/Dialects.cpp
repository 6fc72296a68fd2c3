//===- Dialects.cpp - C API of the gpucg dialect and its registration -----===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gpucg-c/Dialects.h"
#include "gpucg-c/Passes.h"

#include "gpucg/InitGpucg.h"

#include "mlir-c/RegisterEverything.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/InitAllPasses.h"

#include <mutex>

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Gpucg, gpucg, gpucg::GpucgDialect)

void mlirGpucgRegisterDialects(MlirDialectRegistry registry) {
  gpucg::registerGpucgDialects(*unwrap(registry));
}

void mlirGpucgRegisterAllDialects(MlirDialectRegistry registry) {
  // Upstream's C API: registerAllDialects and registerAllExtensions, as
  // gpucg-opt does.
  mlirRegisterAllDialects(registry);
  mlirGpucgRegisterDialects(registry);
}

void mlirGpucgRegisterAllPasses(void) {
  static std::once_flag once;
  std::call_once(once, [] { registerAllPasses(); });
  mlirGpucgRegisterPasses();
}

MlirContext mlirGpucgContextCreate(void) {
  mlirGpucgRegisterAllPasses();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirGpucgRegisterAllDialects(registry);
  MlirContext context =
      mlirContextCreateWithRegistry(registry,
                                    /*threadingEnabled=*/true);
  mlirDialectRegistryDestroy(registry);
  mlirRegisterAllLLVMTranslations(context);
  unwrap(context)->getOrLoadDialect<gpucg::GpucgDialect>();
  return context;
}

MlirStringRef mlirGpucgGetVersion(void) {
  return mlirStringRefCreateFromCString(GPUCG_VERSION_STRING);
}
