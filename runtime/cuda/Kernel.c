/*===- Kernel.c - Load a gpucg kernel from its ABI file and launch it -----===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* A launch turns the host function's arguments into the kernel parameters   *|
|* of the ABI's calling convention (docs/ABI.md) and checks them against the  *|
|* ABI first, so that a wrong call is an error message, not a fault on the    *|
|* GPU: everything but cuLaunchKernel itself happens without the driver.     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Above this, dynamic shared memory needs the function's opt-in. */
#define GPUCG_STATIC_SHARED_MEMORY_LIMIT (48 * 1024)
/* docs/ABI.md: kernels use 128-bit accesses from every memref pointer. */
#define GPUCG_POINTER_ALIGNMENT 16

/* A tensor map in device memory, where the kernel's pointer parameter
   reads it. */
typedef struct DeviceTensorMap {
  /* The map's bytes (not a CUtensorMap, whose 128-byte alignment malloc
     does not give the kernel). */
  uint64_t map[sizeof(CUtensorMap) / sizeof(uint64_t)];
  CUdeviceptr device;
} DeviceTensorMap;

/* The distinct tensor maps a kernel keeps; a launch that needs another one
   once all are taken waits for the context and rewrites one in turn. */
#define GPUCG_MAX_DEVICE_TENSOR_MAPS 64

struct gpucg_kernel {
  gpucg_abi *abi;
  char *binaryPath;
  CUcontext context; /* the context the module was loaded into */
  CUmodule module;
  CUfunction function;
  /* Tensor maps of earlier launches. A map is never rewritten while a
     launch may read it: new maps get new memory, and reusing one
     synchronizes the context first. */
  DeviceTensorMap tensorMaps[GPUCG_MAX_DEVICE_TENSOR_MAPS];
  int numTensorMaps;
  int nextReused;
};

/*===----------------------------------------------------------------------===*/
/* Loading                                                                    */
/*===----------------------------------------------------------------------===*/

/* `abiPath`'s directory joined with the ABI's `binary` file name. */
static char *binaryPathOf(const char *abiPath, const char *binary) {
  const char *slash = strrchr(abiPath, '/');
  size_t directory = slash ? (size_t)(slash - abiPath) + 1 : 0;
  size_t length = directory + strlen(binary);
  char *path = malloc(length + 1);
  if (!path)
    return NULL;
  memcpy(path, abiPath, directory);
  strcpy(path + directory, binary);
  return path;
}

/* The whole file plus a NUL (the driver's JIT wants PTX NUL-terminated;
   gpucg writes it without one). */
static gpucg_status readBinary(const char *path, char **data, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return gpucg_fail(GPUCG_ERROR_IO, "cannot open %s: %s", path,
                      strerror(errno));
  struct stat status;
  if (fstat(fileno(file), &status) != 0 || !S_ISREG(status.st_mode)) {
    fclose(file);
    return gpucg_fail(GPUCG_ERROR_IO, "cannot read %s: not a regular file",
                      path);
  }
  size_t length = (size_t)status.st_size;
  char *bytes = malloc(length + 1);
  if (!bytes) {
    fclose(file);
    return gpucg_fail(GPUCG_ERROR_OUT_OF_MEMORY,
                      "no memory to read %s (%zu bytes)", path, length);
  }
  size_t read = fread(bytes, 1, length, file);
  fclose(file);
  if (read != length) {
    free(bytes);
    return gpucg_fail(GPUCG_ERROR_IO, "cannot read %s", path);
  }
  bytes[length] = '\0';
  *data = bytes;
  *size = length;
  return GPUCG_SUCCESS;
}

/* Little-endian fields of an ELF64 header or section header. */
static uint64_t readLittleEndian(const unsigned char *at, int bytes) {
  uint64_t value = 0;
  for (int i = bytes - 1; i >= 0; --i)
    value = value << 8 | at[i];
  return value;
}

/* The structure of a 64-bit little-endian ELF file (a cubin), within `size`
   bytes: its header, the program and section header tables, and every
   section's contents. The driver trusts these offsets: given a cubin cut
   short, cuModuleLoadData reads past the buffer and the process dies
   (seen with driver 580 on an H100). */
static gpucg_status checkElf(const gpucg_kernel *kernel,
                             const unsigned char *data, size_t size) {
  const char *path = kernel->binaryPath;
  enum { headerSize = 64, sectionHeaderSize = 64, noBits = 8 };
  if (size < headerSize)
    return gpucg_fail(GPUCG_ERROR_ABI,
                      "%s is a truncated cubin: %zu bytes, less than the "
                      "64-byte ELF header",
                      path, size);
  if (data[4] != 2 || data[5] != 1)
    return gpucg_fail(GPUCG_ERROR_ABI,
                      "%s is not a cubin: not a 64-bit little-endian ELF file",
                      path);
  uint64_t phoff = readLittleEndian(data + 32, 8);
  uint64_t shoff = readLittleEndian(data + 40, 8);
  uint64_t phentsize = readLittleEndian(data + 54, 2);
  uint64_t phnum = readLittleEndian(data + 56, 2);
  uint64_t shentsize = readLittleEndian(data + 58, 2);
  uint64_t shnum = readLittleEndian(data + 60, 2);
  /* Each product is below 2^32 (16-bit factors): no overflow. */
  if (phoff > size || phentsize * phnum > size - phoff)
    return gpucg_fail(GPUCG_ERROR_ABI,
                      "%s is a truncated cubin: its %" PRIu64
                      " program headers end past its %zu bytes",
                      path, phnum, size);
  if (shoff > size || shentsize * shnum > size - shoff)
    return gpucg_fail(GPUCG_ERROR_ABI,
                      "%s is a truncated cubin: its %" PRIu64
                      " section headers end past its %zu bytes",
                      path, shnum, size);
  if (shnum > 0 && shentsize < sectionHeaderSize)
    return gpucg_fail(GPUCG_ERROR_ABI,
                      "%s is not a cubin: section headers of %" PRIu64
                      " bytes, not 64",
                      path, shentsize);
  for (uint64_t i = 0; i < shnum; ++i) {
    const unsigned char *header = data + shoff + i * shentsize;
    uint64_t type = readLittleEndian(header + 4, 4);
    uint64_t offset = readLittleEndian(header + 24, 8);
    uint64_t bytes = readLittleEndian(header + 32, 8);
    if (type != noBits && (offset > size || bytes > size - offset))
      return gpucg_fail(GPUCG_ERROR_ABI,
                        "%s is a truncated cubin: section %" PRIu64
                        " (%" PRIu64 " bytes at offset %" PRIu64
                        ") ends past its %zu bytes",
                        path, i, bytes, offset, size);
  }
  return GPUCG_SUCCESS;
}

/* What can be told about the binary without the driver. */
static gpucg_status checkBinary(const gpucg_kernel *kernel, const char *data,
                                size_t size, const char *abiPath) {
  switch (kernel->abi->format) {
  case GPUCG_ABI_FORMAT_BC:
    return gpucg_fail(GPUCG_ERROR_ABI,
                      "%s: format bc (LLVM bitcode) cannot be loaded by the "
                      "CUDA driver; compile with format=bin, isa or fatbin",
                      abiPath);
  case GPUCG_ABI_FORMAT_CUBIN:
    if (size < 4 || memcmp(data, "\177ELF", 4) != 0)
      return gpucg_fail(GPUCG_ERROR_ABI,
                        "%s is not a cubin (no ELF header), but %s says "
                        "'format cubin'",
                        kernel->binaryPath, abiPath);
    return checkElf(kernel, (const unsigned char *)data, size);
  case GPUCG_ABI_FORMAT_PTX:
    if (size == 0 || strlen(data) != size)
      return gpucg_fail(GPUCG_ERROR_ABI,
                        "%s is not PTX text (%s), but %s says 'format ptx'",
                        kernel->binaryPath, size ? "it has NUL bytes" : "empty",
                        abiPath);
    return GPUCG_SUCCESS;
  case GPUCG_ABI_FORMAT_FATBIN:
    if (size == 0)
      return gpucg_fail(GPUCG_ERROR_ABI, "%s is empty", kernel->binaryPath);
    return GPUCG_SUCCESS;
  }
  return GPUCG_SUCCESS;
}

/* Compiles PTX with the driver's JIT; its error log goes into the
   message. */
static gpucg_status loadPtx(gpucg_kernel *kernel, const char *ptx) {
  char log[2048] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, (void *)(uintptr_t)sizeof(log)};
  CUresult result = gpucg_cuda.cuModuleLoadDataEx(&kernel->module, ptx, 2,
                                                  options, values);
  if (result == CUDA_SUCCESS)
    return GPUCG_SUCCESS;
  log[sizeof(log) - 1] = '\0';
  size_t length = strlen(log);
  while (length && (log[length - 1] == '\n' || log[length - 1] == ' '))
    log[--length] = '\0';
  gpucg_status status =
      gpucg_fail_cuda(result, "cuModuleLoadDataEx(%s)", kernel->binaryPath);
  if (length) {
    char message[1024];
    snprintf(message, sizeof(message), "%s", gpucg_last_error());
    gpucg_fail(status, "%s: JIT log: %s", message, log);
  }
  return status;
}

static gpucg_status optInSharedMemory(gpucg_kernel *kernel) {
  size_t bytes = kernel->abi->dynamic_shared_memory;
  if (bytes <= GPUCG_STATIC_SHARED_MEMORY_LIMIT)
    return GPUCG_SUCCESS;
  CUresult result = gpucg_cuda.cuFuncSetAttribute(
      kernel->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
      (int)bytes);
  if (result == CUDA_SUCCESS)
    return GPUCG_SUCCESS;
  gpucg_status status = gpucg_fail_cuda(
      result, "cuFuncSetAttribute(%s, MAX_DYNAMIC_SHARED_SIZE_BYTES, %zu)",
      kernel->abi->kernel, bytes);
  /* Say what the device allows. */
  CUdevice device;
  int limit = 0;
  if (gpucg_cuda.cuCtxGetDevice(&device) == CUDA_SUCCESS &&
      gpucg_cuda.cuDeviceGetAttribute(
          &limit, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
          device) == CUDA_SUCCESS) {
    char message[2048];
    snprintf(message, sizeof(message), "%s; the device allows %d bytes per "
                                       "block (opt-in)",
             gpucg_last_error(), limit);
    gpucg_fail(status, "%s", message);
  }
  return status;
}

static gpucg_status loadModule(gpucg_kernel *kernel, const char *data) {
  gpucg_status status = gpucg_ensure_context();
  if (status != GPUCG_SUCCESS)
    return status;
  CUresult result = gpucg_cuda.cuCtxGetCurrent(&kernel->context);
  if (result != CUDA_SUCCESS)
    return gpucg_fail_cuda(result, "cuCtxGetCurrent");
  if (kernel->abi->format == GPUCG_ABI_FORMAT_PTX)
    status = loadPtx(kernel, data);
  else if ((result = gpucg_cuda.cuModuleLoadData(&kernel->module, data)) !=
           CUDA_SUCCESS)
    status = gpucg_fail_cuda(result, "cuModuleLoadData(%s)",
                             kernel->binaryPath);
  if (status != GPUCG_SUCCESS)
    return status;
  result = gpucg_cuda.cuModuleGetFunction(&kernel->function, kernel->module,
                                          kernel->abi->kernel);
  if (result != CUDA_SUCCESS)
    return gpucg_fail_cuda(result, "cuModuleGetFunction(%s) in %s",
                           kernel->abi->kernel, kernel->binaryPath);
  return optInSharedMemory(kernel);
}

gpucg_status gpucg_kernel_load(const char *abi_path, gpucg_kernel **kernel) {
  if (!abi_path || !kernel)
    return gpucg_fail(GPUCG_ERROR_INVALID_ARGUMENT,
                      "gpucg_kernel_load: %s is NULL",
                      abi_path ? "kernel" : "abi_path");
  *kernel = NULL;
  gpucg_kernel *result = calloc(1, sizeof(gpucg_kernel));
  if (!result)
    return gpucg_fail(GPUCG_ERROR_OUT_OF_MEMORY, "no memory to load %s",
                      abi_path);
  char *data = NULL;
  size_t size = 0;
  gpucg_status status = gpucg_abi_read(abi_path, &result->abi);
  if (status == GPUCG_SUCCESS &&
      !(result->binaryPath = binaryPathOf(abi_path, result->abi->binary)))
    status = gpucg_fail(GPUCG_ERROR_OUT_OF_MEMORY, "no memory to load %s",
                        abi_path);
  if (status == GPUCG_SUCCESS)
    status = readBinary(result->binaryPath, &data, &size);
  if (status == GPUCG_SUCCESS)
    status = checkBinary(result, data, size, abi_path);
  if (status == GPUCG_SUCCESS)
    status = loadModule(result, data);
  free(data);
  if (status != GPUCG_SUCCESS) {
    gpucg_kernel_unload(result);
    return status;
  }
  *kernel = result;
  return GPUCG_SUCCESS;
}

void gpucg_kernel_unload(gpucg_kernel *kernel) {
  if (!kernel)
    return;
  if (kernel->module) {
    /* A module is unloaded from its own context. */
    CUcontext current = NULL;
    gpucg_cuda.cuCtxGetCurrent(&current);
    if (current != kernel->context)
      gpucg_cuda.cuCtxSetCurrent(kernel->context);
    for (int i = 0; i < kernel->numTensorMaps; ++i)
      gpucg_cuda.cuMemFree_v2(kernel->tensorMaps[i].device);
    CUresult result = gpucg_cuda.cuModuleUnload(kernel->module);
    if (result != CUDA_SUCCESS && result != CUDA_ERROR_DEINITIALIZED)
      gpucg_fail_cuda(result, "cuModuleUnload(%s)", kernel->binaryPath);
    if (current != kernel->context)
      gpucg_cuda.cuCtxSetCurrent(current);
  }
  gpucg_abi_destroy(kernel->abi);
  free(kernel->binaryPath);
  free(kernel);
}

const gpucg_abi *gpucg_kernel_get_abi(const gpucg_kernel *kernel) {
  return kernel ? kernel->abi : NULL;
}

gpucg_status gpucg_kernel_get_attributes(const gpucg_kernel *kernel,
                                         gpucg_kernel_attributes *attributes) {
  if (!kernel || !attributes)
    return gpucg_fail(GPUCG_ERROR_INVALID_ARGUMENT,
                      "gpucg_kernel_get_attributes: %s is NULL",
                      kernel ? "attributes" : "kernel");
  memset(attributes, 0, sizeof(*attributes));
  static const struct {
    CUfunction_attribute attribute;
    const char *name;
    size_t offset;
  } queries[] = {
      {CU_FUNC_ATTRIBUTE_NUM_REGS, "NUM_REGS",
       offsetof(gpucg_kernel_attributes, registers_per_thread)},
      {CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, "SHARED_SIZE_BYTES",
       offsetof(gpucg_kernel_attributes, static_shared_bytes)},
      {CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, "LOCAL_SIZE_BYTES",
       offsetof(gpucg_kernel_attributes, local_bytes_per_thread)},
      {CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "MAX_THREADS_PER_BLOCK",
       offsetof(gpucg_kernel_attributes, max_threads_per_block)},
  };
  for (size_t i = 0; i < sizeof(queries) / sizeof(queries[0]); ++i) {
    int value = 0;
    CUresult result = gpucg_cuda.cuFuncGetAttribute(
        &value, queries[i].attribute, kernel->function);
    if (result != CUDA_SUCCESS)
      return gpucg_fail_cuda(result, "cuFuncGetAttribute(%s, %s)",
                             kernel->abi->kernel, queries[i].name);
    memcpy((char *)attributes + queries[i].offset, &value, sizeof(value));
  }
  attributes->dynamic_shared_bytes = (int)kernel->abi->dynamic_shared_memory;
  return GPUCG_SUCCESS;
}

/*===----------------------------------------------------------------------===*/
/* Launching                                                                  */
/*===----------------------------------------------------------------------===*/

/* The kernel parameters of one launch: each a 64-bit slot, little-endian, so
   that the driver reads the parameter's own width from its start. */
typedef struct LaunchParameters {
  int count;
  uint64_t *slots;
  void **pointers;
} LaunchParameters;

/* "memref f16 128x?" or "scalar i32". */
static void describeType(const gpucg_abi_argument *argument, char *text,
                         size_t capacity) {
  if (argument->kind == GPUCG_ABI_ARGUMENT_SCALAR) {
    snprintf(text, capacity, "scalar %s", argument->element_type);
    return;
  }
  size_t used = (size_t)snprintf(
      text, capacity, "%s %s %s",
      argument->kind == GPUCG_ABI_ARGUMENT_TENSOR_MAP ? "tensor_map" : "memref",
      argument->element_type, argument->rank ? "" : "scalar");
  for (int d = 0; d < argument->rank && used < capacity; ++d) {
    char size[24];
    if (argument->shape[d] < 0)
      strcpy(size, "?");
    else
      snprintf(size, sizeof(size), "%lld", (long long)argument->shape[d]);
    used += (size_t)snprintf(text + used, capacity - used, "%s%s",
                             d ? "x" : "", size);
  }
}

/* Sets "gpucg_kernel_launch(K): function argument J (kernel argument I,
   TYPE): <what>" and returns GPUCG_ERROR_INVALID_ARGUMENT. */
static gpucg_status argumentError(const gpucg_abi *abi, int index,
                                  const char *format, ...) GPUCG_PRINTF(3, 4);

static gpucg_status argumentError(const gpucg_abi *abi, int index,
                                  const char *format, ...) {
  char what[1024], type[160];
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(what, sizeof(what), format, arguments);
  va_end(arguments);
  const gpucg_abi_argument *argument = &abi->arguments[index];
  describeType(argument, type, sizeof(type));
  return gpucg_fail(GPUCG_ERROR_INVALID_ARGUMENT,
                    "gpucg_kernel_launch(%s): function argument %d (kernel "
                    "argument %d, %s): %s",
                    abi->kernel, argument->function_argument, index, type,
                    what);
}

/* The number of host-function arguments the ABI reads: one more than the
   largest function_argument or argN of a grid size. */
static int neededArguments(const gpucg_abi *abi) {
  int needed = 0;
  for (int i = 0; i < abi->num_arguments; ++i)
    if (abi->arguments[i].function_argument + 1 > needed)
      needed = abi->arguments[i].function_argument + 1;
  for (int axis = 0; axis < 3; ++axis)
    if (abi->grid[axis].kind != GPUCG_ABI_EXTENT_CONSTANT &&
        abi->grid[axis].function_argument + 1 > needed)
      needed = abi->grid[axis].function_argument + 1;
  return needed;
}

/* A memref argument's rank, sizes, pointer and alignment against the ABI;
   fills `sizes` (the given ones, or the ABI's static shape). */
static gpucg_status checkMemref(const gpucg_abi *abi, int index,
                                const gpucg_argument *given,
                                int64_t sizes[GPUCG_ABI_MAX_RANK]) {
  const gpucg_abi_argument *argument = &abi->arguments[index];
  if (given->rank != argument->rank)
    return argumentError(abi, index, "rank %d given, the ABI says %d",
                         given->rank, argument->rank);
  for (int d = 0; d < argument->rank; ++d) {
    int64_t expected = argument->shape[d];
    if (!given->sizes) {
      if (expected < 0)
        return argumentError(abi, index,
                             "sizes is NULL, but size %d is dynamic", d);
      sizes[d] = expected;
      continue;
    }
    sizes[d] = given->sizes[d];
    if (sizes[d] < 0)
      return argumentError(abi, index, "size %d is %lld, which is negative",
                           d, (long long)sizes[d]);
    if (expected >= 0 && sizes[d] != expected)
      return argumentError(abi, index, "size %d is %lld, the ABI fixes it to "
                                       "%lld",
                           d, (long long)sizes[d], (long long)expected);
  }
  if (!given->device_pointer)
    return argumentError(abi, index, "the device pointer is null");
  if (given->device_pointer % GPUCG_POINTER_ALIGNMENT)
    return argumentError(abi, index,
                         "device pointer 0x%llx is not a multiple of %d bytes "
                         "(docs/ABI.md: Alignment)",
                         (unsigned long long)given->device_pointer,
                         GPUCG_POINTER_ALIGNMENT);
  return GPUCG_SUCCESS;
}

/* Size D of function argument N: the given size, else the static one of a
   kernel argument that is function argument N. */
static gpucg_status gridSize(const gpucg_abi *abi,
                             const gpucg_argument *arguments, char axis,
                             const gpucg_abi_size_factor *term, int64_t *size) {
  const gpucg_argument *given = &arguments[term->function_argument];
  char why[64];
  if (given->sizes && given->rank > term->dim) {
    *size = given->sizes[term->dim];
    if (*size >= 0)
      return GPUCG_SUCCESS;
    snprintf(why, sizeof(why), "which is %lld", (long long)*size);
  } else if (given->sizes) {
    snprintf(why, sizeof(why), "which has rank %d", given->rank);
  } else {
    for (int i = 0; i < abi->num_arguments; ++i) {
      const gpucg_abi_argument *argument = &abi->arguments[i];
      if (argument->function_argument == term->function_argument &&
          argument->kind != GPUCG_ABI_ARGUMENT_SCALAR &&
          term->dim < argument->rank && argument->shape[term->dim] >= 0) {
        *size = argument->shape[term->dim];
        return GPUCG_SUCCESS;
      }
    }
    snprintf(why, sizeof(why), "whose sizes are NULL");
  }
  return gpucg_fail(GPUCG_ERROR_INVALID_ARGUMENT,
                    "gpucg_kernel_launch(%s): grid_%c needs size %d of "
                    "function argument %d, %s",
                    abi->kernel, axis, term->dim, term->function_argument, why);
}

static gpucg_status computeGrid(const gpucg_abi *abi,
                                const gpucg_argument *arguments,
                                unsigned grid[3]) {
  static const char axes[] = "xyz";
  static const int64_t limits[3] = {2147483647, 65535, 65535};
  for (int axis = 0; axis < 3; ++axis) {
    const gpucg_abi_extent *extent = &abi->grid[axis];
    int64_t value = extent->value;
    if (extent->kind != GPUCG_ABI_EXTENT_CONSTANT) {
      /* The product of the sizes' counts and the factor, saturated at
         INT64_MAX (each count may be up to 2^63 - 1); 0 where a count
         is. */
      value = extent->factor;
      for (int i = 0; i < gpucg_abi_grid_term_count(extent); ++i) {
        gpucg_abi_size_factor term = gpucg_abi_grid_term(extent, i);
        int64_t size = 0;
        gpucg_status status =
            gridSize(abi, arguments, axes[axis], &term, &size);
        if (status != GPUCG_SUCCESS)
          return status;
        int64_t count = size / term.divisor + (size % term.divisor != 0);
        if (count == 0 || value == 0)
          value = 0;
        else if (value > INT64_MAX / count)
          value = INT64_MAX;
        else
          value *= count;
      }
    }
    if (value > limits[axis])
      return gpucg_fail(GPUCG_ERROR_INVALID_ARGUMENT,
                        "gpucg_kernel_launch(%s): grid_%c is %lld, more than "
                        "CUDA's %lld",
                        abi->kernel, axes[axis], (long long)value,
                        (long long)limits[axis]);
    grid[axis] = (unsigned)value;
  }
  return GPUCG_SUCCESS;
}

static int parameterCount(const gpucg_abi *abi) {
  int count = 0;
  for (int i = 0; i < abi->num_arguments; ++i) {
    const gpucg_abi_argument *argument = &abi->arguments[i];
    if (argument->kind == GPUCG_ABI_ARGUMENT_MEMREF &&
        abi->calling_convention == GPUCG_ABI_MEMREF_DESCRIPTORS)
      count += 3 + 2 * argument->rank;
    else
      count += 1;
  }
  return count;
}

/* Checks every argument and fills the parameters. */
static gpucg_status buildParameters(const gpucg_abi *abi,
                                    const gpucg_argument *arguments,
                                    LaunchParameters *parameters) {
  int count = parameterCount(abi);
  parameters->count = 0;
  parameters->slots = calloc((size_t)count + 1, sizeof(uint64_t));
  parameters->pointers = calloc((size_t)count + 1, sizeof(void *));
  if (!parameters->slots || !parameters->pointers)
    return gpucg_fail(GPUCG_ERROR_OUT_OF_MEMORY,
                      "gpucg_kernel_launch(%s): no memory for %d parameters",
                      abi->kernel, count);
  for (int i = 0; i < abi->num_arguments; ++i) {
    const gpucg_abi_argument *argument = &abi->arguments[i];
    const gpucg_argument *given = &arguments[argument->function_argument];
    uint64_t *slot = parameters->slots + parameters->count;
    if (argument->kind == GPUCG_ABI_ARGUMENT_SCALAR) {
      *slot++ = given->scalar_bits;
    } else if (argument->kind == GPUCG_ABI_ARGUMENT_TENSOR_MAP) {
      /* The map's device address, once the driver has encoded it
         (encodeTensorMaps). */
      int64_t sizes[GPUCG_ABI_MAX_RANK];
      gpucg_status status = checkMemref(abi, i, given, sizes);
      if (status != GPUCG_SUCCESS)
        return status;
      *slot++ = 0;
    } else {
      int64_t sizes[GPUCG_ABI_MAX_RANK];
      gpucg_status status = checkMemref(abi, i, given, sizes);
      if (status != GPUCG_SUCCESS)
        return status;
      *slot++ = given->device_pointer;
      if (abi->calling_convention == GPUCG_ABI_MEMREF_DESCRIPTORS) {
        *slot++ = given->device_pointer; /* aligned = allocated */
        *slot++ = 0;                     /* offset */
        for (int d = 0; d < argument->rank; ++d)
          *slot++ = (uint64_t)sizes[d];
        int64_t stride = 1;
        for (int d = argument->rank - 1; d >= 0; --d) {
          slot[d] = (uint64_t)stride;
          stride *= sizes[d];
        }
        slot += argument->rank;
      }
    }
    parameters->count = (int)(slot - parameters->slots);
  }
  for (int p = 0; p < parameters->count; ++p)
    parameters->pointers[p] = &parameters->slots[p];
  return GPUCG_SUCCESS;
}

/* The CUtensorMapDataType of elements of MLIR type `type`: integers as
   unsigned of their width (TMA copies bits), 8-bit floats as bytes. */
static int tensorMapDataType(const gpucg_abi_argument *argument) {
  const char *type = argument->element_type;
  if (strcmp(type, "f16") == 0)
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  if (strcmp(type, "bf16") == 0)
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  if (strcmp(type, "f32") == 0)
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  if (strcmp(type, "f64") == 0)
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  switch (argument->element_bits) {
  case 8:
    return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  case 16:
    return CU_TENSOR_MAP_DATA_TYPE_UINT16;
  case 32:
    return CU_TENSOR_MAP_DATA_TYPE_UINT32;
  case 64:
    return CU_TENSOR_MAP_DATA_TYPE_UINT64;
  default:
    return -1;
  }
}

gpucg_status gpucg_encode_tensor_map(
    CUtensorMap *map, CUtensorMapDataType dataType, int elementBytes, int rank,
    void *address, const int64_t *sizes, const int64_t *strides,
    const int64_t *box, CUtensorMapInterleave interleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
    CUtensorMapFloatOOBfill oobFill) {
  if (!gpucg_cuda.cuTensorMapEncodeTiled)
    return gpucg_fail(GPUCG_ERROR_NO_DRIVER,
                      "the CUDA driver has no cuTensorMapEncodeTiled (CUDA "
                      "12.0 and later)");
  cuuint64_t globalDim[5] = {1, 1, 1, 1, 1}, globalStrides[5] = {0};
  cuuint32_t boxDim[5] = {1, 1, 1, 1, 1}, elementStrides[5] = {1, 1, 1, 1, 1};
  for (int d = 0; d < rank; ++d) {
    int outer = rank - 1 - d;
    globalDim[d] = (cuuint64_t)sizes[outer];
    boxDim[d] = (cuuint32_t)box[outer];
    if (d + 1 < rank)
      globalStrides[d] = (cuuint64_t)(strides[outer - 1] * elementBytes);
  }
  memset(map, 0, sizeof(*map));
  CUresult result = gpucg_cuda.cuTensorMapEncodeTiled(
      map, dataType, (cuuint32_t)rank, address, globalDim, globalStrides,
      boxDim, elementStrides, interleave, swizzle, l2Promotion, oobFill);
  if (result != CUDA_SUCCESS)
    return gpucg_fail_cuda(result,
                           "cuTensorMapEncodeTiled(data type %d, "
                           "rank %d)",
                           (int)dataType, rank);
  return GPUCG_SUCCESS;
}

/* The device address of a copy of `map`: an earlier launch's, or a new one
   (reusing the oldest once GPUCG_MAX_DEVICE_TENSOR_MAPS are kept, after the
   context has finished every launch that could read it). */
static gpucg_status deviceTensorMap(gpucg_kernel *kernel,
                                    const CUtensorMap *map,
                                    CUdeviceptr *device) {
  for (int i = 0; i < kernel->numTensorMaps; ++i)
    if (memcmp(kernel->tensorMaps[i].map, map, sizeof(*map)) == 0) {
      *device = kernel->tensorMaps[i].device;
      return GPUCG_SUCCESS;
    }
  DeviceTensorMap *entry;
  CUresult result;
  if (kernel->numTensorMaps < GPUCG_MAX_DEVICE_TENSOR_MAPS) {
    entry = &kernel->tensorMaps[kernel->numTensorMaps];
    result = gpucg_cuda.cuMemAlloc_v2(&entry->device, sizeof(*map));
    if (result != CUDA_SUCCESS)
      return gpucg_fail_cuda(result,
                             "cuMemAlloc(%zu bytes for a tensor map "
                             "of %s)",
                             sizeof(*map), kernel->abi->kernel);
    ++kernel->numTensorMaps;
  } else {
    result = gpucg_cuda.cuCtxSynchronize();
    if (result != CUDA_SUCCESS)
      return gpucg_fail_cuda(result,
                             "cuCtxSynchronize (before reusing a "
                             "tensor map of %s)",
                             kernel->abi->kernel);
    entry = &kernel->tensorMaps[kernel->nextReused];
    kernel->nextReused =
        (kernel->nextReused + 1) % GPUCG_MAX_DEVICE_TENSOR_MAPS;
  }
  memcpy(entry->map, map, sizeof(*map));
  /* Synchronous, and waited for on the legacy stream, so that a launch on
     any stream reads the whole map. */
  result = gpucg_cuda.cuMemcpyHtoD_v2(entry->device, map, sizeof(*map));
  if (result == CUDA_SUCCESS)
    result = gpucg_cuda.cuStreamSynchronize(NULL);
  if (result != CUDA_SUCCESS)
    return gpucg_fail_cuda(result, "copying a tensor map of %s to the device",
                           kernel->abi->kernel);
  *device = entry->device;
  return GPUCG_SUCCESS;
}

/* Encodes each tensor-map argument on the function argument it names and
   puts the map's device address into its parameter slot. */
static gpucg_status encodeTensorMaps(gpucg_kernel *kernel,
                                     const gpucg_argument *arguments,
                                     LaunchParameters *parameters) {
  const gpucg_abi *abi = kernel->abi;
  int slot = 0;
  for (int i = 0; i < abi->num_arguments; ++i) {
    const gpucg_abi_argument *argument = &abi->arguments[i];
    int slots = argument->kind == GPUCG_ABI_ARGUMENT_MEMREF &&
                        abi->calling_convention == GPUCG_ABI_MEMREF_DESCRIPTORS
                    ? 3 + 2 * argument->rank
                    : 1;
    if (argument->kind != GPUCG_ABI_ARGUMENT_TENSOR_MAP) {
      slot += slots;
      continue;
    }
    int dataType = tensorMapDataType(argument);
    if (dataType < 0)
      return argumentError(abi, i, "no TMA data type for %d-bit elements",
                           argument->element_bits);
    const gpucg_argument *given = &arguments[argument->function_argument];
    int elementBytes = argument->element_bits / 8;
    /* The map's dimensions: the tensor's, its leading ones collapsed into
       the outermost when the box has fewer (`box_rank`). */
    int rank = argument->box_rank;
    int collapsed = argument->rank - rank;
    int64_t sizes[GPUCG_ABI_MAX_RANK], strides[GPUCG_ABI_MAX_RANK];
    for (int d = 0; d < rank; ++d)
      sizes[d] = 1;
    for (int d = 0; d < argument->rank; ++d) {
      int64_t size = given->sizes ? given->sizes[d] : argument->shape[d];
      int mapDim = d < collapsed ? 0 : d - collapsed;
      sizes[mapDim] *= size;
    }
    /* Row-major: each dimension's stride is the product of the inner
       sizes. */
    int64_t stride = 1;
    for (int d = rank - 1; d >= 0; --d) {
      strides[d] = stride;
      stride *= sizes[d];
    }
    /* TMA reads rows whose pitch is a multiple of 16 bytes (from a 16-byte
       aligned base, which buildParameters checked): a kernel compiled for a
       dynamic size takes only such sizes (the driver would refuse the map
       with less to say). */
    if (rank > 1 && sizes[rank - 1] * elementBytes % 16 != 0)
      return argumentError(
          abi, i,
          "its rows of %lld elements are %lld bytes apart; TMA reads rows "
          "at a pitch of a multiple of 16 bytes",
          (long long)sizes[rank - 1],
          (long long)(sizes[rank - 1] * elementBytes));
    int swizzle = argument->swizzle_bytes == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
                  : argument->swizzle_bytes == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                  : argument->swizzle_bytes == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                                  : CU_TENSOR_MAP_SWIZZLE_NONE;
    CUtensorMap map;
    gpucg_status encoded = gpucg_encode_tensor_map(
        &map, dataType, elementBytes, rank,
        (void *)(uintptr_t)given->device_pointer, sizes, strides, argument->box,
        CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE,
        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (encoded != GPUCG_SUCCESS)
      return encoded;
    CUdeviceptr device = 0;
    gpucg_status status = deviceTensorMap(kernel, &map, &device);
    if (status != GPUCG_SUCCESS)
      return status;
    parameters->slots[slot] = (uint64_t)device;
    slot += slots;
  }
  return GPUCG_SUCCESS;
}

gpucg_status gpucg_kernel_launch(gpucg_kernel *kernel,
                                 const gpucg_argument *arguments,
                                 int num_arguments, void *stream,
                                 unsigned grid[3]) {
  unsigned launchGrid[3] = {0, 0, 0};
  if (grid)
    memcpy(grid, launchGrid, sizeof(launchGrid));
  if (!kernel)
    return gpucg_fail(GPUCG_ERROR_INVALID_ARGUMENT,
                      "gpucg_kernel_launch: kernel is NULL");
  const gpucg_abi *abi = kernel->abi;
  int needed = neededArguments(abi);
  if (num_arguments < needed || (needed > 0 && !arguments))
    return gpucg_fail(GPUCG_ERROR_INVALID_ARGUMENT,
                      "gpucg_kernel_launch(%s): %d argument%s given%s, the "
                      "ABI reads function arguments 0 to %d (%d of them)",
                      abi->kernel, num_arguments,
                      num_arguments == 1 ? "" : "s",
                      arguments ? "" : " (arguments is NULL)", needed - 1,
                      needed);

  LaunchParameters parameters = {0, NULL, NULL};
  gpucg_status status = buildParameters(abi, arguments, &parameters);
  if (status == GPUCG_SUCCESS)
    status = computeGrid(abi, arguments, launchGrid);
  if (grid)
    memcpy(grid, launchGrid, sizeof(launchGrid));
  /* An empty grid (a dynamic size of 0) has nothing to compute. */
  int empty = !launchGrid[0] || !launchGrid[1] || !launchGrid[2];
  if (status == GPUCG_SUCCESS && !empty)
    status = gpucg_driver_init(NULL);
  if (status == GPUCG_SUCCESS && !empty) {
    CUcontext current = NULL;
    CUresult result = gpucg_cuda.cuCtxGetCurrent(&current);
    if (result == CUDA_SUCCESS && current != kernel->context)
      result = gpucg_cuda.cuCtxSetCurrent(kernel->context);
    if (result != CUDA_SUCCESS)
      status = gpucg_fail_cuda(result, "cuCtxSetCurrent");
  }
  if (status == GPUCG_SUCCESS && !empty)
    status = encodeTensorMaps(kernel, arguments, &parameters);
  if (status == GPUCG_SUCCESS && !empty) {
    CUresult result = gpucg_cuda.cuLaunchKernel(
        kernel->function, launchGrid[0], launchGrid[1], launchGrid[2],
        abi->block[0], abi->block[1], abi->block[2],
        (unsigned)abi->dynamic_shared_memory, (CUstream)stream,
        parameters.pointers, NULL);
    if (result != CUDA_SUCCESS)
      status = gpucg_fail_cuda(
          result, "cuLaunchKernel(%s, grid %ux%ux%u, block %ux%ux%u, %zu "
                  "bytes of dynamic shared memory)",
          abi->kernel, launchGrid[0], launchGrid[1], launchGrid[2],
          abi->block[0], abi->block[1], abi->block[2],
          abi->dynamic_shared_memory);
  }
  free(parameters.slots);
  free(parameters.pointers);
  return status;
}
