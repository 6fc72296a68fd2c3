/*===- gpucg-emulator-tests.c - Unit tests of libgpucg_emulator.so --------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* Each subcommand launches kernel bodies (plain C functions) on the         *|
|* emulator and prints what they computed next to what the test expected;    *|
|* the lit tests of test/Emulator check the output. A mismatch prints a line *|
|* starting "FAIL: " and the program exits 1. The *-error subcommands        *|
|* provoke one of the emulator's reports, which exits 1 on its own.          *|
|*                                                                            *|
|* The fragment layouts here are per-element tables written from the PTX    *|
|* ISA's "Matrix fragments for mma.m16n8k*" text, apart from the emulator's  *|
|* formulas, so that a wrong layout on either side shows. `list` prints the  *|
|* subcommands.                                                              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "gpucg_emulator.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(condition, ...)                                                  \
  do {                                                                         \
    if (!(condition)) {                                                        \
      ++failures;                                                              \
      if (failures <= 20) {                                                    \
        printf("FAIL: ");                                                      \
        printf(__VA_ARGS__);                                                   \
        printf("\n");                                                          \
      }                                                                        \
    }                                                                          \
  } while (0)

static int64_t addressOf(const void *pointer) {
  return (int64_t)(intptr_t)pointer;
}

/* The workgroup memory of the calling kernel thread. */
static unsigned char *workgroupMemory(void) {
  gpucg_emu_memref_i8 memref;
  _mlir_ciface_gpucg_emu_workgroup_memory(&memref);
  return (unsigned char *)(memref.aligned + memref.offset);
}

static int linearThreadId(void) {
  return (int)(gpucg_emu_thread_id(0) +
               gpucg_emu_block_dim(0) *
                   (gpucg_emu_thread_id(1) +
                    gpucg_emu_block_dim(1) * gpucg_emu_thread_id(2)));
}

static void launch1d(int64_t threads, int64_t workgroupBytes,
                     void (*body)(void *), void *closure) {
  gpucg_emu_configure(1, 1, 1, threads, 1, 1, workgroupBytes);
  gpucg_emu_launch(body, closure);
}

/*===----------------------------------------------------------------------===*/
/* The test's own element encodings (exact values only)                       */
/*===----------------------------------------------------------------------===*/

static int typeBytes(int type) {
  switch (type) {
  case GPUCG_EMU_F16:
  case GPUCG_EMU_BF16:
    return 2;
  case GPUCG_EMU_F64:
    return 8;
  case GPUCG_EMU_S8:
  case GPUCG_EMU_U8:
    return 1;
  default:
    return 4;
  }
}

static void testBug(const char *what, double value) {
  printf("test bug: %s: %.17g\n", what, value);
  exit(2);
}

/* f16 bits of a value that f16 represents exactly. */
static uint16_t halfOf(double value) {
  uint16_t sign = signbit(value) ? 0x8000 : 0;
  double magnitude = fabs(value);
  if (magnitude == 0)
    return sign;
  int exponent;
  double fraction = frexp(magnitude, &exponent); /* [0.5, 1) * 2^exponent */
  int unbiased = exponent - 1;
  double mantissa;
  uint16_t field;
  if (unbiased >= -14) {
    mantissa = (2 * fraction - 1) * 1024;
    field = (uint16_t)((unbiased + 15) << 10);
  } else {
    mantissa = magnitude * 16777216.0; /* units of 2^-24 */
    field = 0;
  }
  if (unbiased > 15 || mantissa != floor(mantissa))
    testBug("not an f16", value);
  return sign | field | (uint16_t)mantissa;
}

static double halfValue(uint16_t bits) {
  int exponent = (bits >> 10) & 31, mantissa = bits & 1023;
  double magnitude;
  if (exponent == 31)
    magnitude = mantissa ? NAN : INFINITY;
  else if (exponent == 0)
    magnitude = mantissa / 16777216.0;
  else
    magnitude = (1 + mantissa / 1024.0) * pow(2, exponent - 15);
  return (bits & 0x8000) ? -magnitude : magnitude;
}

static void encode(int type, double value, unsigned char *out) {
  switch (type) {
  case GPUCG_EMU_F16: {
    uint16_t bits = halfOf(value);
    memcpy(out, &bits, 2);
    return;
  }
  case GPUCG_EMU_BF16: {
    float single = (float)value;
    uint32_t bits;
    memcpy(&bits, &single, 4);
    if ((double)single != value || (bits & 0xFFFF))
      testBug("not a bf16", value);
    uint16_t high = (uint16_t)(bits >> 16);
    memcpy(out, &high, 2);
    return;
  }
  case GPUCG_EMU_TF32:
  case GPUCG_EMU_F32: {
    float single = (float)value;
    if ((double)single != value)
      testBug("not an f32", value);
    memcpy(out, &single, 4);
    return;
  }
  case GPUCG_EMU_F64:
    memcpy(out, &value, 8);
    return;
  case GPUCG_EMU_S8:
    if (value < -128 || value > 127)
      testBug("not an s8", value);
    *out = (unsigned char)(int8_t)value;
    return;
  case GPUCG_EMU_U8:
    if (value < 0 || value > 255)
      testBug("not a u8", value);
    *out = (unsigned char)value;
    return;
  case GPUCG_EMU_S32: {
    int32_t integer = (int32_t)value;
    memcpy(out, &integer, 4);
    return;
  }
  }
}

static double decode(int type, const unsigned char *in) {
  switch (type) {
  case GPUCG_EMU_F16: {
    uint16_t bits;
    memcpy(&bits, in, 2);
    return halfValue(bits);
  }
  case GPUCG_EMU_F32: {
    float single;
    memcpy(&single, in, 4);
    return single;
  }
  case GPUCG_EMU_F64: {
    double value;
    memcpy(&value, in, 8);
    return value;
  }
  case GPUCG_EMU_S32: {
    int32_t integer;
    memcpy(&integer, in, 4);
    return integer;
  }
  }
  return NAN;
}

/*===----------------------------------------------------------------------===*/
/* mma.sync fragment layouts, one table entry per fragment element            */
/*===----------------------------------------------------------------------===*/

/* Row or column of an element: `base` is groupID (G) or threadID_in_group
   times 1, 2 or 4 (T1, T2, T4), plus `plus`. */
enum { G, T1, T2, T4 };
typedef struct Place {
  signed char rowBase, rowPlus, colBase, colPlus;
} Place;

static int placeBase(int base, int lane) {
  int group = lane / 4, inGroup = lane % 4;
  switch (base) {
  case G:
    return group;
  case T1:
    return inGroup;
  case T2:
    return 2 * inGroup;
  default:
    return 4 * inGroup;
  }
}

/* m16n8k16 .f16/.bf16: A (a0..a7), B (b0..b3). */
static const Place AF16K16[] = {{G, 0, T2, 0}, {G, 0, T2, 1}, {G, 8, T2, 0},
                                {G, 8, T2, 1}, {G, 0, T2, 8}, {G, 0, T2, 9},
                                {G, 8, T2, 8}, {G, 8, T2, 9}};
static const Place BF16K16[] = {
    {T2, 0, G, 0}, {T2, 1, G, 0}, {T2, 8, G, 0}, {T2, 9, G, 0}};
/* m16n8k8 .f16/.bf16. */
static const Place AF16K8[] = {
    {G, 0, T2, 0}, {G, 0, T2, 1}, {G, 8, T2, 0}, {G, 8, T2, 1}};
static const Place BF16K8[] = {{T2, 0, G, 0}, {T2, 1, G, 0}};
/* m16n8k8 .tf32: a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4). */
static const Place ATf32K8[] = {
    {G, 0, T1, 0}, {G, 8, T1, 0}, {G, 0, T1, 4}, {G, 8, T1, 4}};
static const Place BTf32K8[] = {{T1, 0, G, 0}, {T1, 4, G, 0}};
/* m16n8k4 .tf32. */
static const Place ATf32K4[] = {{G, 0, T1, 0}, {G, 8, T1, 0}};
static const Place BTf32K4[] = {{T1, 0, G, 0}};
/* m16n8k32 .s8/.u8. */
static const Place AI8K32[] = {
    {G, 0, T4, 0},  {G, 0, T4, 1},  {G, 0, T4, 2},  {G, 0, T4, 3},
    {G, 8, T4, 0},  {G, 8, T4, 1},  {G, 8, T4, 2},  {G, 8, T4, 3},
    {G, 0, T4, 16}, {G, 0, T4, 17}, {G, 0, T4, 18}, {G, 0, T4, 19},
    {G, 8, T4, 16}, {G, 8, T4, 17}, {G, 8, T4, 18}, {G, 8, T4, 19}};
static const Place BI8K32[] = {{T4, 0, G, 0},  {T4, 1, G, 0},  {T4, 2, G, 0},
                               {T4, 3, G, 0},  {T4, 16, G, 0}, {T4, 17, G, 0},
                               {T4, 18, G, 0}, {T4, 19, G, 0}};
/* m16n8k16 .s8/.u8. */
static const Place AI8K16[] = {{G, 0, T4, 0}, {G, 0, T4, 1}, {G, 0, T4, 2},
                               {G, 0, T4, 3}, {G, 8, T4, 0}, {G, 8, T4, 1},
                               {G, 8, T4, 2}, {G, 8, T4, 3}};
static const Place BI8K16[] = {
    {T4, 0, G, 0}, {T4, 1, G, 0}, {T4, 2, G, 0}, {T4, 3, G, 0}};
/* m8n8k16 .s8/.u8 (B as m16n8k16's). */
static const Place AI8M8[] = {
    {G, 0, T4, 0}, {G, 0, T4, 1}, {G, 0, T4, 2}, {G, 0, T4, 3}};
/* m8n8k4 .f64. */
static const Place AF64[] = {{G, 0, T1, 0}};
static const Place BF64[] = {{T1, 0, G, 0}};
/* Accumulators: m16n8 c0 (g, 2t), c1 (g, 2t+1), c2 (g+8, 2t), c3 (g+8,
   2t+1); m8n8 c0 (g, 2t), c1 (g, 2t+1). */
static const Place CM16N8[] = {
    {G, 0, T2, 0}, {G, 0, T2, 1}, {G, 8, T2, 0}, {G, 8, T2, 1}};
static const Place CM8N8[] = {{G, 0, T2, 0}, {G, 0, T2, 1}};

#define TABLE(t) t, (int)(sizeof(t) / sizeof(t[0]))

typedef struct MmaCase {
  const char *name;
  int m, n, k, abType, cType;
  const Place *a;
  int aCount;
  const Place *b;
  int bCount;
  const Place *c;
  int cCount;
} MmaCase;

static const MmaCase MmaCases[] = {
    {"m16n8k16-f16", 16, 8, 16, GPUCG_EMU_F16, GPUCG_EMU_F32, TABLE(AF16K16),
     TABLE(BF16K16), TABLE(CM16N8)},
    {"m16n8k16-f16-c16", 16, 8, 16, GPUCG_EMU_F16, GPUCG_EMU_F16,
     TABLE(AF16K16), TABLE(BF16K16), TABLE(CM16N8)},
    {"m16n8k16-bf16", 16, 8, 16, GPUCG_EMU_BF16, GPUCG_EMU_F32, TABLE(AF16K16),
     TABLE(BF16K16), TABLE(CM16N8)},
    {"m16n8k8-f16", 16, 8, 8, GPUCG_EMU_F16, GPUCG_EMU_F32, TABLE(AF16K8),
     TABLE(BF16K8), TABLE(CM16N8)},
    {"m16n8k8-f16-c16", 16, 8, 8, GPUCG_EMU_F16, GPUCG_EMU_F16, TABLE(AF16K8),
     TABLE(BF16K8), TABLE(CM16N8)},
    {"m16n8k8-bf16", 16, 8, 8, GPUCG_EMU_BF16, GPUCG_EMU_F32, TABLE(AF16K8),
     TABLE(BF16K8), TABLE(CM16N8)},
    {"m16n8k8-tf32", 16, 8, 8, GPUCG_EMU_TF32, GPUCG_EMU_F32, TABLE(ATf32K8),
     TABLE(BTf32K8), TABLE(CM16N8)},
    {"m16n8k4-tf32", 16, 8, 4, GPUCG_EMU_TF32, GPUCG_EMU_F32, TABLE(ATf32K4),
     TABLE(BTf32K4), TABLE(CM16N8)},
    {"m16n8k32-s8", 16, 8, 32, GPUCG_EMU_S8, GPUCG_EMU_S32, TABLE(AI8K32),
     TABLE(BI8K32), TABLE(CM16N8)},
    {"m16n8k32-u8", 16, 8, 32, GPUCG_EMU_U8, GPUCG_EMU_S32, TABLE(AI8K32),
     TABLE(BI8K32), TABLE(CM16N8)},
    {"m16n8k16-s8", 16, 8, 16, GPUCG_EMU_S8, GPUCG_EMU_S32, TABLE(AI8K16),
     TABLE(BI8K16), TABLE(CM16N8)},
    {"m16n8k16-u8", 16, 8, 16, GPUCG_EMU_U8, GPUCG_EMU_S32, TABLE(AI8K16),
     TABLE(BI8K16), TABLE(CM16N8)},
    {"m8n8k16-s8", 8, 8, 16, GPUCG_EMU_S8, GPUCG_EMU_S32, TABLE(AI8M8),
     TABLE(BI8K16), TABLE(CM8N8)},
    {"m8n8k16-u8", 8, 8, 16, GPUCG_EMU_U8, GPUCG_EMU_S32, TABLE(AI8M8),
     TABLE(BI8K16), TABLE(CM8N8)},
    {"m8n8k4-f64", 8, 8, 4, GPUCG_EMU_F64, GPUCG_EMU_F64, TABLE(AF64),
     TABLE(BF64), TABLE(CM8N8)},
};

/* Element i of `lane`'s fragment sits at (*row, *col). */
static void place(const Place *table, int i, int lane, int *row, int *col) {
  *row = placeBase(table[i].rowBase, lane) + table[i].rowPlus;
  *col = placeBase(table[i].colBase, lane) + table[i].colPlus;
}

/* The 32 lanes' fragments must cover the rows x cols matrix once. */
static int tableCoversOnce(const Place *table, int count, int rows,
                           int cols, const char *what) {
  int seen[32 * 32] = {0};
  if (count * 32 != rows * cols) {
    printf("FAIL: %s: %d elements per lane do not make %dx%d\n", what, count,
           rows, cols);
    return 0;
  }
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < count; ++i) {
      int row, col;
      place(table, i, lane, &row, &col);
      if (row < 0 || row >= rows || col < 0 || col >= cols ||
          seen[row * cols + col]++) {
        printf("FAIL: %s: lane %d element %d at (%d, %d)\n", what, lane, i,
               row, col);
        return 0;
      }
    }
  return 1;
}

typedef struct MmaRun {
  const MmaCase *mc;
  const unsigned char *a, *b, *c; /* row-major, encoded */
  unsigned char *d;
  int inPlace; /* D's address is C's */
} MmaRun;

static void mmaBody(void *closure) {
  const MmaRun *run = closure;
  const MmaCase *mc = run->mc;
  int lane = (int)gpucg_emu_lane_id();
  int abBytes = typeBytes(mc->abType), cBytes = typeBytes(mc->cType);
  unsigned char a[64], b[64], c[64], d[64];
  int row, col;
  for (int i = 0; i < mc->aCount; ++i) {
    place(mc->a, i, lane, &row, &col);
    memcpy(a + i * abBytes, run->a + (row * mc->k + col) * abBytes, abBytes);
  }
  for (int i = 0; i < mc->bCount; ++i) {
    place(mc->b, i, lane, &row, &col);
    memcpy(b + i * abBytes, run->b + (row * mc->n + col) * abBytes, abBytes);
  }
  for (int i = 0; i < mc->cCount; ++i) {
    place(mc->c, i, lane, &row, &col);
    memcpy(c + i * cBytes, run->c + (row * mc->n + col) * cBytes, cBytes);
  }
  memset(d, 0xAB, sizeof(d));
  unsigned char *result = run->inPlace ? c : d;
  gpucg_emu_mma_sync(mc->m, mc->n, mc->k, mc->abType, mc->cType,
                     addressOf(a), addressOf(b), addressOf(c),
                     addressOf(result), "test.mlir:20:7: nvgpu.mma.sync");
  for (int i = 0; i < mc->cCount; ++i) {
    place(mc->c, i, lane, &row, &col);
    memcpy(run->d + (row * mc->n + col) * cBytes, result + i * cBytes, cBytes);
  }
}

static int isFloat(int type) {
  return type == GPUCG_EMU_F16 || type == GPUCG_EMU_BF16 ||
         type == GPUCG_EMU_TF32 || type == GPUCG_EMU_F32 ||
         type == GPUCG_EMU_F64;
}

/* Operand values: small multiples of 1/2 and 1/4 (exact in every float
   type and their products and sums exact), integers over the whole s8/u8
   range, accumulators near the int32 limits to see the wrap-around. */
static double valueA(int type, int row, int col) {
  if (type == GPUCG_EMU_S8)
    return (row * 37 + col * 11 + 5) % 256 - 128;
  if (type == GPUCG_EMU_U8)
    return (row * 37 + col * 11 + 5) % 256;
  return ((row * 7 + col * 3) % 9 - 4) * 0.5;
}

static double valueB(int type, int row, int col) {
  if (type == GPUCG_EMU_S8)
    return (row * 13 + col * 29 + 1) % 256 - 128;
  if (type == GPUCG_EMU_U8)
    return (row * 13 + col * 29 + 1) % 256;
  return ((row * 5 + col * 11) % 7 - 3) * 0.25;
}

static double valueC(int type, int row, int col) {
  if (type == GPUCG_EMU_S32) {
    if (row == 0 && col == 0)
      return 2147483647.0 - 10;
    if (row == 1 && col == 0)
      return -2147483648.0 + 3;
    return (row * 1000003 + col * 7919) % 200000 - 100000;
  }
  return ((row * 3 + col) % 5 - 2) * 0.125;
}

/* What a tf32 operand holds in memory: for every third element, the value
   plus the bits 11 and 12 places below its leading bit. tf32 keeps 10
   mantissa bits: the tensor cores drop them (truncation); rounding to
   nearest would round up (they exceed half an ulp), so the sum would
   differ. */
static double storedTf32(double value, int row, int col) {
  if ((row + col) % 3 != 0 || value == 0)
    return value;
  int exponent;
  frexp(value, &exponent); /* leading bit 2^(exponent - 1) */
  double extra = ldexp(1, exponent - 12) + ldexp(1, exponent - 13);
  return value < 0 ? value - extra : value + extra;
}

static int runMmaCase(const MmaCase *mc) {
  int m = mc->m, n = mc->n, k = mc->k;
  int abBytes = typeBytes(mc->abType), cBytes = typeBytes(mc->cType);
  if (!tableCoversOnce(mc->a, mc->aCount, m, k, "A layout") ||
      !tableCoversOnce(mc->b, mc->bCount, k, n, "B layout") ||
      !tableCoversOnce(mc->c, mc->cCount, m, n, "C layout"))
    return 1;
  unsigned char a[16 * 32 * 8], b[32 * 8 * 8], c[16 * 8 * 8], d[16 * 8 * 8];
  double av[16 * 32], bv[32 * 8], cv[16 * 8];
  for (int row = 0; row < m; ++row)
    for (int col = 0; col < k; ++col) {
      double value = valueA(mc->abType, row, col);
      av[row * k + col] = value;
      if (mc->abType == GPUCG_EMU_TF32)
        value = storedTf32(value, row, col);
      encode(mc->abType, value, a + (row * k + col) * abBytes);
    }
  for (int row = 0; row < k; ++row)
    for (int col = 0; col < n; ++col) {
      double value = valueB(mc->abType, row, col);
      bv[row * n + col] = value;
      if (mc->abType == GPUCG_EMU_TF32)
        value = storedTf32(value, row, col);
      encode(mc->abType, value, b + (row * n + col) * abBytes);
    }
  for (int row = 0; row < m; ++row)
    for (int col = 0; col < n; ++col) {
      cv[row * n + col] = valueC(mc->cType, row, col);
      encode(mc->cType, cv[row * n + col], c + (row * n + col) * cBytes);
    }
  int mismatches[2] = {0, 0};
  for (int inPlace = 0; inPlace < 2; ++inPlace) {
    memset(d, 0xCD, sizeof(d));
    MmaRun run = {mc, a, b, c, d, inPlace};
    launch1d(32, 0, mmaBody, &run);
    for (int row = 0; row < m; ++row)
      for (int col = 0; col < n; ++col) {
        double got = decode(mc->cType, d + (row * n + col) * cBytes);
        double expected;
        if (isFloat(mc->cType)) {
          double sum = cv[row * n + col];
          for (int i = 0; i < k; ++i)
            sum += av[row * k + i] * bv[i * n + col];
          expected = sum; /* exact here, and exact in D's type */
          unsigned char bits[8];
          encode(mc->cType, expected, bits);
        } else {
          /* Wrap-around 32-bit accumulation, in unsigned arithmetic. */
          uint32_t sum = (uint32_t)(int32_t)cv[row * n + col];
          for (int i = 0; i < k; ++i)
            sum += (uint32_t)(int32_t)(av[row * k + i] * bv[i * n + col]);
          expected = (double)(int32_t)sum;
        }
        if (got != expected) {
          ++mismatches[inPlace];
          CHECK(0, "%s%s: D[%d][%d] is %.9g, expected %.9g", mc->name,
                inPlace ? " (D = C)" : "", row, col, got, expected);
        }
      }
  }
  printf("mma %s: %d elements of D, %d mismatches, %d with D = C\n", mc->name,
         m * n, mismatches[0], mismatches[1]);
  return mismatches[0] + mismatches[1] ? 1 : 0;
}

static int mmaCommand(const char *name) {
  for (size_t i = 0; i < sizeof(MmaCases) / sizeof(MmaCases[0]); ++i)
    if (strcmp(MmaCases[i].name, name) == 0)
      return runMmaCase(&MmaCases[i]);
  printf("error: no mma case %s\n", name);
  return 2;
}

static int mmaAllCommand(void) {
  int failed = 0;
  for (size_t i = 0; i < sizeof(MmaCases) / sizeof(MmaCases[0]); ++i)
    failed |= runMmaCase(&MmaCases[i]);
  return failed;
}

/*===----------------------------------------------------------------------===*/
/* f16 rounding of mma.sync's D                                               */
/*===----------------------------------------------------------------------===*/

/* m16n8k8 f16 -> f16 with B's row 0 all 1 and row 1 all 2^-11: D[r][0] =
   A[r][0] + A[r][1] * 2^-11 + C[r][0], rounded once to f16. */
typedef struct RoundingCase {
  double a0, a1, c;
  uint16_t expected;
  const char *what;
} RoundingCase;

static const RoundingCase RoundingCases[] = {
    {1, 0, 2048, 0x6800, "2049 ties to even 2048"},
    {3, 0, 2048, 0x6802, "2051 ties to even 2052"},
    {16, 0, 65504, 0x7C00, "65520 ties to infinity"},
    {15, 0, 65504, 0x7BFF, "65519 rounds to 65504"},
    {0, 0x1p-14, 0, 0x0000, "2^-25 ties to even 0"},
    {0, 3 * 0x1p-14, 0, 0x0002, "1.5 * 2^-24 ties to even 2 * 2^-24"},
    {0, 5 * 0x1p-14, 0, 0x0002, "2.5 * 2^-24 ties to even 2 * 2^-24"},
    {-1, 0, -2048, 0xE800, "-2049 ties to even -2048"},
    {1, 0, NAN, 0x7E00, "NaN stays NaN"},
    {1, 0, -1, 0x0000, "1 + -1 is +0"},
    {-1, 0, INFINITY, 0x7C00, "infinity stays infinity"},
    {1023 * 0x1p-24, 1.5 * 0x1p-14, 0, 0x0400,
     "1023.75 * 2^-24 rounds up to the smallest normal"},
    {0.5, 0, 2047, 0x6800, "2047.5 ties to even 2048 (next binade)"},
    {0, 0x1p-14, 1, 0x3C00, "1 + 2^-25 rounds to 1"},
    {0, -3 * 0x1p-14, 0, 0x8002, "-1.5 * 2^-24 ties to even -2 * 2^-24"},
    {0.5, 0, 0.25, 0x3A00, "0.75 is exact"},
};

static int mmaF16RoundingCommand(void) {
  const MmaCase *mc = NULL;
  for (size_t i = 0; i < sizeof(MmaCases) / sizeof(MmaCases[0]); ++i)
    if (strcmp(MmaCases[i].name, "m16n8k8-f16-c16") == 0)
      mc = &MmaCases[i];
  unsigned char a[16 * 8 * 2] = {0}, b[8 * 8 * 2] = {0}, c[16 * 8 * 2] = {0},
                d[16 * 8 * 2];
  int cases = (int)(sizeof(RoundingCases) / sizeof(RoundingCases[0]));
  for (int row = 0; row < cases; ++row) {
    const RoundingCase *rc = &RoundingCases[row];
    encode(GPUCG_EMU_F16, rc->a0, a + (row * 8 + 0) * 2);
    encode(GPUCG_EMU_F16, rc->a1, a + (row * 8 + 1) * 2);
    uint16_t cBits = isnan(rc->c)   ? 0x7E00
                     : isinf(rc->c) ? (rc->c < 0 ? 0xFC00 : 0x7C00)
                                    : halfOf(rc->c);
    memcpy(c + row * 8 * 2, &cBits, 2);
  }
  for (int col = 0; col < 8; ++col) {
    encode(GPUCG_EMU_F16, 1, b + (0 * 8 + col) * 2);
    encode(GPUCG_EMU_F16, 0x1p-11, b + (1 * 8 + col) * 2);
  }
  MmaRun run = {mc, a, b, c, d, 0};
  launch1d(32, 0, mmaBody, &run);
  int mismatches = 0;
  for (int row = 0; row < cases; ++row) {
    uint16_t got;
    memcpy(&got, d + row * 8 * 2, 2);
    int ok = got == RoundingCases[row].expected;
    mismatches += !ok;
    printf("%s: 0x%04x %s\n", RoundingCases[row].what, got,
           ok ? "ok" : "WRONG");
    CHECK(ok, "expected 0x%04x", RoundingCases[row].expected);
  }
  return mismatches ? 1 : 0;
}

/*===----------------------------------------------------------------------===*/
/* WMMA                                                                       */
/*===----------------------------------------------------------------------===*/

typedef struct WmmaCase {
  const char *name;
  int m, n, k, abType, cType;
} WmmaCase;

static const WmmaCase WmmaCases[] = {
    {"16x16x16-f16", 16, 16, 16, GPUCG_EMU_F16, GPUCG_EMU_F32},
    {"32x8x16-f16-c16", 32, 8, 16, GPUCG_EMU_F16, GPUCG_EMU_F16},
    {"8x32x16-bf16", 8, 32, 16, GPUCG_EMU_BF16, GPUCG_EMU_F32},
    {"16x16x8-tf32", 16, 16, 8, GPUCG_EMU_TF32, GPUCG_EMU_F32},
    {"16x16x16-s8", 16, 16, 16, GPUCG_EMU_S8, GPUCG_EMU_S32},
    {"8x8x4-f64", 8, 8, 4, GPUCG_EMU_F64, GPUCG_EMU_F64},
};

typedef struct WmmaRun {
  const WmmaCase *wc;
  const unsigned char *a, *b, *c;
  unsigned char *d;
} WmmaRun;

/* gpucg's WMMA layout: lane L holds elements L*E .. L*E+E-1 of the
   row-major matrix. */
static void wmmaBody(void *closure) {
  const WmmaRun *run = closure;
  const WmmaCase *wc = run->wc;
  int lane = (int)gpucg_emu_lane_id();
  int abBytes = typeBytes(wc->abType), cBytes = typeBytes(wc->cType);
  size_t aPart = (size_t)(wc->m * wc->k / 32 * abBytes);
  size_t bPart = (size_t)(wc->k * wc->n / 32 * abBytes);
  size_t cPart = (size_t)(wc->m * wc->n / 32 * cBytes);
  unsigned char a[128], b[128], c[128], d[128];
  memcpy(a, run->a + lane * aPart, aPart);
  memcpy(b, run->b + lane * bPart, bPart);
  memcpy(c, run->c + lane * cPart, cPart);
  gpucg_emu_wmma_mma(wc->m, wc->n, wc->k, wc->abType, wc->cType, addressOf(a),
                     addressOf(b), addressOf(c), addressOf(d),
                     "test.mlir:30:9: gpu.subgroup_mma_compute");
  memcpy(run->d + lane * cPart, d, cPart);
}

static int wmmaCommand(const char *name) {
  const WmmaCase *wc = NULL;
  for (size_t i = 0; i < sizeof(WmmaCases) / sizeof(WmmaCases[0]); ++i)
    if (strcmp(WmmaCases[i].name, name) == 0)
      wc = &WmmaCases[i];
  if (!wc) {
    printf("error: no wmma case %s\n", name);
    return 2;
  }
  int m = wc->m, n = wc->n, k = wc->k;
  int abBytes = typeBytes(wc->abType), cBytes = typeBytes(wc->cType);
  static unsigned char a[32 * 32 * 8], b[32 * 32 * 8], c[32 * 32 * 8],
      d[32 * 32 * 8];
  static double av[32 * 32], bv[32 * 32], cv[32 * 32];
  for (int i = 0; i < m * k; ++i) {
    av[i] = valueA(wc->abType, i / k, i % k);
    double stored = wc->abType == GPUCG_EMU_TF32
                        ? storedTf32(av[i], i / k, i % k)
                        : av[i];
    encode(wc->abType, stored, a + i * abBytes);
  }
  for (int i = 0; i < k * n; ++i) {
    bv[i] = valueB(wc->abType, i / n, i % n);
    double stored = wc->abType == GPUCG_EMU_TF32
                        ? storedTf32(bv[i], i / n, i % n)
                        : bv[i];
    encode(wc->abType, stored, b + i * abBytes);
  }
  for (int i = 0; i < m * n; ++i) {
    cv[i] = valueC(wc->cType, i / n, i % n);
    encode(wc->cType, cv[i], c + i * cBytes);
  }
  WmmaRun run = {wc, a, b, c, d};
  launch1d(32, 0, wmmaBody, &run);
  int mismatches = 0;
  for (int row = 0; row < m; ++row)
    for (int col = 0; col < n; ++col) {
      double expected;
      if (isFloat(wc->cType)) {
        expected = cv[row * n + col];
        for (int i = 0; i < k; ++i)
          expected += av[row * k + i] * bv[i * n + col];
      } else {
        uint32_t sum = (uint32_t)(int32_t)cv[row * n + col];
        for (int i = 0; i < k; ++i)
          sum += (uint32_t)(int32_t)(av[row * k + i] * bv[i * n + col]);
        expected = (double)(int32_t)sum;
      }
      double got = decode(wc->cType, d + (row * n + col) * cBytes);
      if (got != expected) {
        ++mismatches;
        CHECK(0, "wmma %s: D[%d][%d] is %.9g, expected %.9g", name, row, col,
              got, expected);
      }
    }
  printf("wmma %s: %d elements of D, %d mismatches\n", name, m * n,
         mismatches);
  return mismatches ? 1 : 0;
}

/*===----------------------------------------------------------------------===*/
/* ldmatrix                                                                   */
/*===----------------------------------------------------------------------===*/

enum { LdmatrixBytes = 1024 };

typedef struct LdmatrixRun {
  int tiles, transpose;
  uint32_t result[32][4];
  int64_t memoryOffsetOfRow[32]; /* of lane L's row */
} LdmatrixRun;

/* Workgroup memory holds 16-bit element e at byte 2e, value 0x4000 + e. */
static uint16_t patternAt(int64_t byteOffset) {
  return (uint16_t)(0x4000 + byteOffset / 2);
}

/* Lane L gives row L%8 of matrix L/8 at one of the 64 16-byte rows of the
   buffer, scattered (13 is odd, so this is a permutation). */
static int64_t rowOffset(int lane) { return (int64_t)((lane * 13 + 7) % 64) * 16; }

static void fillPattern(unsigned char *memory, int lane, int lanes,
                        int64_t bytes) {
  int64_t share = bytes / lanes;
  for (int64_t offset = lane * share; offset < (lane + 1) * share;
       offset += 2) {
    uint16_t value = patternAt(offset);
    memcpy(memory + offset, &value, 2);
  }
  gpucg_emu_access(addressOf(memory + lane * share), share, 1,
                   "test.mlir:40:5: memref.store");
}

static void ldmatrixBody(void *closure) {
  LdmatrixRun *run = closure;
  int lane = (int)gpucg_emu_lane_id();
  unsigned char *memory = workgroupMemory();
  fillPattern(memory, lane, 32, LdmatrixBytes);
  gpucg_emu_barrier("test.mlir:41:5: gpu.barrier");
  /* Lanes past 8 * tiles pass an address that must be ignored. */
  int64_t address = lane < 8 * run->tiles ? addressOf(memory + rowOffset(lane))
                                          : (int64_t)7;
  run->memoryOffsetOfRow[lane] = rowOffset(lane);
  uint32_t result[4] = {0, 0, 0, 0};
  gpucg_emu_ldmatrix(address, run->tiles, run->transpose, addressOf(result),
                     "test.mlir:42:10: nvgpu.ldmatrix");
  memcpy(run->result[lane], result, sizeof(result));
}

/* Element (row, col) of matrix `tile`: row `row` is the row lane
   8*tile+row gave. */
static uint16_t matrixElement(const LdmatrixRun *run, int tile, int row,
                              int col) {
  return patternAt(run->memoryOffsetOfRow[8 * tile + row] + 2 * col);
}

static int ldmatrixCommand(int tiles, int transpose) {
  LdmatrixRun run;
  memset(&run, 0, sizeof(run));
  run.tiles = tiles;
  run.transpose = transpose;
  launch1d(32, LdmatrixBytes, ldmatrixBody, &run);
  int mismatches = 0;
  for (int lane = 0; lane < 32; ++lane)
    for (int tile = 0; tile < tiles; ++tile) {
      /* PTX: without .trans, a thread holds row lane/4, elements
         2*(lane%4) and +1; with .trans, column lane/4 of rows 2*(lane%4)
         and +1. The first element is the low half. */
      uint16_t low, high;
      if (!transpose) {
        low = matrixElement(&run, tile, lane / 4, 2 * (lane % 4));
        high = matrixElement(&run, tile, lane / 4, 2 * (lane % 4) + 1);
      } else {
        low = matrixElement(&run, tile, 2 * (lane % 4), lane / 4);
        high = matrixElement(&run, tile, 2 * (lane % 4) + 1, lane / 4);
      }
      uint32_t expected = (uint32_t)low | (uint32_t)high << 16;
      if (run.result[lane][tile] != expected) {
        ++mismatches;
        CHECK(0, "lane %d register %d is 0x%08x, expected 0x%08x", lane, tile,
              run.result[lane][tile], expected);
      }
    }
  for (int lane = 0; lane < 32; ++lane)
    for (int tile = tiles; tile < 4; ++tile)
      CHECK(run.result[lane][tile] == 0,
            "lane %d register %d past num_tiles was written", lane, tile);
  printf("ldmatrix x%d%s: 32 lanes, %d mismatches; lane 5 register 0 = "
         "0x%08x\n",
         tiles, transpose ? ".trans" : "", mismatches, run.result[5][0]);
  return mismatches || failures ? 1 : 0;
}

/* A (16x16 f16, row-major, 32-byte rows at offset 0) with ldmatrix.x4 and B
   (16x8 f16, K x N row-major, 16-byte rows at offset 512) with
   ldmatrix.x2.trans, fed to mma.m16n8k16: D must be A * B. */
typedef struct LdmatrixMmaRun {
  float d[16 * 8];
} LdmatrixMmaRun;

static double crossA(int row, int col) {
  return ((row * 3 + col * 5) % 11 - 5) * 0.25;
}
static double crossB(int row, int col) { return ((row + 2 * col) % 7 - 3) * 0.5; }

static void ldmatrixMmaBody(void *closure) {
  LdmatrixMmaRun *run = closure;
  int lane = (int)gpucg_emu_lane_id();
  unsigned char *memory = workgroupMemory();
  /* Lane L writes A's row L/2 half L%2 and B's row L/2 (lanes 0..15 do). */
  for (int col = (lane % 2) * 8; col < (lane % 2) * 8 + 8; ++col)
    encode(GPUCG_EMU_F16, crossA(lane / 2, col),
           memory + (lane / 2) * 32 + col * 2);
  gpucg_emu_access(addressOf(memory + (lane / 2) * 32 + (lane % 2) * 16), 16,
                   1, "test.mlir:50:5: vector.store");
  if (lane < 16) {
    for (int col = 0; col < 8; ++col)
      encode(GPUCG_EMU_F16, crossB(lane, col), memory + 512 + lane * 16 + col * 2);
    gpucg_emu_access(addressOf(memory + 512 + lane * 16), 16, 1,
                     "test.mlir:51:5: vector.store");
  }
  gpucg_emu_barrier("test.mlir:52:5: gpu.barrier");
  uint32_t aRegisters[4], bRegisters[2];
  gpucg_emu_ldmatrix(addressOf(memory + (lane % 16) * 32 + (lane / 16) * 16),
                     4, 0, addressOf(aRegisters),
                     "test.mlir:53:10: nvgpu.ldmatrix");
  gpucg_emu_ldmatrix(addressOf(memory + 512 + (lane % 16) * 16), 2, 1,
                     addressOf(bRegisters), "test.mlir:54:10: nvgpu.ldmatrix");
  float c[4] = {0, 0, 0, 0}, d[4];
  gpucg_emu_mma_sync(16, 8, 16, GPUCG_EMU_F16, GPUCG_EMU_F32,
                     addressOf(aRegisters), addressOf(bRegisters),
                     addressOf(c), addressOf(d),
                     "test.mlir:55:10: nvgpu.mma.sync");
  for (int i = 0; i < 4; ++i) {
    int row, col;
    place(CM16N8, i, lane, &row, &col);
    run->d[row * 8 + col] = d[i];
  }
}

static int ldmatrixMmaCommand(void) {
  LdmatrixMmaRun run;
  memset(&run, 0, sizeof(run));
  launch1d(32, 768, ldmatrixMmaBody, &run);
  int mismatches = 0;
  for (int row = 0; row < 16; ++row)
    for (int col = 0; col < 8; ++col) {
      double expected = 0;
      for (int i = 0; i < 16; ++i)
        expected += crossA(row, i) * crossB(i, col);
      if (run.d[row * 8 + col] != expected) {
        ++mismatches;
        CHECK(0, "D[%d][%d] is %g, expected %g", row, col,
              run.d[row * 8 + col], expected);
      }
    }
  printf("ldmatrix.x4 A, ldmatrix.x2.trans B, mma m16n8k16: 128 elements, %d "
         "mismatches; D[3][5] = %g\n",
         mismatches, run.d[3 * 8 + 5]);
  return mismatches ? 1 : 0;
}

/*===----------------------------------------------------------------------===*/
/* Shuffle                                                                    */
/*===----------------------------------------------------------------------===*/

typedef struct ShuffleRun {
  int width, mode, offset; /* offset -1: per lane (3 * lane + 1) % 32 */
  int64_t result[64];
} ShuffleRun;

static int shuffleOffset(const ShuffleRun *run, int lane) {
  return run->offset >= 0 ? run->offset : (3 * lane + 1) % 32;
}

static int32_t laneValue(int lane) { return 1000 + 7 * lane; }

static void shuffleBody(void *closure) {
  ShuffleRun *run = closure;
  int lane = (int)gpucg_emu_lane_id();
  run->result[linearThreadId()] =
      gpucg_emu_shuffle(laneValue(lane), shuffleOffset(run, lane), run->width,
                        run->mode, "test.mlir:60:12: gpu.shuffle");
}

/* What gpu.shuffle gives for xor, down and idx: lane lane^o, lane+o, o,
   valid when below width (the PTX formula with MLIR's clamp width - 1
   agrees). For up, gpu.shuffle's description says lane-o, valid when >= 0;
   MLIR's NVVM lowering passes the clamp 32 - width without the segment-mask
   shift CUDA uses, so the PTX formula makes it valid when lane - o >=
   32 - width: the same for width 32, never for lanes below a narrower
   width. The emulator does what the hardware does. */
static int expectedSource(int mode, int width, int lane, int offset,
                          int *valid) {
  int source;
  switch (mode) {
  case GPUCG_EMU_SHUFFLE_XOR:
    source = lane ^ offset;
    *valid = source < width;
    break;
  case GPUCG_EMU_SHUFFLE_DOWN:
    source = lane + offset;
    *valid = source < width;
    break;
  case GPUCG_EMU_SHUFFLE_IDX:
    source = offset;
    *valid = source < width;
    break;
  default:
    source = lane - offset;
    *valid = width == 32 ? source >= 0 : source >= 32 - width;
    break;
  }
  return *valid ? source : lane;
}

static const char *ModeNames[] = {"xor", "up", "down", "idx"};

static int shuffleCommand(int threads, int width) {
  static const int Offsets[] = {0, 1, 2, 5, 8, 15, 16, 31, -1};
  int mismatches = 0, runs = 0, valids = 0;
  for (int mode = 0; mode < 4; ++mode)
    for (size_t o = 0; o < sizeof(Offsets) / sizeof(Offsets[0]); ++o) {
      ShuffleRun run;
      memset(&run, 0, sizeof(run));
      run.width = width;
      run.mode = mode;
      run.offset = Offsets[o];
      /* Offsets that would read a lane the warp does not have, or outside
         the member mask, are the error tests' business. */
      int skip = 0;
      for (int lane = 0; lane < threads; ++lane) {
        int valid, source = expectedSource(mode, width, lane,
                                           shuffleOffset(&run, lane), &valid);
        if (valid && (source >= threads || source >= width))
          skip = 1;
      }
      if (skip)
        continue;
      launch1d(threads, 0, shuffleBody, &run);
      ++runs;
      for (int lane = 0; lane < threads; ++lane) {
        int valid, source = expectedSource(mode, width, lane,
                                           shuffleOffset(&run, lane), &valid);
        int64_t expected =
            (int64_t)(uint32_t)laneValue(source) | (int64_t)valid << 32;
        valids += valid;
        if (run.result[lane] != expected) {
          ++mismatches;
          CHECK(0, "%s width %d offset %d lane %d: 0x%" PRIx64
                   ", expected 0x%" PRIx64,
                ModeNames[mode], width, shuffleOffset(&run, lane), lane,
                run.result[lane], expected);
        }
      }
    }
  printf("shuffle width %d, %d threads: %d launches, %d valid results, %d "
         "mismatches\n",
         width, threads, runs, valids, mismatches);
  return mismatches ? 1 : 0;
}

/* One shuffle per mode, with the results of a few lanes: readable in the
   lit test. */
static int shuffleShowCommand(int threads, int width) {
  for (int mode = 0; mode < 4; ++mode) {
    ShuffleRun run;
    memset(&run, 0, sizeof(run));
    run.width = width;
    run.mode = mode;
    run.offset = 1;
    launch1d(threads, 0, shuffleBody, &run);
    printf("%s 1 width %d:", ModeNames[mode], width);
    for (int lane = 0; lane < threads; lane += threads / 8)
      printf(" %d:%d/%d", lane, (int)((int32_t)run.result[lane] - 1000) / 7,
             (int)(run.result[lane] >> 32));
    printf("\n");
  }
  return 0;
}

static void shuffleErrorBody(void *closure) {
  const int *args = closure; /* width, mode, offset */
  int lane = (int)gpucg_emu_lane_id();
  gpucg_emu_shuffle(laneValue(lane), args[2], args[0], args[1],
                    "test.mlir:61:12: gpu.shuffle");
}

/*===----------------------------------------------------------------------===*/
/* Barriers, ids, order                                                       */
/*===----------------------------------------------------------------------===*/

enum { BlockX = 8, BlockY = 4, BlockZ = 2, BlockThreads = 64 };

typedef struct BarrierRun {
  int32_t out[2][2][BlockThreads];
  int mismatchesInBody;
} BarrierRun;

/* Every thread writes its slot, waits, reads both neighbours' slots, in a
   loop whose barriers are inside the loop body. */
static void barrierBody(void *closure) {
  BarrierRun *run = closure;
  int linear = linearThreadId();
  int bx = (int)gpucg_emu_block_id(0), by = (int)gpucg_emu_block_id(1);
  int32_t *slots = (int32_t *)(void *)workgroupMemory();
  int32_t sum = 0;
  for (int step = 0; step < 3; ++step) {
    int32_t mine = (bx * 10 + by) * 100000 + step * 1000 + linear;
    slots[linear] = mine;
    gpucg_emu_access(addressOf(&slots[linear]), 4, 1,
                     "test.mlir:70:7: memref.store");
    gpucg_emu_barrier("test.mlir:71:7: gpu.barrier");
    int left = (linear + BlockThreads - 1) % BlockThreads;
    int right = (linear + 1) % BlockThreads;
    gpucg_emu_access(addressOf(&slots[left]), 4, 0,
                     "test.mlir:72:7: memref.load");
    gpucg_emu_access(addressOf(&slots[right]), 4, 0,
                     "test.mlir:73:7: memref.load");
    int32_t expectedLeft = mine - linear + left;
    int32_t expectedRight = mine - linear + right;
    if (slots[left] != expectedLeft || slots[right] != expectedRight)
      ++run->mismatchesInBody;
    sum += slots[left] + slots[right];
    if (step % 2 == 0) /* a barrier in an if, taken uniformly */
      gpucg_emu_barrier("test.mlir:75:9: gpu.barrier");
    else
      gpucg_emu_barrier("test.mlir:77:9: gpu.barrier");
  }
  run->out[bx][by][linear] = sum;
}

static int barrierCommand(void) {
  BarrierRun run;
  memset(&run, 0, sizeof(run));
  gpucg_emu_configure(2, 2, 1, BlockX, BlockY, BlockZ, BlockThreads * 4);
  gpucg_emu_launch(barrierBody, &run);
  int mismatches = run.mismatchesInBody;
  for (int bx = 0; bx < 2; ++bx)
    for (int by = 0; by < 2; ++by)
      for (int linear = 0; linear < BlockThreads; ++linear) {
        int32_t expected = 0;
        for (int step = 0; step < 3; ++step) {
          int32_t base = (bx * 10 + by) * 100000 + step * 1000;
          expected += 2 * base + (linear + BlockThreads - 1) % BlockThreads +
                      (linear + 1) % BlockThreads;
        }
        if (run.out[bx][by][linear] != expected) {
          ++mismatches;
          CHECK(0, "workgroup (%d, %d) thread %d: %d, expected %d", bx, by,
                linear, run.out[bx][by][linear], expected);
        }
      }
  printf("barrier: 4 workgroups of %dx%dx%d threads, 3 steps, %d "
         "mismatches\n",
         BlockX, BlockY, BlockZ, mismatches);
  return mismatches ? 1 : 0;
}

/* Named barriers: three groups of 64 threads; groups 0 and 1 each pass
   values around their own group through barrier 1 + group (64 threads)
   three times, while group 2 returns at once. Without the barriers a
   thread would read a neighbour's slot before it is written. */
enum { NamedGroupThreads = 64, NamedGroups = 3, NamedSteps = 3 };
typedef struct NamedBarrierRun {
  int32_t slot[NamedGroups * NamedGroupThreads];
  int32_t sum[NamedGroups * NamedGroupThreads];
} NamedBarrierRun;

static void namedBarrierBody(void *closure) {
  NamedBarrierRun *run = closure;
  int linear = linearThreadId();
  int group = linear / NamedGroupThreads, lane = linear % NamedGroupThreads;
  if (group == NamedGroups - 1)
    return;
  int first = group * NamedGroupThreads;
  for (int step = 0; step < NamedSteps; ++step) {
    run->slot[linear] = linear * 10 + step;
    gpucg_emu_named_barrier(1 + group, NamedGroupThreads,
                            "test.mlir:140:5: nvvm.barrier");
    run->sum[linear] += run->slot[first + (lane + 1) % NamedGroupThreads];
    gpucg_emu_named_barrier(1 + group, NamedGroupThreads,
                            "test.mlir:142:5: nvvm.barrier");
  }
}

static int namedBarrierCommand(void) {
  NamedBarrierRun run;
  memset(&run, 0, sizeof(run));
  launch1d(NamedGroups * NamedGroupThreads, 0, namedBarrierBody, &run);
  int mismatches = 0;
  for (int linear = 0; linear < (NamedGroups - 1) * NamedGroupThreads;
       ++linear) {
    int group = linear / NamedGroupThreads, lane = linear % NamedGroupThreads;
    int next = group * NamedGroupThreads + (lane + 1) % NamedGroupThreads;
    int32_t expected = 0;
    for (int step = 0; step < NamedSteps; ++step)
      expected += next * 10 + step;
    if (run.sum[linear] != expected) {
      ++mismatches;
      CHECK(0, "thread %d: %d, expected %d", linear, run.sum[linear], expected);
    }
  }
  printf("named barrier: 2 groups of %d threads, %d steps, %d mismatches\n",
         NamedGroupThreads, NamedSteps, mismatches);
  return mismatches ? 1 : 0;
}

/* Thread 0 waits for 64 threads at barrier 1, the others of its warp for
   32. */
static void namedBarrierCountBody(void *closure) {
  (void)closure;
  gpucg_emu_named_barrier(1, linearThreadId() == 0 ? 64 : 32,
                          "test.mlir:150:5: nvvm.barrier");
}

/* The first warp waits for 64 threads at barrier 2; the second returns. */
static void namedBarrierDeadlockBody(void *closure) {
  (void)closure;
  if (linearThreadId() < 32)
    gpucg_emu_named_barrier(2, 64, "test.mlir:160:5: nvvm.barrier");
}

/* Barrier 16 does not exist; neither does a barrier of 48 threads. */
static void namedBarrierIdBody(void *closure) {
  (void)closure;
  gpucg_emu_named_barrier(16, 32, "test.mlir:170:5: nvvm.barrier");
}

static void namedBarrierThreadsBody(void *closure) {
  (void)closure;
  gpucg_emu_named_barrier(3, 48, "test.mlir:180:5: nvvm.barrier");
}

/* The scheduling order: each thread logs when it starts, after a barrier,
   and after a shuffle. */
typedef struct OrderRun {
  int log[3][8];
  int count[3];
} OrderRun;

static void orderBody(void *closure) {
  OrderRun *run = closure;
  int linear = linearThreadId();
  run->log[0][run->count[0]++] = linear;
  gpucg_emu_barrier("test.mlir:80:5: gpu.barrier");
  run->log[1][run->count[1]++] = linear;
  gpucg_emu_shuffle(linear, 1, 32, GPUCG_EMU_SHUFFLE_XOR,
                    "test.mlir:81:5: gpu.shuffle");
  run->log[2][run->count[2]++] = linear;
}

static int orderCommand(void) {
  OrderRun run;
  memset(&run, 0, sizeof(run));
  launch1d(8, 0, orderBody, &run);
  static const char *phases[] = {"start", "after barrier", "after shuffle"};
  for (int phase = 0; phase < 3; ++phase) {
    printf("%s:", phases[phase]);
    for (int i = 0; i < run.count[phase]; ++i)
      printf(" %d", run.log[phase][i]);
    printf("\n");
  }
  return 0;
}

/* Ids, dimensions and the workgroup memory descriptor, seen by a few
   threads of a 3-d grid; every workgroup starts with poisoned memory. */
typedef struct IdsRun {
  char lines[64][160];
  int count;
  int poisonMismatches;
} IdsRun;

static void idsBody(void *closure) {
  IdsRun *run = closure;
  gpucg_emu_memref_i8 memref;
  _mlir_ciface_gpucg_emu_workgroup_memory(&memref);
  int linear = linearThreadId();
  if (linear == 0) {
    for (int64_t i = 0; i < memref.sizes[0]; ++i)
      if ((unsigned char)memref.aligned[i] != 0xFF)
        ++run->poisonMismatches;
    /* Scribble: the next workgroup must not see it. */
    memset(memref.aligned, 0x11, (size_t)memref.sizes[0]);
  }
  if (linear != 0 && linear != 37 && linear != 47)
    return;
  if (run->count >= 64)
    return;
  snprintf(run->lines[run->count++], 160,
           "block (%" PRId64 ", %" PRId64 ", %" PRId64 ") thread (%" PRId64
           ", %" PRId64 ", %" PRId64 ") lane %" PRId64 " of (%" PRId64
           ", %" PRId64 ", %" PRId64 ") in (%" PRId64 ", %" PRId64
           ", %" PRId64 "), memory %" PRId64 " bytes, offset %" PRId64
           ", stride %" PRId64 ", %s",
           gpucg_emu_block_id(0), gpucg_emu_block_id(1), gpucg_emu_block_id(2),
           gpucg_emu_thread_id(0), gpucg_emu_thread_id(1),
           gpucg_emu_thread_id(2), gpucg_emu_lane_id(), gpucg_emu_block_dim(0),
           gpucg_emu_block_dim(1), gpucg_emu_block_dim(2),
           gpucg_emu_grid_dim(0), gpucg_emu_grid_dim(1), gpucg_emu_grid_dim(2),
           memref.sizes[0], memref.offset, memref.strides[0],
           (uintptr_t)memref.aligned % 16 == 0 ? "16-byte aligned"
                                                : "MISALIGNED");
}

static int idsCommand(void) {
  IdsRun run;
  memset(&run, 0, sizeof(run));
  gpucg_emu_configure(2, 1, 2, 5, 3, 4, 100);
  gpucg_emu_launch(idsBody, &run);
  for (int i = 0; i < run.count; ++i)
    printf("%s\n", run.lines[i]);
  printf("poison mismatches: %d\n", run.poisonMismatches);
  return run.poisonMismatches ? 1 : 0;
}

/*===----------------------------------------------------------------------===*/
/* Async copies                                                               */
/*===----------------------------------------------------------------------===*/

typedef struct AsyncRun {
  _Alignas(16) unsigned char source[32][64];
  unsigned char seen[32][8][16]; /* what lane L saw at each check */
  int32_t groups[32][3];
  unsigned char *memory;
} AsyncRun;

static void readOwn(const unsigned char *memory, int64_t offset,
                    unsigned char *into) {
  gpucg_emu_access(addressOf(memory + offset), 16, 0,
                   "test.mlir:90:9: vector.load");
  memcpy(into, memory + offset, 16);
}

/* Each lane owns 64 bytes of workgroup memory at 64 * lane. */
static void asyncBody(void *closure) {
  AsyncRun *run = closure;
  int lane = (int)gpucg_emu_lane_id();
  unsigned char *memory = workgroupMemory();
  int64_t mine = 64 * lane;
  if (lane == 0)
    run->memory = memory;
  /* 1. A copy lands only at the wait: before it, the poison shows. */
  gpucg_emu_async_copy(addressOf(memory + mine), addressOf(run->source[lane]),
                       16, 16, NULL);
  run->groups[lane][0] = gpucg_emu_async_commit();
  readOwn(memory, mine, run->seen[lane][0]);
  gpucg_emu_async_wait(0);
  readOwn(memory, mine, run->seen[lane][1]);
  /* 2. Zero fill: 8 of 16 bytes from the source. */
  gpucg_emu_async_copy(addressOf(memory + mine + 16),
                       addressOf(run->source[lane] + 16), 16, 8, NULL);
  run->groups[lane][1] = gpucg_emu_async_commit();
  gpucg_emu_async_wait(0);
  readOwn(memory, mine + 16, run->seen[lane][2]);
  /* 3. Two groups; wait(1) leaves the newest pending. */
  gpucg_emu_async_copy(addressOf(memory + mine + 32),
                       addressOf(run->source[lane] + 32), 8, 8, NULL);
  gpucg_emu_async_copy(addressOf(memory + mine + 40),
                       addressOf(run->source[lane] + 40), 4, 4, NULL);
  gpucg_emu_async_commit();
  gpucg_emu_async_copy(addressOf(memory + mine + 48),
                       addressOf(run->source[lane] + 48), 16, 16, NULL);
  run->groups[lane][2] = gpucg_emu_async_commit();
  gpucg_emu_async_wait(1);
  readOwn(memory, mine + 32, run->seen[lane][3]);
  readOwn(memory, mine + 48, run->seen[lane][4]);
  gpucg_emu_async_wait(0);
  readOwn(memory, mine + 48, run->seen[lane][5]);
  /* 4. A copy not committed: no wait lands it, returning does. */
  gpucg_emu_async_copy(addressOf(memory + 2048 + 16 * lane),
                       addressOf(run->source[lane]), 16, 16, NULL);
  gpucg_emu_async_wait(0);
  readOwn(memory, 2048 + 16 * lane, run->seen[lane][6]);
}

static int compareBytes(const unsigned char *got, const unsigned char *source,
                        int fromSource, int zeros, int poison) {
  for (int i = 0; i < fromSource; ++i)
    if (got[i] != source[i])
      return 0;
  for (int i = fromSource; i < fromSource + zeros; ++i)
    if (got[i] != 0)
      return 0;
  for (int i = fromSource + zeros; i < fromSource + zeros + poison; ++i)
    if (got[i] != 0xFF)
      return 0;
  return 1;
}

static int asyncCopyCommand(void) {
  static AsyncRun run;
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 64; ++i)
      run.source[lane][i] = (unsigned char)(lane * 64 + i + 1);
  launch1d(32, 4096, asyncBody, &run);
  int bad[8] = {0};
  for (int lane = 0; lane < 32; ++lane) {
    const unsigned char *source = run.source[lane];
    bad[0] += !compareBytes(run.seen[lane][0], source, 0, 0, 16);
    bad[1] += !compareBytes(run.seen[lane][1], source, 16, 0, 0);
    bad[2] += !compareBytes(run.seen[lane][2], source + 16, 8, 8, 0);
    bad[3] += !compareBytes(run.seen[lane][3], source + 32, 12, 0, 4);
    bad[4] += !compareBytes(run.seen[lane][4], source + 48, 0, 0, 16);
    bad[5] += !compareBytes(run.seen[lane][5], source + 48, 16, 0, 0);
    bad[6] += !compareBytes(run.seen[lane][6], source, 0, 0, 16);
    /* After the launch, the last workgroup's memory: landed on return. */
    bad[7] += !compareBytes(run.memory + 2048 + 16 * lane, source, 16, 0, 0);
  }
  static const char *what[] = {
      "before the wait: poison",
      "after wait(0): the source",
      "src_bytes 8 of 16: 8 bytes, 8 zeros",
      "wait(1): the older group landed (8 + 4 bytes), 4 poison bytes",
      "wait(1): the newest group still pending: poison",
      "wait(0): the newest group landed",
      "uncommitted copy after wait(0): poison",
      "uncommitted copy after the thread returned: landed",
  };
  int failed = 0;
  for (int i = 0; i < 8; ++i) {
    printf("%s: %d of 32 lanes wrong\n", what[i], bad[i]);
    failed |= bad[i] != 0;
  }
  printf("groups of lane 3: %d %d %d\n", run.groups[3][0], run.groups[3][1],
         run.groups[3][2]);
  return failed;
}

/*===----------------------------------------------------------------------===*/
/* Error reports                                                              */
/*===----------------------------------------------------------------------===*/

/* Threads from linear id 40 on return early. */
static void barrierReturnedBody(void *closure) {
  (void)closure;
  if (linearThreadId() >= 40)
    return;
  gpucg_emu_barrier("test.mlir:100:5: gpu.barrier");
}

/* Even and odd threads wait at different barriers. */
static void barrierMismatchBody(void *closure) {
  (void)closure;
  if (linearThreadId() % 2 == 0)
    gpucg_emu_barrier("test.mlir:110:7: gpu.barrier");
  else
    gpucg_emu_barrier("test.mlir:112:7: gpu.barrier");
}

/* Lanes 16.. of warp 1 take another branch, with another shuffle. */
static void warpDivergenceBody(void *closure) {
  (void)closure;
  int linear = linearThreadId();
  if (linear < 48)
    gpucg_emu_shuffle(linear, 1, 32, GPUCG_EMU_SHUFFLE_XOR,
                      "test.mlir:120:9: gpu.shuffle");
  else
    gpucg_emu_shuffle(linear, 2, 32, GPUCG_EMU_SHUFFLE_XOR,
                      "test.mlir:122:9: gpu.shuffle");
}

/* Lane 5 goes to the barrier while its warp does an mma.sync. */
static void warpBarrierBody(void *closure) {
  (void)closure;
  float a[8] = {0}, b[4] = {0}, c[4] = {0};
  if (gpucg_emu_lane_id() == 5)
    gpucg_emu_barrier("test.mlir:130:5: gpu.barrier");
  gpucg_emu_mma_sync(16, 8, 16, GPUCG_EMU_F16, GPUCG_EMU_F32, addressOf(a),
                     addressOf(b), addressOf(c), addressOf(c),
                     "test.mlir:131:12: nvgpu.mma.sync");
}

/* Lane 31 returns while its warp does an ldmatrix. */
static void warpReturnedBody(void *closure) {
  (void)closure;
  uint32_t result[4];
  if (gpucg_emu_lane_id() == 31)
    return;
  gpucg_emu_ldmatrix(addressOf(workgroupMemory()), 1, 0, addressOf(result),
                     "test.mlir:140:12: nvgpu.ldmatrix");
}

/* The order of global memory between workgroups (docs/Emulator-runtime.md,
   "Global memory"): split-K's protocol on two workgroups of 64 threads.
   Every thread stores its part's cell, fences, and after a barrier thread 0
   counts the workgroup's arrival with an atomic and fences again; the
   workgroup that arrives last (told by a flag in workgroup memory) reads
   the other part's cells and stores over the first part's (both ordered
   by then). Each `drop` leaves out one link, which is reported. */
typedef enum GlobalOrderDrop {
  GLOBAL_ORDER_NONE,
  GLOBAL_ORDER_WRITER_FENCE,
  GLOBAL_ORDER_ARRIVE_BARRIER,
  GLOBAL_ORDER_READER_FENCE,
  GLOBAL_ORDER_EARLY_READ, /* every workgroup reads at once */
} GlobalOrderDrop;

typedef struct GlobalOrderRun {
  int32_t cells[2][64];
  int32_t counter;
  int64_t sum;
  GlobalOrderDrop drop;
} GlobalOrderRun;

static void globalOrderBody(void *closure) {
  GlobalOrderRun *run = closure;
  int part = (int)gpucg_emu_block_id(0);
  int thread = linearThreadId();
  int32_t *flag = (int32_t *)workgroupMemory();
  int32_t *other = &run->cells[1 - part][thread];
  if (run->drop == GLOBAL_ORDER_EARLY_READ) {
    gpucg_emu_global_load(addressOf(other), 4, "test.mlir:200:9: vector.load");
    run->sum += *other;
  }
  run->cells[part][thread] = part * 100 + thread;
  gpucg_emu_global_store(addressOf(&run->cells[part][thread]), 4,
                         "test.mlir:201:7: vector.store");
  if (run->drop != GLOBAL_ORDER_WRITER_FENCE)
    gpucg_emu_fence("test.mlir:202:7: nvvm.memory.barrier");
  if (run->drop != GLOBAL_ORDER_ARRIVE_BARRIER)
    gpucg_emu_barrier("test.mlir:203:7: gpu.barrier");
  if (thread == 0) {
    gpucg_emu_global_atomic(addressOf(&run->counter), 4,
                            "test.mlir:205:9: memref.atomic_rmw");
    int32_t arrived = run->counter++;
    if (run->drop != GLOBAL_ORDER_READER_FENCE)
      gpucg_emu_fence("test.mlir:206:9: nvvm.memory.barrier");
    *flag = arrived == 1;
  }
  gpucg_emu_barrier("test.mlir:208:7: gpu.barrier");
  if (!*flag)
    return;
  gpucg_emu_global_load(addressOf(other), 4, "test.mlir:210:9: vector.load");
  run->sum += *other;
  run->cells[0][thread] = -1;
  gpucg_emu_global_store(addressOf(&run->cells[0][thread]), 4,
                         "test.mlir:212:9: vector.store");
}

/* Workgroup 0's thread waits for a flag workgroup 1's sets (atomics, as a
   flag between workgroups must be): a hang when workgroup 0 runs first,
   unless the emulator reports the spin. */
static void globalSpinBody(void *closure) {
  int32_t *flag = closure;
  volatile int32_t *value = flag;
  if (gpucg_emu_block_id(0) == 1) {
    gpucg_emu_global_atomic(addressOf(flag), 4,
                            "test.mlir:220:7: memref.atomic_rmw");
    *value = 1;
    return;
  }
  for (;;) {
    gpucg_emu_global_atomic(addressOf(flag), 4,
                            "test.mlir:222:9: memref.atomic_rmw");
    if (*value)
      return;
  }
}

static void launchGlobalOrder(GlobalOrderRun *run) {
  run->counter = 0;
  run->sum = 0;
  gpucg_emu_configure(2, 1, 1, 64, 1, 1, 4);
  gpucg_emu_launch(globalOrderBody, run);
}

/* The whole protocol, twice (the second launch starts with no records):
   nothing reported; the sum of the other part's cells. */
static int globalOrderCommand(void) {
  GlobalOrderRun run = {{{0}}, 0, 0, GLOBAL_ORDER_NONE};
  for (int launch = 0; launch < 2; ++launch)
    launchGlobalOrder(&run);
  printf("global order: sum %lld, cells %d %d\n", (long long)run.sum,
         (int)run.cells[0][5], (int)run.cells[1][5]);
  return 0;
}

/* Thread 3 writes a word that thread 4 then accesses without a barrier. */
/* Global stores: each workgroup's thread 0 stores 8 bytes of `cells` at
   its block's x (or, with `shared`, all at the first cell), twice; the
   other threads store nothing. */
typedef struct GlobalStoreRun {
  int64_t cells[4];
  int shared;
} GlobalStoreRun;

static void globalStoreBody(void *closure) {
  GlobalStoreRun *run = closure;
  if (linearThreadId() != 0)
    return;
  int64_t cell = run->shared ? 0 : gpucg_emu_block_id(0);
  for (int repeat = 0; repeat < 2; ++repeat) {
    run->cells[cell] = cell;
    gpucg_emu_global_store(addressOf(&run->cells[cell]), 8,
                           "test.mlir:190:7: vector.store");
  }
}

/* Disjoint stores of 4 workgroups, the same bytes again in a second launch
   and by the same workgroup twice: no race; then with race detection off,
   stores of the same bytes by every workgroup: none reported either. */
static int globalStoreCommand(void) {
  GlobalStoreRun run = {{0}, 0};
  for (int launch = 0; launch < 2; ++launch) {
    gpucg_emu_configure(4, 1, 1, 32, 1, 1, 0);
    gpucg_emu_launch(globalStoreBody, &run);
  }
  gpucg_emu_set_race_detection(0);
  run.shared = 1;
  gpucg_emu_configure(4, 1, 1, 32, 1, 1, 0);
  gpucg_emu_launch(globalStoreBody, &run);
  gpucg_emu_set_race_detection(1);
  printf("global stores: %d %d %d %d\n", (int)run.cells[0], (int)run.cells[1],
         (int)run.cells[2], (int)run.cells[3]);
  return 0;
}

static void raceBody(void *closure) {
  const int *secondWrites = closure;
  int linear = linearThreadId();
  unsigned char *memory = workgroupMemory();
  gpucg_emu_access(addressOf(memory + 4 * linear), 4, 1,
                   "test.mlir:150:5: memref.store");
  gpucg_emu_barrier("test.mlir:151:5: gpu.barrier");
  if (linear == 3)
    gpucg_emu_access(addressOf(memory + 40), 8, 1,
                     "test.mlir:153:7: vector.store");
  if (linear == 4)
    gpucg_emu_access(addressOf(memory + 44), 4, *secondWrites,
                     *secondWrites ? "test.mlir:155:7: memref.store"
                                   : "test.mlir:155:7: memref.load");
}

/* Reads by two threads, then a write by a third. */
static void raceReadWriteBody(void *closure) {
  (void)closure;
  int linear = linearThreadId();
  unsigned char *memory = workgroupMemory();
  if (linear == 1 || linear == 2)
    gpucg_emu_access(addressOf(memory + 8), 4, 0,
                     "test.mlir:160:7: memref.load");
  if (linear == 2)
    gpucg_emu_access(addressOf(memory + 8), 2, 1,
                     "test.mlir:161:7: memref.store");
}

/* Lanes write their rows, then ldmatrix reads them without a barrier. */
static void ldmatrixRaceBody(void *closure) {
  (void)closure;
  int lane = (int)gpucg_emu_lane_id();
  unsigned char *memory = workgroupMemory();
  gpucg_emu_access(addressOf(memory + 16 * ((lane + 1) % 32)), 16, 1,
                   "test.mlir:170:5: vector.store");
  uint32_t result[4];
  gpucg_emu_ldmatrix(addressOf(memory + 16 * lane), 4, 0, addressOf(result),
                     "test.mlir:171:12: nvgpu.ldmatrix");
}

/* A copy lands while another thread reads its destination. */
static void asyncRaceBody(void *closure) {
  const unsigned char *source = closure;
  int linear = linearThreadId();
  unsigned char *memory = workgroupMemory();
  if (linear == 1)
    gpucg_emu_access(addressOf(memory + 16), 4, 0,
                     "test.mlir:180:7: memref.load");
  if (linear == 0) {
    gpucg_emu_async_copy(addressOf(memory + 16), addressOf(source), 16, 16, NULL);
    gpucg_emu_async_commit();
    gpucg_emu_async_wait(0);
  }
}

/* A copy issued into bytes another thread read since the last barrier,
   landing only after the next one: the hardware may write them at once. */
static void asyncIssueRaceBody(void *closure) {
  const unsigned char *source = closure;
  int linear = linearThreadId();
  unsigned char *memory = workgroupMemory();
  if (linear == 1)
    gpucg_emu_access(addressOf(memory + 32), 4, 0,
                     "test.mlir:184:7: vector.transfer_read");
  if (linear == 0) {
    gpucg_emu_async_copy(addressOf(memory + 32), addressOf(source), 16, 16,
                         "test.mlir:185:9: nvgpu.device_async_copy");
    gpucg_emu_async_commit();
  }
  gpucg_emu_barrier("test.mlir:186:3: gpu.barrier");
  if (linear == 0)
    gpucg_emu_async_wait(0);
}

typedef struct LdmatrixErrorRun {
  int64_t offset; /* of lane 9's row */
  int tiles;
} LdmatrixErrorRun;

static void ldmatrixErrorBody(void *closure) {
  const LdmatrixErrorRun *run = closure;
  int lane = (int)gpucg_emu_lane_id();
  unsigned char *memory = workgroupMemory();
  int64_t offset = lane == 9 ? run->offset : 16 * lane;
  uint32_t result[4];
  gpucg_emu_ldmatrix(addressOf(memory) + offset, run->tiles, 0,
                     addressOf(result), "test.mlir:190:12: nvgpu.ldmatrix");
}

typedef struct AsyncErrorRun {
  int64_t dstOffset, dstBytes, srcBytes;
} AsyncErrorRun;

static void asyncErrorBody(void *closure) {
  const AsyncErrorRun *run = closure;
  _Alignas(16) unsigned char source[16] = {0};
  if (linearThreadId() == 2)
    gpucg_emu_async_copy(addressOf(workgroupMemory()) + run->dstOffset,
                         addressOf(source), run->dstBytes, run->srcBytes, NULL);
}

/* A run of one bounds check (gpucg_emu_check_copy_source or
   gpucg_emu_check_vector_bounds) at `site`: threads 0, 1 and 2 each check
   two dimensions of a 2-D memref, `checks[thread][dim]` being the index,
   the count and the extent. */
typedef struct {
  void (*check)(int32_t dim, int32_t rank, int64_t index, int64_t count,
                int64_t extent, const char *site);
  const char *site;
  int64_t checks[3][2][3];
} BoundsRun;

static void boundsBody(void *closure) {
  const BoundsRun *run = closure;
  int64_t thread = linearThreadId();
  if (thread > 2)
    return;
  for (int32_t dim = 0; dim < 2; ++dim) {
    const int64_t *check = run->checks[thread][dim];
    run->check(dim, 2, check[0], check[1], check[2], run->site);
  }
}

/* Source bounds of async copies: thread 0 reads the last 2 of 6 elements of
   row 7 of 8, thread 1 reads nothing (a source size of 0) at indices past
   both dimensions, thread 2 reads [4, 8) of a row of 6. */
static const BoundsRun kCopySourceBounds = {
    gpucg_emu_check_copy_source,
    "test.mlir:30:9: nvgpu.device_async_copy",
    {{{7, 1, 8}, {4, 2, 6}}, {{8, 0, 8}, {9, 0, 6}}, {{0, 1, 8}, {4, 4, 6}}}};

/* Bounds of global vector accesses: thread 0 accesses the last 4 of 12
   elements of row 5 of 6, thread 1 the first 8 of row 0, thread 2 [8, 16)
   of a row of 12 (a vector of 8 past the edge). */
static const BoundsRun kVectorBounds = {
    gpucg_emu_check_vector_bounds,
    "test.mlir:50:11: vector.load",
    {{{5, 1, 6}, {8, 4, 12}}, {{0, 1, 6}, {0, 8, 12}}, {{3, 1, 6}, {8, 8, 12}}}};

/* Claimed alignments (vector accesses with `alignment`): thread 0 claims
   16 bytes at a 16-byte boundary and 4 at 8 bytes past it, thread 1 claims
   16 at 8 bytes past it. */
static void claimedAlignmentBody(void *closure) {
  (void)closure;
  const char *site = "test.mlir:40:15: vector.store";
  _Alignas(16) unsigned char buffer[32] = {0};
  int64_t thread = linearThreadId();
  if (thread == 0) {
    gpucg_emu_check_alignment(addressOf(buffer), 16, site);
    gpucg_emu_check_alignment(addressOf(buffer) + 8, 4, site);
  } else if (thread == 1) {
    gpucg_emu_check_alignment(addressOf(buffer) + 8, 16, site);
  }
}

static void mmaUnsupportedBody(void *closure) {
  const int *types = closure;
  unsigned char a[64] = {0}, b[64] = {0}, c[64] = {0};
  gpucg_emu_mma_sync(16, 8, 16, types[0], types[1], addressOf(a), addressOf(b),
                     addressOf(c), addressOf(c),
                     "test.mlir:200:12: nvgpu.mma.sync");
}

static void disagreeBody(void *closure) {
  (void)closure;
  uint32_t result[4];
  int lane = (int)gpucg_emu_lane_id();
  gpucg_emu_ldmatrix(addressOf(workgroupMemory() + 16 * lane),
                     lane == 7 ? 2 : 4, 0, addressOf(result),
                     "test.mlir:210:12: nvgpu.ldmatrix");
}

static void dimensionBody(void *closure) {
  (void)closure;
  gpucg_emu_thread_id(3);
}

static void nestedLaunchBody(void *closure) {
  gpucg_emu_launch(nestedLaunchBody, closure);
}

static void emptyBody(void *closure) { (void)closure; }

/* The stack is the fiber's own: a deep recursion of big frames. */
static int64_t recurse(int depth, volatile unsigned char *previous) {
  volatile unsigned char frame[1024];
  frame[0] = (unsigned char)depth;
  frame[1023] = previous ? previous[0] : 0;
  if (depth == 0)
    return frame[0] + frame[1023];
  return recurse(depth - 1, frame) + frame[1023];
}

static void stackBody(void *closure) {
  int64_t *sums = closure;
  sums[linearThreadId()] = recurse(150, NULL);
  gpucg_emu_barrier("test.mlir:220:5: gpu.barrier");
}

/*===----------------------------------------------------------------------===*/
/* Hopper: TMA boxes, mbarrier phases, warpgroup MMA                          */
/*===----------------------------------------------------------------------===*/

/* Where the TMA puts byte `byte` of row `row` of a box with 128-byte rows
   and the 128-byte swizzle: the row's 16-byte chunk XORed with the row
   index modulo 8 (the PTX ISA's swizzle table, written out per chunk). */
static int64_t swizzled128(int64_t row, int64_t byte) {
  int64_t chunk = byte / 16;
  return row * 128 + ((chunk ^ (row % 8)) * 16) + byte % 16;
}

/* The accumulator element `i` of lane `lane` of warp `warp` of a
   warpgroup (PTX ISA, "wgmma register fragment" of an m64nNk16 D). */
static void wgmmaD(int warp, int lane, int i, int *row, int *col) {
  *row = 16 * warp + lane / 4 + 8 * ((i >> 1) & 1);
  *col = 8 * (i / 4) + 2 * (lane % 4) + (i & 1);
}

typedef struct HopperRun {
  int64_t map;
  _Alignas(16) uint16_t tensor[16 * 80]; /* f16 16 x 80 */
  int64_t phases[4];
  uint16_t landed[8 * 64];
  uint16_t beforeWait;
  int mismatches;
} HopperRun;

static void tmaBody(void *closure) {
  HopperRun *run = closure;
  int thread = linearThreadId();
  unsigned char *memory = workgroupMemory();
  int64_t group = gpucg_emu_mbarrier_group(2, "test.mlir:300:5: create");
  if (thread == 0) {
    gpucg_emu_mbarrier_init(group, 1, 1, 1, "test.mlir:301:5: init");
    gpucg_emu_mbarrier_arrive(group, 1, 8 * 64 * 2, 1,
                              "test.mlir:302:5: expect_tx");
    /* Box of 8 rows x 64 columns at row 8, column 32: columns 80..95 are
       outside the tensor. */
    gpucg_emu_tma_load(run->map, addressOf(memory + 1024), 8, 32, 0, 0, 0,
                       group, 1, 1, 0, "test.mlir:303:5: tma.async.load");
    memcpy(&run->beforeWait, memory + 1024, 2);
  }
  gpucg_emu_barrier("test.mlir:304:5: gpu.barrier");
  gpucg_emu_mbarrier_wait(group, 1, 0, "test.mlir:305:5: try_wait.parity");
  if (thread == 1)
    memcpy(run->landed, memory + 1024, sizeof(run->landed));
}

static void phaseBody(void *closure) {
  HopperRun *run = closure;
  int thread = linearThreadId();
  int64_t group = gpucg_emu_mbarrier_group(1, "test.mlir:310:5: create");
  if (thread == 0)
    gpucg_emu_mbarrier_init(group, 0, 2, 1, "test.mlir:311:5: init");
  gpucg_emu_barrier("test.mlir:312:5: gpu.barrier");
  /* Two rounds: threads 0 and 1 arrive, everybody waits for the phase. */
  for (int round = 0; round < 2; ++round) {
    if (thread < 2)
      run->phases[2 * round + thread] =
          gpucg_emu_mbarrier_arrive(group, 0, 0, 1, "test.mlir:313:5: arrive");
    gpucg_emu_mbarrier_wait(group, 0, round & 1,
                            "test.mlir:314:5: try_wait.parity");
    /* No thread may arrive for the next round before every thread saw this
       one: a waiter two phases behind would wait forever (on the GPU too). */
    gpucg_emu_barrier("test.mlir:315:5: gpu.barrier");
  }
}

static int tmaCommand(void) {
  static HopperRun run;
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 80; ++c)
      run.tensor[r * 80 + c] = halfOf((r * 7 + c * 3) % 23 - 11);
  run.map = gpucg_emu_tensor_map(addressOf(run.tensor), 2, 2, 128, 16, 80, 1, 1,
                                 1, 80, 1, 1, 1, 1, 8, 64, 1, 1, 1);
  launch1d(32, 2048 + 1024, tmaBody, &run);
  int mismatches = 0;
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 64; ++c) {
      int64_t offset = swizzled128(r, 2 * c) / 2;
      int column = 32 + c;
      uint16_t expected = column < 80 ? run.tensor[(8 + r) * 80 + column] : 0;
      if (run.landed[offset] != expected) {
        ++mismatches;
        CHECK(0,
              "tma: row %d column %d at halfword %" PRId64
              ": 0x%04x, expected 0x%04x",
              r, c, offset, run.landed[offset], expected);
      }
    }
  printf("tma: 8x64 f16 box, 128-byte swizzle, 16 columns outside: %d "
         "mismatches\n",
         mismatches);
  printf("tma: the box's first halfword before the wait: 0x%04x\n",
         run.beforeWait);
  launch1d(64, 0, phaseBody, &run);
  printf("mbarrier: arrivals of rounds 0 and 1 in phases %" PRId64 " %" PRId64
         " %" PRId64 " %" PRId64 "\n",
         run.phases[0], run.phases[1], run.phases[2], run.phases[3]);
  return mismatches ? 1 : 0;
}

typedef struct WgmmaRun {
  int n, transposeA, transposeB;
  float fragments[256][128];
  float stored[128 * 256];
  int stage; /* 1: A changed between issue and retirement */
  int m;     /* 64, or 128: two 64-row blocks */
} WgmmaRun;

/* A (64 x 16) and B (16 x n) of small integers. */
static double aValue(int row, int k) { return (row * 3 + k * 5) % 7 - 3; }
static double bValue(int k, int col) { return (k * 2 + col * 3) % 5 - 2; }

static void wgmmaBody(void *closure) {
  WgmmaRun *run = closure;
  int thread = linearThreadId();
  unsigned char *memory = workgroupMemory();
  /* A at 0: K-major (64 or 128 rows of 128 bytes, 16 f16 used, swizzled)
     or M-major (16 rows of 128 bytes per 64-row block, the blocks 32 rows
     apart: a leading byte offset of 4096, past a K tile of 16). B at
     16384: K-major (n rows of 128 bytes) or N-major (16 rows of 128 bytes
     per 64-column block, the blocks 16 rows apart). */
  if (thread == 0) {
    for (int r = 0; r < run->m; ++r)
      for (int k = 0; k < 16; ++k) {
        uint16_t value = halfOf(aValue(r, k));
        int64_t offset = run->transposeA
                             ? (r / 64) * 4096 + swizzled128(k, 2 * (r % 64))
                             : swizzled128(r, 2 * k);
        memcpy(memory + offset, &value, 2);
      }
    for (int k = 0; k < 16; ++k)
      for (int c = 0; c < run->n; ++c) {
        uint16_t value = halfOf(bValue(k, c));
        int64_t offset =
            run->transposeB ? (c / 64) * 16 * 128 + swizzled128(k, 2 * (c % 64))
                            : swizzled128(c, 2 * k);
        memcpy(memory + 16384 + offset, &value, 2);
      }
  }
  gpucg_emu_barrier("test.mlir:320:5: gpu.barrier");
  float accumulator[128];
  int elements = run->m * run->n / 128;
  gpucg_emu_wgmma_init(addressOf(accumulator), elements,
                       "test.mlir:321:5: init.accumulator");
  gpucg_emu_wgmma(addressOf(accumulator), addressOf(memory),
                  addressOf(memory + 16384), run->m, run->n, 16, GPUCG_EMU_F16,
                  128, 128, run->transposeA, run->transposeB, 4096, 2048, 1,
                  "test.mlir:322:5: wgmma");
  if (run->stage == 1) {
    /* Everybody has issued; thread 0 then doubles A(0, 0) before the
       group retires. */
    gpucg_emu_barrier("test.mlir:323:5: gpu.barrier");
    if (thread == 0) {
      /* Element (0, 0) is at 0 in either layout. */
      uint16_t value = halfOf(2 * aValue(0, 0));
      memcpy(memory + swizzled128(0, 0), &value, 2);
    }
    gpucg_emu_barrier("test.mlir:324:5: gpu.barrier");
  }
  gpucg_emu_wgmma_wait(0, "test.mlir:325:5: wait_group");
  memcpy(run->fragments[thread], accumulator, sizeof(float) * (size_t)elements);
  /* The store: the second warpgroup's rows land 64 further down. */
  gpucg_emu_wgmma_store(addressOf(accumulator), run->m, run->n,
                        addressOf(run->stored), run->n, 1,
                        "test.mlir:326:5: mma.store");
}

static int wgmmaCommand(int n, int transposeA, int transposeB, int stage) {
  static WgmmaRun run;
  memset(&run, 0, sizeof(run));
  run.n = n;
  run.transposeA = transposeA;
  run.transposeB = transposeB;
  run.stage = stage == 1;
  run.m = stage == 2 ? 128 : 64;
  int threads = stage == 0 ? 256 : 128;
  launch1d(threads, 16384 + 256 * 128, wgmmaBody, &run);
  int mismatches = 0, storeMismatches = 0, changedSeen = 0;
  for (int thread = 0; thread < threads; ++thread)
    for (int i = 0; i < run.m * n / 128; ++i) {
      int row, col;
      wgmmaD(thread % 128 / 32, thread % 32, i % (n / 2), &row, &col);
      row += 64 * (i / (n / 2));
      double expected = 0;
      for (int k = 0; k < 16; ++k)
        expected += aValue(row, k) * bValue(k, col);
      /* A(0, 0) doubled: row 0 shows which A the group read. */
      if (stage == 1 && row == 0 && bValue(0, col) != 0 &&
          run.fragments[thread][i] ==
              (float)(expected + aValue(0, 0) * bValue(0, col))) {
        ++changedSeen;
        continue;
      }
      if (run.fragments[thread][i] != (float)expected) {
        ++mismatches;
        CHECK(0, "wgmma: thread %d element %d (row %d col %d): %g, expected %g",
              thread, i, row, col, run.fragments[thread][i], expected);
      }
    }
  if (stage == 2)
    /* MLIR 22's store puts the second 64-row block N/2 rows below the
       first: rows N/2 + 32 .. N/2 + 63 hold product rows 96..127 (rows
       N/2 .. N/2 + 31 mix both blocks), and for N < 128 the last rows are
       never written. */
    for (int row = 0; row < 128; ++row)
      for (int col = 0; col < n; ++col) {
        int product = row - n / 2 + 64;
        double expected = 0;
        if (row >= n / 2 + 32 && row < n / 2 + 64) {
          for (int k = 0; k < 16; ++k)
            expected += aValue(product, k) * bValue(k, col);
        } else if (row < n / 2 + 64) {
          continue;
        }
        storeMismatches += run.stored[row * n + col] != (float)expected;
      }
  if (stage == 0)
    for (int row = 0; row < 128; ++row)
      for (int col = 0; col < n; ++col) {
        double expected = 0;
        for (int k = 0; k < 16; ++k)
          expected += aValue(row % 64, k) * bValue(k, col);
        storeMismatches += run.stored[row * n + col] != (float)expected;
      }
  printf("wgmma m%dn%dk16 f16 %s%s-major B: %d mismatches", run.m, n,
         transposeA ? "M-major A, " : "", transposeB ? "N" : "K", mismatches);
  if (stage == 1)
    printf(", A(0, 0) doubled before the group retired: row 0 has %s A",
           changedSeen == 0 ? "the issued" : "the doubled");
  if (stage == 0)
    printf(", store of two warpgroups (rows 0-63, 64-127): %d mismatches",
           storeMismatches);
  if (stage == 2)
    printf(", M = 128: the second block stored from row %d: %d mismatches",
           n / 2, storeMismatches);
  printf("\n");
  return mismatches || storeMismatches ? 1 : 0;
}

/* wgmma m64n8k32 of 8-bit floats: every bit pattern of e4m3 or e5m2 once.
   A is one-hot (A[r][k] = 1 for k = r % 32) and B K-major, so that
   D[r][c] = B[r % 32][c], and B[k][c] holds pattern 32 c + k; NaN and
   infinity patterns are replaced by zero (0 * NaN would spread to the
   whole column). The expected values come from the OCP 8-bit float
   definitions written out here, not from the emulator's decoders. */
typedef struct Float8Run {
  int type; /* GPUCG_EMU_F8E4M3 or GPUCG_EMU_F8E5M2 */
  float fragments[128][4];
} Float8Run;

/* Whether `bits` is a NaN or an infinity of `type`. */
static int float8IsSpecial(int type, int bits) {
  if (type == GPUCG_EMU_F8E4M3)
    return (bits & 0x7F) == 0x7F;
  return (bits & 0x7C) == 0x7C;
}

/* (-1)^s x 2^(e - bias) x 1.m, or 2^(1 - bias) x 0.m for e = 0. */
static double float8Value(int type, int bits) {
  int mantissaBits = type == GPUCG_EMU_F8E4M3 ? 3 : 2;
  int bias = type == GPUCG_EMU_F8E4M3 ? 7 : 15;
  int exponent = (bits & 0x7F) >> mantissaBits;
  double fraction =
      (double)(bits & ((1 << mantissaBits) - 1)) / (1 << mantissaBits);
  double magnitude = exponent == 0 ? ldexp(fraction, 1 - bias)
                                   : ldexp(1.0 + fraction, exponent - bias);
  return bits & 0x80 ? -magnitude : magnitude;
}

static int float8Pattern(int type, int k, int column) {
  int bits = 32 * column + k;
  return float8IsSpecial(type, bits) ? 0 : bits;
}

static void float8Body(void *closure) {
  Float8Run *run = closure;
  int thread = linearThreadId();
  unsigned char *memory = workgroupMemory();
  /* A at 0: 64 rows of 128 bytes (32 used), swizzled; B at 8192: 8 rows
     (columns of B) of 128 bytes, K-major. */
  if (thread == 0) {
    unsigned char one = run->type == GPUCG_EMU_F8E4M3 ? 0x38 : 0x3C;
    for (int r = 0; r < 64; ++r)
      for (int k = 0; k < 32; ++k)
        memory[swizzled128(r, k)] = k == r % 32 ? one : 0;
    for (int c = 0; c < 8; ++c)
      for (int k = 0; k < 32; ++k)
        memory[8192 + swizzled128(c, k)] =
            (unsigned char)float8Pattern(run->type, k, c);
  }
  gpucg_emu_barrier("test.mlir:380:5: gpu.barrier");
  float accumulator[4];
  gpucg_emu_wgmma_init(addressOf(accumulator), 4,
                       "test.mlir:381:5: init.accumulator");
  gpucg_emu_wgmma(addressOf(accumulator), addressOf(memory),
                  addressOf(memory + 8192), 64, 8, 32, run->type, 128, 128, 0,
                  0, 0, 0, 0, "test.mlir:382:5: wgmma");
  memcpy(run->fragments[thread], accumulator, sizeof(accumulator));
}

static int float8Command(const char *name) {
  static Float8Run run;
  memset(&run, 0, sizeof(run));
  if (strcmp(name, "e4m3") == 0)
    run.type = GPUCG_EMU_F8E4M3;
  else if (strcmp(name, "e5m2") == 0)
    run.type = GPUCG_EMU_F8E5M2;
  else
    return -1;
  launch1d(128, 8192 + 8 * 128, float8Body, &run);
  int mismatches = 0, finite = 0;
  double largest = 0, smallest = INFINITY;
  for (int thread = 0; thread < 128; ++thread)
    for (int i = 0; i < 4; ++i) {
      int row, col;
      wgmmaD(thread / 32, thread % 32, i, &row, &col);
      int bits = float8Pattern(run.type, row % 32, col);
      double expected = float8Value(run.type, bits);
      if (row < 32 && bits == 32 * col + row % 32) {
        ++finite;
        if (fabs(expected) > largest)
          largest = fabs(expected);
        if (expected != 0 && fabs(expected) < smallest)
          smallest = fabs(expected);
      }
      if (run.fragments[thread][i] != (float)expected) {
        ++mismatches;
        CHECK(0, "%s: pattern 0x%02x (row %d col %d): %g, expected %g", name,
              bits, row, col, run.fragments[thread][i], expected);
      }
    }
  printf("wgmma m64n8k32 %s K-major B: %d finite patterns, %d mismatches, "
         "largest %g, smallest 2^%d\n",
         name, finite, mismatches, largest, (int)log2(smallest));
  return mismatches ? 1 : 0;
}

/* wgmma m64n8k8 of tf32: A one-hot (A[r][k] = 1 for k = r % 8), B K-major
   with f32 values whose low mantissa bits are set, so that D[r][c] =
   B[r % 8][c] as the tensor cores read it: the low 13 mantissa bits
   dropped. The expected values mask the bits here, not through the
   emulator's decoder. */
typedef struct Tf32Run {
  float fragments[128][4];
} Tf32Run;

static uint32_t tf32Input(int k, int c) {
  /* 1 + (8k + c) / 64, and low bits 0x1A5 << (k % 4) below bit 13. */
  return 0x3F800000u + ((uint32_t)(8 * k + c) << 17) +
         ((uint32_t)0x1A5 << (k % 4));
}

static void tf32Body(void *closure) {
  Tf32Run *run = closure;
  int thread = linearThreadId();
  unsigned char *memory = workgroupMemory();
  /* A at 0: 64 rows of 128 bytes (32 used), swizzled; B at 8192: 8 rows
     (columns of B) of 128 bytes, K-major. */
  if (thread == 0) {
    for (int r = 0; r < 64; ++r)
      for (int k = 0; k < 8; ++k) {
        float value = k == r % 8 ? 1.0f : 0.0f;
        memcpy(memory + swizzled128(r, 4 * k), &value, 4);
      }
    for (int c = 0; c < 8; ++c)
      for (int k = 0; k < 8; ++k) {
        uint32_t bits = tf32Input(k, c);
        memcpy(memory + 8192 + swizzled128(c, 4 * k), &bits, 4);
      }
  }
  gpucg_emu_barrier("test.mlir:383:5: gpu.barrier");
  float accumulator[4];
  gpucg_emu_wgmma_init(addressOf(accumulator), 4,
                       "test.mlir:384:5: init.accumulator");
  gpucg_emu_wgmma(addressOf(accumulator), addressOf(memory),
                  addressOf(memory + 8192), 64, 8, 8, GPUCG_EMU_TF32, 128, 128,
                  0, 0, 0, 0, 0, "test.mlir:385:5: wgmma");
  memcpy(run->fragments[thread], accumulator, sizeof(accumulator));
}

static int tf32Command(void) {
  static Tf32Run run;
  memset(&run, 0, sizeof(run));
  launch1d(128, 8192 + 8 * 128, tf32Body, &run);
  int mismatches = 0, truncated = 0;
  for (int thread = 0; thread < 128; ++thread)
    for (int i = 0; i < 4; ++i) {
      int row, col;
      wgmmaD(thread / 32, thread % 32, i, &row, &col);
      uint32_t bits = tf32Input(row % 8, col) & ~(uint32_t)0x1FFF;
      float expected;
      memcpy(&expected, &bits, 4);
      if (row < 8)
        truncated += bits != tf32Input(row % 8, col);
      if (run.fragments[thread][i] != expected) {
        ++mismatches;
        CHECK(0, "tf32: row %d col %d: %.9g, expected %.9g", row, col,
              run.fragments[thread][i], expected);
      }
    }
  printf("wgmma m64n8k8 tf32 K-major B: %d inputs with low mantissa bits, %d "
         "mismatches\n",
         truncated, mismatches);
  return mismatches ? 1 : 0;
}

static void deadlockBody(void *closure) {
  (void)closure;
  int64_t group = gpucg_emu_mbarrier_group(1, "test.mlir:330:5: create");
  if (linearThreadId() == 0)
    gpucg_emu_mbarrier_init(group, 0, 2, 1, "test.mlir:331:5: init");
  gpucg_emu_barrier("test.mlir:332:5: gpu.barrier");
  if (linearThreadId() == 0)
    gpucg_emu_mbarrier_arrive(group, 0, 128, 1, "test.mlir:333:5: arrive");
  gpucg_emu_mbarrier_wait(group, 0, 0, "test.mlir:334:5: try_wait.parity");
}

static void uninitializedBody(void *closure) {
  (void)closure;
  int64_t group = gpucg_emu_mbarrier_group(2, "test.mlir:340:5: create");
  gpucg_emu_mbarrier_wait(group, 1, 0, "test.mlir:341:5: try_wait.parity");
}

static void inFlightBody(void *closure) {
  (void)closure;
  unsigned char *memory = workgroupMemory();
  float accumulator[4], stored[64 * 8];
  gpucg_emu_wgmma_init(addressOf(accumulator), 4, "test.mlir:350:5: init");
  gpucg_emu_wgmma(addressOf(accumulator), addressOf(memory),
                  addressOf(memory + 8192), 64, 8, 16, GPUCG_EMU_F16, 128, 128,
                  0, 0, 0, 0, 1, "test.mlir:351:5: wgmma");
  gpucg_emu_wgmma_store(addressOf(accumulator), 64, 8, addressOf(stored), 8, 1,
                        "test.mlir:352:5: mma.store");
}

/* An 8-bit wgmma with a transposed operand: A if `closure` points to a
   nonzero int, else B. */
static void float8TransposedBody(void *closure) {
  int transposeA = *(const int *)closure;
  unsigned char *memory = workgroupMemory();
  float accumulator[4];
  gpucg_emu_wgmma_init(addressOf(accumulator), 4,
                       transposeA ? "test.mlir:392:5: init"
                                  : "test.mlir:390:5: init");
  gpucg_emu_wgmma(
      addressOf(accumulator), addressOf(memory), addressOf(memory + 8192), 64,
      8, 32, transposeA ? GPUCG_EMU_F8E5M2 : GPUCG_EMU_F8E4M3, 128, 128,
      transposeA, !transposeA, transposeA ? 4096 : 0, transposeA ? 0 : 2048, 0,
      transposeA ? "test.mlir:393:5: wgmma" : "test.mlir:391:5: wgmma");
}

/* An M-major A of 128 rows whose second 64-row block starts 8 rows after
   the first, inside its 16 rows of K. */
static void overlapBody(void *closure) {
  (void)closure;
  unsigned char *memory = workgroupMemory();
  float accumulator[32];
  gpucg_emu_wgmma_init(addressOf(accumulator), 32, "test.mlir:394:5: init");
  gpucg_emu_wgmma(addressOf(accumulator), addressOf(memory),
                  addressOf(memory + 8192), 128, 32, 16, GPUCG_EMU_BF16, 128,
                  128, 1, 0, 1024, 0, 0, "test.mlir:395:5: wgmma");
}

static void storeShapeBody(void *closure) {
  (void)closure;
  float accumulator[4], stored[64 * 8];
  gpucg_emu_wgmma_store(addressOf(accumulator), 48, 8, addressOf(stored), 8, 1,
                        "test.mlir:370:5: mma.store");
}

static void tmaMisalignedBody(void *closure) {
  const HopperRun *run = closure;
  int64_t group = gpucg_emu_mbarrier_group(1, "test.mlir:360:5: create");
  gpucg_emu_mbarrier_init(group, 0, 1, 1, "test.mlir:361:5: init");
  gpucg_emu_tma_load(run->map, addressOf(workgroupMemory() + 512), 0, 0, 0, 0,
                     0, group, 0, 1, 0, "test.mlir:362:5: tma.async.load");
}

static int hopperErrorCommand(const char *name) {
  static HopperRun run;
  if (strcmp(name, "mbarrier-deadlock") == 0) {
    launch1d(4, 0, deadlockBody, NULL);
  } else if (strcmp(name, "mbarrier-uninitialized") == 0) {
    launch1d(1, 0, uninitializedBody, NULL);
  } else if (strcmp(name, "wgmma-in-flight") == 0) {
    launch1d(1, 8192 + 128 * 8, inFlightBody, NULL);
  } else if (strcmp(name, "wgmma-f8-transposed") == 0) {
    static int transposeB = 0;
    launch1d(1, 8192 + 32 * 128, float8TransposedBody, &transposeB);
  } else if (strcmp(name, "wgmma-f8-transposed-a") == 0) {
    static int transposeA = 1;
    launch1d(1, 8192 + 32 * 128, float8TransposedBody, &transposeA);
  } else if (strcmp(name, "wgmma-overlap") == 0) {
    launch1d(1, 8192 + 32 * 128, overlapBody, NULL);
  } else if (strcmp(name, "wgmma-store-shape") == 0) {
    launch1d(1, 0, storeShapeBody, NULL);
  } else if (strcmp(name, "tensor-map-box") == 0) {
    gpucg_emu_tensor_map(addressOf(run.tensor), 2, 2, 128, 16, 80, 1, 1, 1, 80,
                         1, 1, 1, 1, 8, 300, 1, 1, 1);
  } else if (strcmp(name, "tensor-map-swizzle") == 0) {
    gpucg_emu_tensor_map(addressOf(run.tensor), 2, 2, 64, 16, 80, 1, 1, 1, 80,
                         1, 1, 1, 1, 8, 64, 1, 1, 1);
  } else if (strcmp(name, "tma-misaligned") == 0) {
    run.map = gpucg_emu_tensor_map(addressOf(run.tensor), 2, 2, 128, 16, 80, 1,
                                   1, 1, 80, 1, 1, 1, 1, 8, 64, 1, 1, 1);
    launch1d(1, 4096, tmaMisalignedBody, &run);
  } else {
    return -1;
  }
  printf("no error reported\n");
  return 0;
}

/*===----------------------------------------------------------------------===*/
/* Clusters                                                                   */
/*===----------------------------------------------------------------------===*/

/* The block's rank in its cluster, PTX %cluster_ctarank: the block id
   modulo the cluster's size, x fastest. */
static int clusterRank(void) {
  int64_t x = gpucg_emu_block_id(0) % gpucg_emu_cluster_size(0);
  int64_t y = gpucg_emu_block_id(1) % gpucg_emu_cluster_size(1);
  int64_t z = gpucg_emu_block_id(2) % gpucg_emu_cluster_size(2);
  return (int)(x +
               gpucg_emu_cluster_size(0) * (y + gpucg_emu_cluster_size(1) * z));
}

/* The linear id of the calling thread's block in a grid of gridX x gridY. */
static int linearBlockId(void) {
  return (int)(gpucg_emu_block_id(0) +
               gpucg_emu_grid_dim(0) *
                   (gpucg_emu_block_id(1) +
                    gpucg_emu_grid_dim(1) * gpucg_emu_block_id(2)));
}

/* A clock that every kernel thread's step reads and advances: which
   happened before which, across the blocks of a cluster. */
static int64_t clusterClock;

static int64_t tick(void) { return ++clusterClock; }

typedef struct ClusterIdsRun {
  int rank[16];
  int64_t cluster[16][3];
  int64_t start[16], end[16];
  unsigned char *memory[16];
  int poisoned[16];
} ClusterIdsRun;

/* Blocks of 40 threads (a full and a partial warp) in clusters of 2x2x1:
   each block's thread 0 records its rank, its memory and when it started;
   the cluster barrier; then when it ended. */
static void clusterIdsBody(void *closure) {
  ClusterIdsRun *run = closure;
  int block = linearBlockId();
  if (linearThreadId() == 0) {
    run->rank[block] = clusterRank();
    for (int d = 0; d < 3; ++d)
      run->cluster[block][d] = gpucg_emu_cluster_size(d);
    run->memory[block] = workgroupMemory();
    run->poisoned[block] = 1;
    for (int i = 0; i < 64; ++i)
      run->poisoned[block] &= run->memory[block][i] == 0xFF;
    run->start[block] = tick();
    /* Another block of the cluster that ran before this one filled its own
       memory, not this one's. */
    memset(run->memory[block], block, 64);
  }
  gpucg_emu_cluster_arrive("test.mlir:400:5: nvvm.cluster.arrive");
  gpucg_emu_cluster_wait("test.mlir:401:5: nvvm.cluster.wait");
  if (linearThreadId() == 0)
    run->end[block] = tick();
}

static int clusterIdsCommand(void) {
  static ClusterIdsRun run;
  gpucg_emu_configure(4, 2, 2, 40, 1, 1, 64);
  gpucg_emu_configure_cluster(2, 2, 1);
  gpucg_emu_launch(clusterIdsBody, &run);
  int mismatches = 0;
  for (int block = 0; block < 16; ++block) {
    int x = block % 4, y = block / 4 % 2, z = block / 8;
    printf("block (%d, %d, %d): rank %d of a 2x2x1 cluster\n", x, y, z,
           run.rank[block]);
    CHECK(run.rank[block] == x % 2 + 2 * (y % 2), "block %d: rank %d", block,
          run.rank[block]);
    CHECK(run.cluster[block][0] == 2 && run.cluster[block][1] == 2 &&
              run.cluster[block][2] == 1,
          "block %d: cluster size %" PRId64 " x %" PRId64 " x %" PRId64, block,
          run.cluster[block][0], run.cluster[block][1], run.cluster[block][2]);
    mismatches += !run.poisoned[block];
  }
  /* Every block of a cluster started before any of them passed the
     cluster barrier, and each had its own memory. */
  int overlapping = 0, separate = 0;
  for (int cluster = 0; cluster < 4; ++cluster) {
    int blocks[4], count = 0;
    for (int block = 0; block < 16; ++block) {
      int x = block % 4, z = block / 8;
      if (x / 2 == cluster % 2 && z == cluster / 2)
        blocks[count++] = block;
    }
    int64_t lastStart = 0, firstEnd = INT64_MAX;
    int distinct = 1;
    for (int i = 0; i < count; ++i) {
      lastStart =
          run.start[blocks[i]] > lastStart ? run.start[blocks[i]] : lastStart;
      firstEnd = run.end[blocks[i]] < firstEnd ? run.end[blocks[i]] : firstEnd;
      for (int j = 0; j < i; ++j)
        distinct &= run.memory[blocks[i]] != run.memory[blocks[j]];
    }
    overlapping += count == 4 && lastStart < firstEnd;
    separate += count == 4 && distinct;
  }
  printf("clusters whose 4 blocks all started before any passed the cluster "
         "barrier: %d of 4; with 4 workgroup memories: %d of 4; memory not "
         "poisoned at the start: %d blocks\n",
         overlapping, separate, mismatches);
  /* The blocks of cluster (0, 0, 0), in the order they started: rank
     order, or reversed with GPUCG_EMU_ORDER=reverse. */
  static const int firstCluster[4] = {0, 1, 4, 5};
  int order[4] = {0, 1, 2, 3};
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j)
      if (run.start[firstCluster[order[j]]] <
          run.start[firstCluster[order[i]]]) {
        int swap = order[i];
        order[i] = order[j];
        order[j] = swap;
      }
  printf("cluster (0, 0, 0): ranks in the order they started: %d %d %d %d\n",
         order[0], order[1], order[2], order[3]);
  return overlapping == 4 && separate == 4 && mismatches == 0 ? 0 : 1;
}

typedef struct ClusterBarrierRun {
  int64_t arrived[2][2][64], passed[2][2][64]; /* [block][round][thread] */
  int read[2][2];                              /* [block][round] */
} ClusterBarrierRun;

/* Two rounds of the cluster barrier over 2 blocks of 64 threads: the first
   with a gpu.barrier between arrive and wait, the second without thread 63
   of each block, which returned after the first (barrier.cluster counts
   the threads that have not exited). Thread 0 writes its block's memory
   before arriving, thread 1 reads it after waiting: no race, a new
   epoch. */
static void clusterBarrierBody(void *closure) {
  ClusterBarrierRun *run = closure;
  int thread = linearThreadId(), block = (int)gpucg_emu_block_id(0);
  unsigned char *memory = workgroupMemory();
  for (int round = 0; round < 2; ++round) {
    if (round == 1 && thread == 63)
      return;
    if (thread == 0) {
      gpucg_emu_access(addressOf(memory + round), 1, 1,
                       "test.mlir:410:5: memref.store");
      memory[round] = (unsigned char)(10 * block + round);
    }
    run->arrived[block][round][thread] = tick();
    gpucg_emu_cluster_arrive("test.mlir:411:5: nvvm.cluster.arrive");
    if (round == 0)
      gpucg_emu_barrier("test.mlir:412:5: gpu.barrier");
    gpucg_emu_cluster_wait("test.mlir:413:5: nvvm.cluster.wait");
    run->passed[block][round][thread] = tick();
    if (thread == 1) {
      gpucg_emu_access(addressOf(memory + round), 1, 0,
                       "test.mlir:414:5: memref.load");
      run->read[block][round] = memory[round];
    }
  }
}

static int clusterBarrierCommand(void) {
  static ClusterBarrierRun run;
  gpucg_emu_configure(2, 1, 1, 64, 1, 1, 64);
  gpucg_emu_configure_cluster(2, 1, 1);
  gpucg_emu_launch(clusterBarrierBody, &run);
  int violations = 0;
  for (int round = 0; round < 2; ++round) {
    int64_t lastArrival = 0, firstPass = INT64_MAX;
    for (int block = 0; block < 2; ++block)
      for (int thread = 0; thread < (round == 0 ? 64 : 63); ++thread) {
        int64_t arrived = run.arrived[block][round][thread];
        int64_t passed = run.passed[block][round][thread];
        lastArrival = arrived > lastArrival ? arrived : lastArrival;
        firstPass = passed < firstPass ? passed : firstPass;
      }
    violations += lastArrival > firstPass;
    CHECK(lastArrival < firstPass,
          "round %d: a thread passed at %" PRId64
          ", the last arrived at %" PRId64,
          round, firstPass, lastArrival);
  }
  printf("cluster barrier: 2 blocks of 64 threads, 2 rounds (thread 63 "
         "returned before the second): %d passed before the last arrival; "
         "read %d %d | %d %d\n",
         violations, run.read[0][0], run.read[0][1], run.read[1][0],
         run.read[1][1]);
  return violations ? 1 : 0;
}

typedef struct ClusterTmaRun {
  int64_t map;
  _Alignas(16) float tensor[32 * 32];
  float out[4][16 * 32]; /* each block's tile */
  int64_t remoteArrival[4], released[4];
  int64_t phases[4][2];
} ClusterTmaRun;

/* Clusters of two blocks of 64 threads load a 16x32 f32 tile of a 32x32
   tensor together: block r's thread 0 expects the whole tile's bytes on
   its mbarrier 0 and loads rows 8r..8r+7 of the tile to both blocks (mask
   0b11), at the same offset in each; all threads wait and copy their
   block's tile out. Then block r's thread 0 arrives on its own mbarrier 1
   (2 arrivals) and on the other block's: each block's phase needs the
   other's remote arrival. A cluster barrier after the inits orders them
   before the other block's multicast and arrival. */
static void clusterTmaBody(void *closure) {
  ClusterTmaRun *run = closure;
  int thread = linearThreadId(), rank = clusterRank();
  int block = (int)gpucg_emu_block_id(0), cluster = block / 2;
  unsigned char *memory = workgroupMemory();
  int64_t group = gpucg_emu_mbarrier_group(2, "test.mlir:420:5: create");
  if (thread == 0) {
    gpucg_emu_mbarrier_init(group, 0, 1, 1, "test.mlir:421:5: init");
    gpucg_emu_mbarrier_init(group, 1, 2, 1, "test.mlir:422:5: init");
  }
  gpucg_emu_cluster_arrive("test.mlir:423:5: nvvm.cluster.arrive");
  gpucg_emu_cluster_wait("test.mlir:424:5: nvvm.cluster.wait");
  if (thread == 0) {
    run->phases[block][0] = gpucg_emu_mbarrier_arrive(
        group, 0, 16 * 32 * 4, 1, "test.mlir:425:5: expect_tx");
    gpucg_emu_tma_load(run->map, addressOf(memory + 1024 * rank),
                       16 * cluster + 8 * rank, 0, 0, 0, 0, group, 0, 1,
                       GPUCG_EMU_TMA_MULTICAST | 0x3,
                       "test.mlir:426:5: tma.async.load");
  }
  gpucg_emu_mbarrier_wait(group, 0, 0, "test.mlir:427:5: try_wait.parity");
  memcpy(&run->out[block][8 * thread], memory + 32 * thread, 32);
  if (thread == 0) {
    run->phases[block][1] =
        gpucg_emu_mbarrier_arrive(group, 1, 0, 1, "test.mlir:428:5: arrive");
    run->remoteArrival[block] = tick();
    gpucg_emu_mbarrier_arrive_cluster(group, 1, rank ^ 1,
                                      "test.mlir:429:5: nvvm.mbarrier.arrive");
  }
  gpucg_emu_mbarrier_wait(group, 1, 0, "test.mlir:430:5: try_wait.parity");
  if (thread == 0)
    run->released[block] = tick();
}

static int clusterTmaCommand(void) {
  static ClusterTmaRun run;
  for (int i = 0; i < 32 * 32; ++i)
    run.tensor[i] = (float)i;
  run.map = gpucg_emu_tensor_map(addressOf(run.tensor), 2, 4, 0, 32, 32, 1, 1,
                                 1, 32, 1, 1, 1, 1, 8, 32, 1, 1, 1);
  gpucg_emu_configure(4, 1, 1, 64, 1, 1, 2048);
  gpucg_emu_configure_cluster(2, 1, 1);
  gpucg_emu_launch(clusterTmaBody, &run);
  int mismatches = 0, releasedAfterPeer = 0;
  for (int block = 0; block < 4; ++block) {
    for (int i = 0; i < 16 * 32; ++i)
      if (run.out[block][i] != run.tensor[16 * 32 * (block / 2) + i]) {
        ++mismatches;
        CHECK(0, "block %d element %d: %g, expected %g", block, i,
              (double)run.out[block][i],
              (double)run.tensor[16 * 32 * (block / 2) + i]);
      }
    releasedAfterPeer += run.released[block] > run.remoteArrival[block ^ 1];
    CHECK(run.phases[block][0] == 0 && run.phases[block][1] == 0,
          "block %d: arrivals in phases %" PRId64 " %" PRId64, block,
          run.phases[block][0], run.phases[block][1]);
  }
  printf("cluster multicast: 4 blocks in clusters of 2, each loading half "
         "of its cluster's 16x32 f32 tile to both: %d mismatches\n",
         mismatches);
  printf("remote arrive: blocks whose mbarrier 1 completed after the other "
         "block's remote arrival: %d of 4\n",
         releasedAfterPeer);
  return mismatches || releasedAfterPeer != 4 ? 1 : 0;
}

typedef struct ClusterNegativeRun {
  int64_t map;
  _Alignas(16) float tensor[8 * 32];
  int64_t phases[2];
  float landed[8 * 32];
  float beforeWait;
} ClusterNegativeRun;

/* Block 0 multicasts a box to block 1 only (mask 0b10) before block 1's
   thread 0 has expected its bytes (a cluster barrier orders the two): block
   1's transaction count is -1024 in between. Its mbarrier counts 2
   arrivals, the expect_tx and a plain one: the phase completes with the
   second, not before. */
static void clusterNegativeBody(void *closure) {
  ClusterNegativeRun *run = closure;
  int thread = linearThreadId(), rank = clusterRank();
  unsigned char *memory = workgroupMemory();
  int64_t group = gpucg_emu_mbarrier_group(1, "test.mlir:440:5: create");
  if (thread == 0)
    gpucg_emu_mbarrier_init(group, 0, 2, 1, "test.mlir:441:5: init");
  gpucg_emu_cluster_arrive("test.mlir:442:5: nvvm.cluster.arrive");
  gpucg_emu_cluster_wait("test.mlir:443:5: nvvm.cluster.wait");
  if (rank == 0 && thread == 0)
    gpucg_emu_tma_load(run->map, addressOf(memory), 0, 0, 0, 0, 0, group, 0, 1,
                       GPUCG_EMU_TMA_MULTICAST | 0x2,
                       "test.mlir:444:5: tma.async.load");
  gpucg_emu_cluster_arrive("test.mlir:445:5: nvvm.cluster.arrive");
  gpucg_emu_cluster_wait("test.mlir:446:5: nvvm.cluster.wait");
  if (rank == 1 && thread == 0)
    memcpy(&run->beforeWait, memory, sizeof(float));
  if (rank == 1 && thread < 2) {
    run->phases[thread] = gpucg_emu_mbarrier_arrive(
        group, 0, thread == 0 ? 1024 : 0, 1, "test.mlir:447:5: arrive");
    gpucg_emu_mbarrier_wait(group, 0, 0, "test.mlir:448:5: try_wait.parity");
    if (thread == 1)
      memcpy(run->landed, memory, sizeof(run->landed));
  }
}

static int clusterNegativeCommand(void) {
  static ClusterNegativeRun run;
  for (int i = 0; i < 8 * 32; ++i)
    run.tensor[i] = (float)(3 * i + 1);
  run.map = gpucg_emu_tensor_map(addressOf(run.tensor), 2, 4, 0, 8, 32, 1, 1, 1,
                                 32, 1, 1, 1, 1, 8, 32, 1, 1, 1);
  gpucg_emu_configure(2, 1, 1, 32, 1, 1, 1024);
  gpucg_emu_configure_cluster(2, 1, 1);
  gpucg_emu_launch(clusterNegativeBody, &run);
  int mismatches = 0;
  for (int i = 0; i < 8 * 32; ++i)
    mismatches += run.landed[i] != run.tensor[i];
  printf("negative transaction count: block 1's expect_tx and its second "
         "arrival in phases %" PRId64 " %" PRId64 ", the box: %d "
         "mismatches\n",
         run.phases[0], run.phases[1], mismatches);
  uint32_t bits;
  memcpy(&bits, &run.beforeWait, sizeof(bits));
  printf("block 1's first element before its wait: 0x%08x\n", bits);
  return mismatches ? 1 : 0;
}

/* The cluster errors, each a kernel of two blocks of 32 threads in a
   cluster (but the configure errors); the name says which. */
typedef struct ClusterErrorRun {
  int64_t map;
  const char *name;
  _Alignas(16) float tensor[8 * 32];
} ClusterErrorRun;

static void clusterErrorsBody(void *closure) {
  const ClusterErrorRun *run = closure;
  int thread = linearThreadId(), rank = clusterRank();
  unsigned char *memory = workgroupMemory();
  const char *name = run->name;
  if (strcmp(name, "cluster-wait-without-arrive") == 0) {
    if (rank == 1 && thread == 5)
      gpucg_emu_cluster_wait("test.mlir:450:5: nvvm.cluster.wait");
    return;
  }
  if (strcmp(name, "cluster-arrive-twice") == 0) {
    gpucg_emu_cluster_arrive("test.mlir:451:5: nvvm.cluster.arrive");
    if (rank == 1 && thread == 3)
      gpucg_emu_cluster_arrive("test.mlir:452:5: nvvm.cluster.arrive");
    gpucg_emu_cluster_wait("test.mlir:453:5: nvvm.cluster.wait");
    return;
  }
  if (strcmp(name, "cluster-deadlock") == 0) {
    /* Thread 2 of block 1 waits at its block's barrier, which the others
       of its block cannot reach before the cluster barrier completes. */
    if (rank == 1 && thread == 2)
      gpucg_emu_barrier("test.mlir:454:5: gpu.barrier");
    gpucg_emu_cluster_arrive("test.mlir:455:5: nvvm.cluster.arrive");
    gpucg_emu_cluster_wait("test.mlir:456:5: nvvm.cluster.wait");
    gpucg_emu_barrier("test.mlir:454:5: gpu.barrier");
    return;
  }
  if (strcmp(name, "cluster-race") == 0) {
    /* Thread 1 reads what thread 0 wrote after arriving but before
       waiting: the cluster barrier's phase has not completed. */
    if (thread == 0) {
      gpucg_emu_access(addressOf(memory), 4, 1,
                       "test.mlir:457:5: memref.store");
      memory[0] = 1;
    }
    gpucg_emu_cluster_arrive("test.mlir:458:5: nvvm.cluster.arrive");
    if (thread == 1)
      gpucg_emu_access(addressOf(memory), 4, 0, "test.mlir:459:5: memref.load");
    gpucg_emu_cluster_wait("test.mlir:460:5: nvvm.cluster.wait");
    return;
  }
  int64_t group = gpucg_emu_mbarrier_group(2, "test.mlir:461:5: create");
  int inits = strcmp(name, "multicast-uninitialized") != 0 &&
              strcmp(name, "remote-arrive-uninitialized") != 0;
  if (thread == 0 && (inits || rank == 0))
    gpucg_emu_mbarrier_init(group, 1, 1, 1, "test.mlir:462:5: init");
  if (inits) {
    gpucg_emu_cluster_arrive("test.mlir:463:5: nvvm.cluster.arrive");
    gpucg_emu_cluster_wait("test.mlir:464:5: nvvm.cluster.wait");
  }
  if (thread != 0)
    return;
  int32_t mask = GPUCG_EMU_TMA_MULTICAST | 0x3;
  if (strcmp(name, "multicast-rank") == 0)
    mask = 0x5;
  else if (strcmp(name, "multicast-zero") == 0)
    mask = GPUCG_EMU_TMA_MULTICAST;
  else if (strcmp(name, "multicast-bits") == 0)
    mask = 0x40003;
  if (strncmp(name, "multicast-", 10) == 0 && rank == 0)
    gpucg_emu_tma_load(run->map, addressOf(memory), 0, 0, 0, 0, 0, group, 1, 1,
                       mask, "test.mlir:465:5: tma.async.load");
  if (strcmp(name, "remote-arrive-rank") == 0 && rank == 1)
    gpucg_emu_mbarrier_arrive_cluster(group, 1, 2,
                                      "test.mlir:466:5: nvvm.mbarrier.arrive");
  if (strcmp(name, "remote-arrive-uninitialized") == 0 && rank == 0)
    gpucg_emu_mbarrier_arrive_cluster(group, 1, 1,
                                      "test.mlir:466:5: nvvm.mbarrier.arrive");
  if (strcmp(name, "exited-remote-arrive") == 0 ||
      strcmp(name, "exited-multicast") == 0) {
    /* Block 1's thread 0 arrives on block 0's mbarrier 1 and returns, the
       last of its block; block 0's, woken by that arrival, then reaches
       into block 1, whose workgroup memory a GPU has released. */
    if (rank == 1) {
      gpucg_emu_mbarrier_arrive_cluster(
          group, 1, 0, "test.mlir:471:5: nvvm.mbarrier.arrive");
      return;
    }
    gpucg_emu_mbarrier_wait(group, 1, 0, "test.mlir:472:5: try_wait.parity");
    if (strcmp(name, "exited-remote-arrive") == 0)
      gpucg_emu_mbarrier_arrive_cluster(
          group, 1, 1, "test.mlir:473:5: nvvm.mbarrier.arrive");
    else
      gpucg_emu_tma_load(run->map, addressOf(memory), 0, 0, 0, 0, 0, group, 1,
                         1, GPUCG_EMU_TMA_MULTICAST | 0x3,
                         "test.mlir:474:5: tma.async.load");
  }
  if (strcmp(name, "negative-tx-deadlock") == 0) {
    /* Block 0 multicasts to block 1, whose thread then (after a cluster
       barrier of the two threads left) arrives without ever expecting the
       bytes: all arrivals came, but the count stays at -1024, and the
       phase must not complete. */
    if (rank == 0)
      gpucg_emu_tma_load(run->map, addressOf(memory), 0, 0, 0, 0, 0, group, 1,
                         1, 0x2, "test.mlir:465:5: tma.async.load");
    gpucg_emu_cluster_arrive("test.mlir:463:5: nvvm.cluster.arrive");
    gpucg_emu_cluster_wait("test.mlir:464:5: nvvm.cluster.wait");
    if (rank == 1) {
      gpucg_emu_mbarrier_arrive(group, 1, 0, 1, "test.mlir:470:5: arrive");
      gpucg_emu_mbarrier_wait(group, 1, 0, "test.mlir:467:5: try_wait.parity");
    }
  }
  if (strcmp(name, "transaction-range") == 0 && rank == 1) {
    gpucg_emu_mbarrier_arrive(group, 1, 600000, 1,
                              "test.mlir:468:5: expect_tx");
    gpucg_emu_mbarrier_arrive(group, 1, 600000, 1,
                              "test.mlir:469:5: expect_tx");
  }
}

static int clusterErrorCommand(const char *name) {
  static ClusterErrorRun run;
  if (strcmp(name, "configure-cluster-unconfigured") == 0) {
    gpucg_emu_configure_cluster(2, 1, 1);
  } else if (strcmp(name, "configure-cluster-size") == 0) {
    gpucg_emu_configure(4, 2, 1, 32, 1, 1, 0);
    gpucg_emu_configure_cluster(2, 0, 1);
  } else if (strcmp(name, "configure-cluster-divide") == 0) {
    gpucg_emu_configure(6, 1, 1, 32, 1, 1, 0);
    gpucg_emu_configure_cluster(4, 1, 1);
  } else if (strcmp(name, "configure-cluster-limit") == 0) {
    gpucg_emu_configure(4, 4, 1, 32, 1, 1, 0);
    gpucg_emu_configure_cluster(4, 4, 1);
  } else if (strcmp(name, "configure-cluster-threads") == 0) {
    gpucg_emu_configure(8, 1, 1, 1024, 1, 1, 0);
    gpucg_emu_configure_cluster(8, 1, 1);
  } else {
    static const char *const bodies[] = {"cluster-wait-without-arrive",
                                         "cluster-arrive-twice",
                                         "cluster-deadlock",
                                         "cluster-race",
                                         "multicast-rank",
                                         "multicast-zero",
                                         "multicast-bits",
                                         "multicast-uninitialized",
                                         "remote-arrive-rank",
                                         "remote-arrive-uninitialized",
                                         "exited-remote-arrive",
                                         "exited-multicast",
                                         "negative-tx-deadlock",
                                         "transaction-range"};
    size_t i = 0;
    while (i < sizeof(bodies) / sizeof(bodies[0]) && strcmp(name, bodies[i]))
      ++i;
    if (i == sizeof(bodies) / sizeof(bodies[0]))
      return -1;
    run.name = bodies[i];
    run.map = gpucg_emu_tensor_map(addressOf(run.tensor), 2, 4, 0, 8, 32, 1, 1,
                                   1, 32, 1, 1, 1, 1, 8, 32, 1, 1, 1);
    gpucg_emu_configure(2, 1, 1, 32, 1, 1, 1024);
    gpucg_emu_configure_cluster(2, 1, 1);
    gpucg_emu_launch(clusterErrorsBody, &run);
  }
  printf("no error reported\n");
  return 0;
}

static int errorCommand(const char *name) {
  static _Alignas(16) unsigned char source[16];
  int hopper = hopperErrorCommand(name);
  if (hopper >= 0)
    return hopper;
  int cluster = clusterErrorCommand(name);
  if (cluster >= 0)
    return cluster;
  if (strcmp(name, "barrier-returned") == 0) {
    gpucg_emu_configure(1, 1, 1, 16, 4, 1, 0);
    gpucg_emu_launch(barrierReturnedBody, NULL);
  } else if (strcmp(name, "barrier-mismatch") == 0) {
    gpucg_emu_configure(3, 1, 1, 64, 1, 1, 0);
    gpucg_emu_launch(barrierMismatchBody, NULL);
  } else if (strcmp(name, "named-barrier-count") == 0) {
    launch1d(64, 0, namedBarrierCountBody, NULL);
  } else if (strcmp(name, "named-barrier-deadlock") == 0) {
    launch1d(64, 0, namedBarrierDeadlockBody, NULL);
  } else if (strcmp(name, "named-barrier-id") == 0) {
    launch1d(64, 0, namedBarrierIdBody, NULL);
  } else if (strcmp(name, "named-barrier-threads") == 0) {
    launch1d(64, 0, namedBarrierThreadsBody, NULL);
  } else if (strcmp(name, "warp-divergence") == 0) {
    launch1d(64, 0, warpDivergenceBody, NULL);
  } else if (strcmp(name, "warp-barrier") == 0) {
    launch1d(32, 0, warpBarrierBody, NULL);
  } else if (strcmp(name, "warp-returned") == 0) {
    launch1d(32, 64, warpReturnedBody, NULL);
  } else if (strcmp(name, "race-write-write") == 0 ||
             strcmp(name, "race-write-read") == 0) {
    int secondWrites = strcmp(name, "race-write-write") == 0;
    gpucg_emu_configure(1, 1, 1, 4, 2, 1, 64);
    gpucg_emu_launch(raceBody, &secondWrites);
  } else if (strncmp(name, "global-order-", 13) == 0) {
    static const char *const drops[] = {"", "writer-fence", "arrive-barrier",
                                        "reader-fence", "early-read"};
    GlobalOrderRun run = {{{0}}, 0, 0, GLOBAL_ORDER_NONE};
    for (int drop = 1; drop < 5; ++drop)
      if (strcmp(name + 13, drops[drop]) == 0)
        run.drop = (GlobalOrderDrop)drop;
    if (run.drop == GLOBAL_ORDER_NONE) {
      printf("error: unknown subcommand %s-error\n", name);
      return 2;
    }
    launchGlobalOrder(&run);
  } else if (strcmp(name, "global-spin") == 0) {
    static int32_t flag;
    flag = 0;
    gpucg_emu_configure(2, 1, 1, 1, 1, 1, 0);
    gpucg_emu_launch(globalSpinBody, &flag);
  } else if (strcmp(name, "race-global-store") == 0) {
    GlobalStoreRun run = {{0}, 1};
    gpucg_emu_configure(2, 2, 1, 32, 1, 1, 0);
    gpucg_emu_launch(globalStoreBody, &run);
  } else if (strcmp(name, "race-read-write") == 0) {
    launch1d(8, 64, raceReadWriteBody, NULL);
  } else if (strcmp(name, "race-ldmatrix") == 0) {
    launch1d(32, 512, ldmatrixRaceBody, NULL);
  } else if (strcmp(name, "race-async-copy") == 0) {
    launch1d(4, 64, asyncRaceBody, source);
  } else if (strcmp(name, "race-async-copy-issue") == 0) {
    launch1d(4, 64, asyncIssueRaceBody, source);
  } else if (strcmp(name, "ldmatrix-out-of-range") == 0) {
    LdmatrixErrorRun run = {1024 - 8, 4};
    launch1d(32, 1024, ldmatrixErrorBody, &run);
  } else if (strcmp(name, "ldmatrix-below-range") == 0) {
    LdmatrixErrorRun run = {-16, 2};
    launch1d(32, 1024, ldmatrixErrorBody, &run);
  } else if (strcmp(name, "ldmatrix-misaligned") == 0) {
    LdmatrixErrorRun run = {40, 2};
    launch1d(32, 1024, ldmatrixErrorBody, &run);
  } else if (strcmp(name, "ldmatrix-tiles") == 0) {
    LdmatrixErrorRun run = {144, 3};
    launch1d(32, 1024, ldmatrixErrorBody, &run);
  } else if (strcmp(name, "ldmatrix-disagree") == 0) {
    launch1d(32, 1024, disagreeBody, NULL);
  } else if (strcmp(name, "async-copy-out-of-range") == 0) {
    AsyncErrorRun run = {56, 16, 16};
    launch1d(4, 64, asyncErrorBody, &run);
  } else if (strcmp(name, "async-copy-misaligned") == 0) {
    AsyncErrorRun run = {8, 16, 16};
    launch1d(4, 64, asyncErrorBody, &run);
  } else if (strcmp(name, "async-copy-size") == 0) {
    AsyncErrorRun run = {0, 16, 17};
    launch1d(4, 64, asyncErrorBody, &run);
  } else if (strcmp(name, "async-copy-source-bounds") == 0) {
    launch1d(4, 64, boundsBody, (void *)&kCopySourceBounds);
  } else if (strcmp(name, "claimed-alignment") == 0) {
    launch1d(2, 0, claimedAlignmentBody, NULL);
  } else if (strcmp(name, "vector-bounds") == 0) {
    launch1d(4, 0, boundsBody, (void *)&kVectorBounds);
  } else if (strcmp(name, "shuffle-member-mask") == 0) {
    int args[3] = {16, GPUCG_EMU_SHUFFLE_UP, 1};
    launch1d(32, 0, shuffleErrorBody, args);
  } else if (strcmp(name, "shuffle-missing-lane") == 0) {
    int args[3] = {32, GPUCG_EMU_SHUFFLE_DOWN, 1};
    launch1d(48, 0, shuffleErrorBody, args);
  } else if (strcmp(name, "mma-unsupported") == 0) {
    int types[2] = {GPUCG_EMU_BF16, GPUCG_EMU_F16};
    launch1d(32, 0, mmaUnsupportedBody, types);
  } else if (strcmp(name, "mma-partial-warp") == 0) {
    int types[2] = {GPUCG_EMU_F16, GPUCG_EMU_F32};
    launch1d(40, 0, mmaUnsupportedBody, types);
  } else if (strcmp(name, "configure-invalid") == 0) {
    gpucg_emu_configure(1, 0, 1, 32, 1, 1, 0);
  } else if (strcmp(name, "configure-too-many-threads") == 0) {
    gpucg_emu_configure(1, 1, 1, 32, 33, 1, 0);
  } else if (strcmp(name, "launch-unconfigured") == 0) {
    gpucg_emu_launch(emptyBody, NULL);
  } else if (strcmp(name, "outside-kernel") == 0) {
    gpucg_emu_lane_id();
  } else if (strcmp(name, "bad-dimension") == 0) {
    launch1d(1, 0, dimensionBody, NULL);
  } else if (strcmp(name, "nested-launch") == 0) {
    launch1d(2, 0, nestedLaunchBody, NULL);
  } else if (strcmp(name, "order-invalid") == 0) {
    launch1d(2, 0, emptyBody, NULL);
  } else {
    printf("error: unknown subcommand %s-error\n", name);
    return 2;
  }
  printf("no error reported\n");
  return 0;
}

/* Fiber stacks: 1024 threads, each with a deep recursion. */
static int stackCommand(void) {
  static int64_t sums[1024];
  gpucg_emu_configure(1, 1, 1, 1024, 1, 1, 0);
  gpucg_emu_launch(stackBody, sums);
  int mismatches = 0;
  for (int i = 0; i < 1024; ++i)
    mismatches += sums[i] != sums[0];
  printf("1024 threads, 150 nested 1 KiB frames each: %d mismatches\n",
         mismatches);
  return mismatches ? 1 : 0;
}

/*===----------------------------------------------------------------------===*/

/* The models of PTX's f8x2 conversions: to nearest even, satfinite (an
   overflow and an infinity the largest finite value, a NaN 0x7F), the
   first operand's byte in bits 8-15; back exact, the lower byte's half in
   bits 0-15. Prints each result. */
static int cvtCommand(void) {
  static const struct {
    float value;
    uint8_t e4m3, e5m2;
  } cases[] = {
      {1.0f, 0x38, 0x3C},     {-2.0f, 0xC0, 0xC0},    {464.0f, 0x7E, 0x5F},
      {1000.0f, 0x7E, 0x64},  {INFINITY, 0x7E, 0x7B}, {-INFINITY, 0xFE, 0xFB},
      {NAN, 0x7F, 0x7F},      {0x1p-9f, 0x01, 0x18},  {0x1.8p-10f, 0x01, 0x16},
      {0x1p-16f, 0x00, 0x01}, {-0.0f, 0x80, 0x80},    {240.0f, 0x77, 0x5C},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    int32_t e4m3 =
        gpucg_emu_cvt_f32x2_to_f8x2(cases[i].value, 1.0f, GPUCG_EMU_F8E4M3);
    int32_t e5m2 =
        gpucg_emu_cvt_f32x2_to_f8x2(cases[i].value, 1.0f, GPUCG_EMU_F8E5M2);
    printf("%g: e4m3 0x%04x e5m2 0x%04x\n", (double)cases[i].value,
           (unsigned)e4m3, (unsigned)e5m2);
    CHECK(e4m3 == ((cases[i].e4m3 << 8) | 0x38), "e4m3 of %g: 0x%04x",
          (double)cases[i].value, (unsigned)e4m3);
    CHECK(e5m2 == ((cases[i].e5m2 << 8) | 0x3C), "e5m2 of %g: 0x%04x",
          (double)cases[i].value, (unsigned)e5m2);
  }
  /* Back: 0xC038 is e4m3 -2.0 (upper) and 1.0 (lower). */
  int32_t halves = gpucg_emu_cvt_f8x2_to_f16x2(0xC038, GPUCG_EMU_F8E4M3);
  printf("e4m3x2 0xc038: f16x2 0x%08x\n", (unsigned)halves);
  CHECK(halves == (int32_t)0xC0003C00, "f16x2 0x%08x", (unsigned)halves);
  /* e5m2 infinity (upper) and the least subnormal, 2^-16 (lower). */
  halves = gpucg_emu_cvt_f8x2_to_f16x2(0x7C01, GPUCG_EMU_F8E5M2);
  printf("e5m2x2 0x7c01: f16x2 0x%08x\n", (unsigned)halves);
  CHECK(halves == 0x7C000100, "f16x2 0x%08x", (unsigned)halves);
  return 0;
}

static const char *Commands[] = {
    "mma CASE | mma-all | mma-f16-rounding | wmma CASE | ldmatrix "
    "{1,2,4} {0,1} | ldmatrix-mma | shuffle THREADS WIDTH | shuffle-show "
    "THREADS WIDTH | barrier | named-barrier | order | ids | async-copy | "
    "global-store | global-order | "
    "stack | tma | cvt | cluster-ids | cluster-barrier | cluster-tma | "
    "cluster-negative-tx | "
    "wgmma N {K,N,MK,MN} {plain,changed,tall} | wgmma-tf32 | "
    "wgmma-f8 {e4m3,e5m2} | "
    "NAME-error | list",
};

static int listCommand(void) {
  printf("%s\nmma cases:", Commands[0]);
  for (size_t i = 0; i < sizeof(MmaCases) / sizeof(MmaCases[0]); ++i)
    printf(" %s", MmaCases[i].name);
  printf("\nwmma cases:");
  for (size_t i = 0; i < sizeof(WmmaCases) / sizeof(WmmaCases[0]); ++i)
    printf(" %s", WmmaCases[i].name);
  printf("\n");
  return 0;
}

int main(int argc, char **argv) {
  /* In order with the emulator's reports on stderr. */
  setvbuf(stdout, NULL, _IOLBF, 0);
  int status = -1;
  const char *command = argc >= 2 ? argv[1] : "";
  size_t length = strlen(command);
  if (argc == 3 && strcmp(command, "mma") == 0)
    status = mmaCommand(argv[2]);
  else if (argc == 2 && strcmp(command, "mma-all") == 0)
    status = mmaAllCommand();
  else if (argc == 2 && strcmp(command, "mma-f16-rounding") == 0)
    status = mmaF16RoundingCommand();
  else if (argc == 3 && strcmp(command, "wmma") == 0)
    status = wmmaCommand(argv[2]);
  else if (argc == 4 && strcmp(command, "ldmatrix") == 0)
    status = ldmatrixCommand(atoi(argv[2]), atoi(argv[3]));
  else if (argc == 2 && strcmp(command, "ldmatrix-mma") == 0)
    status = ldmatrixMmaCommand();
  else if (argc == 4 && strcmp(command, "shuffle") == 0)
    status = shuffleCommand(atoi(argv[2]), atoi(argv[3]));
  else if (argc == 4 && strcmp(command, "shuffle-show") == 0)
    status = shuffleShowCommand(atoi(argv[2]), atoi(argv[3]));
  else if (argc == 2 && strcmp(command, "global-store") == 0)
    status = globalStoreCommand();
  else if (argc == 2 && strcmp(command, "global-order") == 0)
    status = globalOrderCommand();
  else if (argc == 2 && strcmp(command, "barrier") == 0)
    status = barrierCommand();
  else if (argc == 2 && strcmp(command, "named-barrier") == 0)
    return namedBarrierCommand();
  else if (argc == 2 && strcmp(command, "order") == 0)
    status = orderCommand();
  else if (argc == 2 && strcmp(command, "ids") == 0)
    status = idsCommand();
  else if (argc == 2 && strcmp(command, "async-copy") == 0)
    status = asyncCopyCommand();
  else if (argc == 2 && strcmp(command, "stack") == 0)
    status = stackCommand();
  else if (argc == 2 && strcmp(command, "tma") == 0)
    status = tmaCommand();
  else if (argc == 2 && strcmp(command, "cvt") == 0)
    status = cvtCommand();
  else if (argc == 2 && strcmp(command, "cluster-ids") == 0)
    status = clusterIdsCommand();
  else if (argc == 2 && strcmp(command, "cluster-barrier") == 0)
    status = clusterBarrierCommand();
  else if (argc == 2 && strcmp(command, "cluster-tma") == 0)
    status = clusterTmaCommand();
  else if (argc == 2 && strcmp(command, "cluster-negative-tx") == 0)
    status = clusterNegativeCommand();
  else if (argc == 5 && strcmp(command, "wgmma") == 0)
    /* B's layout, K or N, after an M for an M-major A. */
    status = wgmmaCommand(atoi(argv[2]), argv[3][0] == 'M',
                          strcmp(argv[3] + (argv[3][0] == 'M'), "N") == 0,
                          strcmp(argv[4], "changed") == 0 ? 1
                          : strcmp(argv[4], "tall") == 0  ? 2
                                                          : 0);
  else if (argc == 2 && strcmp(command, "wgmma-tf32") == 0)
    status = tf32Command();
  else if (argc == 3 && strcmp(command, "wgmma-f8") == 0)
    status = float8Command(argv[2]);
  else if (argc == 2 && strcmp(command, "list") == 0)
    status = listCommand();
  else if (argc == 2 && length > 6 &&
           strcmp(command + length - 6, "-error") == 0) {
    char name[64];
    snprintf(name, sizeof(name), "%.*s", (int)(length - 6), command);
    status = errorCommand(name);
  }
  if (status < 0) {
    fprintf(stderr, "usage: %s %s\n", argv[0], Commands[0]);
    return 2;
  }
  if (failures)
    printf("FAIL: %d checks failed\n", failures);
  return status || failures ? 1 : 0;
}
