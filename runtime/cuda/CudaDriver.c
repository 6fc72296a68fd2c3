/*===- CudaDriver.c - Load libcuda.so.1 and resolve its entry points ------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* The runtime never links the driver: it dlopen()s it on first use, so the  *|
|* library builds, links and loads on machines without CUDA, and every call  *|
|* then fails with GPUCG_ERROR_NO_DRIVER and a message saying why.           *|
|* $GPUCG_CUDA_DRIVER names another library to load instead (tests use a     *|
|* path that does not exist, or a fake driver).                               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

gpucg_cuda_driver gpucg_cuda;

/* The outcome of loading and initializing the driver, decided once for the
   process and replayed to every caller (the message is per thread). */
static pthread_once_t driverOnce = PTHREAD_ONCE_INIT;
static gpucg_status driverStatus = GPUCG_SUCCESS;
static CUresult driverInitResult = CUDA_SUCCESS;
static char driverError[1024];

/* dlsym returns an object pointer; POSIX guarantees it converts to a
   function pointer, which ISO C spells through memcpy. */
static int resolve(void *library, const char *name, void *entry,
                   size_t entrySize) {
  void *symbol = dlsym(library, name);
  if (!symbol)
    return 0;
  memcpy(entry, &symbol, entrySize);
  return 1;
}

static void loadDriver(void) {
  const char *override = getenv("GPUCG_CUDA_DRIVER");
  const char *path =
      override && *override ? override : "libcuda.so.1";
  const char *origin = override && *override ? " ($GPUCG_CUDA_DRIVER)" : "";

  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *reason = dlerror();
    snprintf(driverError, sizeof(driverError),
             "no CUDA driver: cannot load %s%s: %s", path, origin,
             reason ? reason : "unknown reason");
    driverStatus = GPUCG_ERROR_NO_DRIVER;
    return;
  }

#define GPUCG_RESOLVE_REQUIRED(name, parameters)                               \
  if (!resolve(library, #name, &gpucg_cuda.name, sizeof(gpucg_cuda.name))) {   \
    snprintf(driverError, sizeof(driverError),                                 \
             "no CUDA driver: %s%s has no entry point " #name                  \
             " (a CUDA driver older than 11.0, or not a CUDA driver)",         \
             path, origin);                                                    \
    memset(&gpucg_cuda, 0, sizeof(gpucg_cuda));                                \
    driverStatus = GPUCG_ERROR_NO_DRIVER;                                      \
    return;                                                                    \
  }
  GPUCG_CUDA_REQUIRED_FUNCTIONS(GPUCG_RESOLVE_REQUIRED)
#undef GPUCG_RESOLVE_REQUIRED

#define GPUCG_RESOLVE_OPTIONAL(name, parameters)                               \
  resolve(library, #name, &gpucg_cuda.name, sizeof(gpucg_cuda.name));
  GPUCG_CUDA_OPTIONAL_FUNCTIONS(GPUCG_RESOLVE_OPTIONAL)
#undef GPUCG_RESOLVE_OPTIONAL

  /* The library stays loaded for the life of the process. */
  driverInitResult = gpucg_cuda.cuInit(0);
  if (driverInitResult != CUDA_SUCCESS) {
    snprintf(driverError, sizeof(driverError),
             "no CUDA driver: cuInit: %s (%s)",
             gpucg_cuda_error_name(driverInitResult),
             gpucg_cuda_error_string(driverInitResult));
    driverStatus = GPUCG_ERROR_NO_DRIVER;
  }
}

gpucg_status gpucg_driver_init(CUresult *cuInitResult) {
  pthread_once(&driverOnce, loadDriver);
  if (cuInitResult)
    *cuInitResult = driverInitResult;
  if (driverStatus != GPUCG_SUCCESS)
    return gpucg_fail(driverStatus, "%s", driverError);
  return GPUCG_SUCCESS;
}
