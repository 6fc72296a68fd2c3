/*===- ir.c - Parse, inspect, change and print gpucg IR from C ------------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

/* RUN: gpucg-capi-ir 2>&1 | FileCheck %s
 */

#include "gpucg-c/Attributes.h"
#include "gpucg-c/Dialects.h"

#include "mlir-c/IR.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kSource =
    "module attributes {gpucg.target = #gpucg.target<chip = \"sm_86\">} {\n"
    "  func.func @matmul(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>,\n"
    "                    %c: tensor<128x256xf32>) -> tensor<128x256xf32> {\n"
    "    %0 = linalg.matmul {gpucg.compilation_info = "
    "#gpucg.compilation_info<lowering_config = "
    "#gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>, translation_info = "
    "#gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = "
    "[64, 2, 1]>>}\n"
    "      ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>)\n"
    "      outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>\n"
    "    return %0 : tensor<128x256xf32>\n"
    "  }\n"
    "}\n";

/* Appends printed text to a growing buffer. */
typedef struct Buffer {
  char *data;
  size_t size;
} Buffer;

static void appendToBuffer(MlirStringRef text, void *userData) {
  Buffer *buffer = (Buffer *)userData;
  char *data = realloc(buffer->data, buffer->size + text.length + 1);
  if (!data)
    abort();
  memcpy(data + buffer->size, text.data, text.length);
  buffer->size += text.length;
  data[buffer->size] = '\0';
  buffer->data = data;
}

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

/* Finds the first op named `name` (pre-order). */
typedef struct Search {
  MlirStringRef name;
  MlirOperation found;
} Search;

static MlirWalkResult findByName(MlirOperation op, void *userData) {
  Search *search = (Search *)userData;
  MlirIdentifier name = mlirOperationGetName(op);
  if (mlirStringRefEqual(mlirIdentifierStr(name), search->name)) {
    search->found = op;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static MlirOperation find(MlirOperation root, const char *name) {
  Search search = {mlirStringRefCreateFromCString(name), {NULL}};
  mlirOperationWalk(root, findByName, &search, MlirWalkPreOrder);
  return search.found;
}

int main(void) {
  MlirContext ctx = mlirGpucgContextCreate();
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kSource));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "the source did not parse\n");
    return 1;
  }
  MlirOperation moduleOp = mlirModuleGetOperation(module);

  /* The module's target, read through the dialect-prefixed name. */
  MlirAttribute target = mlirOperationGetDiscardableAttributeByName(
      moduleOp, mlirStringRefCreateFromCString("gpucg.target"));
  MlirStringRef chip = mlirGpucgTargetAttrGetChip(target);
  // CHECK: target sm_86, opt-in shared memory 101376
  printf("target %.*s, opt-in shared memory %" PRId64 "\n", (int)chip.length,
         chip.data, mlirGpucgTargetAttrGetMaxSharedMemoryPerBlockOptin(target));

  /* The user's compilation_info on the matmul. */
  MlirOperation matmul = find(moduleOp, "linalg.matmul");
  MlirAttribute info = mlirOperationGetDiscardableAttributeByName(
      matmul, mlirStringRefCreateFromCString("gpucg.compilation_info"));
  MlirAttribute config = mlirGpucgCompilationInfoAttrGetLoweringConfig(info);
  // CHECK: matmul tiles 32x32x16, pipeline MatmulTensorCore
  MlirStringRef pipeline =
      mlirGpucgPipelineGetName(mlirGpucgTranslationInfoAttrGetPipeline(
          mlirGpucgCompilationInfoAttrGetTranslationInfo(info)));
  printf("matmul tiles %" PRId64 "x%" PRId64 "x%" PRId64 ", pipeline %.*s\n",
         mlirGpucgLoweringConfigAttrGetTileSize(config, 0, 0),
         mlirGpucgLoweringConfigAttrGetTileSize(config, 0, 1),
         mlirGpucgLoweringConfigAttrGetTileSize(config, 0, 2),
         (int)pipeline.length, pipeline.data);

  /* Replace it: 64x64x32 tiles, a deeper pipeline (as a sweep would). */
  intptr_t levelSizes[] = {3};
  int64_t tiles[] = {64, 64, 32};
  int64_t workgroup[] = {64, 2, 1};
  MlirAttribute newInfo = mlirGpucgCompilationInfoAttrGet(
      ctx, mlirGpucgLoweringConfigAttrGet(ctx, 1, levelSizes, tiles),
      mlirGpucgTranslationInfoAttrGet(ctx, MlirGpucgPipelineMatmulTensorCore, 3,
                                      workgroup, 0, 3, 1,
                                      MlirGpucgMmaKindUnset));
  mlirOperationSetDiscardableAttributeByName(
      matmul, mlirStringRefCreateFromCString("gpucg.compilation_info"),
      newInfo);
  // CHECK: verifies: 1
  printf("verifies: %d\n", mlirOperationVerify(moduleOp));

  /* Print, parse the printed text again, and print that: the same text. */
  Buffer first = {NULL, 0};
  mlirOperationPrint(moduleOp, appendToBuffer, &first);
  MlirModule reparsed =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(first.data));
  Buffer second = {NULL, 0};
  mlirOperationPrint(mlirModuleGetOperation(reparsed), appendToBuffer, &second);
  // CHECK: round trip: 1
  printf("round trip: %d\n", strcmp(first.data, second.data) == 0);
  // CHECK: #[[TARGET:.+]] = #gpucg.target<chip = "sm_86"
  // CHECK: module attributes {gpucg.target = #[[TARGET]]}
  // CHECK: linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[64, 64, 32]]>, translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], pipeline_depth = 3>>}
  fwrite(first.data, 1, first.size, stdout);

  /* The generic form, as another tool without the dialect's syntax reads
     it. */
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  mlirOpPrintingFlagsPrintGenericOpForm(flags);
  // CHECK: "linalg.matmul"
  // CHECK: }) {gpucg.compilation_info = #gpucg.compilation_info<
  mlirOperationPrintWithFlags(matmul, flags, printToStdout, NULL);
  printf("\n");
  mlirOpPrintingFlagsDestroy(flags);

  /* Source that does not parse gives a null module, not an abort. */
  MlirModule bad = mlirModuleCreateParse(
      ctx, mlirStringRefCreateFromCString("func.func @f( {"));
  // CHECK: bad source gives a null module: 1
  printf("bad source gives a null module: %d\n", mlirModuleIsNull(bad));

  free(first.data);
  free(second.data);
  mlirModuleDestroy(reparsed);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
