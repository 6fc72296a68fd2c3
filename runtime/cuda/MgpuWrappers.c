/*===- MgpuWrappers.c - The mgpu* functions of MLIR's gpu-to-llvm ---------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* The host code that MLIR 22's gpu-to-llvm, the gpu.binary translation and  *|
|* nvgpu-to-nvvm (TMA descriptors) produce calls these functions; upstream's  *|
|* mlir/lib/ExecutionEngine/CudaRuntimeWrappers.cpp defines them over the     *|
|* CUDA driver API. This is a C11 implementation with the same names and     *|
|* signatures over the dlopen()ed driver, so that                            *|
|*   mlir-runner --shared-libs=libgpucg_cuda_runtime.so                       *|
|* runs gpu modules where Debian ships no CUDA runtime for MLIR.              *|
|*                                                                            *|
|* They return void or a handle, so a failure cannot be returned. Each one    *|
|* prints "gpucg runtime: <function>: <what failed>" to stderr, and then      *|
|* (docs/Runtime.md, "Errors of the mgpu* functions"):                        *|
|*  - GPUCG_MGPU_ON_ERROR=exit (the default): the process ends at once with   *|
|*    status 1, so that nothing is computed from a failed call;              *|
|*  - GPUCG_MGPU_ON_ERROR=continue: the call returns NULL or nothing, as      *|
|*    upstream's does, and the process's exit status becomes 1 when it ends. *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__GNUC__)
#define MGPU_EXPORT __attribute__((visibility("default")))
#else
#define MGPU_EXPORT
#endif

/*===----------------------------------------------------------------------===*/
/* Errors                                                                     */
/*===----------------------------------------------------------------------===*/

static atomic_bool noDriverReported;
static pthread_once_t exitStatusOnce = PTHREAD_ONCE_INIT;

/* At the end of a process in which an mgpu* call failed (continue policy):
   flush and end with status 1 instead of the one main chose. */
static void exitWithFailure(void) {
  fflush(NULL);
  _exit(EXIT_FAILURE);
}

static void registerExitStatus(void) { atexit(exitWithFailure); }

static bool continueOnError(void) {
  const char *policy = getenv("GPUCG_MGPU_ON_ERROR");
  return policy && strcmp(policy, "continue") == 0;
}

/* Reports this thread's last error as the failure of `function` and applies
   the error policy. */
static void fail(const char *function, gpucg_status status) {
  bool repeat = status == GPUCG_ERROR_NO_DRIVER &&
                atomic_exchange(&noDriverReported, true);
  if (!repeat)
    fprintf(stderr, "gpucg runtime: %s: %s\n", function, gpucg_last_error());
  if (!continueOnError()) {
    fprintf(stderr, "gpucg runtime: exiting with status 1 "
                    "(GPUCG_MGPU_ON_ERROR=continue returns instead)\n");
    fflush(NULL);
    /* Not exit(): the JIT-compiled module's destructors would call back in
       with the state that just failed. */
    _exit(EXIT_FAILURE);
  }
  pthread_once(&exitStatusOnce, registerExitStatus);
}

/* The failure of a driver call named by `call` inside `function`. */
static bool check(CUresult result, const char *function, const char *call) {
  if (result == CUDA_SUCCESS)
    return true;
  fail(function, gpucg_fail_cuda(result, "%s", call));
  return false;
}

/*===----------------------------------------------------------------------===*/
/* Context                                                                    */
/*===----------------------------------------------------------------------===*/

/* Upstream keeps the default device per thread, and so does this. */
static _Thread_local int defaultDevice = -1;

/* Loads the driver and makes the default device's primary context current;
   false (after reporting) when that fails. */
static bool enter(const char *function) {
  int ordinal = defaultDevice >= 0 ? defaultDevice : gpucg_default_ordinal();
  gpucg_status status = gpucg_make_current(ordinal);
  if (status == GPUCG_SUCCESS)
    return true;
  fail(function, status);
  return false;
}

MGPU_EXPORT void mgpuSetDefaultDevice(int32_t device) {
  defaultDevice = device;
}

/*===----------------------------------------------------------------------===*/
/* Modules and kernels                                                        */
/*===----------------------------------------------------------------------===*/

/* A cubin or fatbin (gpu-module-to-binary format=bin|fatbin). */
MGPU_EXPORT CUmodule mgpuModuleLoad(void *data, size_t gpuBlobSize) {
  (void)gpuBlobSize;
  CUmodule module = NULL;
  if (!enter("mgpuModuleLoad"))
    return NULL;
  check(gpucg_cuda.cuModuleLoadData(&module, data), "mgpuModuleLoad",
        "cuModuleLoadData");
  return module;
}

/* NUL-terminated PTX (format=isa), compiled by the driver's JIT at
   `optLevel` (the target's O, clamped to the JIT's 0..4). */
MGPU_EXPORT CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  CUmodule module = NULL;
  if (!enter("mgpuModuleLoadJIT"))
    return NULL;
  char log[4096] = {0};
  unsigned level = optLevel < 0 ? 0 : optLevel > 4 ? 4 : (unsigned)optLevel;
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {log, (void *)(uintptr_t)sizeof(log),
                    (void *)(uintptr_t)level};
  CUresult result =
      gpucg_cuda.cuModuleLoadDataEx(&module, data, 3, options, values);
  if (result != CUDA_SUCCESS) {
    gpucg_status status = gpucg_fail_cuda(result, "cuModuleLoadDataEx");
    log[sizeof(log) - 1] = '\0';
    if (log[0]) {
      char message[1024];
      snprintf(message, sizeof(message), "%s", gpucg_last_error());
      gpucg_fail(status, "%s: JIT log: %s", message, log);
    }
    fail("mgpuModuleLoadJIT", status);
    return NULL;
  }
  return module;
}

MGPU_EXPORT void mgpuModuleUnload(CUmodule module) {
  if (!module)
    return;
  /* gpu-to-llvm unloads modules from global destructors. In a program
     compiled ahead of time they run at exit, after the driver has torn
     itself down (CUDA_ERROR_DEINITIALIZED, first from the context query):
     the module is gone with it, and there is nothing to report. */
  CUcontext current = NULL;
  if (gpucg_cuda.cuCtxGetCurrent(&current) == CUDA_ERROR_DEINITIALIZED)
    return;
  if (!enter("mgpuModuleUnload"))
    return;
  CUresult result = gpucg_cuda.cuModuleUnload(module);
  if (result != CUDA_ERROR_DEINITIALIZED)
    check(result, "mgpuModuleUnload", "cuModuleUnload");
}

MGPU_EXPORT CUfunction mgpuModuleGetFunction(CUmodule module,
                                             const char *name) {
  CUfunction function = NULL;
  if (!enter("mgpuModuleGetFunction"))
    return NULL;
  CUresult result = gpucg_cuda.cuModuleGetFunction(&function, module, name);
  if (result != CUDA_SUCCESS)
    fail("mgpuModuleGetFunction",
         gpucg_fail_cuda(result, "cuModuleGetFunction(%s)",
                         name ? name : "NULL"));
  return function;
}

/* Opts `function` in to `smem` bytes of dynamic shared memory, which the
   driver refuses to launch with above 48 KB (static included) otherwise. */
static bool optInSharedMemory(const char *caller, CUfunction function,
                              int32_t smem) {
  if (smem <= 0)
    return true;
  CUresult result = gpucg_cuda.cuFuncSetAttribute(
      function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem);
  if (result == CUDA_SUCCESS)
    return true;
  CUdevice device;
  int limit = -1;
  if (gpucg_cuda.cuCtxGetDevice(&device) == CUDA_SUCCESS)
    gpucg_cuda.cuDeviceGetAttribute(
        &limit, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, device);
  fail(caller, gpucg_fail_cuda(result,
                               "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_"
                               "BYTES, %d) (the device allows %d bytes per "
                               "block, static shared memory included)",
                               (int)smem, limit));
  return false;
}

/* Launch sizes are index values; the driver takes unsigned ints. */
static bool launchSizes(const char *caller, const char *what,
                        const intptr_t sizes[3], unsigned converted[3],
                        bool *empty) {
  for (int i = 0; i < 3; ++i) {
    if (sizes[i] == 0)
      *empty = true;
    if (sizes[i] < 0 || (uintmax_t)sizes[i] > 0xffffffffu) {
      fail(caller, gpucg_fail(GPUCG_ERROR_INVALID_ARGUMENT,
                              "%s %td x %td x %td is out of range", what,
                              sizes[0], sizes[1], sizes[2]));
      return false;
    }
    converted[i] = (unsigned)sizes[i];
  }
  return true;
}

/* MLIR 22's gpu-to-llvm passes `paramsCount` too; the driver does not need
   it. */
MGPU_EXPORT void mgpuLaunchKernel(CUfunction function, intptr_t gridX,
                                  intptr_t gridY, intptr_t gridZ,
                                  intptr_t blockX, intptr_t blockY,
                                  intptr_t blockZ, int32_t smem,
                                  CUstream stream, void **params,
                                  void **extra, size_t paramsCount) {
  (void)paramsCount;
  static const char name[] = "mgpuLaunchKernel";
  const intptr_t gridSizes[3] = {gridX, gridY, gridZ};
  const intptr_t blockSizes[3] = {blockX, blockY, blockZ};
  unsigned grid[3], block[3];
  bool empty = false;
  if (!enter(name) || !launchSizes(name, "grid", gridSizes, grid, &empty) ||
      !launchSizes(name, "block", blockSizes, block, &empty))
    return;
  /* A grid with no block (a dynamic size of 0) has nothing to do. */
  if (empty || !optInSharedMemory(name, function, smem))
    return;
  CUresult result = gpucg_cuda.cuLaunchKernel(
      function, grid[0], grid[1], grid[2], block[0], block[1], block[2],
      (unsigned)smem, stream, params, extra);
  if (result != CUDA_SUCCESS)
    fail(name, gpucg_fail_cuda(result,
                               "cuLaunchKernel(grid %ux%ux%u, block "
                               "%ux%ux%u, %d bytes of dynamic shared memory)",
                               grid[0], grid[1], grid[2], block[0], block[1],
                               block[2], (int)smem));
}

/* gpu.launch_func with `clusters in`: cuLaunchKernelEx with the cluster
   dimension (sm_90 and later). gpu-to-llvm passes no paramsCount here. */
MGPU_EXPORT void mgpuLaunchClusterKernel(
    CUfunction function, intptr_t clusterX, intptr_t clusterY,
    intptr_t clusterZ, intptr_t gridX, intptr_t gridY, intptr_t gridZ,
    intptr_t blockX, intptr_t blockY, intptr_t blockZ, int32_t smem,
    CUstream stream, void **params, void **extra) {
  static const char name[] = "mgpuLaunchClusterKernel";
  const intptr_t clusterSizes[3] = {clusterX, clusterY, clusterZ};
  const intptr_t gridSizes[3] = {gridX, gridY, gridZ};
  const intptr_t blockSizes[3] = {blockX, blockY, blockZ};
  unsigned cluster[3], grid[3], block[3];
  bool empty = false, emptyCluster = false;
  if (!enter(name) ||
      !launchSizes(name, "cluster", clusterSizes, cluster, &emptyCluster) ||
      !launchSizes(name, "grid", gridSizes, grid, &empty) ||
      !launchSizes(name, "block", blockSizes, block, &empty))
    return;
  if (emptyCluster) {
    fail(name, gpucg_fail(GPUCG_ERROR_INVALID_ARGUMENT,
                          "cluster %ux%ux%u has an empty dimension",
                          cluster[0], cluster[1], cluster[2]));
    return;
  }
  if (empty || !optInSharedMemory(name, function, smem))
    return;
  if (!gpucg_cuda.cuLaunchKernelEx) {
    fail(name, gpucg_fail(GPUCG_ERROR_NO_DRIVER,
                          "the CUDA driver has no cuLaunchKernelEx (CUDA "
                          "11.8 and later)"));
    return;
  }
  /* Clusters of more than 8 blocks are not portable; allow them. */
  if ((uint64_t)cluster[0] * cluster[1] * cluster[2] > 8 &&
      !check(gpucg_cuda.cuFuncSetAttribute(
                 function, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED,
                 1),
             name, "cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED)"))
    return;
  CUlaunchAttribute attributes[2];
  memset(attributes, 0, sizeof(attributes));
  attributes[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attributes[0].value.clusterDim.x = cluster[0];
  attributes[0].value.clusterDim.y = cluster[1];
  attributes[0].value.clusterDim.z = cluster[2];
  attributes[1].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE;
  attributes[1].value.clusterSchedulingPolicyPreference =
      CU_CLUSTER_SCHEDULING_POLICY_SPREAD;
  CUlaunchConfig config;
  memset(&config, 0, sizeof(config));
  config.gridDimX = grid[0];
  config.gridDimY = grid[1];
  config.gridDimZ = grid[2];
  config.blockDimX = block[0];
  config.blockDimY = block[1];
  config.blockDimZ = block[2];
  config.sharedMemBytes = (unsigned)smem;
  config.hStream = stream;
  config.attrs = attributes;
  config.numAttrs = 2;
  CUresult result =
      gpucg_cuda.cuLaunchKernelEx(&config, function, params, extra);
  if (result != CUDA_SUCCESS)
    fail(name, gpucg_fail_cuda(result,
                               "cuLaunchKernelEx(cluster %ux%ux%u, grid "
                               "%ux%ux%u, block %ux%ux%u, %d bytes of dynamic "
                               "shared memory)",
                               cluster[0], cluster[1], cluster[2], grid[0],
                               grid[1], grid[2], block[0], block[1], block[2],
                               (int)smem));
}

/*===----------------------------------------------------------------------===*/
/* Streams and events                                                         */
/*===----------------------------------------------------------------------===*/

MGPU_EXPORT CUstream mgpuStreamCreate(void) {
  CUstream stream = NULL;
  if (enter("mgpuStreamCreate"))
    check(gpucg_cuda.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
          "mgpuStreamCreate", "cuStreamCreate");
  return stream;
}

MGPU_EXPORT void mgpuStreamDestroy(CUstream stream) {
  if (stream && enter("mgpuStreamDestroy"))
    check(gpucg_cuda.cuStreamDestroy_v2(stream), "mgpuStreamDestroy",
          "cuStreamDestroy");
}

MGPU_EXPORT void mgpuStreamSynchronize(CUstream stream) {
  if (enter("mgpuStreamSynchronize"))
    check(gpucg_cuda.cuStreamSynchronize(stream), "mgpuStreamSynchronize",
          "cuStreamSynchronize");
}

MGPU_EXPORT void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  if (enter("mgpuStreamWaitEvent"))
    check(gpucg_cuda.cuStreamWaitEvent(stream, event, 0),
          "mgpuStreamWaitEvent", "cuStreamWaitEvent");
}

MGPU_EXPORT CUevent mgpuEventCreate(void) {
  CUevent event = NULL;
  if (enter("mgpuEventCreate"))
    check(gpucg_cuda.cuEventCreate(&event, CU_EVENT_DISABLE_TIMING),
          "mgpuEventCreate", "cuEventCreate");
  return event;
}

MGPU_EXPORT void mgpuEventDestroy(CUevent event) {
  if (event && enter("mgpuEventDestroy"))
    check(gpucg_cuda.cuEventDestroy_v2(event), "mgpuEventDestroy",
          "cuEventDestroy");
}

MGPU_EXPORT void mgpuEventSynchronize(CUevent event) {
  if (enter("mgpuEventSynchronize"))
    check(gpucg_cuda.cuEventSynchronize(event), "mgpuEventSynchronize",
          "cuEventSynchronize");
}

MGPU_EXPORT void mgpuEventRecord(CUevent event, CUstream stream) {
  if (enter("mgpuEventRecord"))
    check(gpucg_cuda.cuEventRecord(event, stream), "mgpuEventRecord",
          "cuEventRecord");
}

/*===----------------------------------------------------------------------===*/
/* Memory                                                                     */
/*===----------------------------------------------------------------------===*/

/* gpu.alloc; `host_shared` allocates managed memory. Synchronous, as
   upstream's: `stream` is not used. */
MGPU_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, CUstream stream,
                               bool isHostShared) {
  (void)stream;
  CUdeviceptr pointer = 0;
  if (sizeBytes == 0 || !enter("mgpuMemAlloc"))
    return NULL;
  char call[64];
  snprintf(call, sizeof(call), "%s(%llu bytes)",
           isHostShared ? "cuMemAllocManaged" : "cuMemAlloc",
           (unsigned long long)sizeBytes);
  check(isHostShared ? gpucg_cuda.cuMemAllocManaged(&pointer, sizeBytes,
                                                    CU_MEM_ATTACH_GLOBAL)
                     : gpucg_cuda.cuMemAlloc_v2(&pointer, sizeBytes),
        "mgpuMemAlloc", call);
  return (void *)(uintptr_t)pointer;
}

MGPU_EXPORT void mgpuMemFree(void *ptr, CUstream stream) {
  (void)stream;
  if (ptr && enter("mgpuMemFree"))
    check(gpucg_cuda.cuMemFree_v2((CUdeviceptr)(uintptr_t)ptr), "mgpuMemFree",
          "cuMemFree");
}

/* gpu.memcpy in any direction: unified addressing tells them apart. */
MGPU_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                            CUstream stream) {
  if (sizeBytes && enter("mgpuMemcpy"))
    check(gpucg_cuda.cuMemcpyAsync((CUdeviceptr)(uintptr_t)dst,
                                   (CUdeviceptr)(uintptr_t)src, sizeBytes,
                                   stream),
          "mgpuMemcpy", "cuMemcpyAsync");
}

MGPU_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count,
                              CUstream stream) {
  if (count && enter("mgpuMemset32"))
    check(gpucg_cuda.cuMemsetD32Async((CUdeviceptr)(uintptr_t)dst, value,
                                      count, stream),
          "mgpuMemset32", "cuMemsetD32Async");
}

MGPU_EXPORT void mgpuMemset16(void *dst, unsigned short value, size_t count,
                              CUstream stream) {
  if (count && enter("mgpuMemset16"))
    check(gpucg_cuda.cuMemsetD16Async((CUdeviceptr)(uintptr_t)dst, value,
                                      count, stream),
          "mgpuMemset16", "cuMemsetD16Async");
}

/* Pins host memory and maps it for the device (gpu.host_register). */
MGPU_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  if (enter("mgpuMemHostRegister"))
    check(gpucg_cuda.cuMemHostRegister_v2(ptr, sizeBytes, 0),
          "mgpuMemHostRegister", "cuMemHostRegister");
}

MGPU_EXPORT void mgpuMemHostUnregister(void *ptr) {
  if (enter("mgpuMemHostUnregister"))
    check(gpucg_cuda.cuMemHostUnregister(ptr), "mgpuMemHostUnregister",
          "cuMemHostUnregister");
}

/* MLIR's ranked memref descriptor of any rank: two pointers, the offset,
   then `rank` sizes and `rank` strides. */
typedef struct MemRefDescriptor {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizesAndStrides[];
} MemRefDescriptor;

/* The first byte and the byte size of a dense (row-major, contiguous)
   memref; false (after reporting) for another layout. */
static bool denseBytes(const char *caller, int64_t rank,
                       const MemRefDescriptor *descriptor,
                       int64_t elementSizeBytes, char **start,
                       uint64_t *bytes) {
  const int64_t *sizes = descriptor->sizesAndStrides;
  const int64_t *strides = sizes + rank;
  int64_t elements = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    if (sizes[d] > 1 && strides[d] != elements) {
      fail(caller, gpucg_fail(GPUCG_ERROR_INVALID_ARGUMENT,
                              "the memref is not dense: stride %lld of "
                              "dimension %lld, %lld expected",
                              (long long)strides[d], (long long)d,
                              (long long)elements));
      return false;
    }
    elements *= sizes[d];
  }
  *start = descriptor->aligned + descriptor->offset * elementSizeBytes;
  *bytes = (uint64_t)(elements * elementSizeBytes);
  return true;
}

MGPU_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank,
                                           MemRefDescriptor *descriptor,
                                           int64_t elementSizeBytes) {
  char *start;
  uint64_t bytes;
  if (denseBytes("mgpuMemHostRegisterMemRef", rank, descriptor,
                 elementSizeBytes, &start, &bytes) &&
      bytes && enter("mgpuMemHostRegisterMemRef"))
    check(gpucg_cuda.cuMemHostRegister_v2(start, bytes, 0),
          "mgpuMemHostRegisterMemRef", "cuMemHostRegister");
}

MGPU_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank,
                                             MemRefDescriptor *descriptor,
                                             int64_t elementSizeBytes) {
  char *start;
  uint64_t bytes;
  if (denseBytes("mgpuMemHostUnregisterMemRef", rank, descriptor,
                 elementSizeBytes, &start, &bytes) &&
      bytes && enter("mgpuMemHostUnregisterMemRef"))
    check(gpucg_cuda.cuMemHostUnregister(start),
          "mgpuMemHostUnregisterMemRef", "cuMemHostUnregister");
}

/*===----------------------------------------------------------------------===*/
/* TMA descriptors                                                            */
/*===----------------------------------------------------------------------===*/

MGPU_EXPORT void mgpuTensorMapEncodeTiled(
    CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
    cuuint32_t tensorRank, void *globalAddress, const cuuint64_t *globalDim,
    const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
    const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
    CUtensorMapFloatOOBfill oobFill) {
  static const char name[] = "mgpuTensorMapEncodeTiled";
  if (!enter(name))
    return;
  if (!gpucg_cuda.cuTensorMapEncodeTiled) {
    fail(name, gpucg_fail(GPUCG_ERROR_NO_DRIVER,
                          "the CUDA driver has no cuTensorMapEncodeTiled "
                          "(CUDA 12.0 and later)"));
    return;
  }
  CUresult result = gpucg_cuda.cuTensorMapEncodeTiled(
      tensorMap, tensorDataType, tensorRank, globalAddress, globalDim,
      globalStrides, boxDim, elementStrides, interleave, swizzle, l2Promotion,
      oobFill);
  if (result != CUDA_SUCCESS)
    fail(name, gpucg_fail_cuda(result,
                               "cuTensorMapEncodeTiled(data type %d, rank %u)",
                               (int)tensorDataType, (unsigned)tensorRank));
}

/* nvgpu.tma.create.descriptor: a tensor map of the memref with the box
   `inputBoxDims` (outermost first), copied to device memory, which the
   caller passes to the kernel. */
MGPU_EXPORT void *mgpuTensorMapEncodeTiledMemref(
    int64_t tensorRank, void *rankedDescriptor,
    const CUtensorMapDataType tensorDataType, CUtensorMapInterleave interleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
    CUtensorMapFloatOOBfill oobFill, int64_t *inputBoxDims) {
  static const char name[] = "mgpuTensorMapEncodeTiledMemref";
  static const int elementBytes[] = GPUCG_TENSOR_MAP_ELEMENT_BYTES;
  if (tensorRank < 1 || tensorRank > 5) {
    fail(name, gpucg_fail(GPUCG_ERROR_INVALID_ARGUMENT,
                          "rank %lld is not in [1, 5]",
                          (long long)tensorRank));
    return NULL;
  }
  if ((int)tensorDataType < (int)CU_TENSOR_MAP_DATA_TYPE_UINT8 ||
      (int)tensorDataType > (int)CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ) {
    fail(name, gpucg_fail(GPUCG_ERROR_INVALID_ARGUMENT,
                          "data type %d is not one of whole bytes (0 to %d)",
                          (int)tensorDataType,
                          (int)CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ));
    return NULL;
  }
  const MemRefDescriptor *descriptor = rankedDescriptor;
  const int64_t *sizes = descriptor->sizesAndStrides;
  const int64_t *strides = sizes + tensorRank;
  int bytes = elementBytes[tensorDataType];
  char *globalAddress = descriptor->aligned + descriptor->offset * bytes;

  CUtensorMap tensorMap;
  if (!enter(name))
    return NULL;
  gpucg_status status = gpucg_encode_tensor_map(
      &tensorMap, tensorDataType, bytes, (int)tensorRank, globalAddress, sizes,
      strides, inputBoxDims, interleave, swizzle, l2Promotion, oobFill);
  if (status != GPUCG_SUCCESS) {
    fail(name, status);
    return NULL;
  }
  CUdeviceptr deviceMap = 0;
  if (!check(gpucg_cuda.cuMemAlloc_v2(&deviceMap, sizeof(tensorMap)), name,
             "cuMemAlloc(tensor map)"))
    return NULL;
  if (!check(gpucg_cuda.cuMemcpyHtoD_v2(deviceMap, &tensorMap,
                                        sizeof(tensorMap)),
             name, "cuMemcpyHtoD(tensor map)")) {
    gpucg_cuda.cuMemFree_v2(deviceMap);
    return NULL;
  }
  return (void *)(uintptr_t)deviceMap;
}
