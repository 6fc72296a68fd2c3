/*===- EmulatorInternal.h - State shared by the emulator's files ----------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* libgpucg_emulator.so (docs/Emulator-runtime.md):                           *|
|*   EmulatorScheduler.c  configuration, fibers, the scheduler, barriers,     *|
|*                        thread context, error reports                       *|
|*   EmulatorMemory.c     workgroup memory's race shadow, async copies        *|
|*   EmulatorWarp.c       shuffle, ldmatrix, mma.sync, WMMA, conversions      *|
|*   EmulatorHopper.c     tensor maps, mbarriers, TMA loads, warpgroup MMA    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GPUCG_EMULATOR_INTERNAL_H
#define GPUCG_EMULATOR_INTERNAL_H

#include "gpucg_emulator.h"

#include <stddef.h>
#include <stdint.h>
#include <ucontext.h>

/* EMU_ASAN: built with AddressSanitizer (the checked build), which needs
   the fiber switches annotated and stacks unpoisoned (GCC defines
   __SANITIZE_ADDRESS__, clang answers __has_feature). */
#if defined(__SANITIZE_ADDRESS__)
#define EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EMU_ASAN 1
#endif
#endif

#if defined(__GNUC__)
#define EMU_NORETURN __attribute__((noreturn))
#define EMU_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define EMU_NORETURN
#define EMU_PRINTF(f, a)
#endif

enum {
  EMU_WARP_SIZE = 32,
  EMU_MAX_THREADS = 1024,
  EMU_MAX_WGMMA_GROUPS = 16,
  EMU_NAMED_BARRIERS = 16, /* PTX bar.sync's barrier resources */
};

typedef enum EmuThreadState {
  EMU_RUNNABLE,
  EMU_AT_BARRIER,
  EMU_AT_NAMED_BARRIER,
  EMU_AT_COLLECTIVE,
  EMU_AT_MBARRIER,
  EMU_RETURNED,
} EmuThreadState;

/* The warp collective a thread waits at. */
typedef enum EmuOpKind {
  EMU_OP_SHUFFLE,
  EMU_OP_LDMATRIX,
  EMU_OP_MMA_SYNC,
  EMU_OP_WMMA_MMA,
} EmuOpKind;

typedef struct EmuShuffleArgs {
  int32_t value, offset, width, mode;
} EmuShuffleArgs;

typedef struct EmuLdmatrixArgs {
  int64_t rowAddress, resultAddress;
  int32_t numTiles, transpose;
} EmuLdmatrixArgs;

typedef struct EmuMmaArgs {
  int32_t m, n, k, abType, cType;
  int64_t a, b, c, d;
} EmuMmaArgs;

/* A cp.async issued and not landed yet. */
typedef struct EmuAsyncCopy {
  int64_t offset; /* in workgroup memory */
  int32_t bytes;
  int32_t group; /* -1 until committed */
  const char *site; /* the copy's op, for race reports; may be NULL */
  unsigned char data[16];
} EmuAsyncCopy;

/* A wgmma group a thread issued and has not retired. Offsets are in
   workgroup memory; the accumulator is the thread's fragment. */
typedef struct EmuWgmmaOp {
  int64_t accumulator, a, b;
  int32_t m, n, k, abType, aSwizzle, bSwizzle, transposeB;
  int computed; /* GPUCG_EMU_WGMMA=issue: already added */
  const char *site;
} EmuWgmmaOp;

struct EmuMbarrier;

typedef struct EmuThread {
  ucontext_t context;
  unsigned char *stack; /* usable part, above the guard page */
  size_t stackBytes;
  void *fakeStack; /* AddressSanitizer's, while switched out */
  unsigned char *suspendedAt; /* its frame when it last switched out */
  int32_t linear, tid[3], warp, lane;
  EmuThreadState state;
  const char *site; /* of the barrier or collective it waits at */
  /* EMU_AT_NAMED_BARRIER: the barrier and the threads it waits for. */
  int32_t barrierId, barrierThreads;
  EmuOpKind op;
  union {
    EmuShuffleArgs shuffle;
    EmuLdmatrixArgs ldmatrix;
    EmuMmaArgs mma;
  } args;
  int64_t result; /* gpucg_emu_shuffle's */
  EmuAsyncCopy *copies;
  size_t numCopies, copyCapacity;
  int32_t nextGroup;
  /* EMU_AT_MBARRIER: the mbarrier and the parity it waits for. */
  struct EmuMbarrier *mbarrier;
  int32_t parity;
  EmuWgmmaOp wgmma[EMU_MAX_WGMMA_GROUPS];
  int32_t numWgmma;
} EmuThread;

/* What the shadow knows of one byte of workgroup memory: its last writer
   and up to two distinct readers, each with its epoch and site. An epoch
   number is never reused (the counter runs across workgroups and launches),
   so a stale entry needs no reset. */
typedef struct EmuShadow {
  uint32_t writeEpoch, readEpoch[2];
  uint16_t writer, reader[2];
  const char *writeSite, *readSite[2];
} EmuShadow;

typedef struct Emu {
  /* gpucg_emu_configure */
  int configured;
  int64_t grid[3], block[3], workgroupBytes;
  /* The launch and workgroup running. */
  int launching;
  void (*body)(void *);
  void *closure;
  int64_t blockId[3];
  int32_t numThreads;
  EmuThread *threads; /* EMU_MAX_THREADS, allocated on first launch */
  int32_t numStacks;   /* threads[0..numStacks) have a stack */
  size_t stackBytes;
  EmuThread *current; /* the running kernel thread, NULL in the scheduler */
  ucontext_t scheduler;
  void *schedulerFakeStack;
  const void *schedulerStackBottom;
  size_t schedulerStackBytes;
  /* Workgroup memory and its shadow. */
  unsigned char *memory;
  size_t memoryCapacity;
  EmuShadow *shadow;
  size_t shadowCapacity;
  uint32_t epoch;
  int racesOff; /* gpucg_emu_set_race_detection(0) */
  /* A report raised in a kernel thread, printed by the scheduler. */
  int failed;
  char message[4096];
} Emu;

extern Emu gpucgEmu;

/* Reports an error (one or more lines, each printed with the
   "gpucg-emulator: error: " prefix) and exits with status 1. In a kernel
   thread, it switches to the scheduler, which prints and exits. */
EMU_NORETURN EMU_PRINTF(1, 2) void emuFatal(const char *format, ...);

/* The calling kernel thread; an error naming `function` outside one. */
EmuThread *emuRequireThread(const char *function);

/* Blocks the calling kernel thread at the collective its op/args/site
   describe until the scheduler completes it. */
void emuWaitCollective(EmuThread *thread);

/* "(x, y, z)" of a thread or of the workgroup, into a caller's buffer. */
const char *emuThreadName(const EmuThread *thread, char buffer[48]);
const char *emuLinearName(int32_t linear, char buffer[48]);
const char *emuWorkgroupName(char buffer[80]);

/* EmulatorMemory.c */
void emuMemoryPrepare(void); /* a launch's memory and shadow */
void emuMemoryBeginWorkgroup(void); /* poison, new epoch */
void emuNewEpoch(void);
void emuRecordAccess(const EmuThread *thread, int64_t address, int64_t bytes,
                     int isWrite, const char *site);
void emuLandCopies(EmuThread *thread, int32_t pendingGroups,
                   const char *site);

/* EmulatorWarp.c: computes the collective every lane of a warp waits at
   (lanes[0..count), in lane order) and stores every lane's results. */
void emuCompleteCollective(EmuThread **lanes, int32_t count);
/* An element of a matrix operand as a double. */
double emuLoadElement(int32_t type, const unsigned char *address);
/* Bytes of an element of a matrix operand type (0 for an unknown one). */
int emuElementBytes(int32_t type);

/* EmulatorScheduler.c: parks the thread until its mbarrier wait is ready. */
void emuWaitMbarrier(EmuThread *thread);

/* EmulatorHopper.c */
void emuHopperBeginWorkgroup(void); /* no mbarrier groups yet */
/* Whether the phase `thread` waits for completed (landing the loads that
   GPUCG_EMU_TMA=wait kept for the wait). */
int emuMbarrierReady(EmuThread *thread);
void emuDescribeMbarrierWait(const EmuThread *thread, char *buffer,
                             size_t size);

#endif /* GPUCG_EMULATOR_INTERNAL_H */
