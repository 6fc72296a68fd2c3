/*===- gpucg-runtime-tests.c - Drive the runtime's C API from lit tests ---===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* Each subcommand calls libgpucg_cuda_runtime.so's API and prints what it    *|
|* returned; the lit tests of test/Runtime check the output. A failed call    *|
|* prints "error: <status>: <message>" and the program exits 1.               *|
|*                                                                            *|
|*   abi FILE...          parse .abi files and print what they say           *|
|*   devices              device count and each device's facts               *|
|*   memory               allocate, copy both ways, memset, free             *|
|*   load ABI             load a kernel, print its attributes, unload        *|
|*   launch ABI ARG...    load and launch with the function's arguments:     *|
|*                          m:PTR:SIZES  a memref (SIZES 64x?x8 for rank 3,  *|
|*                                       `scalar` for rank 0, rankN for      *|
|*                                       rank N with sizes NULL)             *|
|*                          s:VALUE      a scalar's bits                     *|
|*                          -            an argument the kernel does not use *|
|*                        no ARG passes arguments NULL                       *|
|*   launch-twice ABI ARG...  the same, launched twice (tensor maps reused) *|
|*   api-errors           every function's checks of its own arguments       *|
|*   thread-errors        the last error belongs to the thread that failed   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "gpucg_runtime.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int report(gpucg_status status) {
  if (status == GPUCG_SUCCESS)
    return 0;
  printf("error: %s: %s\n", gpucg_status_name(status), gpucg_last_error());
  return 1;
}

/*===----------------------------------------------------------------------===*/
/* abi                                                                        */
/*===----------------------------------------------------------------------===*/

/* ` times size of function argument N dim D` (or ` times ceildiv of ...
   by S`) for each further size of a product, ` times C` of a constant
   factor, then the line's end. */
static void printFactor(const gpucg_abi_extent *extent) {
  for (int i = 0; i < extent->num_size_factors; ++i) {
    const gpucg_abi_size_factor *term = &extent->size_factors[i];
    if (term->divisor == 1)
      printf(" times size of function argument %d dim %d",
             term->function_argument, term->dim);
    else
      printf(" times ceildiv of function argument %d dim %d by %" PRId64,
             term->function_argument, term->dim, term->divisor);
  }
  if (extent->factor != 1)
    printf(" times %" PRId64, extent->factor);
  printf("\n");
}

static void printExtent(char axis, const gpucg_abi_extent *extent) {
  switch (extent->kind) {
  case GPUCG_ABI_EXTENT_CONSTANT:
    printf("grid_%c constant %" PRId64 "\n", axis, extent->value);
    return;
  case GPUCG_ABI_EXTENT_DIM:
    printf("grid_%c size of function argument %d dim %d", axis,
           extent->function_argument, extent->dim);
    printFactor(extent);
    return;
  case GPUCG_ABI_EXTENT_CEILDIV:
    printf("grid_%c ceildiv of function argument %d dim %d by %" PRId64, axis,
           extent->function_argument, extent->dim, extent->value);
    printFactor(extent);
    return;
  case GPUCG_ABI_EXTENT_UNKNOWN:
    break;
  }
  printf("grid_%c unknown kind %d\n", axis, (int)extent->kind);
}

static void printAbi(const gpucg_abi *abi) {
  static const char *formats[] = {"cubin", "ptx", "fatbin", "bc"};
  printf("version %d\nfunction %s\nkernel %s\nbinary %s\nformat %s\nchip %s\n",
         abi->version, abi->function, abi->kernel, abi->binary,
         formats[abi->format], abi->chip);
  printf("calling_convention %s\n",
         abi->calling_convention == GPUCG_ABI_BARE_POINTERS
             ? "bare pointers"
             : "memref descriptors");
  for (int axis = 0; axis < 3; ++axis)
    printExtent("xyz"[axis], &abi->grid[axis]);
  printf("block %u %u %u\ndynamic_shared_memory %zu\narguments %d\n",
         abi->block[0], abi->block[1], abi->block[2],
         abi->dynamic_shared_memory, abi->num_arguments);
  for (int i = 0; i < abi->num_arguments; ++i) {
    const gpucg_abi_argument *argument = &abi->arguments[i];
    static const char *kinds[] = {"memref", "scalar", "tensor_map"};
    printf("argument %d: function argument %d, %s %s (%d bits)", i,
           argument->function_argument, kinds[argument->kind],
           argument->element_type, argument->element_bits);
    if (argument->kind != GPUCG_ABI_ARGUMENT_SCALAR) {
      printf(", rank %d, shape [", argument->rank);
      for (int d = 0; d < argument->rank; ++d) {
        if (argument->shape[d] < 0)
          printf("%s?", d ? ", " : "");
        else
          printf("%s%" PRId64, d ? ", " : "", argument->shape[d]);
      }
      printf("]");
    }
    if (argument->kind == GPUCG_ABI_ARGUMENT_TENSOR_MAP) {
      printf(", box [");
      for (int d = 0; d < argument->box_rank; ++d)
        printf("%s%" PRId64, d ? ", " : "", argument->box[d]);
      printf("], swizzle %d bytes", argument->swizzle_bytes);
    }
    if (argument->is_result) {
      printf(", result of shape [");
      for (int d = 0; d < argument->rank; ++d) {
        const gpucg_abi_extent *size = &argument->result_shape[d];
        printf("%s", d ? ", " : "");
        if (size->kind == GPUCG_ABI_EXTENT_CONSTANT)
          printf("%" PRId64, size->value);
        else if (size->kind == GPUCG_ABI_EXTENT_DIM)
          printf("arg%d.dim%d", size->function_argument, size->dim);
        else
          printf("?");
      }
      printf("]");
    }
    printf("\n");
  }
}

static int abiCommand(int count, char **paths) {
  int failures = 0;
  for (int i = 0; i < count; ++i) {
    gpucg_abi *abi = NULL;
    gpucg_status status = gpucg_abi_read(paths[i], &abi);
    if (status != GPUCG_SUCCESS) {
      failures += report(status);
      if (abi)
        printf("error: the ABI was not reset to NULL\n");
      continue;
    }
    printAbi(abi);
    gpucg_abi_destroy(abi);
  }
  return failures ? 1 : 0;
}

/*===----------------------------------------------------------------------===*/
/* devices, memory                                                            */
/*===----------------------------------------------------------------------===*/

static int devicesCommand(void) {
  int count = -1;
  gpucg_status status = gpucg_device_count(&count);
  if (status != GPUCG_SUCCESS)
    return report(status);
  printf("devices %d\n", count);
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    gpucg_device_info info;
    if ((status = gpucg_init(ordinal)) != GPUCG_SUCCESS ||
        (status = gpucg_device_get_info(&info)) != GPUCG_SUCCESS)
      return report(status);
    printf("device %d: %s, sm_%d%d, %d SMs, %zu bytes, opt-in shared memory "
           "%d, L2 %d, driver %d\n",
           ordinal, info.name, info.compute_capability_major,
           info.compute_capability_minor, info.multiprocessor_count,
           info.total_memory_bytes, info.max_shared_memory_per_block_optin,
           info.l2_cache_bytes, info.driver_version);
  }
  return 0;
}

static int memoryCommand(void) {
  enum { BYTES = 1000 };
  unsigned char in[BYTES], out[BYTES];
  for (int i = 0; i < BYTES; ++i)
    in[i] = (unsigned char)(i * 7 + 3);
  uint64_t buffer = 0;
  gpucg_status status = gpucg_malloc(&buffer, BYTES);
  if (status != GPUCG_SUCCESS)
    return report(status);
  printf("allocated %d bytes, 256-byte aligned: %s\n", BYTES,
         buffer % 256 ? "no" : "yes");
  if ((status = gpucg_copy_to_device(buffer, in, BYTES)) ||
      (status = gpucg_memset(buffer + 100, 0xab, 50)) ||
      (status = gpucg_synchronize()) ||
      (status = gpucg_copy_to_host(out, buffer, BYTES))) {
    gpucg_free(buffer);
    return report(status);
  }
  int mismatches = 0;
  for (int i = 0; i < BYTES; ++i) {
    unsigned char expected = i >= 100 && i < 150 ? 0xab : in[i];
    mismatches += out[i] != expected;
  }
  printf("round trip: %d mismatches\n", mismatches);
  if ((status = gpucg_free(buffer)))
    return report(status);
  return mismatches ? 1 : 0;
}

/*===----------------------------------------------------------------------===*/
/* load, launch                                                               */
/*===----------------------------------------------------------------------===*/

static int loadCommand(const char *path) {
  gpucg_kernel *kernel = NULL;
  gpucg_status status = gpucg_kernel_load(path, &kernel);
  if (status != GPUCG_SUCCESS) {
    if (kernel)
      printf("error: the kernel was not reset to NULL\n");
    return report(status);
  }
  const gpucg_abi *abi = gpucg_kernel_get_abi(kernel);
  gpucg_kernel_attributes attributes;
  status = gpucg_kernel_get_attributes(kernel, &attributes);
  if (status == GPUCG_SUCCESS)
    printf("loaded %s: %d registers, %d bytes of static and %d of dynamic "
           "shared memory, %d bytes of local memory, at most %d threads\n",
           abi->kernel, attributes.registers_per_thread,
           attributes.static_shared_bytes, attributes.dynamic_shared_bytes,
           attributes.local_bytes_per_thread,
           attributes.max_threads_per_block);
  gpucg_kernel_unload(kernel);
  return report(status);
}

/* One ARG of `launch` (see the header); 0 on a malformed one. */
static int parseArgument(const char *text, gpucg_argument *argument,
                         int64_t *sizes) {
  memset(argument, 0, sizeof(*argument));
  if (strcmp(text, "-") == 0)
    return 1;
  char *end = NULL;
  if (strncmp(text, "s:", 2) == 0) {
    argument->scalar_bits = (uint64_t)strtoll(text + 2, &end, 0);
    return *end == '\0';
  }
  if (strncmp(text, "m:", 2) != 0)
    return 0;
  argument->device_pointer = strtoull(text + 2, &end, 0);
  if (*end != ':')
    return 0;
  const char *shape = end + 1;
  if (strcmp(shape, "scalar") == 0)
    return 1;
  if (strncmp(shape, "rank", 4) == 0) {
    argument->rank = (int)strtol(shape + 4, &end, 10);
    return *end == '\0';
  }
  argument->sizes = sizes;
  for (;;) {
    if (argument->rank == GPUCG_ABI_MAX_RANK)
      return 0;
    sizes[argument->rank++] = strtoll(shape, &end, 10);
    if (*end == '\0')
      return 1;
    if (*end != 'x')
      return 0;
    shape = end + 1;
  }
}

static int launchCommand(const char *path, int count, char **texts,
                         int launches) {
  gpucg_argument *arguments = NULL;
  int64_t(*sizes)[GPUCG_ABI_MAX_RANK] = NULL;
  if (count) {
    arguments = calloc((size_t)count, sizeof(gpucg_argument));
    sizes = calloc((size_t)count, sizeof(*sizes));
  }
  for (int i = 0; i < count; ++i)
    if (!parseArgument(texts[i], &arguments[i], sizes[i])) {
      printf("error: malformed launch argument '%s'\n", texts[i]);
      free(arguments);
      free(sizes);
      return 2;
    }
  gpucg_kernel *kernel = NULL;
  gpucg_status status = gpucg_kernel_load(path, &kernel);
  if (status == GPUCG_SUCCESS) {
    for (int launch = 0; launch < launches && status == GPUCG_SUCCESS;
         ++launch) {
      unsigned grid[3] = {7, 7, 7};
      status = gpucg_kernel_launch(kernel, arguments, count, NULL, grid);
      printf("grid %ux%ux%u\n", grid[0], grid[1], grid[2]);
      if (status == GPUCG_SUCCESS)
        status = gpucg_synchronize();
      if (status == GPUCG_SUCCESS)
        printf("launched %s\n", gpucg_kernel_get_abi(kernel)->kernel);
    }
  }
  gpucg_kernel_unload(kernel);
  free(arguments);
  free(sizes);
  return report(status);
}

/*===----------------------------------------------------------------------===*/
/* api-errors, thread-errors                                                  */
/*===----------------------------------------------------------------------===*/

static void show(const char *call, gpucg_status status) {
  printf("%s: %s: %s\n", call, gpucg_status_name(status),
         status == GPUCG_SUCCESS ? "" : gpucg_last_error());
}

static int apiErrorsCommand(void) {
  printf("last error at start: '%s'\n", gpucg_last_error());
  for (int status = 0; status <= 7; ++status)
    printf("status %d: %s\n", status, gpucg_status_name((gpucg_status)status));
  gpucg_abi *abi = NULL;
  gpucg_kernel *kernel = NULL;
  gpucg_kernel_attributes attributes;
  char host[16] = {0};
  show("gpucg_abi_read(NULL)", gpucg_abi_read(NULL, &abi));
  show("gpucg_abi_read(abi NULL)", gpucg_abi_read("k.abi", NULL));
  show("gpucg_kernel_load(NULL)", gpucg_kernel_load(NULL, &kernel));
  show("gpucg_kernel_load(kernel NULL)", gpucg_kernel_load("k.abi", NULL));
  show("gpucg_kernel_launch(NULL)",
       gpucg_kernel_launch(NULL, NULL, 0, NULL, NULL));
  show("gpucg_kernel_get_attributes(NULL)",
       gpucg_kernel_get_attributes(NULL, &attributes));
  printf("gpucg_kernel_get_abi(NULL): %s\n",
         gpucg_kernel_get_abi(NULL) ? "not NULL" : "NULL");
  gpucg_abi_destroy(NULL);
  gpucg_kernel_unload(NULL);
  show("gpucg_init(-1)", gpucg_init(-1));
  show("gpucg_device_count(NULL)", gpucg_device_count(NULL));
  show("gpucg_device_get_info(NULL)", gpucg_device_get_info(NULL));
  show("gpucg_malloc(NULL)", gpucg_malloc(NULL, 16));
  show("gpucg_free(0)", gpucg_free(0));
  show("gpucg_copy_to_device(0 bytes)", gpucg_copy_to_device(0, NULL, 0));
  show("gpucg_copy_to_device(null device)", gpucg_copy_to_device(0, host, 16));
  show("gpucg_copy_to_device(null host)",
       gpucg_copy_to_device(0x1000, NULL, 16));
  show("gpucg_copy_to_host(null device)", gpucg_copy_to_host(host, 0, 16));
  show("gpucg_copy_to_host(null host)", gpucg_copy_to_host(NULL, 0x1000, 16));
  show("gpucg_memset(null device)", gpucg_memset(0, 1, 16));
  return 0;
}

static void *failInThread(void *unused) {
  (void)unused;
  gpucg_abi *abi = NULL;
  gpucg_abi_read("/nonexistent/thread.abi", &abi);
  printf("thread: '%s'\n", gpucg_last_error());
  return NULL;
}

static int threadErrorsCommand(void) {
  pthread_t thread;
  if (pthread_create(&thread, NULL, failInThread, NULL) != 0)
    return 1;
  pthread_join(thread, NULL);
  printf("main: '%s'\n", gpucg_last_error());
  return 0;
}

int main(int argc, char **argv) {
  /* In order with what the fake driver prints on stderr. */
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc >= 3 && strcmp(argv[1], "abi") == 0)
    return abiCommand(argc - 2, argv + 2);
  if (argc == 2 && strcmp(argv[1], "devices") == 0)
    return devicesCommand();
  if (argc == 2 && strcmp(argv[1], "memory") == 0)
    return memoryCommand();
  if (argc == 3 && strcmp(argv[1], "load") == 0)
    return loadCommand(argv[2]);
  if (argc >= 3 && strcmp(argv[1], "launch") == 0)
    return launchCommand(argv[2], argc - 3, argv + 3, 1);
  if (argc >= 3 && strcmp(argv[1], "launch-twice") == 0)
    return launchCommand(argv[2], argc - 3, argv + 3, 2);
  if (argc == 2 && strcmp(argv[1], "api-errors") == 0)
    return apiErrorsCommand();
  if (argc == 2 && strcmp(argv[1], "thread-errors") == 0)
    return threadErrorsCommand();
  fprintf(stderr,
          "usage: %s abi FILE... | devices | memory | load ABI | launch ABI "
          "ARG... | launch-twice ABI ARG... | api-errors | thread-errors\n",
          argv[0]);
  return 2;
}
