/*===- Device.c - Devices, contexts, memory ------------------------------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* The runtime works in the devices' primary contexts (the ones the CUDA     *|
|* runtime API and cuBLAS use), retained once per device and never released: *|
|* they live as long as the process.                                          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define GPUCG_MAX_DEVICES 64

static pthread_mutex_t contextsMutex = PTHREAD_MUTEX_INITIALIZER;
static CUcontext primaryContexts[GPUCG_MAX_DEVICES];
/* -1 until gpucg_init() or the environment decides it. */
static int defaultOrdinal = -1;

/* Reads $GPUCG_DEVICE; 0 when unset or not a device ordinal. */
static int ordinalFromEnvironment(void) {
  const char *text = getenv("GPUCG_DEVICE");
  if (!text || !*text)
    return 0;
  char *end = NULL;
  long value = strtol(text, &end, 10);
  if (*end != '\0' || value < 0 || value >= GPUCG_MAX_DEVICES)
    return 0;
  return (int)value;
}

int gpucg_default_ordinal(void) {
  pthread_mutex_lock(&contextsMutex);
  if (defaultOrdinal < 0)
    defaultOrdinal = ordinalFromEnvironment();
  int ordinal = defaultOrdinal;
  pthread_mutex_unlock(&contextsMutex);
  return ordinal;
}

/* The primary context of `ordinal`, retained on first use. */
static gpucg_status primaryContext(int ordinal, CUcontext *context) {
  if (ordinal < 0 || ordinal >= GPUCG_MAX_DEVICES)
    return gpucg_fail(GPUCG_ERROR_INVALID_ARGUMENT,
                      "device ordinal %d is not in [0, %d)", ordinal,
                      GPUCG_MAX_DEVICES);
  gpucg_status status = gpucg_driver_init(NULL);
  if (status != GPUCG_SUCCESS)
    return status;
  pthread_mutex_lock(&contextsMutex);
  if (!primaryContexts[ordinal]) {
    CUdevice device;
    CUresult result = gpucg_cuda.cuDeviceGet(&device, ordinal);
    if (result != CUDA_SUCCESS)
      status = gpucg_fail_cuda(result, "cuDeviceGet(%d)", ordinal);
    else if ((result = gpucg_cuda.cuDevicePrimaryCtxRetain(
                  &primaryContexts[ordinal], device)) != CUDA_SUCCESS)
      status =
          gpucg_fail_cuda(result, "cuDevicePrimaryCtxRetain(device %d)",
                          ordinal);
  }
  *context = primaryContexts[ordinal];
  pthread_mutex_unlock(&contextsMutex);
  return status;
}

gpucg_status gpucg_make_current(int ordinal) {
  CUcontext context = NULL, current = NULL;
  gpucg_status status = primaryContext(ordinal, &context);
  if (status != GPUCG_SUCCESS)
    return status;
  CUresult result = gpucg_cuda.cuCtxGetCurrent(&current);
  if (result != CUDA_SUCCESS)
    return gpucg_fail_cuda(result, "cuCtxGetCurrent");
  if (current == context)
    return GPUCG_SUCCESS;
  result = gpucg_cuda.cuCtxSetCurrent(context);
  if (result != CUDA_SUCCESS)
    return gpucg_fail_cuda(result, "cuCtxSetCurrent(device %d)", ordinal);
  return GPUCG_SUCCESS;
}

gpucg_status gpucg_ensure_context(void) {
  gpucg_status status = gpucg_driver_init(NULL);
  if (status != GPUCG_SUCCESS)
    return status;
  CUcontext current = NULL;
  CUresult result = gpucg_cuda.cuCtxGetCurrent(&current);
  if (result != CUDA_SUCCESS)
    return gpucg_fail_cuda(result, "cuCtxGetCurrent");
  if (current)
    return GPUCG_SUCCESS;
  return gpucg_make_current(gpucg_default_ordinal());
}

/*===----------------------------------------------------------------------===*/
/* Devices                                                                    */
/*===----------------------------------------------------------------------===*/

gpucg_status gpucg_init(int ordinal) {
  if (ordinal < 0 || ordinal >= GPUCG_MAX_DEVICES)
    return gpucg_fail(GPUCG_ERROR_INVALID_ARGUMENT,
                      "gpucg_init: device ordinal %d is not in [0, %d)",
                      ordinal, GPUCG_MAX_DEVICES);
  pthread_mutex_lock(&contextsMutex);
  if (defaultOrdinal < 0)
    defaultOrdinal = ordinal;
  pthread_mutex_unlock(&contextsMutex);
  return gpucg_make_current(ordinal);
}

gpucg_status gpucg_device_count(int *count) {
  if (!count)
    return gpucg_fail(GPUCG_ERROR_INVALID_ARGUMENT,
                      "gpucg_device_count: count is NULL");
  *count = 0;
  CUresult initResult = CUDA_SUCCESS;
  gpucg_status status = gpucg_driver_init(&initResult);
  /* A driver without a device is a count of 0, not a missing driver. */
  if (status == GPUCG_ERROR_NO_DRIVER && initResult == CUDA_ERROR_NO_DEVICE)
    return GPUCG_SUCCESS;
  if (status != GPUCG_SUCCESS)
    return status;
  CUresult result = gpucg_cuda.cuDeviceGetCount(count);
  if (result != CUDA_SUCCESS)
    return gpucg_fail_cuda(result, "cuDeviceGetCount");
  return GPUCG_SUCCESS;
}

static gpucg_status deviceAttribute(CUdevice device, CUdevice_attribute name,
                                    const char *what, int *value) {
  CUresult result = gpucg_cuda.cuDeviceGetAttribute(value, name, device);
  if (result != CUDA_SUCCESS)
    return gpucg_fail_cuda(result, "cuDeviceGetAttribute(%s)", what);
  return GPUCG_SUCCESS;
}

gpucg_status gpucg_device_get_info(gpucg_device_info *info) {
  if (!info)
    return gpucg_fail(GPUCG_ERROR_INVALID_ARGUMENT,
                      "gpucg_device_get_info: info is NULL");
  memset(info, 0, sizeof(*info));
  gpucg_status status = gpucg_ensure_context();
  if (status != GPUCG_SUCCESS)
    return status;
  CUdevice device;
  CUresult result = gpucg_cuda.cuCtxGetDevice(&device);
  if (result != CUDA_SUCCESS)
    return gpucg_fail_cuda(result, "cuCtxGetDevice");
  result = gpucg_cuda.cuDeviceGetName(info->name, (int)sizeof(info->name),
                                      device);
  if (result != CUDA_SUCCESS)
    return gpucg_fail_cuda(result, "cuDeviceGetName");
  info->name[sizeof(info->name) - 1] = '\0';
  if ((status = deviceAttribute(device,
                                CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                "COMPUTE_CAPABILITY_MAJOR",
                                &info->compute_capability_major)) ||
      (status = deviceAttribute(device,
                                CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                                "COMPUTE_CAPABILITY_MINOR",
                                &info->compute_capability_minor)) ||
      (status = deviceAttribute(device,
                                CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                                "MULTIPROCESSOR_COUNT",
                                &info->multiprocessor_count)) ||
      (status = deviceAttribute(
           device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
           "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN",
           &info->max_shared_memory_per_block_optin)) ||
      (status = deviceAttribute(device, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE,
                                "L2_CACHE_SIZE", &info->l2_cache_bytes)))
    return status;
  result = gpucg_cuda.cuDeviceTotalMem_v2(&info->total_memory_bytes, device);
  if (result != CUDA_SUCCESS)
    return gpucg_fail_cuda(result, "cuDeviceTotalMem");
  result = gpucg_cuda.cuDriverGetVersion(&info->driver_version);
  if (result != CUDA_SUCCESS)
    return gpucg_fail_cuda(result, "cuDriverGetVersion");
  return GPUCG_SUCCESS;
}

/*===----------------------------------------------------------------------===*/
/* Memory                                                                     */
/*===----------------------------------------------------------------------===*/

gpucg_status gpucg_malloc(uint64_t *device_pointer, size_t bytes) {
  if (!device_pointer)
    return gpucg_fail(GPUCG_ERROR_INVALID_ARGUMENT,
                      "gpucg_malloc: device_pointer is NULL");
  *device_pointer = 0;
  gpucg_status status = gpucg_ensure_context();
  if (status != GPUCG_SUCCESS)
    return status;
  CUdeviceptr pointer = 0;
  CUresult result = gpucg_cuda.cuMemAlloc_v2(&pointer, bytes);
  if (result != CUDA_SUCCESS)
    return gpucg_fail_cuda(result, "cuMemAlloc(%zu bytes)", bytes);
  *device_pointer = pointer;
  return GPUCG_SUCCESS;
}

gpucg_status gpucg_free(uint64_t device_pointer) {
  if (!device_pointer)
    return GPUCG_SUCCESS;
  gpucg_status status = gpucg_ensure_context();
  if (status != GPUCG_SUCCESS)
    return status;
  CUresult result = gpucg_cuda.cuMemFree_v2(device_pointer);
  if (result != CUDA_SUCCESS)
    return gpucg_fail_cuda(result, "cuMemFree(0x%llx)",
                           (unsigned long long)device_pointer);
  return GPUCG_SUCCESS;
}

/* The checks every copy and memset makes before it needs the driver. */
static gpucg_status checkTransfer(const char *function, uint64_t device,
                                  const void *host, int needsHost,
                                  size_t bytes) {
  if (bytes == 0)
    return GPUCG_SUCCESS;
  if (!device)
    return gpucg_fail(GPUCG_ERROR_INVALID_ARGUMENT,
                      "%s: null device pointer for %zu bytes", function,
                      bytes);
  if (needsHost && !host)
    return gpucg_fail(GPUCG_ERROR_INVALID_ARGUMENT,
                      "%s: null host pointer for %zu bytes", function, bytes);
  return gpucg_ensure_context();
}

gpucg_status gpucg_copy_to_device(uint64_t dst, const void *src,
                                  size_t bytes) {
  gpucg_status status =
      checkTransfer("gpucg_copy_to_device", dst, src, 1, bytes);
  if (status != GPUCG_SUCCESS || bytes == 0)
    return status;
  CUresult result = gpucg_cuda.cuMemcpyHtoD_v2(dst, src, bytes);
  if (result != CUDA_SUCCESS)
    return gpucg_fail_cuda(result, "cuMemcpyHtoD(%zu bytes)", bytes);
  return GPUCG_SUCCESS;
}

gpucg_status gpucg_copy_to_host(void *dst, uint64_t src, size_t bytes) {
  gpucg_status status = checkTransfer("gpucg_copy_to_host", src, dst, 1, bytes);
  if (status != GPUCG_SUCCESS || bytes == 0)
    return status;
  CUresult result = gpucg_cuda.cuMemcpyDtoH_v2(dst, src, bytes);
  if (result != CUDA_SUCCESS)
    return gpucg_fail_cuda(result, "cuMemcpyDtoH(%zu bytes)", bytes);
  return GPUCG_SUCCESS;
}

gpucg_status gpucg_memset(uint64_t dst, unsigned char value, size_t bytes) {
  gpucg_status status = checkTransfer("gpucg_memset", dst, NULL, 0, bytes);
  if (status != GPUCG_SUCCESS || bytes == 0)
    return status;
  CUresult result = gpucg_cuda.cuMemsetD8_v2(dst, value, bytes);
  if (result != CUDA_SUCCESS)
    return gpucg_fail_cuda(result, "cuMemsetD8(%zu bytes)", bytes);
  return GPUCG_SUCCESS;
}

gpucg_status gpucg_synchronize(void) {
  gpucg_status status = gpucg_ensure_context();
  if (status != GPUCG_SUCCESS)
    return status;
  CUresult result = gpucg_cuda.cuCtxSynchronize();
  if (result != CUDA_SUCCESS)
    return gpucg_fail_cuda(result, "cuCtxSynchronize");
  return GPUCG_SUCCESS;
}
