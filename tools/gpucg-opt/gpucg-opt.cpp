//===- gpucg-opt.cpp - gpucg optimizer driver -----------------------------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// mlir-opt with gpucg built in: every upstream dialect, extension and pass,
// plus gpucg's.
//
//===----------------------------------------------------------------------===//

#include "gpucg/InitGpucg.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::gpucg::registerAllGpucgPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::gpucg::registerGpucgDialects(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "gpucg optimizer driver\n", registry));
}
