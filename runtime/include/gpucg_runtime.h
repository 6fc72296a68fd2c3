/*===- gpucg_runtime.h - Load and launch gpucg kernels from C --------------===*\
|*                                                                            *|
|* The C11 API of libgpucg_cuda_runtime.so for programs that launch a kernel  *|
|* that `gpucg-compile` wrote (a binary plus its `.abi` file, docs/ABI.md)     *|
|* without MLIR. The library reaches the CUDA driver through                  *|
|* dlopen("libcuda.so.1"): it builds and links on machines without a GPU or   *|
|* driver, and every entry point then fails with GPUCG_ERROR_NO_DRIVER and a  *|
|* message instead of aborting.                                               *|
|*                                                                            *|
|* Errors: every function returns a gpucg_status; on failure,                 *|
|* gpucg_last_error() (per thread) names the failing call and, for a driver   *|
|* error, CUDA's own error name and string, e.g.                              *|
|*   "cuModuleLoadData(matmul_kernel.cubin): CUDA_ERROR_INVALID_IMAGE         *|
|*    (device kernel image is invalid)".                                      *|
|* Nothing in the library exits or aborts the process.                        *|
|*                                                                            *|
|* Device pointers are CUdeviceptr values carried as uint64_t and streams     *|
|* are CUstream values carried as void *, so this header needs no cuda.h.     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GPUCG_RUNTIME_H
#define GPUCG_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define GPUCG_RUNTIME_EXPORT __attribute__((visibility("default")))
#else
#define GPUCG_RUNTIME_EXPORT
#endif

/*===----------------------------------------------------------------------===*/
/* Status and errors                                                          */
/*===----------------------------------------------------------------------===*/

typedef enum gpucg_status {
  GPUCG_SUCCESS = 0,
  /* libcuda.so.1 could not be loaded, lacks a symbol, or cuInit failed
     (no GPU, no driver). */
  GPUCG_ERROR_NO_DRIVER = 1,
  /* A CUDA driver call failed; the message has CUDA's error name. */
  GPUCG_ERROR_CUDA = 2,
  /* A file could not be opened or read. */
  GPUCG_ERROR_IO = 3,
  /* An .abi file is malformed or of an unknown version. */
  GPUCG_ERROR_ABI = 4,
  /* The caller's arguments do not match the kernel's ABI (count, rank,
     a size that a static shape fixes, a null pointer, ...). */
  GPUCG_ERROR_INVALID_ARGUMENT = 5,
  /* Out of host memory. */
  GPUCG_ERROR_OUT_OF_MEMORY = 6,
} gpucg_status;

/* The message of this thread's last failure ("" when none). Valid until the
   thread's next call into the library. */
GPUCG_RUNTIME_EXPORT const char *gpucg_last_error(void);

/* A short name of a status ("GPUCG_ERROR_CUDA"). */
GPUCG_RUNTIME_EXPORT const char *gpucg_status_name(gpucg_status status);

/*===----------------------------------------------------------------------===*/
/* Device                                                                     */
/*===----------------------------------------------------------------------===*/

/* Loads the driver, calls cuInit, and makes the primary context of device
   `ordinal` current on the calling thread. Idempotent per ordinal; every
   other function that needs a context calls it with ordinal 0 (or the one
   given here first, or GPUCG_DEVICE in the environment) when none is set. */
GPUCG_RUNTIME_EXPORT gpucg_status gpucg_init(int ordinal);

/* Number of CUDA devices (0 when the driver loads but sees none). */
GPUCG_RUNTIME_EXPORT gpucg_status gpucg_device_count(int *count);

typedef struct gpucg_device_info {
  char name[256];
  int compute_capability_major;
  int compute_capability_minor;
  int multiprocessor_count;
  int driver_version; /* cuDriverGetVersion: 1000 * major + 10 * minor */
  size_t total_memory_bytes;
  int max_shared_memory_per_block_optin;
  int l2_cache_bytes;
} gpucg_device_info;

/* Facts of the current device (after gpucg_init). */
GPUCG_RUNTIME_EXPORT gpucg_status gpucg_device_get_info(gpucg_device_info *info);

/* Device memory and copies (synchronous, on the current context). */
GPUCG_RUNTIME_EXPORT gpucg_status gpucg_malloc(uint64_t *device_pointer,
                                               size_t bytes);
GPUCG_RUNTIME_EXPORT gpucg_status gpucg_free(uint64_t device_pointer);
GPUCG_RUNTIME_EXPORT gpucg_status gpucg_copy_to_device(uint64_t dst,
                                                       const void *src,
                                                       size_t bytes);
GPUCG_RUNTIME_EXPORT gpucg_status gpucg_copy_to_host(void *dst, uint64_t src,
                                                     size_t bytes);
GPUCG_RUNTIME_EXPORT gpucg_status gpucg_memset(uint64_t dst, unsigned char value,
                                               size_t bytes);
GPUCG_RUNTIME_EXPORT gpucg_status gpucg_synchronize(void);

/*===----------------------------------------------------------------------===*/
/* The kernel ABI file (docs/ABI.md), parsed without a GPU                    */
/*===----------------------------------------------------------------------===*/

#define GPUCG_ABI_MAX_RANK 8
#define GPUCG_ABI_MAX_NAME 256

typedef enum gpucg_abi_format {
  GPUCG_ABI_FORMAT_CUBIN = 0,
  GPUCG_ABI_FORMAT_PTX = 1,
  GPUCG_ABI_FORMAT_FATBIN = 2,
  GPUCG_ABI_FORMAT_BC = 3, /* LLVM bitcode: described, not loadable */
} gpucg_abi_format;

typedef enum gpucg_abi_calling_convention {
  GPUCG_ABI_BARE_POINTERS = 0,
  GPUCG_ABI_MEMREF_DESCRIPTORS = 1,
} gpucg_abi_calling_convention;

/* One `grid_x|y|z` line: a constant, or a product of up to
   GPUCG_ABI_MAX_GRID_TERMS run-time sizes, each `argN.dimD` or `ceildiv
   argN.dimD S`, and optionally a constant last (`argN.dimD * argM.dimE *
   C`: grid z of batch loops, some of them dynamic). The kind and the
   fields below describe the first size; `size_factors` the others. */
#define GPUCG_ABI_MAX_GRID_TERMS 3
typedef enum gpucg_abi_extent_kind {
  GPUCG_ABI_EXTENT_CONSTANT = 0,
  GPUCG_ABI_EXTENT_DIM = 1,
  GPUCG_ABI_EXTENT_CEILDIV = 2,
  /* A `result` size of `?`: known only to the caller. */
  GPUCG_ABI_EXTENT_UNKNOWN = 3,
} gpucg_abi_extent_kind;

/* A run-time size of a grid formula after its first: `argN.dimD` (divisor
   1) or `ceildiv argN.dimD S`. */
typedef struct gpucg_abi_size_factor {
  int function_argument; /* N of argN */
  int dim;               /* D of dimD */
  int64_t divisor;       /* S; 1 for argN.dimD */
} gpucg_abi_size_factor;

typedef struct gpucg_abi_extent {
  gpucg_abi_extent_kind kind;
  int64_t value;         /* CONSTANT: the extent; CEILDIV: the divisor S */
  int function_argument; /* DIM, CEILDIV: N of argN */
  int dim;               /* DIM, CEILDIV: D of dimD */
  int64_t factor;        /* DIM, CEILDIV: C of `* C`; 1 without */
  /* DIM, CEILDIV (grid lines): the sizes the first is multiplied by, in
     the line's order; 0 to GPUCG_ABI_MAX_GRID_TERMS - 1 of them. */
  int num_size_factors;
  gpucg_abi_size_factor size_factors[GPUCG_ABI_MAX_GRID_TERMS - 1];
} gpucg_abi_extent;

typedef enum gpucg_abi_argument_kind {
  GPUCG_ABI_ARGUMENT_MEMREF = 0,
  GPUCG_ABI_ARGUMENT_SCALAR = 1,
  /* A TMA tensor map the launcher encodes on the function argument (a
     memref of `shape`): one pointer parameter to the 128-byte map in device
     memory. */
  GPUCG_ABI_ARGUMENT_TENSOR_MAP = 2,
} gpucg_abi_argument_kind;

/* One `argument I function_argument J TYPE` line. */
typedef struct gpucg_abi_argument {
  int function_argument; /* J */
  gpucg_abi_argument_kind kind;
  char element_type[32]; /* MLIR spelling: f16, bf16, f32, i8, index, ... */
  int element_bits;      /* 16, 32, ...; index is 64; 0 if unknown */
  int rank;              /* memrefs; 0 for `scalar` shapes and scalars */
  int64_t shape[GPUCG_ABI_MAX_RANK]; /* -1 for `?` */
  /* Tensor maps: the box, outermost first (`box_rank` sizes), and the
     swizzle in bytes (0 for none, 32, 64 or 128). A box of fewer sizes than
     `rank` is one of the tensor with its leading `rank - box_rank + 1`
     dimensions collapsed into one (a batch's matrices, their rows
     stacked). */
  int64_t box[GPUCG_ABI_MAX_RANK];
  int box_rank;
  int swizzle_bytes;
  /* A `result J D0 D1 ...` line names this argument's function argument:
     an output the source function returned as a new tensor. Its sizes, one
     per dimension: CONSTANT, DIM (a size of an input, argN.dimD) or
     UNKNOWN (`?`). */
  int is_result;
  gpucg_abi_extent result_shape[GPUCG_ABI_MAX_RANK];
} gpucg_abi_argument;

typedef struct gpucg_abi {
  int version;
  char function[GPUCG_ABI_MAX_NAME];
  char kernel[GPUCG_ABI_MAX_NAME];
  char binary[GPUCG_ABI_MAX_NAME]; /* file name, relative to the .abi */
  gpucg_abi_format format;
  char chip[32];
  gpucg_abi_calling_convention calling_convention;
  gpucg_abi_extent grid[3];
  unsigned block[3];
  size_t dynamic_shared_memory;
  int num_arguments;
  gpucg_abi_argument *arguments; /* num_arguments entries, launch order */
} gpucg_abi;

/* Parses an .abi file. On success *abi is owned by the caller
   (gpucg_abi_destroy). Errors name the file, the line number and what is
   wrong with it. Needs no GPU or driver. */
GPUCG_RUNTIME_EXPORT gpucg_status gpucg_abi_read(const char *path,
                                                 gpucg_abi **abi);
GPUCG_RUNTIME_EXPORT void gpucg_abi_destroy(gpucg_abi *abi);

/*===----------------------------------------------------------------------===*/
/* Kernels                                                                    */
/*===----------------------------------------------------------------------===*/

typedef struct gpucg_kernel gpucg_kernel;

/* Reads `abi_path` and the binary it names (same directory), loads the
   module (cubin, fatbin, or PTX through the driver's JIT), looks up the
   kernel symbol, and opts in to the dynamic shared memory the ABI gives
   (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) when above 48 KB. */
GPUCG_RUNTIME_EXPORT gpucg_status gpucg_kernel_load(const char *abi_path,
                                                    gpucg_kernel **kernel);
GPUCG_RUNTIME_EXPORT void gpucg_kernel_unload(gpucg_kernel *kernel);

/* The parsed ABI of a loaded kernel (owned by the kernel). */
GPUCG_RUNTIME_EXPORT const gpucg_abi *
gpucg_kernel_get_abi(const gpucg_kernel *kernel);

typedef struct gpucg_kernel_attributes {
  int registers_per_thread;  /* CU_FUNC_ATTRIBUTE_NUM_REGS */
  int static_shared_bytes;   /* CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES */
  int dynamic_shared_bytes;  /* from the ABI */
  int local_bytes_per_thread; /* CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES */
  int max_threads_per_block; /* CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK */
} gpucg_kernel_attributes;

GPUCG_RUNTIME_EXPORT gpucg_status gpucg_kernel_get_attributes(
    const gpucg_kernel *kernel, gpucg_kernel_attributes *attributes);

/* One argument of the source (host) function, indexed by its position in
   the function's signature (the ABI's `function_argument J`). */
typedef struct gpucg_argument {
  /* Memrefs: the device pointer (16-byte aligned, docs/ABI.md) and the
     sizes, outermost first (`rank` of them; must equal every static size of
     the ABI's shape). `sizes` may be NULL for a fully static shape. */
  uint64_t device_pointer;
  int rank;
  const int64_t *sizes;
  /* Scalars: the value's bits, little-endian in the low bytes. */
  uint64_t scalar_bits;
} gpucg_argument;

/* Launches `kernel` on `stream` (a CUstream; NULL for the default stream)
   with the function's arguments `arguments[0 .. num_arguments)`: computes
   the grid from the ABI (dynamic sizes from `sizes`), builds the parameters
   for the ABI's calling convention (encoding the ABI's tensor maps on the
   arguments they name; the kernel keeps each distinct map in device memory
   until it is unloaded), checks them, and calls cuLaunchKernel.
   Asynchronous: errors of the kernel itself surface at the next
   synchronizing call. Reports the grid it launched when `grid` is not
   NULL. */
GPUCG_RUNTIME_EXPORT gpucg_status gpucg_kernel_launch(
    gpucg_kernel *kernel, const gpucg_argument *arguments, int num_arguments,
    void *stream, unsigned grid[3]);

#ifdef __cplusplus
}
#endif

#endif /* GPUCG_RUNTIME_H */
