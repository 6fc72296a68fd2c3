/*===- traits.c - Op traits agree between gpucg's passes and MLIR-C -------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

/* RUN: gpucg-capi-traits 2>&1 | FileCheck %s
 *
 * libGpucgCAPI.so holds gpucg's code (built by gcc) and upstream's C API
 * archives (built by clang, their TypeID statics hidden). A trait's TypeID
 * is found by its type's name, which the two compilers spell differently:
 * had gpucg's code resolved `OpTrait::IsTerminator` in this library first, it
 * would have given the trait a TypeID no op's trait list holds, for gpucg's
 * passes and for upstream's C API functions alike ("Trait TypeIDs" in
 * docs/CAPI.md). The test runs a gpucg pass that asks whether an op is a
 * terminator before anything else, then upstream functions that test
 * `IsTerminator` and `SymbolTable` in this library.
 */

#include "gpucg-c/Dialects.h"

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <string.h>

/* A workgroup-tiled kernel whose accumulator is staged in workgroup memory:
   gpucg-tile-and-distribute copies it out last in the workgroup loop, and
   puts no barrier after that copy when the loop's terminator follows. */
static const char *kKernel =
    "func.func @kernel(%a: memref<512x128xf16>, %b: memref<128x512xf16>,\n"
    "    %c: memref<512x512xf32>) -> memref<512x512xf32> attributes {\n"
    "    gpu.known_block_size = array<i32: 64, 2, 1>,\n"
    "    gpu.known_grid_size = array<i32: 16, 16, 1>,\n"
    "    gpucg.translation_info = #gpucg.translation_info<pipeline =\n"
    "      MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1],\n"
    "      subgroup_size = 32, pipeline_depth = 4, mma_kind = mma_sync>} {\n"
    "  %zero = arith.constant 0.0 : f32\n"
    "  scf.forall (%i, %j) = (0, 0) to (512, 512) step (32, 32) {\n"
    "    %sa = memref.subview %a[%i, 0] [32, 128] [1, 1] : "
    "memref<512x128xf16>\n"
    "        to memref<32x128xf16, strided<[128, 1], offset: ?>>\n"
    "    %sb = memref.subview %b[0, %j] [128, 32] [1, 1] : "
    "memref<128x512xf16>\n"
    "        to memref<128x32xf16, strided<[512, 1], offset: ?>>\n"
    "    %sc = memref.subview %c[%i, %j] [32, 32] [1, 1] : "
    "memref<512x512xf32>\n"
    "        to memref<32x32xf32, strided<[512, 1], offset: ?>>\n"
    "    linalg.fill ins(%zero : f32)\n"
    "        outs(%sc : memref<32x32xf32, strided<[512, 1], offset: ?>>)\n"
    "    linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<\n"
    "        tile_sizes = [[32, 32, 32], [16, 16, 0], [16, 8, 16]]>}\n"
    "        ins(%sa, %sb : memref<32x128xf16, strided<[128, 1], offset: ?>>,\n"
    "                       memref<128x32xf16, strided<[512, 1], offset: ?>>)\n"
    "        outs(%sc : memref<32x32xf32, strided<[512, 1], offset: ?>>)\n"
    "  } {mapping = [#gpu.block<y>, #gpu.block<x>]}\n"
    "  return %c : memref<512x512xf32>\n"
    "}\n";

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static void printName(const char *what, MlirOperation op) {
  if (mlirOperationIsNull(op)) {
    printf("%s: none\n", what);
    return;
  }
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  printf("%s: %.*s\n", what, (int)name.length, name.data);
}

static int isNamed(MlirOperation op, const char *name) {
  return mlirStringRefEqual(mlirIdentifierStr(mlirOperationGetName(op)),
                            mlirStringRefCreateFromCString(name));
}

/* The last op named `name` (pre-order). */
typedef struct Search {
  const char *name;
  MlirOperation found;
} Search;

static MlirWalkResult findLast(MlirOperation op, void *userData) {
  Search *search = (Search *)userData;
  if (isNamed(op, search->name))
    search->found = op;
  return MlirWalkResultAdvance;
}

int main(void) {
  MlirContext ctx = mlirGpucgContextCreate();
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kKernel));
  MlirOperation moduleOp = mlirModuleGetOperation(module);

  /* gpucg's pass first: its terminator test is the first in the process. */
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString("builtin.module(func.func("
                                     "gpucg-tile-and-distribute{distribute-to-"
                                     "warp=true}))"),
      printToStdout, NULL);
  MlirLogicalResult ran = mlirPassManagerRunOnOp(pm, moduleOp);
  // CHECK: ran: 1 1
  printf("ran: %d %d\n", mlirLogicalResultIsSuccess(parsed),
         mlirLogicalResultIsSuccess(ran));
  mlirPassManagerDestroy(pm);

  /* The accumulator's copy-out is the last linalg.copy; the workgroup
     loop's terminator follows it, with no barrier in between. */
  Search copyOut = {"linalg.copy", {NULL}};
  mlirOperationWalk(moduleOp, findLast, &copyOut, MlirWalkPreOrder);
  // CHECK: copy-out from: memref<32x32xf32, #gpu.address_space<workgroup>>
  printf("copy-out from: ");
  mlirTypePrint(mlirValueGetType(mlirOperationGetOperand(copyOut.found, 0)),
                printToStdout, NULL);
  printf("\n");
  // CHECK: after the copy-out: scf.forall.in_parallel
  printName("after the copy-out", mlirOperationGetNextInBlock(copyOut.found));

  /* Upstream's C API, in the same library, after gpucg's pass. */
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  // CHECK: terminator of the function: func.return
  printName("terminator of the function", mlirBlockGetTerminator(body));
  MlirSymbolTable symbols = mlirSymbolTableCreate(moduleOp);
  // CHECK: module is a symbol table: 1
  printf("module is a symbol table: %d\n", !mlirSymbolTableIsNull(symbols));
  if (!mlirSymbolTableIsNull(symbols)) {
    // CHECK: lookup of kernel: func.func
    printName("lookup of kernel",
              mlirSymbolTableLookup(symbols,
                                    mlirStringRefCreateFromCString("kernel")));
    mlirSymbolTableDestroy(symbols);
  }

  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
