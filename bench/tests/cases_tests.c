/*===- cases_tests.c - gpucg-bench's data encodings, without a GPU --------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* gpucg-bench-cases-tests: every input type's encoding of the small        *|
|* integers the cases' data is made of (bench_encode), decoded back          *|
|* (bench_decode), and the bit patterns of the 8-bit floats against values  *|
|* written out here from the OCP definitions. Prints one line per type and  *|
|* exits non-zero on a mismatch (test/Integration/GPU/bench-encodings.test). *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "cases.h"

#include <stdio.h>
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
  return failures ? 1 : 0;
}
