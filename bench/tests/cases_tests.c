/*===- cases_tests.c - gpucg-bench's data encodings, without a GPU --------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* gpucg-bench-cases-tests: every input type's encoding of the small          *|
|* integers the cases' data is made of (bench_encode), decoded back           *|
|* (bench_decode), and the bit patterns of the 8-bit floats against values    *|
|* written out here from the OCP definitions; the rows a large case without   *|
|* cuBLAS is checked on (bench_sample_rows), their host reference, and the    *|
|* host reference of each layout (nn, nt, tn, tt) on operands as stored.     *|
|* Prints one line per check and exits non-zero on a mismatch                 *|
|* (test/Integration/GPU/bench-encodings.test).                               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "cases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

/* Encodes -limit..limit as `type`, decodes each back and compares. */
static void roundTrip(bench_type type, int limit) {
  int8_t values[256];
  unsigned char encoded[256 * 4];
  int count = 2 * limit + 1, mismatches = 0;
  for (int i = 0; i < count; ++i)
    values[i] = (int8_t)(i - limit);
  bench_encode(values, (size_t)count, type, encoded);
  for (int i = 0; i < count; ++i) {
    double decoded = bench_decode(encoded, type, (size_t)i);
    if (decoded != (double)values[i]) {
      ++mismatches;
      printf("FAIL: %s: %d decodes to %g\n", bench_type_name(type), values[i],
             decoded);
    }
  }
  failures += mismatches;
  printf("%s: -%d..%d round trip, %d mismatches\n", bench_type_name(type),
         limit, limit, mismatches);
}

/* The bytes `type` gives 1, -2, 3 and 7. */
static void float8Patterns(bench_type type, const uint8_t expected[4]) {
  static const int8_t values[4] = {1, -2, 3, 7};
  uint8_t encoded[4];
  bench_encode(values, 4, type, encoded);
  printf("%s: 1 -2 3 7 as", bench_type_name(type));
  for (int i = 0; i < 4; ++i) {
    printf(" 0x%02x", encoded[i]);
    if (encoded[i] != expected[i]) {
      ++failures;
      printf(" (FAIL: expected 0x%02x)", expected[i]);
    }
  }
  printf("\n");
}

/* The rows bench_sample_rows picks for an M x N x K case and `limit`. */
static void sampleRows(int64_t m, int64_t n, int64_t k, double limit) {
  bench_case c;
  memset(&c, 0, sizeof c);
  c.m = m, c.n = n, c.k = k;
  size_t rows[64];
  size_t count = bench_sample_rows(&c, limit, rows, 64);
  printf("sample %lldx%lldx%lld within %g: %zu rows:", (long long)m,
         (long long)n, (long long)k, limit, count);
  for (size_t r = 0; r < count; ++r)
    printf(" %zu", rows[r]);
  printf("\n");
}

/* A 7 x 5 x 9 case with A and/or B stored transposed. */
static bench_case smallCase(int transposeA, int transposeB) {
  bench_case c;
  memset(&c, 0, sizeof c);
  c.m = 7, c.n = 5, c.k = 9;
  c.transpose_a = transposeA, c.transpose_b = transposeB;
  return c;
}

/* Sampled rows of the host reference are the full reference's rows, for
   every layout. */
static void sampledReference(int transposeA, int transposeB) {
  bench_case c = smallCase(transposeA, transposeB);
  int8_t a[7 * 9], b[9 * 5];
  for (int i = 0; i < 7 * 9; ++i)
    a[i] = (int8_t)(i % 7 - 3);
  for (int i = 0; i < 9 * 5; ++i)
    b[i] = (int8_t)(i % 5 - 2);
  double full[7 * 5], sampled[3 * 5];
  size_t rows[3] = {0, 3, 6};
  bench_host_reference(&c, a, b, full);
  bench_host_reference_rows(&c, a, b, rows, 3, sampled);
  int mismatches = 0;
  for (int r = 0; r < 3; ++r)
    for (int j = 0; j < 5; ++j)
      mismatches += sampled[r * 5 + j] != full[rows[r] * 5 + j];
  failures += mismatches;
  printf("sampled reference (%s): %d mismatches\n", bench_case_layout(&c),
         mismatches);
}

/* The host reference reads each layout's operands as stored: `nt` given B
   transposed (N x K), `tn` given A transposed (K x M) and `tt` given both
   compute the `nn` product of the untransposed A and B. Also the stored shapes the kernels'
   ABI must name. */
static void layoutReference(int transposeA, int transposeB) {
  enum { M = 7, N = 5, K = 9 };
  int8_t a[M * K], b[K * N], aStored[M * K], bStored[K * N];
  for (int i = 0; i < M; ++i)
    for (int kk = 0; kk < K; ++kk) {
      a[i * K + kk] = (int8_t)((3 * i + kk) % 5 - 2);
      aStored[transposeA ? kk * M + i : i * K + kk] = a[i * K + kk];
    }
  for (int kk = 0; kk < K; ++kk)
    for (int j = 0; j < N; ++j) {
      b[kk * N + j] = (int8_t)((kk + 2 * j) % 5 - 2);
      bStored[transposeB ? j * K + kk : kk * N + j] = b[kk * N + j];
    }
  bench_case plain = smallCase(0, 0), c = smallCase(transposeA, transposeB);
  double expected[M * N], got[M * N];
  bench_host_reference(&plain, a, b, expected);
  bench_host_reference(&c, aStored, bStored, got);
  int mismatches = 0;
  for (int i = 0; i < M * N; ++i)
    mismatches += got[i] != expected[i];
  failures += mismatches;
  int64_t shapes[3][2];
  bench_case_operand_shapes(&c, shapes);
  printf("reference (%s): A %lldx%lld, B %lldx%lld, C %lldx%lld, %d "
         "mismatches against nn\n",
         bench_case_layout(&c), (long long)shapes[0][0],
         (long long)shapes[0][1], (long long)shapes[1][0],
         (long long)shapes[1][1], (long long)shapes[2][0],
         (long long)shapes[2][1], mismatches);
}

int main(void) {
  roundTrip(BENCH_F16, 100);
  roundTrip(BENCH_BF16, 100);
  roundTrip(BENCH_F32, 100);
  roundTrip(BENCH_I8, 100);
  roundTrip(BENCH_F8E4M3FN, 15);
  roundTrip(BENCH_F8E5M2, 7);
  /* e4m3: S.EEEE.MMM, bias 7; e5m2: S.EEEEE.MM, bias 15. */
  static const uint8_t e4m3[4] = {0x38, 0xC0, 0x44, 0x4E};
  static const uint8_t e5m2[4] = {0x3C, 0xC0, 0x42, 0x47};
  float8Patterns(BENCH_F8E4M3FN, e4m3);
  float8Patterns(BENCH_F8E5M2, e5m2);
  sampleRows(4096, 4096, 4096, 134217728.0);
  sampleRows(8192, 8192, 8192, 134217728.0);
  sampleRows(3, 8192, 8192, 134217728.0);
  sampleRows(1, 16, 16, 134217728.0);
  sampleRows(1000, 10, 10, 134217728.0);
  sampledReference(0, 0);
  sampledReference(0, 1);
  sampledReference(1, 0);
  sampledReference(1, 1);
  layoutReference(0, 0);
  layoutReference(0, 1);
  layoutReference(1, 0);
  layoutReference(1, 1);
  return failures ? 1 : 0;
}
