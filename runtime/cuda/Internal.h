/*===- Internal.h - Shared declarations of the gpucg CUDA runtime ---------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* What the runtime's source files share and do not export: the thread's     *|
|* last-error message, the driver table, and the contexts.                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GPUCG_RUNTIME_INTERNAL_H
#define GPUCG_RUNTIME_INTERNAL_H

#include "CudaDriver.h"
#include "gpucg_runtime.h"

#if defined(__GNUC__)
#define GPUCG_PRINTF(format_index, first_argument)                             \
  __attribute__((format(printf, format_index, first_argument)))
#else
#define GPUCG_PRINTF(format_index, first_argument)
#endif

/*===----------------------------------------------------------------------===*/
/* Errors (Error.c)                                                           */
/*===----------------------------------------------------------------------===*/

/* Sets this thread's last-error message and returns `status`. */
gpucg_status gpucg_fail(gpucg_status status, const char *format, ...)
    GPUCG_PRINTF(2, 3);

/* For a failed driver call: sets the message "<call>: <NAME> (<string>)",
   `call` being printf-formatted (e.g. "cuModuleLoadData(k.cubin)"), and
   returns GPUCG_ERROR_CUDA. */
gpucg_status gpucg_fail_cuda(CUresult result, const char *call_format, ...)
    GPUCG_PRINTF(2, 3);

/* CUDA's name and description of `result` (never NULL). */
const char *gpucg_cuda_error_name(CUresult result);
const char *gpucg_cuda_error_string(CUresult result);

/*===----------------------------------------------------------------------===*/
/* The driver (CudaDriver.c)                                                  */
/*===----------------------------------------------------------------------===*/

/* Loads libcuda.so.1 (or $GPUCG_CUDA_DRIVER) and resolves its entry points,
   once per process; then calls cuInit(0), once. On failure sets the
   message and returns GPUCG_ERROR_NO_DRIVER. `*cuInitResult`, when not NULL,
   receives cuInit's result (CUDA_ERROR_NO_DEVICE: a driver without GPU). */
gpucg_status gpucg_driver_init(CUresult *cuInitResult);

/* The table; valid after gpucg_driver_init() succeeded. */
extern gpucg_cuda_driver gpucg_cuda;

/*===----------------------------------------------------------------------===*/
/* Contexts (Device.c)                                                        */
/*===----------------------------------------------------------------------===*/

/* The device that gpucg_* functions use when no context is current: the
   first ordinal given to gpucg_init, else $GPUCG_DEVICE, else 0. */
int gpucg_default_ordinal(void);

/* Initializes the driver and makes the primary context of device `ordinal`
   current on this thread, unless it already is. */
gpucg_status gpucg_make_current(int ordinal);

/* Makes sure this thread has a current context: keeps the one it has, or
   makes the default device's primary context current. */
gpucg_status gpucg_ensure_context(void);

/*===----------------------------------------------------------------------===*/
/* The ABI file (Abi.c)                                                       */
/*===----------------------------------------------------------------------===*/

/* Bits of a value of the MLIR type `type` as the ABI file spells it: 16 for
   f16 and bf16, 64 for index, N for iN; 0 for a type the runtime does not
   know (a memref of it is still fine, a scalar is not). */
int gpucg_abi_type_bits(const char *type);

/* The run-time sizes a DIM or CEILDIV grid extent multiplies: 1 +
   num_size_factors of them; size `i` (0 the first, its divisor `value` for
   CEILDIV and 1 for DIM; then `size_factors`). */
int gpucg_abi_grid_term_count(const gpucg_abi_extent *extent);
gpucg_abi_size_factor gpucg_abi_grid_term(const gpucg_abi_extent *extent,
                                          int i);

/*===----------------------------------------------------------------------===*/
/* Tensor maps (Kernel.c)                                                     */
/*===----------------------------------------------------------------------===*/

/* Encodes into `map` a tiled TMA tensor map of the `rank`-dimensional tensor
   at `address` (1 to 5 dimensions) whose `sizes`, `strides` (in elements)
   and `box` are outermost first, as MLIR gives them; the driver takes them
   innermost first, the strides in bytes and without the innermost one.
   Every element stride is 1. On failure sets the message and returns
   GPUCG_ERROR_NO_DRIVER (a driver without cuTensorMapEncodeTiled) or the
   driver's error. */
gpucg_status gpucg_encode_tensor_map(
    CUtensorMap *map, CUtensorMapDataType dataType, int elementBytes, int rank,
    void *address, const int64_t *sizes, const int64_t *strides,
    const int64_t *box, CUtensorMapInterleave interleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
    CUtensorMapFloatOOBfill oobFill);

#endif /* GPUCG_RUNTIME_INTERNAL_H */
