/*===- EmulatorWarp.c - Warp collectives: shuffle, ldmatrix, mma ----------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* The thread side of each collective stores its arguments and blocks; once  *|
|* every lane of the warp waits at it, the scheduler calls                    *|
|* emuCompleteCollective, which reads all lanes' inputs, then writes all      *|
|* lanes' results. Fragment layouts follow the PTX ISA, "Matrix fragments     *|
|* for mma.m16n8k*" and "ldmatrix".                                           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "EmulatorInternal.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/*===----------------------------------------------------------------------===*/
/* Conversions                                                                */
/*===----------------------------------------------------------------------===*/

static double halfToDouble(uint16_t bits) {
  double sign = (bits & 0x8000) ? -1.0 : 1.0;
  int exponent = (bits >> 10) & 0x1F;
  int mantissa = bits & 0x3FF;
  if (exponent == 0x1F)
    return mantissa ? (double)NAN : sign * (double)INFINITY;
  if (exponent == 0) /* zero, subnormal: mantissa * 2^-24 */
    return sign * ldexp((double)mantissa, -24);
  return sign * ldexp((double)(mantissa | 0x400), exponent - 25);
}

/* OCP 8-bit floats (MLIR's f8E4M3FN and f8E5M2, PTX's e4m3 and e5m2). e4m3
   has no infinities: S.1111.111 is its only NaN. e5m2 is IEEE-like. */
static double float8E4M3ToDouble(uint8_t bits) {
  double sign = (bits & 0x80) ? -1.0 : 1.0;
  int exponent = (bits >> 3) & 0xF;
  int mantissa = bits & 0x7;
  if (exponent == 0xF && mantissa == 0x7)
    return (double)NAN;
  if (exponent == 0) /* zero, subnormal: mantissa * 2^-9 */
    return sign * ldexp((double)mantissa, -9);
  return sign * ldexp((double)(mantissa | 0x8), exponent - 10);
}

static double float8E5M2ToDouble(uint8_t bits) {
  double sign = (bits & 0x80) ? -1.0 : 1.0;
  int exponent = (bits >> 2) & 0x1F;
  int mantissa = bits & 0x3;
  if (exponent == 0x1F)
    return mantissa ? (double)NAN : sign * (double)INFINITY;
  if (exponent == 0) /* zero, subnormal: mantissa * 2^-16 */
    return sign * ldexp((double)mantissa, -16);
  return sign * ldexp((double)(mantissa | 0x4), exponent - 17);
}

/* Rounds a non-negative value below 2^52 to an integer, ties to even. */
static double roundHalfEven(double value) {
  double floorValue = floor(value);
  double fraction = value - floorValue; /* exact */
  if (fraction > 0.5)
    return floorValue + 1.0;
  if (fraction < 0.5)
    return floorValue;
  return fmod(floorValue, 2.0) == 0.0 ? floorValue : floorValue + 1.0;
}

/* IEEE binary16, rounded once from double to nearest even. */
static uint16_t doubleToHalf(double value) {
  uint16_t sign = signbit(value) ? 0x8000 : 0;
  if (isnan(value))
    return sign | 0x7E00;
  double magnitude = fabs(value);
  /* 65520 lies halfway between the largest half, 65504, and 2^16: the
     tie goes to the even significand, i.e. up, to infinity. */
  if (magnitude >= 65520.0)
    return sign | 0x7C00;
  if (magnitude < 0x1p-14) {
    /* Subnormal: a multiple of 2^-24; 1024 * 2^-24 is the smallest normal,
       whose bits follow on from the subnormals'. */
    return sign | (uint16_t)roundHalfEven(magnitude * 0x1p24);
  }
  int exponent;
  frexp(magnitude, &exponent); /* magnitude in [2^(exponent-1), 2^exponent) */
  exponent -= 1;               /* magnitude = 1.f * 2^exponent */
  double significand = roundHalfEven(ldexp(magnitude, 10 - exponent));
  if (significand == 2048.0) { /* rounded up to the next binade */
    significand = 1024.0;
    exponent += 1;
  }
  if (exponent > 15)
    return sign | 0x7C00;
  return sign | (uint16_t)((exponent + 15) << 10) |
         (uint16_t)(significand - 1024.0);
}

/* PTX's cvt.rn.satfinite.{e4m3,e5m2}x2.f32 on one value: to nearest even;
   a NaN becomes the canonical NaN 0x7F; a magnitude beyond the largest
   finite value (an infinity too) becomes the largest finite value. */
static uint8_t floatToFloat8Satfinite(float value, int32_t type) {
  int e5m2 = type == GPUCG_EMU_F8E5M2;
  int mantissaBits = e5m2 ? 2 : 3;
  int bias = e5m2 ? 15 : 7;
  uint32_t largest = e5m2 ? 0x7B : 0x7E;
  if (isnan(value))
    return 0x7F;
  uint8_t sign = signbit(value) ? 0x80 : 0;
  double magnitude = fabs((double)value);
  uint32_t bits;
  if (isinf(magnitude)) {
    bits = largest;
  } else if (magnitude < ldexp(1.0, 1 - bias)) {
    /* Subnormal (or zero): a multiple of the least subnormal; rounding up
       to the least normal gives its bits. */
    bits = (uint32_t)roundHalfEven(ldexp(magnitude, bias - 1 + mantissaBits));
  } else {
    int exponent;
    frexp(magnitude, &exponent);
    exponent -= 1; /* magnitude = 1.f * 2^exponent */
    if (exponent > 2 * bias + 1) {
      bits = largest;
    } else {
      double significand =
          roundHalfEven(ldexp(magnitude, mantissaBits - exponent));
      if (significand == ldexp(1.0, mantissaBits + 1)) {
        significand /= 2.0;
        exponent += 1;
      }
      bits = ((uint32_t)(exponent + bias) << mantissaBits) |
             (uint32_t)(significand - ldexp(1.0, mantissaBits));
    }
  }
  if (bits > largest)
    bits = largest;
  return sign | (uint8_t)bits;
}

static void requireFloat8Type(const char *function, int32_t type) {
  if (type != GPUCG_EMU_F8E4M3 && type != GPUCG_EMU_F8E5M2)
    emuFatal("%s: type %d is not e4m3 (%d) or e5m2 (%d)", function, type,
             GPUCG_EMU_F8E4M3, GPUCG_EMU_F8E5M2);
}

int32_t gpucg_emu_cvt_f32x2_to_f8x2(float a, float b, int32_t type) {
  requireFloat8Type("gpucg_emu_cvt_f32x2_to_f8x2", type);
  return (int32_t)(((uint32_t)floatToFloat8Satfinite(a, type) << 8) |
                   floatToFloat8Satfinite(b, type));
}

int32_t gpucg_emu_cvt_f8x2_to_f16x2(int32_t a, int32_t type) {
  requireFloat8Type("gpucg_emu_cvt_f8x2_to_f16x2", type);
  double (*decode)(uint8_t) =
      type == GPUCG_EMU_F8E5M2 ? float8E5M2ToDouble : float8E4M3ToDouble;
  uint32_t low = doubleToHalf(decode((uint8_t)(a & 0xFF)));
  uint32_t high = doubleToHalf(decode((uint8_t)((a >> 8) & 0xFF)));
  return (int32_t)((high << 16) | low);
}

/* IEEE binary32, rounded once from double to nearest even. */
static float doubleToFloat(double value) {
  if (isnan(value))
    return NAN;
  /* The largest float plus half its ulp: the tie rounds up, to infinity
     (the largest float's significand is odd). */
  const double limit = 0x1.ffffffp127;
  if (value >= limit)
    return INFINITY;
  if (value <= -limit)
    return -INFINITY;
  return (float)value;
}

static int elementBytes(int32_t type) {
  switch (type) {
  case GPUCG_EMU_F16:
  case GPUCG_EMU_BF16:
    return 2;
  case GPUCG_EMU_TF32:
  case GPUCG_EMU_F32:
  case GPUCG_EMU_S32:
    return 4;
  case GPUCG_EMU_F64:
    return 8;
  case GPUCG_EMU_S8:
  case GPUCG_EMU_U8:
  case GPUCG_EMU_F8E4M3:
  case GPUCG_EMU_F8E5M2:
    return 1;
  }
  return 0;
}

int emuElementBytes(int32_t type) { return elementBytes(type); }

static const char *typeName(int32_t type) {
  static const char *names[] = {"f16", "bf16", "tf32", "f32",  "f64",
                                "s8",  "u8",   "s32",  "e4m3", "e5m2"};
  return type >= 0 && type <= GPUCG_EMU_F8E5M2 ? names[type] : "unknown type";
}

/* Every operand element as a double: exact for every type here. */
static double loadElement(int32_t type, const unsigned char *address) {
  switch (type) {
  case GPUCG_EMU_F16: {
    uint16_t bits;
    memcpy(&bits, address, 2);
    return halfToDouble(bits);
  }
  case GPUCG_EMU_BF16: {
    uint16_t half;
    memcpy(&half, address, 2);
    uint32_t bits = (uint32_t)half << 16;
    float value;
    memcpy(&value, &bits, 4);
    return value;
  }
  case GPUCG_EMU_TF32: {
    /* The tensor cores read 19 bits of an f32: the low 13 mantissa bits are
       dropped (truncation). A NaN stays a NaN. */
    uint32_t bits;
    memcpy(&bits, address, 4);
    if ((bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu))
      bits |= 0x00400000u;
    bits &= ~(uint32_t)0x1FFF;
    float value;
    memcpy(&value, &bits, 4);
    return value;
  }
  case GPUCG_EMU_F32: {
    float value;
    memcpy(&value, address, 4);
    return value;
  }
  case GPUCG_EMU_F64: {
    double value;
    memcpy(&value, address, 8);
    return value;
  }
  case GPUCG_EMU_F8E4M3:
    return float8E4M3ToDouble(*address);
  case GPUCG_EMU_F8E5M2:
    return float8E5M2ToDouble(*address);
  case GPUCG_EMU_S8:
    return (double)(int8_t)*address;
  case GPUCG_EMU_U8:
    return (double)*address;
  case GPUCG_EMU_S32: {
    int32_t value;
    memcpy(&value, address, 4);
    return value;
  }
  }
  return NAN;
}

double emuLoadElement(int32_t type, const unsigned char *address) {
  return loadElement(type, address);
}

static void storeElement(int32_t type, unsigned char *address, double value) {
  switch (type) {
  case GPUCG_EMU_F16: {
    uint16_t bits = doubleToHalf(value);
    memcpy(address, &bits, 2);
    return;
  }
  case GPUCG_EMU_F32: {
    float single = doubleToFloat(value);
    memcpy(address, &single, 4);
    return;
  }
  case GPUCG_EMU_F64:
    memcpy(address, &value, 8);
    return;
  case GPUCG_EMU_S32: {
    /* An exact integer sum: wraps around to 32 bits, as mma's .s32 does
       without .satfinite. */
    uint32_t bits = (uint32_t)(uint64_t)(int64_t)value;
    memcpy(address, &bits, 4);
    return;
  }
  }
}

/* D = A * B + C, row-major; each product and the running sum in double. */
static void multiplyAdd(int32_t m, int32_t n, int32_t k, const double *a,
                        const double *b, const double *c, double *d) {
  for (int32_t row = 0; row < m; ++row)
    for (int32_t col = 0; col < n; ++col) {
      double sum = 0.0;
      for (int32_t i = 0; i < k; ++i)
        sum += a[row * k + i] * b[i * n + col];
      d[row * n + col] = sum + c[row * n + col];
    }
}

/*===----------------------------------------------------------------------===*/
/* Shared checks                                                              */
/*===----------------------------------------------------------------------===*/

static unsigned char *laneAddress(int64_t address) {
  return (unsigned char *)(uintptr_t)address;
}

EMU_NORETURN static void reportDisagreement(EmuThread **lanes, int32_t lane,
                                            const char *what, int64_t first,
                                            int64_t other) {
  char workgroup[80];
  emuFatal("%s: lanes of warp %d of workgroup %s disagree on %s: lane 0 "
           "passes %" PRId64 ", lane %d passes %" PRId64,
           lanes[0]->site, lanes[0]->warp,
           emuWorkgroupName(lanes[0]->cta, workgroup), what, first, lane,
           other);
}

static void requireFullWarp(EmuThread **lanes, int32_t count,
                            const char *operation) {
  if (count == EMU_WARP_SIZE)
    return;
  char workgroup[80];
  emuFatal("%s: warp %d of workgroup %s has %d threads; %s needs all 32 "
           "lanes",
           lanes[0]->site, lanes[0]->warp,
           emuWorkgroupName(lanes[0]->cta, workgroup), count, operation);
}

/*===----------------------------------------------------------------------===*/
/* gpu.shuffle                                                                */
/*===----------------------------------------------------------------------===*/

int64_t gpucg_emu_shuffle(int32_t value, int32_t offset, int32_t width,
                          int32_t mode, const char *site) {
  EmuThread *thread = emuRequireThread("gpucg_emu_shuffle");
  thread->op = EMU_OP_SHUFFLE;
  thread->site = site ? site : "(unknown gpu.shuffle)";
  thread->args.shuffle.value = value;
  thread->args.shuffle.offset = offset;
  thread->args.shuffle.width = width;
  thread->args.shuffle.mode = mode;
  emuWaitCollective(thread);
  return thread->result;
}

static void completeShuffle(EmuThread **lanes, int32_t count) {
  const EmuShuffleArgs *first = &lanes[0]->args.shuffle;
  for (int32_t lane = 1; lane < count; ++lane) {
    const EmuShuffleArgs *args = &lanes[lane]->args.shuffle;
    if (args->width != first->width)
      reportDisagreement(lanes, lane, "the width", first->width, args->width);
    if (args->mode != first->mode)
      reportDisagreement(lanes, lane, "the mode", first->mode, args->mode);
  }
  char workgroup[80], name[48];
  if (first->width < 1 || first->width > 32)
    emuFatal("%s: the shuffle width %d is not in [1, 32]", lanes[0]->site,
             first->width);
  if (first->mode < GPUCG_EMU_SHUFFLE_XOR || first->mode > GPUCG_EMU_SHUFFLE_IDX)
    emuFatal("%s: the shuffle mode %d is not 0 (xor), 1 (up), 2 (down) or 3 "
             "(idx)",
             lanes[0]->site, first->mode);
  /* MLIR's NVVM lowering: member mask lanes [0, width); clamp c = 32 - width
     for up, width - 1 otherwise, segment mask 0 (c < 256), so
     maxLane = c & 31 and minLane = 0. */
  int32_t width = first->width, mode = first->mode;
  uint32_t members = width == 32 ? 0xFFFFFFFFu : (1u << width) - 1;
  int32_t clamp = mode == GPUCG_EMU_SHUFFLE_UP ? 32 - width : width - 1;
  int32_t maxLane = clamp & 31;
  for (int32_t lane = 0; lane < count; ++lane) {
    int32_t b = lanes[lane]->args.shuffle.offset & 31;
    int32_t source = lane;
    int valid = 0;
    switch (mode) {
    case GPUCG_EMU_SHUFFLE_UP:
      source = lane - b;
      valid = source >= maxLane;
      break;
    case GPUCG_EMU_SHUFFLE_DOWN:
      source = lane + b;
      valid = source <= maxLane;
      break;
    case GPUCG_EMU_SHUFFLE_XOR:
      source = lane ^ b;
      valid = source <= maxLane;
      break;
    default: /* idx */
      source = b;
      valid = source <= maxLane;
      break;
    }
    if (!valid)
      source = lane;
    else if (source >= count)
      emuFatal("%s: lane %d, thread %s, of warp %d of workgroup %s reads lane "
               "%d, which the warp does not have (it has %d threads)",
               lanes[0]->site, lane, emuThreadName(lanes[lane], name),
               lanes[0]->warp, emuWorkgroupName(lanes[0]->cta, workgroup),
               source, count);
    else if (!(members >> source & 1u))
      emuFatal("%s: lane %d, thread %s, of warp %d of workgroup %s reads lane "
               "%d, outside the member mask 0x%08x of width %d",
               lanes[0]->site, lane, emuThreadName(lanes[lane], name),
               lanes[0]->warp, emuWorkgroupName(lanes[0]->cta, workgroup),
               source, members, width);
    lanes[lane]->result =
        (int64_t)(uint32_t)lanes[source]->args.shuffle.value |
        ((int64_t)valid << 32);
  }
}

/*===----------------------------------------------------------------------===*/
/* nvgpu.ldmatrix                                                             */
/*===----------------------------------------------------------------------===*/

void gpucg_emu_ldmatrix(int64_t row_address, int32_t num_tiles,
                        int32_t transpose, int64_t result_address,
                        const char *site) {
  EmuThread *thread = emuRequireThread("gpucg_emu_ldmatrix");
  thread->op = EMU_OP_LDMATRIX;
  thread->site = site ? site : "(unknown nvgpu.ldmatrix)";
  thread->args.ldmatrix.rowAddress = row_address;
  thread->args.ldmatrix.numTiles = num_tiles;
  thread->args.ldmatrix.transpose = transpose;
  thread->args.ldmatrix.resultAddress = result_address;
  emuWaitCollective(thread);
}

static void completeLdmatrix(EmuThread **lanes, int32_t count) {
  const Emu *e = &gpucgEmu;
  const EmuLdmatrixArgs *first = &lanes[0]->args.ldmatrix;
  const char *site = lanes[0]->site;
  requireFullWarp(lanes, count, "nvgpu.ldmatrix");
  for (int32_t lane = 1; lane < count; ++lane) {
    const EmuLdmatrixArgs *args = &lanes[lane]->args.ldmatrix;
    if (args->numTiles != first->numTiles)
      reportDisagreement(lanes, lane, "the number of matrices",
                         first->numTiles, args->numTiles);
    if ((args->transpose != 0) != (first->transpose != 0))
      reportDisagreement(lanes, lane, "transposition", first->transpose != 0,
                         args->transpose != 0);
  }
  int32_t tiles = first->numTiles;
  if (tiles != 1 && tiles != 2 && tiles != 4)
    emuFatal("%s: ldmatrix loads 1, 2 or 4 matrices, not %d", site, tiles);
  /* Read every row first: a result may land anywhere. */
  uint16_t matrix[4][8][8];
  const unsigned char *memory = lanes[0]->cta->memory;
  uint64_t base = (uint64_t)(uintptr_t)memory;
  uint64_t size = (uint64_t)e->workgroupBytes;
  for (int32_t lane = 0; lane < 8 * tiles; ++lane) {
    const EmuThread *thread = lanes[lane];
    uint64_t address = (uint64_t)thread->args.ldmatrix.rowAddress;
    uint64_t offset = address - base;
    char name[48], workgroup[80];
    if (address < base || offset >= size || size - offset < 16)
      emuFatal("%s: lane %d, thread %s, of warp %d of workgroup %s: the row "
               "address 0x%" PRIx64 " (workgroup memory offset %" PRId64
               ", 16 bytes) is outside workgroup memory (%" PRIu64 " bytes at "
               "0x%" PRIx64 ")",
               site, lane, emuThreadName(thread, name), thread->warp,
               emuWorkgroupName(lanes[0]->cta, workgroup), address,
               (int64_t)offset, size, base);
    if (address % 16 != 0)
      emuFatal("%s: lane %d, thread %s, of warp %d of workgroup %s: the row "
               "address 0x%" PRIx64 " (workgroup memory offset %" PRIu64
               ") is not 16-byte aligned",
               site, lane, emuThreadName(thread, name), thread->warp,
               emuWorkgroupName(lanes[0]->cta, workgroup), address, offset);
    emuRecordAccess(thread, (int64_t)address, 16, 0, site);
    memcpy(matrix[lane / 8][lane % 8], memory + offset, 16);
  }
  int transposed = first->transpose != 0;
  for (int32_t lane = 0; lane < count; ++lane) {
    uint16_t registers[8];
    int32_t quad = lane / 4, pair = 2 * (lane % 4);
    for (int32_t tile = 0; tile < tiles; ++tile) {
      /* The low half holds the element of the lower address (non-
         transposed) or of the lower row (transposed). */
      registers[2 * tile] = transposed ? matrix[tile][pair][quad]
                                       : matrix[tile][quad][pair];
      registers[2 * tile + 1] = transposed ? matrix[tile][pair + 1][quad]
                                           : matrix[tile][quad][pair + 1];
    }
    memcpy(laneAddress(lanes[lane]->args.ldmatrix.resultAddress), registers,
           (size_t)(4 * tiles));
  }
}

/*===----------------------------------------------------------------------===*/
/* nvgpu.mma.sync                                                             */
/*===----------------------------------------------------------------------===*/

/* Where element i of a lane's fragment sits in its matrix. */
typedef void (*EmuCoordinate)(int32_t lane, int32_t i, int32_t *row,
                              int32_t *col);

#define GROUP(lane) ((lane) >> 2)
#define THREAD_IN_GROUP(lane) ((lane) % 4)

/* A and B of m16n8k16 with f16/bf16. */
static void aF16K16(int32_t lane, int32_t i, int32_t *row, int32_t *col) {
  *row = GROUP(lane) + 8 * ((i >> 1) & 1);
  *col = 2 * THREAD_IN_GROUP(lane) + (i & 1) + 8 * (i >> 2);
}
static void bF16K16(int32_t lane, int32_t i, int32_t *row, int32_t *col) {
  *row = 2 * THREAD_IN_GROUP(lane) + (i & 1) + 8 * (i >> 1);
  *col = GROUP(lane);
}
/* m16n8k8 with f16/bf16. */
static void aF16K8(int32_t lane, int32_t i, int32_t *row, int32_t *col) {
  *row = GROUP(lane) + 8 * (i >> 1);
  *col = 2 * THREAD_IN_GROUP(lane) + (i & 1);
}
static void bF16K8(int32_t lane, int32_t i, int32_t *row, int32_t *col) {
  *row = 2 * THREAD_IN_GROUP(lane) + i;
  *col = GROUP(lane);
}
/* m16n8k8 with tf32. */
static void aTf32K8(int32_t lane, int32_t i, int32_t *row, int32_t *col) {
  *row = GROUP(lane) + 8 * (i & 1);
  *col = THREAD_IN_GROUP(lane) + 4 * (i >> 1);
}
static void bTf32K8(int32_t lane, int32_t i, int32_t *row, int32_t *col) {
  *row = THREAD_IN_GROUP(lane) + 4 * i;
  *col = GROUP(lane);
}
/* m16n8k4 with tf32. */
static void aTf32K4(int32_t lane, int32_t i, int32_t *row, int32_t *col) {
  *row = GROUP(lane) + 8 * i;
  *col = THREAD_IN_GROUP(lane);
}
/* B of m16n8k4 tf32 and of m8n8k4 f64: one element. */
static void bK4(int32_t lane, int32_t i, int32_t *row, int32_t *col) {
  (void)i;
  *row = THREAD_IN_GROUP(lane);
  *col = GROUP(lane);
}
/* m16n8k32 with s8/u8. */
static void aI8K32(int32_t lane, int32_t i, int32_t *row, int32_t *col) {
  *row = GROUP(lane) + 8 * ((i >> 2) & 1);
  *col = 4 * THREAD_IN_GROUP(lane) + (i & 3) + 16 * (i >> 3);
}
static void bI8K32(int32_t lane, int32_t i, int32_t *row, int32_t *col) {
  *row = 4 * THREAD_IN_GROUP(lane) + (i & 3) + 16 * (i >> 2);
  *col = GROUP(lane);
}
/* m16n8k16 with s8/u8. */
static void aI8K16(int32_t lane, int32_t i, int32_t *row, int32_t *col) {
  *row = GROUP(lane) + 8 * (i >> 2);
  *col = 4 * THREAD_IN_GROUP(lane) + (i & 3);
}
/* B of m16n8k16 and m8n8k16 with s8/u8. */
static void bI8K16(int32_t lane, int32_t i, int32_t *row, int32_t *col) {
  *row = 4 * THREAD_IN_GROUP(lane) + i;
  *col = GROUP(lane);
}
/* A of m8n8k16 with s8/u8. */
static void aI8M8(int32_t lane, int32_t i, int32_t *row, int32_t *col) {
  *row = GROUP(lane);
  *col = 4 * THREAD_IN_GROUP(lane) + i;
}
/* A of m8n8k4 with f64. */
static void aF64(int32_t lane, int32_t i, int32_t *row, int32_t *col) {
  (void)i;
  *row = GROUP(lane);
  *col = THREAD_IN_GROUP(lane);
}
/* C and D of the m16n8 shapes. */
static void cM16N8(int32_t lane, int32_t i, int32_t *row, int32_t *col) {
  *row = GROUP(lane) + 8 * (i >> 1);
  *col = 2 * THREAD_IN_GROUP(lane) + (i & 1);
}
/* C and D of the m8n8 shapes. */
static void cM8N8(int32_t lane, int32_t i, int32_t *row, int32_t *col) {
  *row = GROUP(lane);
  *col = 2 * THREAD_IN_GROUP(lane) + i;
}

typedef struct EmuMmaForm {
  int32_t m, n, k, abType, cType;
  int32_t aElements, bElements, cElements; /* per lane */
  EmuCoordinate a, b, c;
} EmuMmaForm;

static const EmuMmaForm MmaForms[] = {
    {16, 8, 16, GPUCG_EMU_F16, GPUCG_EMU_F32, 8, 4, 4, aF16K16, bF16K16, cM16N8},
    {16, 8, 16, GPUCG_EMU_F16, GPUCG_EMU_F16, 8, 4, 4, aF16K16, bF16K16, cM16N8},
    {16, 8, 16, GPUCG_EMU_BF16, GPUCG_EMU_F32, 8, 4, 4, aF16K16, bF16K16,
     cM16N8},
    {16, 8, 16, GPUCG_EMU_S8, GPUCG_EMU_S32, 8, 4, 4, aI8K16, bI8K16, cM16N8},
    {16, 8, 16, GPUCG_EMU_U8, GPUCG_EMU_S32, 8, 4, 4, aI8K16, bI8K16, cM16N8},
    {16, 8, 8, GPUCG_EMU_F16, GPUCG_EMU_F32, 4, 2, 4, aF16K8, bF16K8, cM16N8},
    {16, 8, 8, GPUCG_EMU_F16, GPUCG_EMU_F16, 4, 2, 4, aF16K8, bF16K8, cM16N8},
    {16, 8, 8, GPUCG_EMU_BF16, GPUCG_EMU_F32, 4, 2, 4, aF16K8, bF16K8, cM16N8},
    {16, 8, 8, GPUCG_EMU_TF32, GPUCG_EMU_F32, 4, 2, 4, aTf32K8, bTf32K8,
     cM16N8},
    {16, 8, 4, GPUCG_EMU_TF32, GPUCG_EMU_F32, 2, 1, 4, aTf32K4, bK4, cM16N8},
    {16, 8, 32, GPUCG_EMU_S8, GPUCG_EMU_S32, 16, 8, 4, aI8K32, bI8K32, cM16N8},
    {16, 8, 32, GPUCG_EMU_U8, GPUCG_EMU_S32, 16, 8, 4, aI8K32, bI8K32, cM16N8},
    {8, 8, 16, GPUCG_EMU_S8, GPUCG_EMU_S32, 4, 4, 2, aI8M8, bI8K16, cM8N8},
    {8, 8, 16, GPUCG_EMU_U8, GPUCG_EMU_S32, 4, 4, 2, aI8M8, bI8K16, cM8N8},
    {8, 8, 4, GPUCG_EMU_F64, GPUCG_EMU_F64, 1, 1, 2, aF64, bK4, cM8N8},
};

static const EmuMmaForm *findMmaForm(const EmuMmaArgs *args) {
  for (size_t i = 0; i < sizeof(MmaForms) / sizeof(MmaForms[0]); ++i) {
    const EmuMmaForm *form = &MmaForms[i];
    if (form->m == args->m && form->n == args->n && form->k == args->k &&
        form->abType == args->abType && form->cType == args->cType)
      return form;
  }
  return NULL;
}

static void storeMma(EmuThread *thread, int32_t op, int32_t m, int32_t n,
                     int32_t k, int32_t abType, int32_t cType, int64_t a,
                     int64_t b, int64_t c, int64_t d, const char *site) {
  thread->op = (EmuOpKind)op;
  thread->site = site;
  thread->args.mma.m = m;
  thread->args.mma.n = n;
  thread->args.mma.k = k;
  thread->args.mma.abType = abType;
  thread->args.mma.cType = cType;
  thread->args.mma.a = a;
  thread->args.mma.b = b;
  thread->args.mma.c = c;
  thread->args.mma.d = d;
}

void gpucg_emu_mma_sync(int32_t m, int32_t n, int32_t k, int32_t ab_type,
                        int32_t c_type, int64_t a_address, int64_t b_address,
                        int64_t c_address, int64_t d_address,
                        const char *site) {
  EmuThread *thread = emuRequireThread("gpucg_emu_mma_sync");
  storeMma(thread, EMU_OP_MMA_SYNC, m, n, k, ab_type, c_type, a_address,
           b_address, c_address, d_address,
           site ? site : "(unknown nvgpu.mma.sync)");
  emuWaitCollective(thread);
}

void gpucg_emu_wmma_mma(int32_t m, int32_t n, int32_t k, int32_t ab_type,
                        int32_t c_type, int64_t a_address, int64_t b_address,
                        int64_t c_address, int64_t d_address,
                        const char *site) {
  EmuThread *thread = emuRequireThread("gpucg_emu_wmma_mma");
  storeMma(thread, EMU_OP_WMMA_MMA, m, n, k, ab_type, c_type, a_address,
           b_address, c_address, d_address,
           site ? site : "(unknown gpu.subgroup_mma_compute)");
  emuWaitCollective(thread);
}

static void requireUniformMma(EmuThread **lanes, int32_t count) {
  const EmuMmaArgs *first = &lanes[0]->args.mma;
  for (int32_t lane = 1; lane < count; ++lane) {
    const EmuMmaArgs *args = &lanes[lane]->args.mma;
    if (args->m != first->m)
      reportDisagreement(lanes, lane, "M", first->m, args->m);
    if (args->n != first->n)
      reportDisagreement(lanes, lane, "N", first->n, args->n);
    if (args->k != first->k)
      reportDisagreement(lanes, lane, "K", first->k, args->k);
    if (args->abType != first->abType)
      reportDisagreement(lanes, lane, "the A/B type", first->abType,
                         args->abType);
    if (args->cType != first->cType)
      reportDisagreement(lanes, lane, "the C/D type", first->cType,
                         args->cType);
  }
}

static void completeMmaSync(EmuThread **lanes, int32_t count) {
  requireFullWarp(lanes, count, "nvgpu.mma.sync");
  requireUniformMma(lanes, count);
  const EmuMmaArgs *first = &lanes[0]->args.mma;
  const EmuMmaForm *form = findMmaForm(first);
  if (!form)
    emuFatal("%s: the emulator has no mma.sync m%dn%dk%d with A/B %s and C/D "
             "%s (it has m16n8k16 f16->f16/f32, bf16->f32, s8/u8->s32; "
             "m16n8k8 f16->f16/f32, bf16->f32, tf32->f32; m16n8k4 tf32->f32; "
             "m16n8k32 s8/u8->s32; m8n8k16 s8/u8->s32; m8n8k4 f64->f64)",
             lanes[0]->site, first->m, first->n, first->k,
             typeName(first->abType), typeName(first->cType));
  /* The largest operands: A 16x32, B 32x8, C and D 16x8. */
  double a[16 * 32], b[32 * 8], c[16 * 8], d[16 * 8];
  int32_t m = form->m, n = form->n, k = form->k;
  int abBytes = elementBytes(form->abType), cBytes = elementBytes(form->cType);
  int32_t row, col;
  for (int32_t lane = 0; lane < EMU_WARP_SIZE; ++lane) {
    const EmuMmaArgs *args = &lanes[lane]->args.mma;
    for (int32_t i = 0; i < form->aElements; ++i) {
      form->a(lane, i, &row, &col);
      a[row * k + col] =
          loadElement(form->abType, laneAddress(args->a) + i * abBytes);
    }
    for (int32_t i = 0; i < form->bElements; ++i) {
      form->b(lane, i, &row, &col);
      b[row * n + col] =
          loadElement(form->abType, laneAddress(args->b) + i * abBytes);
    }
    for (int32_t i = 0; i < form->cElements; ++i) {
      form->c(lane, i, &row, &col);
      c[row * n + col] =
          loadElement(form->cType, laneAddress(args->c) + i * cBytes);
    }
  }
  multiplyAdd(m, n, k, a, b, c, d);
  /* Every input was read: D may be C. */
  for (int32_t lane = 0; lane < EMU_WARP_SIZE; ++lane) {
    const EmuMmaArgs *args = &lanes[lane]->args.mma;
    for (int32_t i = 0; i < form->cElements; ++i) {
      form->c(lane, i, &row, &col);
      storeElement(form->cType, laneAddress(args->d) + i * cBytes,
                   d[row * n + col]);
    }
  }
}

/*===----------------------------------------------------------------------===*/
/* gpu.subgroup_mma_compute                                                   */
/*===----------------------------------------------------------------------===*/

static int wmmaTypesSupported(int32_t abType, int32_t cType) {
  switch (abType) {
  case GPUCG_EMU_F16:
  case GPUCG_EMU_BF16:
    return cType == GPUCG_EMU_F16 || cType == GPUCG_EMU_F32;
  case GPUCG_EMU_TF32:
    return cType == GPUCG_EMU_F32;
  case GPUCG_EMU_S8:
  case GPUCG_EMU_U8:
    return cType == GPUCG_EMU_S32;
  case GPUCG_EMU_F64:
    return cType == GPUCG_EMU_F64;
  }
  return 0;
}

/* Lane L's fragment of operand 'a', 'b' or 'c': elements L*E .. L*E+E-1
   of the row-major matrix. */
static void gatherWmma(EmuThread **lanes, char operand, int32_t type,
                       int32_t elements, double *matrix) {
  int bytes = elementBytes(type);
  int32_t perLane = elements / EMU_WARP_SIZE;
  for (int32_t lane = 0; lane < EMU_WARP_SIZE; ++lane) {
    const EmuMmaArgs *args = &lanes[lane]->args.mma;
    int64_t address = operand == 'a' ? args->a : operand == 'b' ? args->b
                                                                : args->c;
    for (int32_t i = 0; i < perLane; ++i)
      matrix[lane * perLane + i] =
          loadElement(type, laneAddress(address) + i * bytes);
  }
}

static void completeWmma(EmuThread **lanes, int32_t count) {
  requireFullWarp(lanes, count, "gpu.subgroup_mma_compute");
  requireUniformMma(lanes, count);
  const EmuMmaArgs *first = &lanes[0]->args.mma;
  int32_t m = first->m, n = first->n, k = first->k;
  const char *site = lanes[0]->site;
  if (!wmmaTypesSupported(first->abType, first->cType))
    emuFatal("%s: the emulator has no WMMA with A/B %s and C/D %s (it has "
             "f16/bf16->f16/f32, tf32->f32, s8/u8->s32, f64->f64)",
             site, typeName(first->abType), typeName(first->cType));
  if (m < 1 || n < 1 || k < 1 || m > 256 || n > 256 || k > 256 ||
      (m * k) % EMU_WARP_SIZE || (k * n) % EMU_WARP_SIZE ||
      (m * n) % EMU_WARP_SIZE)
    emuFatal("%s: WMMA shape %dx%dx%d: M, N, K must be in [1, 256] and M*K, "
             "K*N, M*N multiples of 32",
             site, m, n, k);
  size_t elements = (size_t)(m * k + k * n + 3 * m * n);
  double *a = malloc(elements * sizeof(double));
  if (!a)
    emuFatal("out of memory for a WMMA of %dx%dx%d", m, n, k);
  double *b = a + m * k, *c = b + k * n, *d = c + m * n;
  gatherWmma(lanes, 'a', first->abType, m * k, a);
  gatherWmma(lanes, 'b', first->abType, k * n, b);
  gatherWmma(lanes, 'c', first->cType, m * n, c);
  multiplyAdd(m, n, k, a, b, c, d);
  int32_t perLane = m * n / EMU_WARP_SIZE;
  int bytes = elementBytes(first->cType);
  for (int32_t lane = 0; lane < EMU_WARP_SIZE; ++lane)
    for (int32_t i = 0; i < perLane; ++i)
      storeElement(first->cType,
                   laneAddress(lanes[lane]->args.mma.d) + i * bytes,
                   d[lane * perLane + i]);
  free(a);
}

/*===----------------------------------------------------------------------===*/

void emuCompleteCollective(EmuThread **lanes, int32_t count) {
  switch (lanes[0]->op) {
  case EMU_OP_SHUFFLE:
    completeShuffle(lanes, count);
    return;
  case EMU_OP_LDMATRIX:
    completeLdmatrix(lanes, count);
    return;
  case EMU_OP_MMA_SYNC:
    completeMmaSync(lanes, count);
    return;
  case EMU_OP_WMMA_MMA:
    completeWmma(lanes, count);
    return;
  }
}
