/*===- Error.c - Statuses and the thread's last-error message -------------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Internal.h"

#include <stdarg.h>
#include <stdio.h>

/* Long enough for a path, a line of an .abi file and a JIT log excerpt;
   longer messages are cut. */
#define GPUCG_ERROR_CAPACITY 4096

static _Thread_local char lastError[GPUCG_ERROR_CAPACITY];

const char *gpucg_last_error(void) { return lastError; }

const char *gpucg_status_name(gpucg_status status) {
  switch (status) {
  case GPUCG_SUCCESS:
    return "GPUCG_SUCCESS";
  case GPUCG_ERROR_NO_DRIVER:
    return "GPUCG_ERROR_NO_DRIVER";
  case GPUCG_ERROR_CUDA:
    return "GPUCG_ERROR_CUDA";
  case GPUCG_ERROR_IO:
    return "GPUCG_ERROR_IO";
  case GPUCG_ERROR_ABI:
    return "GPUCG_ERROR_ABI";
  case GPUCG_ERROR_INVALID_ARGUMENT:
    return "GPUCG_ERROR_INVALID_ARGUMENT";
  case GPUCG_ERROR_OUT_OF_MEMORY:
    return "GPUCG_ERROR_OUT_OF_MEMORY";
  }
  return "GPUCG_ERROR_UNKNOWN_STATUS";
}

gpucg_status gpucg_fail(gpucg_status status, const char *format, ...) {
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(lastError, sizeof(lastError), format, arguments);
  va_end(arguments);
  return status;
}

const char *gpucg_cuda_error_name(CUresult result) {
  static _Thread_local char unknown[32];
  const char *name = NULL;
  if (gpucg_cuda.cuGetErrorName &&
      gpucg_cuda.cuGetErrorName(result, &name) == CUDA_SUCCESS && name)
    return name;
  /* A driver torn down at exit names no error, not even this one. */
  if (result == CUDA_ERROR_DEINITIALIZED)
    return "CUDA_ERROR_DEINITIALIZED";
  snprintf(unknown, sizeof(unknown), "CUresult %d", (int)result);
  return unknown;
}

const char *gpucg_cuda_error_string(CUresult result) {
  const char *string = NULL;
  if (gpucg_cuda.cuGetErrorString &&
      gpucg_cuda.cuGetErrorString(result, &string) == CUDA_SUCCESS && string)
    return string;
  if (result == CUDA_ERROR_DEINITIALIZED)
    return "the CUDA driver has been shut down (the process is exiting)";
  return "error code unknown to the driver";
}

gpucg_status gpucg_fail_cuda(CUresult result, const char *call_format, ...) {
  char call[GPUCG_ERROR_CAPACITY / 2];
  va_list arguments;
  va_start(arguments, call_format);
  vsnprintf(call, sizeof(call), call_format, arguments);
  va_end(arguments);
  return gpucg_fail(GPUCG_ERROR_CUDA, "%s: %s (%s)", call,
                    gpucg_cuda_error_name(result),
                    gpucg_cuda_error_string(result));
}
