/*===- pipeline.c - Run gpucg passes and pipelines from C -----------------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

/* RUN: gpucg-capi-pipeline 2>&1 | FileCheck %s
 */

#include "gpucg-c/Attributes.h"
#include "gpucg-c/Dialects.h"
#include "gpucg-c/Passes.h"

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *kMatmul =
    "module {\n"
    "  func.func @matmul(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>,\n"
    "                    %c: tensor<512x512xf32>) -> tensor<512x512xf32> {\n"
    "    %0 = linalg.matmul ins(%a, %b : tensor<512x128xf16>, "
    "tensor<128x512xf16>)\n"
    "                       outs(%c : tensor<512x512xf32>) -> "
    "tensor<512x512xf32>\n"
    "    return %0 : tensor<512x512xf32>\n"
    "  }\n"
    "}\n";

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static MlirWalkResult findMatmul(MlirOperation op, void *userData) {
  if (mlirStringRefEqual(mlirIdentifierStr(mlirOperationGetName(op)),
                         mlirStringRefCreateFromCString("linalg.matmul"))) {
    *(MlirOperation *)userData = op;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

/* Counts the ops of one name. */
typedef struct Count {
  const char *name;
  int count;
} Count;

static MlirWalkResult countOps(MlirOperation op, void *userData) {
  Count *count = (Count *)userData;
  if (mlirStringRefEqual(mlirIdentifierStr(mlirOperationGetName(op)),
                         mlirStringRefCreateFromCString(count->name)))
    ++count->count;
  return MlirWalkResultAdvance;
}

static int countOpsNamed(MlirModule module, const char *name) {
  Count count = {name, 0};
  mlirOperationWalk(mlirModuleGetOperation(module), countOps, &count,
                    MlirWalkPreOrder);
  return count.count;
}

static MlirModule parse(MlirContext ctx) {
  return mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kMatmul));
}

/* The strategy pass from a textual pipeline: what it chose, read through the
   attribute getters. */
// CHECK-LABEL: testStrategy
static void testStrategy(MlirContext ctx) {
  printf("testStrategy\n");
  MlirModule module = parse(ctx);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(
          "builtin.module(gpucg-set-target{chip=sm_80},"
          "func.func(gpucg-select-lowering-strategy),canonicalize)"),
      printToStdout, NULL);
  // CHECK: parsed: 1
  printf("parsed: %d\n", mlirLogicalResultIsSuccess(parsed));
  // CHECK: pipeline: builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy{{.*}}),canonicalize{{.*}})
  printf("pipeline: ");
  mlirPrintPassPipeline(mlirPassManagerGetAsOpPassManager(pm), printToStdout,
                        NULL);
  printf("\n");
  MlirLogicalResult ran =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  // CHECK: ran: 1
  printf("ran: %d\n", mlirLogicalResultIsSuccess(ran));

  MlirOperation matmul = {NULL};
  mlirOperationWalk(mlirModuleGetOperation(module), findMatmul, &matmul,
                    MlirWalkPreOrder);
  MlirOperation func = mlirOperationGetParentOperation(matmul);
  MlirAttribute info = mlirOperationGetDiscardableAttributeByName(
      func, mlirStringRefCreateFromCString("gpucg.translation_info"));
  MlirAttribute config = mlirOperationGetDiscardableAttributeByName(
      matmul, mlirStringRefCreateFromCString("gpucg.lowering_config"));
  MlirStringRef pipeline =
      mlirGpucgPipelineGetName(mlirGpucgTranslationInfoAttrGetPipeline(info));
  // CHECK: chose MatmulTensorCore{{(MmaSync)?}} with 64 threads in x, {{[1-9]}} levels of tiles, depth {{[1-9]}}
  printf("chose %.*s with %" PRId64 " threads in x, %" PRIdPTR
         " levels of tiles, depth %" PRId64 "\n",
         (int)pipeline.length, pipeline.data,
         mlirGpucgTranslationInfoAttrGetWorkgroupSize(info, 0),
         mlirGpucgLoweringConfigAttrGetNumLevels(config),
         mlirGpucgTranslationInfoAttrGetPipelineDepth(info));

  /* A pass created through the generated C API: strip every gpucg.*
     attribute. */
  MlirPassManager strip = mlirPassManagerCreate(ctx);
  mlirPassManagerAddOwnedPass(strip, mlirCreateGpucgStripAttributes());
  mlirPassManagerRunOnOp(strip, mlirModuleGetOperation(module));
  // CHECK: after strip: null 1
  printf("after strip: null %d\n",
         mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
             func, mlirStringRefCreateFromCString("gpucg.translation_info"))));
  mlirPassManagerDestroy(strip);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
}

/* A named pipeline added to a pass manager: the whole mma.sync pipeline. */
// CHECK-LABEL: testNamedPipeline
static void testNamedPipeline(MlirContext ctx) {
  printf("testNamedPipeline\n");
  MlirModule module = parse(ctx);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult added = mlirOpPassManagerAddPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString("gpucg-matmul-mma-sync{chip=sm_80}"),
      printToStdout, NULL);
  MlirLogicalResult ran =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  // CHECK: added 1 ran 1: mma.sync 16 ldmatrix {{[1-9][0-9]*}} async copies {{[1-9][0-9]*}}
  printf("added %d ran %d: mma.sync %d ldmatrix %d async copies %d\n",
         mlirLogicalResultIsSuccess(added), mlirLogicalResultIsSuccess(ran),
         countOpsNamed(module, "nvgpu.mma.sync"),
         countOpsNamed(module, "nvgpu.ldmatrix"),
         countOpsNamed(module, "nvgpu.device_async_copy"));
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
}

/* A pipeline that names no pass fails to parse with a message. */
// CHECK-LABEL: testBadPipeline
static void testBadPipeline(MlirContext ctx) {
  printf("testBadPipeline\n");
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  // CHECK: {{.*}}'gpucg-no-such-pass' does not refer to a registered pass or pass pipeline
  // CHECK: parsed: 0
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString("builtin.module(gpucg-no-such-pass)"),
      printToStdout, NULL);
  printf("\nparsed: %d\n", mlirLogicalResultIsSuccess(parsed));
  /* An option value out of the enum: an error, not an abort. */
  // CHECK: {{.*}}schedule
  // CHECK: parsed: 0
  parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(
          "builtin.module(gpucg-matmul-mma-sync{schedule=fastest})"),
      printToStdout, NULL);
  printf("\nparsed: %d\n", mlirLogicalResultIsSuccess(parsed));
  mlirPassManagerDestroy(pm);
}

/* The list of gpucg's passes and pipelines with their options. */
// CHECK-LABEL: testPassList
static void printEntry(const char *argument) {
  for (intptr_t i = 0, e = mlirGpucgGetNumPassEntries(); i < e; ++i) {
    MlirGpucgPassEntry entry = mlirGpucgGetPassEntry(i);
    if (!mlirStringRefEqual(entry.argument,
                            mlirStringRefCreateFromCString(argument)))
      continue;
    printf("%s %.*s on '%.*s': %.*s\n",
           entry.kind == MlirGpucgPassEntryKindPass ? "pass" : "pipeline",
           (int)entry.argument.length, entry.argument.data,
           (int)entry.anchor.length, entry.anchor.data,
           (int)entry.summary.length, entry.summary.data);
    for (intptr_t j = 0; j < entry.numOptions; ++j) {
      MlirGpucgPassOption option = mlirGpucgGetPassEntryOption(i, j);
      printf("  %.*s=%.*s: %.*s\n", (int)option.name.length, option.name.data,
             (int)option.defaultValue.length, option.defaultValue.data,
             (int)option.description.length, option.description.data);
    }
  }
}

static void testPassList(void) {
  printf("testPassList\n");
  intptr_t passes = 0, pipelines = 0;
  for (intptr_t i = 0, e = mlirGpucgGetNumPassEntries(); i < e; ++i) {
    if (mlirGpucgGetPassEntry(i).kind == MlirGpucgPassEntryKindPass)
      ++passes;
    else
      ++pipelines;
  }
  // CHECK: 41 passes, 12 pipelines
  printf("%" PRIdPTR " passes, %" PRIdPTR " pipelines\n", passes, pipelines);
  // CHECK: pass gpucg-software-pipelining on 'func.func': Software-pipeline the K loop over async copies
  // CHECK-NEXT:   depth=0: Stages
  // CHECK-NEXT:   epilogue-peeling=true: Peel the epilogue
  // CHECK-NEXT:   schedule=load-global-stage0: How the K loop's ops are assigned to stages
  printEntry("gpucg-software-pipelining");
  // CHECK: pass gpucg-strip-attributes on '': Remove every gpucg.* attribute
  printEntry("gpucg-strip-attributes");
  // CHECK: pipeline gpucg-compile on 'builtin.module': From a module of linalg kernels on tensors to GPU binaries
  // CHECK-NEXT:   bare-pointers=true: Pass memref kernel arguments as bare pointers
  // CHECK-NEXT:   chip=: Target chip
  // CHECK-NEXT:   deterministic-reductions=false: Never split a row of a floating-point sum
  // CHECK-NEXT:   f32-precision=tf32: How contractions of f32 operands multiply them
  // CHECK-NEXT:   features=: PTX features
  // CHECK-NEXT:   format=bin: What gpu-module-to-binary produces
  // CHECK-NEXT:   nvvm-float8=false: Convert f8E4M3FN and f8E5M2 with NVVM's cvt instructions
  // CHECK-NEXT:   opt-level=3: LLVM optimization level (0-3)
  // CHECK-NEXT:   output-dir=: Write each kernel's binary and .abi file here
  printEntry("gpucg-compile");
}

int main(void) {
  MlirContext ctx = mlirGpucgContextCreate();
  /* Registration may be repeated: the generated group functions and the
     idempotent registration of everything. */
  mlirRegisterGpucgPasses();
  mlirRegisterGpucgConversionPasses();
  mlirGpucgRegisterAllPasses();
  mlirGpucgRegisterPasses();
  testStrategy(ctx);
  testNamedPipeline(ctx);
  testBadPipeline(ctx);
  testPassList();
  mlirContextDestroy(ctx);
  return 0;
}
