/*===- FakeCudaDriver.c - A CUDA driver stand-in for tests without a GPU --===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* libgpucg_fake_cuda.so exports the driver entry points the runtime looks    *|
|* up, so that tests load it with GPUCG_CUDA_DRIVER=<it> and run every path   *|
|* that needs a driver (module loads, symbol lookups, launches, the mgpu*     *|
|* functions under mlir-runner) on machines without a GPU. It is no emulator: *|
|*  - one device, "gpucg fake CUDA device", sm_80, 166912 bytes of opt-in     *|
|*    shared memory; device memory is host memory;                            *|
|*  - modules are PTX text with a `.version` line (a cubin is "no binary for  *|
|*    this GPU", other bytes an invalid image); functions are its `.entry`s;  *|
|*  - a launch runs nothing: it checks the sizes like the driver does and     *|
|*    prints, on stderr, the function, grid, block, dynamic shared memory and *|
|*    every parameter, reading each with the width its PTX `.param` gives.   *|
|* $GPUCG_FAKE_CUDA (comma-separated) changes it: `no-device` (cuInit fails   *|
|* with CUDA_ERROR_NO_DEVICE), `out-of-memory` (allocations fail).            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "CudaDriver.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))
#define MAX_PARAMETERS 512

enum {
  INVALID_VALUE = 1,
  OUT_OF_MEMORY = 2,
  NO_DEVICE = 100,
  INVALID_DEVICE = 101,
  INVALID_IMAGE = 200,
  INVALID_CONTEXT = 201,
  NO_BINARY_FOR_GPU = 209,
  INVALID_PTX = 218,
  INVALID_HANDLE = 400,
  NOT_FOUND = 500,
  OPT_IN_SHARED_MEMORY = 166912,
};

static const struct {
  int code;
  const char *name;
  const char *string;
} errors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE",
     "device kernel image is invalid"},
    {INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {NO_BINARY_FOR_GPU, "CUDA_ERROR_NO_BINARY_FOR_GPU",
     "no kernel image is available for execution on the device"},
    {INVALID_PTX, "CUDA_ERROR_INVALID_PTX",
     "a PTX JIT compilation failed"},
    {INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
};

static int option(const char *name) {
  const char *options = getenv("GPUCG_FAKE_CUDA");
  size_t length = strlen(name);
  for (const char *at = options; at && (at = strstr(at, name)); at += length)
    if ((at == options || at[-1] == ',') &&
        (at[length] == '\0' || at[length] == ','))
      return 1;
  return 0;
}

/*===----------------------------------------------------------------------===*/
/* Errors, device, contexts                                                   */
/*===----------------------------------------------------------------------===*/

static CUresult lookupError(CUresult error, const char **text, int wantName) {
  for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); ++i)
    if (errors[i].code == error) {
      *text = wantName ? errors[i].name : errors[i].string;
      return 0;
    }
  *text = NULL;
  return INVALID_VALUE;
}

EXPORT CUresult cuGetErrorName(CUresult error, const char **name) {
  return lookupError(error, name, 1);
}

EXPORT CUresult cuGetErrorString(CUresult error, const char **string) {
  return lookupError(error, string, 0);
}

EXPORT CUresult cuInit(unsigned flags) {
  (void)flags;
  return option("no-device") ? NO_DEVICE : 0;
}

EXPORT CUresult cuDriverGetVersion(int *version) {
  *version = 13000;
  return 0;
}

EXPORT CUresult cuDeviceGetCount(int *count) {
  *count = 1;
  return 0;
}

EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  if (ordinal != 0)
    return INVALID_DEVICE;
  *device = 0;
  return 0;
}

EXPORT CUresult cuDeviceGetName(char *name, int length, CUdevice device) {
  (void)device;
  snprintf(name, (size_t)length, "gpucg fake CUDA device");
  return 0;
}

EXPORT CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attribute,
                                     CUdevice device) {
  (void)device;
  switch (attribute) {
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *value = 4;
    return 0;
  case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE:
    *value = 1 << 20;
    return 0;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *value = 8;
    return 0;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *value = 0;
    return 0;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *value = OPT_IN_SHARED_MEMORY;
    return 0;
  }
  return INVALID_VALUE;
}

EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice device) {
  (void)device;
  *bytes = (size_t)1 << 30;
  return 0;
}

static int primaryContext;
static _Thread_local CUcontext current;

EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice device) {
  (void)device;
  *context = (CUcontext)&primaryContext;
  return 0;
}

EXPORT CUresult cuCtxGetCurrent(CUcontext *context) {
  *context = current;
  return 0;
}

EXPORT CUresult cuCtxSetCurrent(CUcontext context) {
  current = context;
  return 0;
}

EXPORT CUresult cuCtxGetDevice(CUdevice *device) {
  if (!current)
    return INVALID_CONTEXT;
  *device = 0;
  return 0;
}

EXPORT CUresult cuCtxSynchronize(void) { return current ? 0 : INVALID_CONTEXT; }

/*===----------------------------------------------------------------------===*/
/* Modules and functions                                                      */
/*===----------------------------------------------------------------------===*/

typedef struct FakeFunction {
  struct FakeFunction *next;
  char name[256];
  int numParameters;
  int parameterBytes[MAX_PARAMETERS];
  char parameterTypes[MAX_PARAMETERS][8];
  int maxDynamicSharedBytes;
} FakeFunction;

typedef struct FakeModule {
  char *ptx;
  FakeFunction *functions;
} FakeModule;

/* `jit`: cuModuleLoadDataEx, whose PTX errors go into `log`. */
static CUresult loadModule(CUmodule *module, const void *image, int jit,
                           char *log, size_t logBytes) {
  if (!current)
    return INVALID_CONTEXT;
  const char *text = image;
  if (strncmp(text, "\177ELF", 4) == 0) {
    fprintf(stderr, "fake-cuda: refusing a cubin (the fake driver runs "
                    "PTX only)\n");
    return NO_BINARY_FOR_GPU;
  }
  if (!strstr(text, ".version")) {
    if (log && logBytes)
      snprintf(log, logBytes, "ptxas fatal   : (fake) no .version directive");
    return jit ? INVALID_PTX : INVALID_IMAGE;
  }
  FakeModule *result = calloc(1, sizeof(FakeModule));
  result->ptx = strdup(text);
  *module = (CUmodule)result;
  fprintf(stderr, "fake-cuda: loaded a module of %zu bytes of PTX\n",
          strlen(text));
  return 0;
}

EXPORT CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  return loadModule(module, image, 0, NULL, 0);
}

EXPORT CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                                   unsigned numOptions, CUjit_option *options,
                                   void **values) {
  char *log = NULL;
  size_t logBytes = 0;
  for (unsigned i = 0; i < numOptions; ++i) {
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
      log = values[i];
    else if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
      logBytes = (size_t)(uintptr_t)values[i];
  }
  return loadModule(module, image, 1, log, logBytes);
}

EXPORT CUresult cuModuleUnload(CUmodule module) {
  FakeModule *fake = (FakeModule *)module;
  if (!fake)
    return INVALID_HANDLE;
  while (fake->functions) {
    FakeFunction *next = fake->functions->next;
    free(fake->functions);
    fake->functions = next;
  }
  free(fake->ptx);
  free(fake);
  fprintf(stderr, "fake-cuda: unloaded a module\n");
  return 0;
}

/* The `.param` list of `.entry name(...)`: each parameter's type and width
   (`.u64` is 8 bytes, `.b32` 4, ...). */
static int parseParameters(const char *entry, FakeFunction *function) {
  const char *end = strchr(entry, ')');
  if (!end)
    return 0;
  for (const char *at = entry; (at = strstr(at, ".param")) && at < end;
       at += 6) {
    if (function->numParameters == MAX_PARAMETERS)
      return 0;
    const char *type = at + 6;
    while (*type == ' ')
      ++type;
    size_t length = strcspn(type, " \t");
    int bits = atoi(type + 2);
    if (type[0] != '.' || length >= 8 || bits <= 0 || bits % 8)
      return 0;
    int index = function->numParameters++;
    memcpy(function->parameterTypes[index], type, length);
    function->parameterTypes[index][length] = '\0';
    function->parameterBytes[index] = bits / 8;
  }
  return 1;
}

EXPORT CUresult cuModuleGetFunction(CUfunction *function, CUmodule module,
                                    const char *name) {
  FakeModule *fake = (FakeModule *)module;
  if (!fake)
    return INVALID_HANDLE;
  size_t length = strlen(name);
  for (const char *at = fake->ptx; (at = strstr(at, ".entry ")); ++at) {
    const char *symbol = at + 7;
    if (strncmp(symbol, name, length) != 0 || symbol[length] != '(' ||
        length >= sizeof(((FakeFunction *)0)->name))
      continue;
    FakeFunction *result = calloc(1, sizeof(FakeFunction));
    memcpy(result->name, name, length);
    result->maxDynamicSharedBytes = 48 * 1024;
    if (!parseParameters(symbol + length, result)) {
      free(result);
      return INVALID_IMAGE;
    }
    result->next = fake->functions;
    fake->functions = result;
    *function = (CUfunction)result;
    return 0;
  }
  return NOT_FOUND;
}

EXPORT CUresult cuFuncSetAttribute(CUfunction function,
                                   CUfunction_attribute attribute, int value) {
  FakeFunction *fake = (FakeFunction *)function;
  if (!fake)
    return INVALID_HANDLE;
  fprintf(stderr, "fake-cuda: cuFuncSetAttribute(%s, %d, %d)\n", fake->name,
          (int)attribute, value);
  if (attribute == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) {
    if (value < 0 || value > OPT_IN_SHARED_MEMORY)
      return INVALID_VALUE;
    fake->maxDynamicSharedBytes = value;
    return 0;
  }
  return attribute == CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED
             ? 0
             : INVALID_VALUE;
}

EXPORT CUresult cuFuncGetAttribute(int *value, CUfunction_attribute attribute,
                                   CUfunction function) {
  if (!function)
    return INVALID_HANDLE;
  switch (attribute) {
  case CU_FUNC_ATTRIBUTE_NUM_REGS:
    *value = 42;
    return 0;
  case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
    *value = 4096;
    return 0;
  case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
    *value = 0;
    return 0;
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *value = 1024;
    return 0;
  }
  return INVALID_VALUE;
}

/*===----------------------------------------------------------------------===*/
/* Launches                                                                   */
/*===----------------------------------------------------------------------===*/

static CUresult launch(const FakeFunction *function, const unsigned grid[3],
                       const unsigned block[3], unsigned sharedBytes,
                       void **parameters, void **extra, const char *cluster) {
  if (!current)
    return INVALID_CONTEXT;
  if (!function)
    return INVALID_HANDLE;
  if (extra || !grid[0] || !grid[1] || !grid[2] || !block[0] || !block[1] ||
      !block[2] || (uint64_t)block[0] * block[1] * block[2] > 1024 ||
      sharedBytes > (unsigned)function->maxDynamicSharedBytes ||
      (function->numParameters && !parameters))
    return INVALID_VALUE;
  fprintf(stderr,
          "fake-cuda: launch %s%s grid %ux%ux%u block %ux%ux%u shared %u "
          "params %d\n",
          function->name, cluster, grid[0], grid[1], grid[2], block[0],
          block[1], block[2], sharedBytes, function->numParameters);
  for (int i = 0; i < function->numParameters; ++i) {
    uint64_t value = 0;
    memcpy(&value, parameters[i], (size_t)function->parameterBytes[i]);
    fprintf(stderr, "fake-cuda:   param %d %s %llu\n", i,
            function->parameterTypes[i], (unsigned long long)value);
  }
  return 0;
}

EXPORT CUresult cuLaunchKernel(CUfunction function, unsigned gridX,
                               unsigned gridY, unsigned gridZ, unsigned blockX,
                               unsigned blockY, unsigned blockZ,
                               unsigned sharedBytes, CUstream stream,
                               void **parameters, void **extra) {
  (void)stream;
  const unsigned grid[3] = {gridX, gridY, gridZ};
  const unsigned block[3] = {blockX, blockY, blockZ};
  return launch((FakeFunction *)function, grid, block, sharedBytes,
                parameters, extra, "");
}

EXPORT CUresult cuLaunchKernelEx(const CUlaunchConfig *config,
                                 CUfunction function, void **parameters,
                                 void **extra) {
  const unsigned grid[3] = {config->gridDimX, config->gridDimY,
                            config->gridDimZ};
  const unsigned block[3] = {config->blockDimX, config->blockDimY,
                             config->blockDimZ};
  char cluster[64] = "";
  for (unsigned i = 0; i < config->numAttrs; ++i)
    if (config->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
      snprintf(cluster, sizeof(cluster), " cluster %ux%ux%u",
               config->attrs[i].value.clusterDim.x,
               config->attrs[i].value.clusterDim.y,
               config->attrs[i].value.clusterDim.z);
  return launch((FakeFunction *)function, grid, block, config->sharedMemBytes,
                parameters, extra, cluster);
}

/*===----------------------------------------------------------------------===*/
/* Streams and events: nothing is asynchronous                                */
/*===----------------------------------------------------------------------===*/

EXPORT CUresult cuStreamCreate(CUstream *stream, unsigned flags) {
  (void)flags;
  if (!current)
    return INVALID_CONTEXT;
  *stream = malloc(1);
  return 0;
}

EXPORT CUresult cuStreamDestroy_v2(CUstream stream) {
  free(stream);
  return 0;
}

EXPORT CUresult cuStreamSynchronize(CUstream stream) {
  (void)stream;
  return 0;
}

EXPORT CUresult cuStreamWaitEvent(CUstream stream, CUevent event,
                                  unsigned flags) {
  (void)stream;
  (void)flags;
  return event ? 0 : INVALID_HANDLE;
}

EXPORT CUresult cuEventCreate(CUevent *event, unsigned flags) {
  (void)flags;
  *event = malloc(1);
  return 0;
}

EXPORT CUresult cuEventDestroy_v2(CUevent event) {
  free(event);
  return 0;
}

EXPORT CUresult cuEventRecord(CUevent event, CUstream stream) {
  (void)stream;
  return event ? 0 : INVALID_HANDLE;
}

EXPORT CUresult cuEventSynchronize(CUevent event) {
  return event ? 0 : INVALID_HANDLE;
}

/*===----------------------------------------------------------------------===*/
/* Memory: host memory                                                        */
/*===----------------------------------------------------------------------===*/

EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes) {
  if (!current)
    return INVALID_CONTEXT;
  if (bytes == 0)
    return INVALID_VALUE;
  if (option("out-of-memory"))
    return OUT_OF_MEMORY;
  void *memory = aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!memory)
    return OUT_OF_MEMORY;
  *pointer = (CUdeviceptr)(uintptr_t)memory;
  return 0;
}

EXPORT CUresult cuMemAllocManaged(CUdeviceptr *pointer, size_t bytes,
                                  unsigned flags) {
  (void)flags;
  return cuMemAlloc_v2(pointer, bytes);
}

EXPORT CUresult cuMemFree_v2(CUdeviceptr pointer) {
  free((void *)(uintptr_t)pointer);
  return 0;
}

EXPORT CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  if (bytes && (!dst || !src))
    return INVALID_VALUE;
  memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes);
  return 0;
}

EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                              CUstream stream) {
  (void)stream;
  return cuMemcpy(dst, src, bytes);
}

EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src,
                                size_t bytes) {
  return cuMemcpy(dst, (CUdeviceptr)(uintptr_t)src, bytes);
}

EXPORT CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes) {
  return cuMemcpy((CUdeviceptr)(uintptr_t)dst, src, bytes);
}

EXPORT CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char value,
                              size_t count) {
  if (count && !dst)
    return INVALID_VALUE;
  memset((void *)(uintptr_t)dst, value, count);
  return 0;
}

EXPORT CUresult cuMemsetD16_v2(CUdeviceptr dst, unsigned short value,
                               size_t count) {
  if (count && !dst)
    return INVALID_VALUE;
  for (size_t i = 0; i < count; ++i)
    memcpy((char *)(uintptr_t)dst + 2 * i, &value, 2);
  return 0;
}

EXPORT CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned value, size_t count) {
  if (count && !dst)
    return INVALID_VALUE;
  for (size_t i = 0; i < count; ++i)
    memcpy((char *)(uintptr_t)dst + 4 * i, &value, 4);
  return 0;
}

EXPORT CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value,
                                 size_t count, CUstream stream) {
  (void)stream;
  return cuMemsetD16_v2(dst, value, count);
}

EXPORT CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value,
                                 size_t count, CUstream stream) {
  (void)stream;
  return cuMemsetD32_v2(dst, value, count);
}

EXPORT CUresult cuMemHostRegister_v2(void *pointer, size_t bytes,
                                     unsigned flags) {
  (void)flags;
  fprintf(stderr, "fake-cuda: cuMemHostRegister(%zu bytes)\n", bytes);
  return pointer && bytes ? 0 : INVALID_VALUE;
}

EXPORT CUresult cuMemHostUnregister(void *pointer) {
  fprintf(stderr, "fake-cuda: cuMemHostUnregister\n");
  return pointer ? 0 : INVALID_VALUE;
}

EXPORT CUresult cuTensorMapEncodeTiled(
    CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank,
    void *address, const cuuint64_t *dims, const cuuint64_t *strides,
    const cuuint32_t *box, const cuuint32_t *elementStrides,
    CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
    CUtensorMapL2promotion promotion, CUtensorMapFloatOOBfill fill) {
  (void)elementStrides;
  if (!address || rank < 1 || rank > 5)
    return INVALID_VALUE;
  fprintf(stderr, "fake-cuda: cuTensorMapEncodeTiled(type %d, rank %u",
          (int)type, (unsigned)rank);
  for (cuuint32_t i = 0; i < rank; ++i)
    fprintf(stderr, ", dim %llu stride %llu box %u", (unsigned long long)dims[i],
            i + 1 < rank ? (unsigned long long)strides[i] : 0ull,
            (unsigned)box[i]);
  fprintf(stderr, ", interleave %d swizzle %d l2 %d oob %d)\n",
          (int)interleave, (int)swizzle, (int)promotion, (int)fill);
  /* The map of another tensor (or box, or swizzle) differs. */
  memset(map, 0, sizeof(*map));
  uint64_t *words = (uint64_t *)map;
  words[0] = (uint64_t)(uintptr_t)address;
  words[1] = ((uint64_t)type << 32) | ((uint64_t)rank << 8) | (uint64_t)swizzle;
  for (cuuint32_t i = 0; i < rank; ++i)
    words[2 + i] = (uint64_t)dims[i] * 1024 + box[i];
  return 0;
}
