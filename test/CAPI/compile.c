/*===- compile.c - Compile a matmul to PTX with mlirGpucgCompile ----------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

/* The coarse entry point, without MLIR objects: source text in; PTX, the .abi
   text and the module out through callbacks.

   RUN: gpucg-capi-compile %S/../../examples/matmul_512x128x512_f16.mlir 2>&1 \
   RUN:   | FileCheck %s

   With the CUDA toolkit, a cubin (gpu-module-to-binary runs ptxas):
   RUN: %if ptxas %{ gpucg-capi-compile --cubin \
   RUN:   %S/../../examples/matmul_512x128x512_f16.mlir 2>&1 \
   RUN:   | FileCheck %s --check-prefix=CUBIN %}
 */

#include "gpucg-c/Compile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *readFile(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  fseek(file, 0, SEEK_END);
  long length = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *data = malloc((size_t)length + 1);
  if (!data || fread(data, 1, (size_t)length, file) != (size_t)length) {
    fclose(file);
    free(data);
    return NULL;
  }
  fclose(file);
  data[length] = '\0';
  *size = (size_t)length;
  return data;
}

/* Whether `needle` occurs in the `length` bytes at `data`. */
static int contains(const char *data, size_t length, const char *needle) {
  size_t n = strlen(needle);
  for (size_t i = 0; i + n <= length; ++i)
    if (memcmp(data + i, needle, n) == 0)
      return 1;
  return 0;
}

typedef struct Results {
  int kernels;
  int moduleHasLaunch;
  int moduleHasMmaSync;
} Results;

static void onKernel(const MlirGpucgCompiledKernel *kernel, void *userData) {
  Results *results = (Results *)userData;
  ++results->kernels;
  printf("kernel %.*s -> %.*s (%zu bytes)\n", (int)kernel->name.length,
         kernel->name.data, (int)kernel->binaryFileName.length,
         kernel->binaryFileName.data, kernel->binary.length);
  const char *binary = kernel->binary.data;
  size_t size = kernel->binary.length;
  printf("binary: entry %d, mma.sync %d, ldmatrix %d, cp.async %d, ELF %d, "
         "clusters %d\n",
         contains(binary, size, ".entry matmul_kernel"),
         contains(binary, size, "mma.sync.aligned.m16n8k16"),
         contains(binary, size, "ldmatrix.sync"),
         contains(binary, size, "cp.async.cg.shared.global"),
         size >= 4 && memcmp(binary, "\177ELF", 4) == 0,
         contains(binary, size, ".reqnctapercluster 1, 2, 1"));
  printf("resources: registers %lld, stack %lld, static shared %lld, "
         "workgroups per SM %lld\n",
         (long long)kernel->registers, (long long)kernel->stackFrameBytes,
         (long long)kernel->staticSharedBytes,
         (long long)kernel->workgroupsPerSm);
  printf("--- abi\n%.*s--- end abi\n", (int)kernel->abi.length,
         kernel->abi.data);
}

static void onModule(MlirStringRef text, void *userData) {
  Results *results = (Results *)userData;
  results->moduleHasLaunch =
      contains(text.data, text.length, "gpu.launch_func");
  results->moduleHasMmaSync =
      contains(text.data, text.length, "nvgpu.mma.sync");
}

static void onDiagnostic(MlirDiagnosticSeverity severity,
                         MlirStringRef location, MlirStringRef message,
                         void *userData) {
  (void)userData;
  printf("diagnostic %d at '%.*s': %.*s\n", (int)severity, (int)location.length,
         location.data, (int)message.length, message.data);
}

static MlirGpucgCompileStatus compile(const char *source, size_t size,
                                      MlirGpucgCompileOptions options,
                                      Results *results) {
  MlirGpucgCompileCallbacks callbacks = {onKernel, onModule, onDiagnostic,
                                         results};
  MlirGpucgCompileStatus status = mlirGpucgCompile(
      mlirStringRefCreate(source, size),
      mlirStringRefCreateFromCString("matmul.mlir"), &options, &callbacks);
  MlirStringRef name = mlirGpucgCompileStatusGetName(status);
  printf("status: %.*s, %d kernel(s), launch in module %d, mma.sync in "
         "module %d\n",
         (int)name.length, name.data, results->kernels,
         results->moduleHasLaunch, results->moduleHasMmaSync);
  return status;
}

int main(int argc, char **argv) {
  int cubin = argc == 3 && strcmp(argv[1], "--cubin") == 0;
  if (argc != 2 && !cubin) {
    fprintf(stderr, "usage: %s [--cubin] kernel.mlir\n", argv[0]);
    return 2;
  }
  size_t size = 0;
  char *source = readFile(argv[argc - 1], &size);
  if (!source) {
    perror(argv[argc - 1]);
    return 2;
  }

  if (cubin) {
    // CUBIN: kernel matmul_kernel -> matmul_kernel.cubin
    // CUBIN: binary: entry 0, {{.*}} ELF 1
    // CUBIN-NEXT: resources: registers {{[1-9][0-9]*}}, stack 0, static shared {{[0-9]+}}, workgroups per SM {{[1-9][0-9]*}}
    // CUBIN: format cubin
    // CUBIN: status: success, 1 kernel(s)
    MlirGpucgCompileOptions options = mlirGpucgCompileOptionsGetDefault();
    options.chip = mlirStringRefCreateFromCString("sm_80");
    Results results = {0, 0, 0};
    MlirGpucgCompileStatus status = compile(source, size, options, &results);
    free(source);
    return status != MlirGpucgCompileSuccess;
  }

  /* gpucg-compile from chip and format: PTX and the ABI. */
  // CHECK-LABEL: kernel matmul_kernel -> matmul_kernel.ptx
  // CHECK-NEXT: binary: entry 1, mma.sync 1, ldmatrix 1, cp.async 1, ELF 0
  // CHECK-NEXT: resources: registers -1, stack -1, static shared -1, workgroups per SM -1
  // CHECK-NEXT: --- abi
  // CHECK-NEXT: # gpucg kernel ABI (docs/ABI.md)
  // CHECK-NEXT: abi 1
  // CHECK-NEXT: function matmul
  // CHECK-NEXT: kernel matmul_kernel
  // CHECK-NEXT: binary matmul_kernel.ptx
  // CHECK-NEXT: format ptx
  // CHECK-NEXT: chip sm_80
  // CHECK-NEXT: calling_convention bare_pointers
  // CHECK-NEXT: grid_x {{[1-9][0-9]*}}
  // CHECK:      block_x {{[1-9][0-9]*}}
  // CHECK:      arguments 3
  // CHECK-DAG:  function_argument 0 memref f16 512x128
  // CHECK-DAG:  function_argument 1 memref f16 128x512
  // CHECK-DAG:  function_argument 2 memref f32 512x512
  // CHECK:      --- end abi
  // CHECK-NEXT: status: success, 1 kernel(s), launch in module 1, mma.sync in module 0
  MlirGpucgCompileOptions options = mlirGpucgCompileOptionsGetDefault();
  options.chip = mlirStringRefCreateFromCString("sm_80");
  options.format = mlirStringRefCreateFromCString("ptx");
  Results results = {0, 0, 0};
  int failed = compile(source, size, options, &results) != 0;

  /* The same through a pipeline string, with descriptors: the ABI says so. */
  // CHECK-LABEL: kernel matmul_kernel -> matmul_kernel.ptx
  // CHECK: calling_convention memref_descriptors
  // CHECK: status: success, 1 kernel(s)
  options = mlirGpucgCompileOptionsGetDefault();
  options.pipeline = mlirStringRefCreateFromCString(
      "builtin.module(gpucg-compile{format=isa bare-pointers=false})");
  options.barePointers = false;
  Results described = {0, 0, 0};
  failed |= compile(source, size, options, &described) != 0;

  /* wgmmaClusterM: an sm_90a matmul (the example is planned for sm_80)
     whose warp-specialized kernel has 4 tiles along M, in clusters of 2
     workgroups along M (grid y), declared in the PTX. */
  // CHECK-LABEL: kernel matmul_kernel -> matmul_kernel.ptx
  // CHECK-NEXT: binary: entry 1, {{.*}}, clusters 1
  // CHECK: chip sm_90a
  // CHECK: status: success, 1 kernel(s)
  static const char hopperSource[] =
      "func.func @matmul(%a: tensor<512x256xf16>, %b: tensor<256x512xf16>,\n"
      "                  %c: tensor<512x512xf32>) -> tensor<512x512xf32> {\n"
      "  %zero = arith.constant 0.0 : f32\n"
      "  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<512x512xf32>)\n"
      "      -> tensor<512x512xf32>\n"
      "  %r = linalg.matmul ins(%a, %b : tensor<512x256xf16>,\n"
      "      tensor<256x512xf16>) outs(%f : tensor<512x512xf32>)\n"
      "      -> tensor<512x512xf32>\n"
      "  return %r : tensor<512x512xf32>\n"
      "}\n";
  options = mlirGpucgCompileOptionsGetDefault();
  options.chip = mlirStringRefCreateFromCString("sm_90a");
  options.format = mlirStringRefCreateFromCString("ptx");
  options.wgmmaClusterM = 2;
  Results clustered = {0, 0, 0};
  failed |= compile(hopperSource, sizeof(hopperSource) - 1, options,
                    &clustered) != 0;

  /* A pipeline that stops before the binary: no kernel, the module out. */
  // CHECK-NOT: kernel matmul_kernel
  // CHECK: status: success, 0 kernel(s), launch in module 0, mma.sync in module 1
  options = mlirGpucgCompileOptionsGetDefault();
  options.pipeline =
      mlirStringRefCreateFromCString("gpucg-matmul-mma-sync{chip=sm_80}");
  Results tiled = {0, 0, 0};
  failed |= compile(source, size, options, &tiled) != 0;

  free(source);
  return failed;
}
