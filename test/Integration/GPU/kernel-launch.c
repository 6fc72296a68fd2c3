/*
 * Matmul kernels that gpucg-compile wrote (binary + .abi), launched from C
 * through libgpucg_cuda_runtime.so's API without MLIR: gpucg_kernel_load,
 * gpucg_kernel_launch with the host function's arguments in its own order
 * (the ABI maps them to kernel parameters), for PTX and a cubin, bare pointers
 * and memref descriptors, and a kernel with 64 KB of dynamic shared memory.
 * The program reads the shapes and element types from each ABI, fills A and
 * B with small integers (exact products and sums in f32), and compares every
 * element of C with its own reference.
 * REQUIRES: cuda-gpu, ptxas
 * RUN: rm -rf %t && mkdir -p %t
 * RUN: gpucg-opt %S/matmul-f16.mlir --pass-pipeline='builtin.module(gpucg-compile{chip=sm_80 format=isa output-dir=%t/f16})' -o /dev/null
 * RUN: gpucg-opt %S/matmul-bf16.mlir --pass-pipeline='builtin.module(gpucg-compile{chip=%gpucg_gpu_chip format=bin bare-pointers=false output-dir=%t/bf16})' -o /dev/null
 * RUN: gpucg-opt %S/matmul-dynamic-shared-memory.mlir --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t/shared})' -o /dev/null
 * RUN: %gpucg_cc -Wall -Wextra -Werror %s -o %t/kernel-launch %gpucg_runtime_link
 * RUN: %t/kernel-launch %t/f16/matmul_aligned_kernel.abi %t/f16/matmul_unaligned_kernel.abi \
 * RUN:   %t/bf16/matmul_aligned_kernel.abi %t/bf16/matmul_unaligned_kernel.abi \
 * RUN:   %t/shared/matmul_kernel.abi | FileCheck %s
 *
 * The sums of squares are the reference's (see matmul-f16.mlir); every
 * element must match.
 * CHECK:      matmul_aligned_kernel: 128x128x64 f16, ptx, bare pointers, grid {{[0-9]+x[0-9]+x1}}: 0 of 16384 elements differ, sum of squares 753059
 * CHECK-NEXT: matmul_unaligned_kernel: 100x72x64 f16, ptx, bare pointers, grid {{[0-9]+x[0-9]+x1}}: 0 of 7200 elements differ, sum of squares 331911
 * CHECK-NEXT: matmul_aligned_kernel: 128x128x64 bf16, cubin, memref descriptors, grid {{[0-9]+x[0-9]+x1}}: 0 of 16384 elements differ, sum of squares 753059
 * CHECK-NEXT: matmul_unaligned_kernel: 100x72x64 bf16, cubin, memref descriptors, grid {{[0-9]+x[0-9]+x1}}: 0 of 7200 elements differ, sum of squares 331911
 * CHECK-NEXT: matmul_kernel: 256x256x256 f16, ptx, bare pointers, grid {{[0-9]+x[0-9]+x1}}: 0 of 65536 elements differ, sum of squares 4452328
 * A misaligned pointer is refused before the launch.
 * CHECK-NEXT: misaligned: GPUCG_ERROR_INVALID_ARGUMENT: gpucg_kernel_launch(matmul_kernel): function argument 0 (kernel argument 0, memref f16 256x256): device pointer 0x{{[0-9a-f]+}} is not a multiple of 16 bytes (docs/ABI.md: Alignment)
 * CHECK-NEXT: all kernels match
 */

#include "gpucg_runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    gpucg_status status_ = (call);                                             \
    if (status_ != GPUCG_SUCCESS) {                                            \
      printf("%s: %s: %s\n", #call, gpucg_status_name(status_),                \
             gpucg_last_error());                                              \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

/* A small integer as f16 or bf16 bits (exact: |value| < 2^11). */
static uint16_t smallIntegerBits(int value, int bf16) {
  float f = (float)value;
  uint32_t bits;
  memcpy(&bits, &f, sizeof(bits));
  if (bf16)
    return (uint16_t)(bits >> 16);
  if (value == 0)
    return 0;
  uint32_t sign = bits >> 31, exponent = (bits >> 23) & 0xff,
           mantissa = bits & 0x7fffff;
  return (uint16_t)((sign << 15) | ((exponent - 127 + 15) << 10) |
                    (mantissa >> 13));
}

static int aValue(int64_t i, int64_t k) { return (int)((3 * i + 5 * k) % 7) - 3; }
static int bValue(int64_t k, int64_t j) { return (int)((2 * k + 3 * j) % 5) - 2; }

/* Function arguments 0, 1, 2 of @matmul(A: MxK, B: KxN, C: MxN). */
static const gpucg_abi_argument *functionArgument(const gpucg_abi *abi,
                                                  int index) {
  for (int i = 0; i < abi->num_arguments; ++i)
    if (abi->arguments[i].function_argument == index)
      return &abi->arguments[i];
  printf("%s: no kernel argument is function argument %d\n", abi->kernel,
         index);
  exit(1);
}

/* Runs one kernel; returns the number of elements that differ. */
static int64_t runMatmul(const char *path, gpucg_kernel **kept) {
  gpucg_kernel *kernel = NULL;
  CHECK(gpucg_kernel_load(path, &kernel));
  const gpucg_abi *abi = gpucg_kernel_get_abi(kernel);
  const gpucg_abi_argument *a = functionArgument(abi, 0);
  const gpucg_abi_argument *b = functionArgument(abi, 1);
  if (functionArgument(abi, 2)->element_bits != 32) {
    printf("%s: C is not f32\n", abi->kernel);
    exit(1);
  }
  int64_t m = a->shape[0], k = a->shape[1], n = b->shape[1];
  int bf16 = strcmp(a->element_type, "bf16") == 0;

  uint16_t *hostA = malloc((size_t)(m * k) * 2);
  uint16_t *hostB = malloc((size_t)(k * n) * 2);
  float *hostC = malloc((size_t)(m * n) * 4);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t l = 0; l < k; ++l)
      hostA[i * k + l] = smallIntegerBits(aValue(i, l), bf16);
  for (int64_t l = 0; l < k; ++l)
    for (int64_t j = 0; j < n; ++j)
      hostB[l * n + j] = smallIntegerBits(bValue(l, j), bf16);

  uint64_t deviceA, deviceB, deviceC;
  CHECK(gpucg_malloc(&deviceA, (size_t)(m * k) * 2));
  CHECK(gpucg_malloc(&deviceB, (size_t)(k * n) * 2));
  CHECK(gpucg_malloc(&deviceC, (size_t)(m * n) * 4));
  CHECK(gpucg_copy_to_device(deviceA, hostA, (size_t)(m * k) * 2));
  CHECK(gpucg_copy_to_device(deviceB, hostB, (size_t)(k * n) * 2));
  /* 0xff bytes are NaNs: an element the kernel misses never matches. */
  CHECK(gpucg_memset(deviceC, 0xff, (size_t)(m * n) * 4));

  int64_t sizesA[2] = {m, k}, sizesB[2] = {k, n}, sizesC[2] = {m, n};
  gpucg_argument arguments[3] = {
      {deviceA, 2, sizesA, 0}, {deviceB, 2, sizesB, 0}, {deviceC, 2, sizesC, 0}};
  unsigned grid[3];
  CHECK(gpucg_kernel_launch(kernel, arguments, 3, NULL, grid));
  CHECK(gpucg_synchronize());
  CHECK(gpucg_copy_to_host(hostC, deviceC, (size_t)(m * n) * 4));

  int64_t differ = 0, squares = 0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      int64_t expected = 0;
      for (int64_t l = 0; l < k; ++l)
        expected += aValue(i, l) * bValue(l, j);
      squares += expected * expected;
      differ += hostC[i * n + j] != (float)expected;
    }
  printf("%s: %lldx%lldx%lld %s, %s, %s, grid %ux%ux%u: %lld of %lld "
         "elements differ, sum of squares %lld\n",
         abi->kernel, (long long)m, (long long)n, (long long)k,
         a->element_type,
         abi->format == GPUCG_ABI_FORMAT_CUBIN ? "cubin" : "ptx",
         abi->calling_convention == GPUCG_ABI_BARE_POINTERS
             ? "bare pointers"
             : "memref descriptors",
         grid[0], grid[1], grid[2], (long long)differ, (long long)(m * n),
         (long long)squares);

  CHECK(gpucg_free(deviceA));
  CHECK(gpucg_free(deviceB));
  CHECK(gpucg_free(deviceC));
  free(hostA);
  free(hostB);
  free(hostC);
  *kept = kernel;
  return differ;
}

int main(int argc, char **argv) {
  int64_t differ = 0;
  gpucg_kernel *last = NULL;
  for (int i = 1; i < argc; ++i) {
    if (last)
      gpucg_kernel_unload(last);
    differ += runMatmul(argv[i], &last);
  }
  if (last) {
    /* The last kernel again, with A 4 bytes into its allocation. */
    const gpucg_abi *abi = gpucg_kernel_get_abi(last);
    uint64_t buffer;
    CHECK(gpucg_malloc(&buffer, 1024));
    int64_t sizes[3][2];
    gpucg_argument arguments[3];
    for (int j = 0; j < 3; ++j) {
      const gpucg_abi_argument *argument = functionArgument(abi, j);
      sizes[j][0] = argument->shape[0];
      sizes[j][1] = argument->shape[1];
      arguments[j].device_pointer = buffer + (j == 0 ? 4 : 0);
      arguments[j].rank = 2;
      arguments[j].sizes = sizes[j];
      arguments[j].scalar_bits = 0;
    }
    gpucg_status status = gpucg_kernel_launch(last, arguments, 3, NULL, NULL);
    printf("misaligned: %s: %s\n", gpucg_status_name(status),
           gpucg_last_error());
    CHECK(gpucg_free(buffer));
    gpucg_kernel_unload(last);
  }
  printf(differ ? "some kernels differ\n" : "all kernels match\n");
  return differ ? 1 : 0;
}
