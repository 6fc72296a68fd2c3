/*===- CudaDriver.h - The CUDA driver API, resolved at run time -----------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* The part of cuda.h that the runtime uses, declared here so that the        *|
|* runtime builds without the CUDA toolkit, and the table of driver entry     *|
|* points that CudaDriver.c fills with dlopen("libcuda.so.1") + dlsym.        *|
|*                                                                            *|
|* Every function is looked up by the name libcuda.so.1 exports for it:       *|
|* where cuda.h maps a name to a versioned one (`#define cuMemAlloc           *|
|* cuMemAlloc_v2`), the table holds the versioned one.                        *|
|*                                                                            *|
|* Built with -DGPUCG_USE_CUDA_H, this header takes the types from the        *|
|* toolkit's cuda.h instead and checks every constant, layout and function    *|
|* type below against it (test/Runtime/cuda-driver-declarations.test).        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GPUCG_RUNTIME_CUDADRIVER_H
#define GPUCG_RUNTIME_CUDADRIVER_H

#include <stddef.h>
#include <stdint.h>

/*===----------------------------------------------------------------------===*/
/* Constants                                                                  */
/*===----------------------------------------------------------------------===*/

/* X(name, value): every cuda.h constant the runtime uses. */
#define GPUCG_CUDA_CONSTANTS(X)                                                \
  X(CUDA_SUCCESS, 0)                                                           \
  X(CUDA_ERROR_INVALID_VALUE, 1)                                               \
  X(CUDA_ERROR_NOT_INITIALIZED, 3)                                             \
  X(CUDA_ERROR_DEINITIALIZED, 4)                                               \
  X(CUDA_ERROR_NO_DEVICE, 100)                                                 \
  X(CUDA_ERROR_NOT_FOUND, 500)                                                 \
  X(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 16)                              \
  X(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 38)                                     \
  X(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 75)                          \
  X(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 76)                          \
  X(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 97)                 \
  X(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 0)                                \
  X(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, 1)                                    \
  X(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, 3)                                     \
  X(CU_FUNC_ATTRIBUTE_NUM_REGS, 4)                                             \
  X(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 8)                        \
  X(CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 14)                   \
  X(CU_JIT_INFO_LOG_BUFFER, 3)                                                 \
  X(CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, 4)                                      \
  X(CU_JIT_ERROR_LOG_BUFFER, 5)                                                \
  X(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, 6)                                     \
  X(CU_JIT_OPTIMIZATION_LEVEL, 7)                                              \
  X(CU_STREAM_NON_BLOCKING, 1)                                                 \
  X(CU_EVENT_DISABLE_TIMING, 2)                                                \
  X(CU_MEM_ATTACH_GLOBAL, 1)                                                   \
  X(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, 4)                                  \
  X(CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE, 5)               \
  X(CU_CLUSTER_SCHEDULING_POLICY_SPREAD, 1)                                    \
  X(CU_TENSOR_MAP_DATA_TYPE_UINT8, 0)                                          \
  X(CU_TENSOR_MAP_DATA_TYPE_UINT16, 1)                                         \
  X(CU_TENSOR_MAP_DATA_TYPE_UINT32, 2)                                         \
  X(CU_TENSOR_MAP_DATA_TYPE_UINT64, 4)                                         \
  X(CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 6)                                        \
  X(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 7)                                        \
  X(CU_TENSOR_MAP_DATA_TYPE_FLOAT64, 8)                                        \
  X(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 9)                                       \
  X(CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ, 12)                                  \
  X(CU_TENSOR_MAP_INTERLEAVE_NONE, 0)                                          \
  X(CU_TENSOR_MAP_SWIZZLE_NONE, 0)                                             \
  X(CU_TENSOR_MAP_SWIZZLE_32B, 1)                                              \
  X(CU_TENSOR_MAP_SWIZZLE_64B, 2)                                              \
  X(CU_TENSOR_MAP_SWIZZLE_128B, 3)                                             \
  X(CU_TENSOR_MAP_L2_PROMOTION_NONE, 0)                                        \
  X(CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, 0)

/* Bytes per element of CUtensorMapDataType 0 (UINT8) .. 12 (TFLOAT32_FTZ),
   the types whose elements are whole bytes. */
#define GPUCG_TENSOR_MAP_ELEMENT_BYTES                                         \
  { 1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4 }

/*===----------------------------------------------------------------------===*/
/* Types                                                                      */
/*===----------------------------------------------------------------------===*/

#ifdef GPUCG_USE_CUDA_H

#include <cuda.h>

#define GPUCG_CHECK_CONSTANT(name, value)                                      \
  _Static_assert((name) == (value), #name " differs from cuda.h");
GPUCG_CUDA_CONSTANTS(GPUCG_CHECK_CONSTANT)
#undef GPUCG_CHECK_CONSTANT

#else /* !GPUCG_USE_CUDA_H */

#define GPUCG_DEFINE_CONSTANT(name, value) enum { name = (value) };
GPUCG_CUDA_CONSTANTS(GPUCG_DEFINE_CONSTANT)
#undef GPUCG_DEFINE_CONSTANT

/* cuda.h's enums are int-sized; the runtime passes them as ints. */
typedef int CUresult;
typedef int CUdevice;
typedef int CUdevice_attribute;
typedef int CUfunction_attribute;
typedef int CUjit_option;
typedef int CUlaunchAttributeID;
typedef int CUclusterSchedulingPolicy;
typedef int CUtensorMapDataType;
typedef int CUtensorMapInterleave;
typedef int CUtensorMapSwizzle;
typedef int CUtensorMapL2promotion;
typedef int CUtensorMapFloatOOBfill;
typedef uint32_t cuuint32_t;
typedef uint64_t cuuint64_t;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;

typedef union CUlaunchAttributeValue_union {
  char pad[64];
  struct {
    unsigned int x;
    unsigned int y;
    unsigned int z;
  } clusterDim;
  CUclusterSchedulingPolicy clusterSchedulingPolicyPreference;
  void *pointerAlignment; /* the union holds pointers in cuda.h */
} CUlaunchAttributeValue;

typedef struct CUlaunchAttribute_st {
  CUlaunchAttributeID id;
  char pad[8 - sizeof(CUlaunchAttributeID)];
  CUlaunchAttributeValue value;
} CUlaunchAttribute;

typedef struct CUlaunchConfig_st {
  unsigned int gridDimX;
  unsigned int gridDimY;
  unsigned int gridDimZ;
  unsigned int blockDimX;
  unsigned int blockDimY;
  unsigned int blockDimZ;
  unsigned int sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned int numAttrs;
} CUlaunchConfig;

/* 128 bytes; CUDA 13 aligns it to 128 (CUDA 12 to 64). */
typedef struct CUtensorMap_st {
  _Alignas(128) cuuint64_t opaque[16];
} CUtensorMap;

#endif /* GPUCG_USE_CUDA_H */

/* The layouts the driver reads, in both configurations. */
_Static_assert(sizeof(CUlaunchAttribute) == 72, "CUlaunchAttribute layout");
_Static_assert(offsetof(CUlaunchAttribute, value) == 8,
               "CUlaunchAttribute layout");
_Static_assert(offsetof(CUlaunchConfig, hStream) == 32, "CUlaunchConfig layout");
_Static_assert(sizeof(CUlaunchConfig) == 56, "CUlaunchConfig layout");
_Static_assert(sizeof(CUtensorMap) == 128, "CUtensorMap layout");
_Static_assert(sizeof(CUdeviceptr) == 8, "CUdeviceptr is 64 bits");

/*===----------------------------------------------------------------------===*/
/* Entry points                                                               */
/*===----------------------------------------------------------------------===*/

/* X(symbol, parameter list): the entry points every use of the driver
   needs; a libcuda.so.1 without one of them is no driver. */
#define GPUCG_CUDA_REQUIRED_FUNCTIONS(X)                                       \
  X(cuGetErrorName, (CUresult, const char **))                                 \
  X(cuGetErrorString, (CUresult, const char **))                               \
  X(cuInit, (unsigned int))                                                    \
  X(cuDriverGetVersion, (int *))                                               \
  X(cuDeviceGetCount, (int *))                                                 \
  X(cuDeviceGet, (CUdevice *, int))                                            \
  X(cuDeviceGetName, (char *, int, CUdevice))                                  \
  X(cuDeviceGetAttribute, (int *, CUdevice_attribute, CUdevice))               \
  X(cuDeviceTotalMem_v2, (size_t *, CUdevice))                                 \
  X(cuDevicePrimaryCtxRetain, (CUcontext *, CUdevice))                         \
  X(cuCtxGetCurrent, (CUcontext *))                                            \
  X(cuCtxSetCurrent, (CUcontext))                                              \
  X(cuCtxGetDevice, (CUdevice *))                                              \
  X(cuCtxSynchronize, (void))                                                  \
  X(cuModuleLoadData, (CUmodule *, const void *))                              \
  X(cuModuleLoadDataEx,                                                        \
    (CUmodule *, const void *, unsigned int, CUjit_option *, void **))         \
  X(cuModuleUnload, (CUmodule))                                                \
  X(cuModuleGetFunction, (CUfunction *, CUmodule, const char *))               \
  X(cuFuncSetAttribute, (CUfunction, CUfunction_attribute, int))               \
  X(cuFuncGetAttribute, (int *, CUfunction_attribute, CUfunction))             \
  X(cuLaunchKernel,                                                            \
    (CUfunction, unsigned int, unsigned int, unsigned int, unsigned int,       \
     unsigned int, unsigned int, unsigned int, CUstream, void **, void **))    \
  X(cuStreamCreate, (CUstream *, unsigned int))                                \
  X(cuStreamDestroy_v2, (CUstream))                                            \
  X(cuStreamSynchronize, (CUstream))                                           \
  X(cuStreamWaitEvent, (CUstream, CUevent, unsigned int))                      \
  X(cuEventCreate, (CUevent *, unsigned int))                                  \
  X(cuEventDestroy_v2, (CUevent))                                              \
  X(cuEventRecord, (CUevent, CUstream))                                        \
  X(cuEventSynchronize, (CUevent))                                             \
  X(cuMemAlloc_v2, (CUdeviceptr *, size_t))                                    \
  X(cuMemAllocManaged, (CUdeviceptr *, size_t, unsigned int))                  \
  X(cuMemFree_v2, (CUdeviceptr))                                               \
  X(cuMemcpy, (CUdeviceptr, CUdeviceptr, size_t))                              \
  X(cuMemcpyAsync, (CUdeviceptr, CUdeviceptr, size_t, CUstream))               \
  X(cuMemcpyHtoD_v2, (CUdeviceptr, const void *, size_t))                      \
  X(cuMemcpyDtoH_v2, (void *, CUdeviceptr, size_t))                            \
  X(cuMemsetD8_v2, (CUdeviceptr, unsigned char, size_t))                       \
  X(cuMemsetD16_v2, (CUdeviceptr, unsigned short, size_t))                     \
  X(cuMemsetD32_v2, (CUdeviceptr, unsigned int, size_t))                       \
  X(cuMemsetD16Async, (CUdeviceptr, unsigned short, size_t, CUstream))         \
  X(cuMemsetD32Async, (CUdeviceptr, unsigned int, size_t, CUstream))           \
  X(cuMemHostRegister_v2, (void *, size_t, unsigned int))                      \
  X(cuMemHostUnregister, (void *))

/* Entry points of newer drivers (cluster launch: CUDA 11.8, tensor maps:
   CUDA 12.0); NULL in the table when the driver lacks them, and only their
   users fail. */
#define GPUCG_CUDA_OPTIONAL_FUNCTIONS(X)                                       \
  X(cuLaunchKernelEx, (const CUlaunchConfig *, CUfunction, void **, void **))  \
  X(cuTensorMapEncodeTiled,                                                    \
    (CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,                   \
     const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,               \
     const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,            \
     CUtensorMapL2promotion, CUtensorMapFloatOOBfill))

#define GPUCG_DECLARE_ENTRY(name, parameters)                                  \
  CUresult (*name) parameters;

/* The driver's entry points (CudaDriver.c fills it once per process). */
typedef struct gpucg_cuda_driver {
  GPUCG_CUDA_REQUIRED_FUNCTIONS(GPUCG_DECLARE_ENTRY)
  GPUCG_CUDA_OPTIONAL_FUNCTIONS(GPUCG_DECLARE_ENTRY)
} gpucg_cuda_driver;

#undef GPUCG_DECLARE_ENTRY

#ifdef GPUCG_USE_CUDA_H
/* Each entry has the type of the function cuda.h declares under that name. */
#define GPUCG_CHECK_ENTRY(name, parameters)                                    \
  _Static_assert(__builtin_types_compatible_p(                                 \
                     __typeof__(&name), CUresult (*) parameters),              \
                 #name " differs from cuda.h");
GPUCG_CUDA_REQUIRED_FUNCTIONS(GPUCG_CHECK_ENTRY)
GPUCG_CUDA_OPTIONAL_FUNCTIONS(GPUCG_CHECK_ENTRY)
#undef GPUCG_CHECK_ENTRY
#endif

#endif /* GPUCG_RUNTIME_CUDADRIVER_H */
