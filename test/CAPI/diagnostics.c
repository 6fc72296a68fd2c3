/*===- diagnostics.c - mlirGpucgCompile on bad input ----------------------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

/* Every kind of bad input gives a status and diagnostics that say what is
   wrong; none aborts the process, and none calls onKernel or onModule.

   RUN: gpucg-capi-diagnostics 2>&1 | FileCheck %s
 */

#include "gpucg-c/Compile.h"

#include <stdio.h>
#include <string.h>

static const char *kMatmul =
    "func.func @matmul(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>,\n"
    "                  %c: tensor<64x64xf32>) -> tensor<64x64xf32> {\n"
    "  %0 = linalg.matmul ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>)\n"
    "                     outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>\n"
    "  return %0 : tensor<64x64xf32>\n"
    "}\n";

static int outputs = 0;

static void onKernel(const MlirGpucgCompiledKernel *kernel, void *userData) {
  (void)kernel;
  (void)userData;
  ++outputs;
}

static void onModule(MlirStringRef text, void *userData) {
  (void)text;
  (void)userData;
  ++outputs;
}

static const char *severityName(MlirDiagnosticSeverity severity) {
  switch (severity) {
  case MlirDiagnosticError:
    return "error";
  case MlirDiagnosticWarning:
    return "warning";
  case MlirDiagnosticNote:
    return "note";
  case MlirDiagnosticRemark:
    return "remark";
  }
  return "?";
}

static void onDiagnostic(MlirDiagnosticSeverity severity,
                         MlirStringRef location, MlirStringRef message,
                         void *userData) {
  (void)userData;
  printf("%s at '%.*s': %.*s\n", severityName(severity), (int)location.length,
         location.data, (int)message.length, message.data);
}

static void run(const char *label, const char *source,
                MlirGpucgCompileOptions options) {
  printf("%s\n", label);
  MlirGpucgCompileCallbacks callbacks = {onKernel, onModule, onDiagnostic,
                                         NULL};
  outputs = 0;
  MlirGpucgCompileStatus status = mlirGpucgCompile(
      mlirStringRefCreateFromCString(source),
      mlirStringRefCreateFromCString("bad.mlir"), &options, &callbacks);
  MlirStringRef name = mlirGpucgCompileStatusGetName(status);
  printf("status %d (%.*s), outputs %d\n", (int)status, (int)name.length,
         name.data, outputs);
}

static MlirGpucgCompileOptions withPipeline(const char *pipeline) {
  MlirGpucgCompileOptions options = mlirGpucgCompileOptionsGetDefault();
  options.pipeline = mlirStringRefCreateFromCString(pipeline);
  return options;
}

static MlirGpucgCompileOptions withFormat(const char *format) {
  MlirGpucgCompileOptions options = mlirGpucgCompileOptionsGetDefault();
  options.chip = mlirStringRefCreateFromCString("sm_80");
  options.format = mlirStringRefCreateFromCString(format);
  return options;
}

int main(void) {
  MlirGpucgCompileOptions isa = withFormat("isa");

  // CHECK-LABEL: syntax error
  // CHECK-NEXT: error at 'bad.mlir:1:{{[0-9]+}}': expected ')'
  // CHECK-NEXT: status 2 (parse error), outputs 0
  run("syntax error", "func.func @f(%a: i32\n", isa);

  // CHECK-LABEL: verifier error
  // CHECK-NEXT: error at 'bad.mlir:1:1': 'builtin.module' op attribute 'gpucg.target' must be a #gpucg.target, got 1 : i32
  // CHECK-NEXT: status 2 (parse error), outputs 0
  run("verifier error", "module attributes {gpucg.target = 1 : i32} {}\n", isa);

  // CHECK-LABEL: unknown pass
  // CHECK-NEXT: error at '': {{.*}}'gpucg-no-such-pass' does not refer to a registered pass or pass pipeline
  // CHECK: status 3 (pipeline error), outputs 0
  run("unknown pass", kMatmul, withPipeline("gpucg-no-such-pass"));

  // CHECK-LABEL: bad option value
  // CHECK-NEXT: error at '': invalid options for pipeline 'gpucg-compile'
  // CHECK-NEXT: failed to add `gpucg-compile` with options `format=sass`
  // CHECK-NEXT: status 3 (pipeline error), outputs 0
  run("bad option value", kMatmul,
      withPipeline("builtin.module(gpucg-compile{format=sass})"));

  // CHECK-LABEL: pipeline nested in func.func
  // CHECK-NEXT: error at '': {{.*}}pipeline 'gpucg-compile' runs on a builtin.module, but is nested in 'func.func'
  // CHECK: status 3 (pipeline error), outputs 0
  run("pipeline nested in func.func", kMatmul,
      withPipeline("func.func(gpucg-compile)"));

  // CHECK-LABEL: unknown format
  // CHECK-NEXT: error at '': unknown format 'sass': expected isa, ptx, bin, cubin or fatbin
  // CHECK-NEXT: status 1 (invalid argument), outputs 0
  run("unknown format", kMatmul, withFormat("sass"));

  // CHECK-LABEL: unknown f32 precision
  // CHECK-NEXT: error at '': unknown f32Precision 'fp64': expected tf32 or ieee
  // CHECK-NEXT: status 1 (invalid argument), outputs 0
  MlirGpucgCompileOptions precision = withFormat("isa");
  precision.f32Precision = mlirStringRefCreateFromCString("fp64");
  run("unknown f32 precision", kMatmul, precision);

  // CHECK-LABEL: bad opt level
  // CHECK-NEXT: error at '': opt-level=7 is not an LLVM optimization level (0 to 3)
  // CHECK-NEXT: status 1 (invalid argument), outputs 0
  MlirGpucgCompileOptions optLevel = withFormat("isa");
  optLevel.optLevel = 7;
  run("bad opt level", kMatmul, optLevel);

  /* A chip gpucg does not know: gpucg-compile's entry (gpucg-set-target)
     fails on the module, before any other pass runs. */
  // CHECK-LABEL: unknown chip
  // CHECK-NEXT: error at '{{.*}}': 'builtin.module' op was given an unknown chip 'sm_12'
  // CHECK-NEXT: status 4 (pass failure), outputs 0
  MlirGpucgCompileOptions unknownChip = withFormat("isa");
  unknownChip.chip = mlirStringRefCreateFromCString("sm_12");
  run("unknown chip", kMatmul, unknownChip);

  /* A user's compilation_info that the target cannot run: too many threads. */
  // CHECK-LABEL: invalid compilation_info
  // CHECK-NEXT: error at 'bad.mlir:3:8': 'linalg.matmul' op workgroup_size [2048, 1, 1] has 2048 threads; sm_80 allows at most 1024 per workgroup
  // CHECK-NEXT: status 4 (pass failure), outputs 0
  run("invalid compilation_info",
      "func.func @matmul(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>,\n"
      "                  %c: tensor<64x64xf32>) -> tensor<64x64xf32> {\n"
      "  %0 = linalg.matmul {gpucg.compilation_info = "
      "#gpucg.compilation_info<lowering_config = "
      "#gpucg.lowering_config<tile_sizes = [[64, 64, 16], [32, 32, 16]]>, "
      "translation_info = #gpucg.translation_info<pipeline = "
      "MatmulTensorCore, workgroup_size = [2048, 1, 1]>>}\n"
      "    ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>)\n"
      "    outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>\n"
      "  return %0 : tensor<64x64xf32>\n"
      "}\n",
      isa);

  /* Null arguments. */
  // CHECK-LABEL: null options
  // CHECK-NEXT: error at '': mlirGpucgCompile: null options
  // CHECK-NEXT: status 1 (invalid argument)
  printf("null options\n");
  MlirGpucgCompileCallbacks callbacks = {NULL, NULL, onDiagnostic, NULL};
  MlirGpucgCompileStatus status =
      mlirGpucgCompile(mlirStringRefCreateFromCString(kMatmul),
                       mlirStringRefCreate(NULL, 0), NULL, &callbacks);
  printf("status %d (%s)\n", (int)status,
         mlirGpucgCompileStatusGetName(status).data);
  /* No callbacks at all: only the status. */
  // CHECK-NEXT: no callbacks: status 2
  status = mlirGpucgCompile(mlirStringRefCreateFromCString("}"),
                            mlirStringRefCreate(NULL, 0), &isa, NULL);
  printf("no callbacks: status %d\n", (int)status);

  /* After all of that, a good compile still works. */
  // CHECK-LABEL: good
  // CHECK-NEXT: status 0 (success), outputs 2
  run("good", kMatmul, isa);
  return 0;
}
