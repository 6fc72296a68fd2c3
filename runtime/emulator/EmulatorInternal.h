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
|*   EmulatorGlobal.c     global memory: stores, reads, fences, atomics       *|
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
  EMU_MAX_THREADS = 1024, /* of a block (CTA) */
  EMU_MAX_WGMMA_GROUPS = 16,
  EMU_NAMED_BARRIERS = 16, /* PTX bar.sync's barrier resources */
  /* A cluster: CUDA's portable limit of CTAs, and the threads of all of
     them that run together (8 CTAs of 512 threads, 4 of 1024). */
  EMU_MAX_CLUSTER_CTAS = 8,
  EMU_MAX_CLUSTER_THREADS = 4096,
  /* Loads of one global address in a row by one thread taken for a wait
     on another workgroup, which never comes (EmulatorGlobal.c). */
  EMU_SPIN_READS = 1 << 20,
};

typedef enum EmuThreadState {
  EMU_RUNNABLE,
  EMU_AT_BARRIER,
  EMU_AT_NAMED_BARRIER,
  EMU_AT_COLLECTIVE,
  EMU_AT_MBARRIER,
  EMU_AT_CLUSTER_WAIT,
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
  int32_t m, n, k, abType, aSwizzle, bSwizzle, transposeA, transposeB;
  /* An MN-major operand's bytes from one swizzle-wide block of M or N
     columns to the next (the descriptor's leading byte offset). */
  int64_t aLeadingBytes, bLeadingBytes;
  int computed; /* GPUCG_EMU_WGMMA=issue: already added */
  const char *site;
} EmuWgmmaOp;

struct EmuMbarrier;
struct EmuCta;

typedef struct EmuThread {
  ucontext_t context;
  unsigned char *stack; /* usable part, above the guard page */
  size_t stackBytes;
  void *fakeStack; /* AddressSanitizer's, while switched out */
  unsigned char *suspendedAt; /* its frame when it last switched out */
  struct EmuCta *cta;         /* the thread's block */
  int32_t linear, tid[3], warp, lane; /* within its block */
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
  /* barrier.cluster: whether the thread arrived and has not waited yet,
     and in which phase (EMU_AT_CLUSTER_WAIT waits for its completion). */
  int clusterArrived;
  int64_t clusterArrivalPhase;
  /* Global loads of one address in a row (EmulatorGlobal.c): a thread
     that spins on a flag another workgroup sets. */
  int64_t spinAddress, spinReads;
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

/* One block (CTA) of the running cluster, with what it does not share
   with the other blocks: its id, threads, workgroup memory and race
   shadow (whose epochs only its own barriers and the cluster's advance).
   Its mbarrier groups are EmulatorHopper.c's, kept by rank. */
typedef struct EmuCta {
  int32_t rank; /* PTX %cluster_ctarank */
  int64_t blockId[3];
  EmuThread *threads;    /* Emu::numThreads of them */
  unsigned char *memory; /* 1024-aligned, reused across clusters */
  size_t memoryCapacity;
  EmuShadow *shadow;
  size_t shadowCapacity;
  uint32_t epoch; /* the current one */
  /* Threads of the block that have not returned: a remote arrival or a
     multicast into a block with none left is an error. */
  int32_t living;
} EmuCta;

typedef struct Emu {
  /* gpucg_emu_configure, gpucg_emu_configure_cluster */
  int configured;
  int64_t grid[3], block[3], workgroupBytes, cluster[3];
  /* The launch and cluster running. */
  int launching;
  void (*body)(void *);
  void *closure;
  int32_t numThreads;                /* of each block */
  int32_t numCtas;                   /* of each cluster */
  EmuCta ctas[EMU_MAX_CLUSTER_CTAS]; /* by rank */
  /* barrier.cluster: completed phases, and how many threads that have not
     returned arrived in the current one, of how many. */
  int64_t clusterPhase;
  int32_t clusterArrivals, clusterLiving;
  EmuThread *threads; /* EMU_MAX_CLUSTER_THREADS, allocated on first
                         launch; block r's are threads[r * numThreads..] */
  int32_t numStacks;  /* threads[0..numStacks) have a stack */
  size_t stackBytes;
  EmuThread *current; /* the running kernel thread, NULL in the scheduler */
  ucontext_t scheduler;
  void *schedulerFakeStack;
  const void *schedulerStackBottom;
  size_t schedulerStackBytes;
  uint32_t lastEpoch; /* the last epoch number any block started */
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

/* "(x, y, z)" of a thread (within its block), of a block (its block id)
   or of a cluster (its index in the grid of clusters), into a caller's
   buffer. */
const char *emuThreadName(const EmuThread *thread, char buffer[48]);
const char *emuLinearName(int32_t linear, char buffer[48]);
const char *emuWorkgroupName(const EmuCta *cta, char buffer[80]);
const char *emuClusterName(char buffer[80]);

/* EmulatorMemory.c */
void emuMemoryPrepare(void);      /* a launch's memories and shadows */
void emuMemoryBeginCluster(void); /* poison, new epochs */
void emuNewEpoch(EmuCta *cta);
void emuRecordAccess(const EmuThread *thread, int64_t address, int64_t bytes,
                     int isWrite, const char *site);
void emuLandCopies(EmuThread *thread, int32_t pendingGroups,
                   const char *site);

/* EmulatorGlobal.c: forgets the global-memory accesses and the order
   records of the launch before; records a barrier completion of `cta`
   (which orders its threads' global accesses too). */
void emuGlobalBeginLaunch(void);
void emuGlobalBarrier(const EmuCta *cta);

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
void emuHopperBeginCluster(void); /* no mbarrier groups yet */
/* Whether the phase `thread` waits for completed (landing the loads that
   GPUCG_EMU_TMA=wait kept for the wait). */
int emuMbarrierReady(EmuThread *thread);
void emuDescribeMbarrierWait(const EmuThread *thread, char *buffer,
                             size_t size);

#endif /* GPUCG_EMULATOR_INTERNAL_H */
