//===- GpucgPlugin.cpp - gpucg as an mlir-opt plugin ----------------------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Entry points for mlir-opt's --load-dialect-plugin and --load-pass-plugin.
// One shared object serves both flags.
//
//===----------------------------------------------------------------------===//

#include "gpucg/InitGpucg.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "gpucg", GPUCG_VERSION_STRING,
          [](DialectRegistry *registry) {
            gpucg::registerGpucgDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "gpucg", GPUCG_VERSION_STRING,
          []() { gpucg::registerAllGpucgPasses(); }};
}
