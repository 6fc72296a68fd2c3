/*===- EmulatorScheduler.c - Fibers, barriers and the scheduler -----------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* Every GPU thread of a cluster of workgroups runs the kernel body as a    *|
|* fiber (makecontext/swapcontext on an mmap'ed stack). The scheduler, on   *|
|* the caller's stack, runs one warp after another in a fixed order, each   *|
|* as far as it can go (its collectives completed as soon as all its lanes  *|
|* wait), then completes the workgroups' barriers, and reports a state that *|
|* cannot make progress as an error. A launch runs its clusters (of one     *|
|* workgroup without gpucg_emu_configure_cluster) one after another.        *|
|* docs/Emulator-runtime.md describes the design.                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "EmulatorInternal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* AddressSanitizer must be told about every stack switch, or it takes the
   fibers' frames for stack overflows and use-after-returns. */
#ifdef EMU_ASAN
#include <dlfcn.h>
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>
#define EMU_START_SWITCH(save, bottom, size)                                   \
  __sanitizer_start_switch_fiber((save), (bottom), (size))
#define EMU_FINISH_SWITCH(save, bottom, size)                                  \
  __sanitizer_finish_switch_fiber((save), (bottom), (size))
#else
#define EMU_START_SWITCH(save, bottom, size)                                   \
  ((void)(save), (void)(bottom), (void)(size))
#define EMU_FINISH_SWITCH(save, bottom, size)                                  \
  ((void)(save), (void)(bottom), (void)(size))
#endif

Emu gpucgEmu;

#ifdef EMU_ASAN
/* libc's swapcontext, not ASan's interceptor of it: the interceptor warns
   that it "doesn't fully support" contexts (on stderr, where the emulator's
   reports go) and clears the shadow of the whole target stack at every
   switch. With the fiber annotations it is not needed; startThread clears a
   reused stack's shadow once. */
typedef int (*EmuSwapContext)(ucontext_t *, const ucontext_t *);

static int switchContext(ucontext_t *from, const ucontext_t *to) {
  static EmuSwapContext real;
  if (!real) {
    /* Looked up in libc's own scope: RTLD_NEXT from a dlopen'ed library
       (mlir-runner's -shared-libs) can find the interceptor. */
    void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
    void *symbol = libc ? dlsym(libc, "swapcontext") : NULL;
    if (symbol)
      memcpy(&real, &symbol, sizeof(real));
    else
      real = swapcontext;
  }
  return real(from, to);
}
#else
#define switchContext swapcontext
#endif

static const size_t DefaultStackBytes = 256 * 1024;

/*===----------------------------------------------------------------------===*/
/* Reports                                                                    */
/*===----------------------------------------------------------------------===*/

#ifdef EMU_ASAN
/* exit() runs LeakSanitizer while kernel threads are suspended: a pointer
   that only a suspended fiber's stack holds (JIT-compiled code's frames) is
   no leak. Their live parts become root regions; not at every exit, since
   scanning all stacks of 1024 threads takes seconds. */
static void registerSuspendedStacks(void) {
  const Emu *e = &gpucgEmu;
  int32_t count = e->numThreads * e->numCtas;
  for (int32_t i = 0; e->threads && i < count && i < e->numStacks; ++i) {
    const EmuThread *thread = &e->threads[i];
    unsigned char *top = thread->stack + thread->stackBytes;
    unsigned char *low = thread->suspendedAt;
    if (thread->state == EMU_RETURNED || !low || low < thread->stack ||
        low >= top)
      continue;
    /* The frame of switchToScheduler and what swapcontext pushed below. */
    low = low - thread->stack > 1024 ? low - 1024 : thread->stack;
    __lsan_register_root_region(low, (size_t)(top - low));
  }
}
#endif

EMU_NORETURN static void printReportAndExit(void) {
#ifdef EMU_ASAN
  registerSuspendedStacks();
#endif
  fflush(stdout);
  const char *line = gpucgEmu.message;
  for (;;) {
    const char *end = strchr(line, '\n');
    int length = end ? (int)(end - line) : (int)strlen(line);
    fprintf(stderr, "gpucg-emulator: error: %.*s\n", length, line);
    if (!end || !end[1])
      break;
    line = end + 1;
  }
  fflush(stderr);
  exit(1);
}

static void switchToScheduler(EmuThread *thread);

void emuFatal(const char *format, ...) {
  Emu *e = &gpucgEmu;
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(e->message, sizeof(e->message), format, arguments);
  va_end(arguments);
  EmuThread *thread = e->current;
  if (thread) {
    /* The scheduler prints and exits, on its own stack. */
    e->failed = 1;
    switchToScheduler(thread);
    abort(); /* never resumed */
  }
  printReportAndExit();
}

const char *emuLinearName(int32_t linear, char buffer[48]) {
  const Emu *e = &gpucgEmu;
  int64_t x = linear % e->block[0];
  int64_t y = linear / e->block[0] % e->block[1];
  int64_t z = linear / (e->block[0] * e->block[1]);
  snprintf(buffer, 48, "(%" PRId64 ", %" PRId64 ", %" PRId64 ")", x, y, z);
  return buffer;
}

const char *emuThreadName(const EmuThread *thread, char buffer[48]) {
  return emuLinearName(thread->linear, buffer);
}

const char *emuWorkgroupName(const EmuCta *cta, char buffer[80]) {
  snprintf(buffer, 80, "(%" PRId64 ", %" PRId64 ", %" PRId64 ")",
           cta->blockId[0], cta->blockId[1], cta->blockId[2]);
  return buffer;
}

const char *emuClusterName(char buffer[80]) {
  const Emu *e = &gpucgEmu;
  /* The block of rank 0 is the cluster's first in every dimension. */
  const EmuCta *first = &e->ctas[0];
  snprintf(buffer, 80, "(%" PRId64 ", %" PRId64 ", %" PRId64 ")",
           first->blockId[0] / e->cluster[0], first->blockId[1] / e->cluster[1],
           first->blockId[2] / e->cluster[2]);
  return buffer;
}

EmuThread *emuRequireThread(const char *function) {
  EmuThread *thread = gpucgEmu.current;
  if (!thread)
    emuFatal("%s called outside a kernel thread (only the body that "
             "gpucg_emu_launch runs may call it)",
             function);
  return thread;
}

/*===----------------------------------------------------------------------===*/
/* Fibers                                                                     */
/*===----------------------------------------------------------------------===*/

/* Kernel thread -> scheduler. Returns when the scheduler runs the thread
   again. */
static void switchToScheduler(EmuThread *thread) {
  Emu *e = &gpucgEmu;
#ifdef EMU_ASAN
  thread->suspendedAt = __builtin_frame_address(0);
#endif
  EMU_START_SWITCH(&thread->fakeStack, e->schedulerStackBottom,
                   e->schedulerStackBytes);
  switchContext(&thread->context, &e->scheduler);
  EMU_FINISH_SWITCH(thread->fakeStack, &e->schedulerStackBottom,
                    &e->schedulerStackBytes);
}

static void completeClusterPhaseIfDone(void);

static void fiberEntry(void) {
  Emu *e = &gpucgEmu;
  EMU_FINISH_SWITCH(NULL, &e->schedulerStackBottom, &e->schedulerStackBytes);
  e->body(e->closure);
  EmuThread *thread = e->current;
  emuLandCopies(thread, -1,
                "nvgpu.device_async_copy (landed when its thread returned)");
  thread->state = EMU_RETURNED;
  /* barrier.cluster waits for the threads that have not exited: this one
     no longer counts, and may have been the last the others waited for. */
  if (thread->clusterArrived && thread->clusterArrivalPhase == e->clusterPhase)
    --e->clusterArrivals;
  --e->clusterLiving;
  --thread->cta->living;
  completeClusterPhaseIfDone();
  /* NULL: this fiber's frames die; its stack is reused by a later one. */
  EMU_START_SWITCH(NULL, e->schedulerStackBottom, e->schedulerStackBytes);
  switchContext(&thread->context, &e->scheduler);
  abort(); /* never resumed */
}

/* Scheduler -> kernel thread, until it blocks or returns. */
static void runThread(EmuThread *thread) {
  Emu *e = &gpucgEmu;
  e->current = thread;
  EMU_START_SWITCH(&e->schedulerFakeStack, thread->stack, thread->stackBytes);
  int status = switchContext(&e->scheduler, &thread->context);
  EMU_FINISH_SWITCH(e->schedulerFakeStack, NULL, NULL);
  e->current = NULL;
  if (status != 0)
    emuFatal("swapcontext failed");
  if (e->failed)
    printReportAndExit();
}

void emuWaitCollective(EmuThread *thread) {
  thread->state = EMU_AT_COLLECTIVE;
  switchToScheduler(thread);
}

void emuWaitMbarrier(EmuThread *thread) {
  thread->state = EMU_AT_MBARRIER;
  switchToScheduler(thread);
}

static size_t pageBytes(void) {
  long page = sysconf(_SC_PAGESIZE);
  return page > 0 ? (size_t)page : 4096;
}

static size_t stackBytesFromEnvironment(void) {
  const char *text = getenv("GPUCG_EMU_STACK_KIB");
  if (!text || !*text)
    return DefaultStackBytes;
  char *end = NULL;
  long long kib = strtoll(text, &end, 10);
  if (*end != '\0' || kib < 16 || kib > 1024 * 1024)
    emuFatal("GPUCG_EMU_STACK_KIB=%s: expected a stack size in KiB, from 16 "
             "to 1048576",
             text);
  size_t page = pageBytes();
  return ((size_t)kib * 1024 + page - 1) / page * page;
}

static void freeStack(EmuThread *thread) {
  size_t page = pageBytes();
  munmap(thread->stack - page, thread->stackBytes + page);
  thread->stack = NULL;
  thread->stackBytes = 0;
}

/* Gives threads[0..count) a stack of the configured size; stacks stay
   mapped for later clusters and launches. */
static void prepareStacks(int32_t count) {
  Emu *e = &gpucgEmu;
  if (!e->threads) {
    /* calloc maps the zero pages lazily: what a launch of fewer threads
       does not touch costs no memory. */
    e->threads = calloc(EMU_MAX_CLUSTER_THREADS, sizeof(EmuThread));
    if (!e->threads)
      emuFatal("out of memory for %d kernel threads", EMU_MAX_CLUSTER_THREADS);
  }
  size_t bytes = stackBytesFromEnvironment();
  if (bytes != e->stackBytes) {
    for (int32_t i = 0; i < e->numStacks; ++i)
      freeStack(&e->threads[i]);
    e->numStacks = 0;
    e->stackBytes = bytes;
  }
  size_t page = pageBytes();
  for (; e->numStacks < count; ++e->numStacks) {
    EmuThread *thread = &e->threads[e->numStacks];
    unsigned char *mapping =
        mmap(NULL, bytes + page, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapping == MAP_FAILED)
      emuFatal("cannot map a %zu-byte stack for kernel thread %d", bytes,
               e->numStacks);
    /* Stacks grow down: an overflow runs into this page and faults. */
    mprotect(mapping, page, PROT_NONE);
    thread->stack = mapping + page;
    thread->stackBytes = bytes;
  }
}

static void startThread(EmuThread *thread, EmuCta *cta, int32_t linear) {
  const Emu *e = &gpucgEmu;
  thread->cta = cta;
  thread->linear = linear;
  thread->tid[0] = (int32_t)(linear % e->block[0]);
  thread->tid[1] = (int32_t)(linear / e->block[0] % e->block[1]);
  thread->tid[2] = (int32_t)(linear / (e->block[0] * e->block[1]));
  thread->warp = linear / EMU_WARP_SIZE;
  thread->lane = linear % EMU_WARP_SIZE;
  thread->state = EMU_RUNNABLE;
  thread->site = NULL;
  thread->fakeStack = NULL;
  thread->suspendedAt = NULL;
  thread->numCopies = 0;
  thread->nextGroup = 0;
  thread->mbarrier = NULL;
  thread->numWgmma = 0;
  thread->clusterArrived = 0;
  thread->clusterArrivalPhase = 0;
  thread->spinAddress = 0;
  thread->spinReads = 0;
  if (getcontext(&thread->context) != 0)
    emuFatal("getcontext failed");
  thread->context.uc_stack.ss_sp = thread->stack;
  thread->context.uc_stack.ss_size = thread->stackBytes;
  thread->context.uc_link = NULL;
  makecontext(&thread->context, fiberEntry, 0);
#ifdef EMU_ASAN
  /* What an earlier fiber left poisoned on this stack is stale. */
  ASAN_UNPOISON_MEMORY_REGION(thread->stack, thread->stackBytes);
#endif
}

/*===----------------------------------------------------------------------===*/
/* The scheduler                                                              */
/*===----------------------------------------------------------------------===*/

static int sameSite(const char *a, const char *b) {
  return a == b || strcmp(a, b) == 0;
}

/* Where a thread that is not at the collective the rest of its warp waits
   at is, for a report. */
static void describeOddLane(const EmuThread *thread, char *buffer,
                            size_t size) {
  switch (thread->state) {
  case EMU_RETURNED:
    snprintf(buffer, size, "returned without reaching it");
    return;
  case EMU_AT_BARRIER:
    snprintf(buffer, size, "waits at the workgroup barrier %s", thread->site);
    return;
  case EMU_AT_NAMED_BARRIER:
    snprintf(buffer, size, "waits at named barrier %d of %d threads %s",
             thread->barrierId, thread->barrierThreads, thread->site);
    return;
  case EMU_AT_COLLECTIVE:
    snprintf(buffer, size, "waits at a different warp collective: %s",
             thread->site);
    return;
  case EMU_AT_MBARRIER:
    emuDescribeMbarrierWait(thread, buffer, size);
    return;
  case EMU_AT_CLUSTER_WAIT:
    snprintf(buffer, size, "waits at the cluster barrier %s", thread->site);
    return;
  case EMU_RUNNABLE:
    break;
  }
  snprintf(buffer, size, "is runnable");
}

/* The number of threads of the warp that starts at thread `first`. */
static int32_t warpLanes(int32_t first) {
  const Emu *e = &gpucgEmu;
  return e->numThreads - first < EMU_WARP_SIZE ? e->numThreads - first
                                               : EMU_WARP_SIZE;
}

/* Completes the collective that all lanes of the warp starting at thread
   `first` of `cta` wait at, once none of them can run; reports lanes
   waiting at a collective while another lane cannot join them. Returns
   whether it completed one. */
static int completeWarpCollective(EmuCta *cta, int32_t first) {
  int32_t count = warpLanes(first);
  EmuThread *lanes[EMU_WARP_SIZE];
  const EmuThread *leader = NULL;
  for (int32_t lane = 0; lane < count; ++lane) {
    lanes[lane] = &cta->threads[first + lane];
    if (!leader && lanes[lane]->state == EMU_AT_COLLECTIVE)
      leader = lanes[lane];
  }
  if (!leader)
    return 0;
  int32_t arrived = 0;
  const EmuThread *odd = NULL;
  for (int32_t lane = 0; lane < count; ++lane) {
    const EmuThread *thread = lanes[lane];
    if (thread->state == EMU_AT_COLLECTIVE && thread->op == leader->op &&
        sameSite(thread->site, leader->site))
      ++arrived;
    else if (!odd)
      odd = thread;
  }
  /* A lane blocked on an mbarrier or at the cluster barrier may join once
     another warp (or block) arrives there; runCluster reports it if
     nothing can. */
  if (odd &&
      (odd->state == EMU_AT_MBARRIER || odd->state == EMU_AT_CLUSTER_WAIT))
    return 0;
  if (odd) {
    char where[512], thread[48], workgroup[80];
    describeOddLane(odd, where, sizeof(where));
    emuFatal("%s: reached by %d of %d lanes of warp %d of workgroup %s; "
             "lane %d, thread %s, %s",
             leader->site, arrived, count, leader->warp,
             emuWorkgroupName(cta, workgroup), odd->lane,
             emuThreadName(odd, thread), where);
  }
  emuCompleteCollective(lanes, count);
  for (int32_t lane = 0; lane < count; ++lane)
    lanes[lane]->state = EMU_RUNNABLE;
  return 1;
}

/* Completes the gpu.barrier of `cta` if every one of its threads waits at
   it. Returns whether it did. */
static int completeBarrier(EmuCta *cta) {
  const Emu *e = &gpucgEmu;
  const EmuThread *leader = NULL;
  for (int32_t i = 0; i < e->numThreads; ++i) {
    const EmuThread *thread = &cta->threads[i];
    if (thread->state != EMU_AT_BARRIER)
      return 0;
    if (!leader)
      leader = thread;
    else if (!sameSite(thread->site, leader->site))
      return 0;
  }
  emuNewEpoch(cta);
  for (int32_t i = 0; i < e->numThreads; ++i)
    cta->threads[i].state = EMU_RUNNABLE;
  return 1;
}

/* No thread can run: reports threads of `cta` at a barrier that another
   thread of it returned without reaching or waits at another barrier. */
static void reportBarrierDeadlock(const EmuCta *cta) {
  const Emu *e = &gpucgEmu;
  const EmuThread *leader = NULL, *other = NULL, *returned = NULL;
  int32_t arrived = 0;
  for (int32_t i = 0; i < e->numThreads; ++i) {
    const EmuThread *thread = &cta->threads[i];
    if (thread->state == EMU_RETURNED) {
      if (!returned)
        returned = thread;
    } else if (thread->state == EMU_AT_BARRIER) {
      if (!leader)
        leader = thread;
      if (sameSite(thread->site, leader->site))
        ++arrived;
      else if (!other)
        other = thread;
    }
  }
  if (!leader)
    return;
  char workgroup[80], name[48], otherName[48];
  if (other)
    emuFatal("%s: reached by %d of %d threads of workgroup %s, e.g. thread "
             "%s; thread %s waits at a different barrier: %s",
             leader->site, arrived, e->numThreads,
             emuWorkgroupName(cta, workgroup), emuThreadName(leader, name),
             emuThreadName(other, otherName), other->site);
  if (returned)
    emuFatal("%s: reached by %d of %d threads of workgroup %s; thread %s "
             "returned without reaching it",
             leader->site, arrived, e->numThreads,
             emuWorkgroupName(cta, workgroup), emuThreadName(returned, name));
}

/* Runs the warp that starts at thread `first` of `cta` as far as it can
   go: its runnable lanes in order, each until it blocks, and each
   collective as soon as all its lanes wait at it, until every lane waits
   at a barrier or returned. Running a warp ahead of the others is a
   schedule the GPU may pick, and the one that shows a missing barrier as
   data the other warps have not written yet. Returns whether a lane has
   not returned. */
static int runWarp(EmuCta *cta, int32_t first, int reverse, int *progress) {
  const Emu *e = &gpucgEmu;
  int32_t count = warpLanes(first);
  int ran;
  do {
    ran = 0;
    for (int32_t step = 0; step < count; ++step) {
      EmuThread *thread =
          &cta->threads[first + (reverse ? count - 1 - step : step)];
      if (thread->state == EMU_AT_MBARRIER && emuMbarrierReady(thread))
        thread->state = EMU_RUNNABLE;
      if (thread->state == EMU_AT_CLUSTER_WAIT &&
          thread->clusterArrivalPhase < e->clusterPhase)
        thread->state = EMU_RUNNABLE;
      if (thread->state == EMU_RUNNABLE) {
        runThread(thread);
        ran = 1;
      }
    }
    ran |= completeWarpCollective(cta, first);
    *progress |= ran;
  } while (ran);
  for (int32_t lane = 0; lane < count; ++lane)
    if (cta->threads[first + lane].state != EMU_RETURNED)
      return 1;
  return 0;
}

/* Completes a named barrier of `cta` that as many threads wait at as it
   counts. Returns whether it completed one. */
static int completeNamedBarrier(EmuCta *cta) {
  const Emu *e = &gpucgEmu;
  for (int32_t id = 0; id < EMU_NAMED_BARRIERS; ++id) {
    const EmuThread *first = NULL;
    int32_t arrived = 0;
    for (int32_t i = 0; i < e->numThreads; ++i) {
      const EmuThread *thread = &cta->threads[i];
      if (thread->state != EMU_AT_NAMED_BARRIER || thread->barrierId != id)
        continue;
      if (!first)
        first = thread;
      if (thread->barrierThreads != first->barrierThreads) {
        char workgroup[80], name[48], firstName[48];
        emuFatal("named barrier %d of workgroup %s: thread %s waits for %d "
                 "threads at %s, thread %s for %d at %s",
                 id, emuWorkgroupName(cta, workgroup),
                 emuThreadName(first, firstName), first->barrierThreads,
                 first->site, emuThreadName(thread, name),
                 thread->barrierThreads, thread->site);
      }
      ++arrived;
    }
    if (!first || arrived < first->barrierThreads)
      continue;
    if (arrived > first->barrierThreads) {
      char workgroup[80];
      emuFatal("named barrier %d of workgroup %s: %d threads wait at it, "
               "more than the %d it counts (%s)",
               id, emuWorkgroupName(cta, workgroup), arrived,
               first->barrierThreads, first->site);
    }
    emuNewEpoch(cta);
    for (int32_t i = 0; i < e->numThreads; ++i)
      if (cta->threads[i].state == EMU_AT_NAMED_BARRIER &&
          cta->threads[i].barrierId == id)
        cta->threads[i].state = EMU_RUNNABLE;
    return 1;
  }
  return 0;
}

/* No thread can run and one waits at a named barrier that cannot complete:
   reports it. */
static void reportNamedBarrierDeadlock(void) {
  const Emu *e = &gpucgEmu;
  for (int32_t rank = 0; rank < e->numCtas; ++rank) {
    const EmuCta *cta = &e->ctas[rank];
    for (int32_t i = 0; i < e->numThreads; ++i) {
      const EmuThread *thread = &cta->threads[i];
      if (thread->state != EMU_AT_NAMED_BARRIER)
        continue;
      int32_t arrived = 0;
      for (int32_t j = 0; j < e->numThreads; ++j)
        arrived += cta->threads[j].state == EMU_AT_NAMED_BARRIER &&
                   cta->threads[j].barrierId == thread->barrierId;
      char name[48], workgroup[80];
      emuFatal("workgroup %s: deadlock: named barrier %d (%s) waits for %d "
               "threads, %d arrived (e.g. thread %s), and no other thread "
               "can arrive",
               emuWorkgroupName(cta, workgroup), thread->barrierId,
               thread->site, thread->barrierThreads, arrived,
               emuThreadName(thread, name));
    }
  }
}

/* No thread can run and one waits on an mbarrier: reports it. */
static void reportMbarrierDeadlock(void) {
  const Emu *e = &gpucgEmu;
  for (int32_t rank = 0; rank < e->numCtas; ++rank) {
    const EmuCta *cta = &e->ctas[rank];
    for (int32_t i = 0; i < e->numThreads; ++i) {
      const EmuThread *thread = &cta->threads[i];
      if (thread->state != EMU_AT_MBARRIER)
        continue;
      char where[512], name[48], workgroup[80];
      emuDescribeMbarrierWait(thread, where, sizeof(where));
      emuFatal("workgroup %s: deadlock: thread %s %s, and no thread can "
               "arrive on it",
               emuWorkgroupName(cta, workgroup), emuThreadName(thread, name),
               where);
    }
  }
}

/* Whether `thread` has arrived at the cluster barrier's current phase. */
static int arrivedAtClusterPhase(const EmuThread *thread) {
  return thread->clusterArrived &&
         thread->clusterArrivalPhase == gpucgEmu.clusterPhase;
}

/* No thread can run and one waits at the cluster barrier: reports it with
   a thread that has not arrived. */
static void reportClusterWaitDeadlock(void) {
  const Emu *e = &gpucgEmu;
  const EmuThread *waiter = NULL, *missing = NULL;
  for (int32_t rank = 0; rank < e->numCtas; ++rank)
    for (int32_t i = 0; i < e->numThreads; ++i) {
      const EmuThread *thread = &e->ctas[rank].threads[i];
      if (!waiter && thread->state == EMU_AT_CLUSTER_WAIT)
        waiter = thread;
      if (!missing && thread->state != EMU_RETURNED &&
          !arrivedAtClusterPhase(thread))
        missing = thread;
    }
  if (!waiter)
    return;
  char cluster[80], name[48], workgroup[80];
  emuClusterName(cluster);
  emuThreadName(waiter, name);
  emuWorkgroupName(waiter->cta, workgroup);
  /* The phase completes when the last thread arrives or returns, so some
     thread has not arrived; the check keeps a report from ever reading
     NULL. */
  if (!missing)
    emuFatal("cluster %s: deadlock: thread %s of workgroup %s waits at %s "
             "for a cluster barrier phase that every thread reached",
             cluster, name, workgroup, waiter->site);
  char where[512], missingName[48], missingWorkgroup[80];
  describeOddLane(missing, where, sizeof(where));
  emuFatal("cluster %s: deadlock: thread %s of workgroup %s waits at %s for "
           "phase %" PRId64 " of the cluster barrier, which %d of the %d "
           "threads that have not returned reached; thread %s of workgroup "
           "%s has not arrived: it %s",
           cluster, name, workgroup, waiter->site, e->clusterPhase,
           e->clusterArrivals, e->clusterLiving,
           emuThreadName(missing, missingName),
           emuWorkgroupName(missing->cta, missingWorkgroup), where);
}

/* Completes the cluster barrier's phase once every thread that has not
   returned arrived at it: a synchronization point of all the cluster's
   blocks, so a new race-detection epoch in each. */
static void completeClusterPhaseIfDone(void) {
  Emu *e = &gpucgEmu;
  if (e->clusterArrivals == 0 || e->clusterArrivals < e->clusterLiving)
    return;
  ++e->clusterPhase;
  e->clusterArrivals = 0;
  for (int32_t rank = 0; rank < e->numCtas; ++rank)
    emuNewEpoch(&e->ctas[rank]);
}

/* Runs the cluster whose blocks' ids are set: every thread of every block
   as one set of fibers, the blocks in rank order (reversed with
   `reverse`), each block's warps in order. */
static void runCluster(int reverse) {
  Emu *e = &gpucgEmu;
  for (int32_t rank = 0; rank < e->numCtas; ++rank) {
    EmuCta *cta = &e->ctas[rank];
    for (int32_t i = 0; i < e->numThreads; ++i)
      startThread(&cta->threads[i], cta, i);
    cta->living = e->numThreads;
  }
  e->clusterPhase = 0;
  e->clusterArrivals = 0;
  e->clusterLiving = e->numCtas * e->numThreads;
  emuMemoryBeginCluster();
  emuHopperBeginCluster();
  int32_t numWarps = (e->numThreads + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE;
  for (;;) {
    int blocked = 0, progress = 0;
    for (int32_t ctaStep = 0; ctaStep < e->numCtas; ++ctaStep) {
      EmuCta *cta = &e->ctas[reverse ? e->numCtas - 1 - ctaStep : ctaStep];
      for (int32_t step = 0; step < numWarps; ++step) {
        int32_t warp = reverse ? numWarps - 1 - step : step;
        blocked |= runWarp(cta, warp * EMU_WARP_SIZE, reverse, &progress);
      }
    }
    if (!blocked)
      return;
    /* A warp that ran may have arrived on an mbarrier another waits at. */
    if (progress)
      continue;
    int completed = 0;
    for (int32_t rank = 0; rank < e->numCtas; ++rank)
      completed |= completeNamedBarrier(&e->ctas[rank]);
    if (completed)
      continue;
    for (int32_t rank = 0; rank < e->numCtas; ++rank)
      completed |= completeBarrier(&e->ctas[rank]);
    if (completed)
      continue;
    reportMbarrierDeadlock();
    reportNamedBarrierDeadlock();
    reportClusterWaitDeadlock();
    for (int32_t rank = 0; rank < e->numCtas; ++rank)
      reportBarrierDeadlock(&e->ctas[rank]);
    /* The reports above cover every state the scheduler can reach. */
    for (int32_t rank = 0; rank < e->numCtas; ++rank)
      for (int32_t i = 0; i < e->numThreads; ++i)
        if (e->ctas[rank].threads[i].state != EMU_RETURNED) {
          char workgroup[80];
          emuFatal("workgroup %s: deadlock: no thread can make progress",
                   emuWorkgroupName(&e->ctas[rank], workgroup));
        }
  }
}

/*===----------------------------------------------------------------------===*/
/* Launch                                                                     */
/*===----------------------------------------------------------------------===*/

void gpucg_emu_configure(int64_t grid_x, int64_t grid_y, int64_t grid_z,
                         int64_t block_x, int64_t block_y, int64_t block_z,
                         int64_t workgroup_bytes) {
  Emu *e = &gpucgEmu;
  if (e->current || e->launching)
    emuFatal("gpucg_emu_configure called during a launch");
  const char *problem = NULL;
  char buffer[64];
  if (grid_x < 1 || grid_y < 1 || grid_z < 1 || block_x < 1 || block_y < 1 ||
      block_z < 1)
    problem = "every grid and block size must be at least 1";
  else if (grid_x > INT32_MAX || grid_y > INT32_MAX || grid_z > INT32_MAX)
    problem = "a grid size is at most 2^31 - 1";
  else if (block_x > EMU_MAX_THREADS || block_y > EMU_MAX_THREADS ||
           block_z > EMU_MAX_THREADS ||
           block_x * block_y * block_z > EMU_MAX_THREADS) {
    snprintf(buffer, sizeof(buffer), "a block has at most %d threads",
             EMU_MAX_THREADS);
    problem = buffer;
  } else if (workgroup_bytes < 0 || workgroup_bytes > ((int64_t)1 << 30))
    problem = "the workgroup memory size must be in [0, 2^30] bytes";
  if (problem)
    emuFatal("gpucg_emu_configure: invalid launch configuration: grid (%" PRId64
             ", %" PRId64 ", %" PRId64 "), block (%" PRId64 ", %" PRId64
             ", %" PRId64 "), %" PRId64 " bytes of workgroup memory: %s",
             grid_x, grid_y, grid_z, block_x, block_y, block_z,
             workgroup_bytes, problem);
  e->grid[0] = grid_x;
  e->grid[1] = grid_y;
  e->grid[2] = grid_z;
  e->block[0] = block_x;
  e->block[1] = block_y;
  e->block[2] = block_z;
  e->workgroupBytes = workgroup_bytes;
  /* Launches without gpucg_emu_configure_cluster: clusters of one block. */
  e->cluster[0] = e->cluster[1] = e->cluster[2] = 1;
  e->configured = 1;
}

void gpucg_emu_configure_cluster(int64_t cluster_x, int64_t cluster_y,
                                 int64_t cluster_z) {
  Emu *e = &gpucgEmu;
  if (e->current || e->launching)
    emuFatal("gpucg_emu_configure_cluster called during a launch");
  if (!e->configured)
    emuFatal("gpucg_emu_configure_cluster: no launch configuration (call "
             "gpucg_emu_configure first)");
  const int64_t sizes[3] = {cluster_x, cluster_y, cluster_z};
  const char dimensions[] = "xyz";
  char problem[160] = "";
  for (int d = 0; d < 3 && !problem[0]; ++d)
    if (sizes[d] < 1)
      snprintf(problem, sizeof(problem),
               "the cluster size along %c is %" PRId64
               "; every cluster size must be at least 1",
               dimensions[d], sizes[d]);
  for (int d = 0; d < 3 && !problem[0]; ++d)
    if (e->grid[d] % sizes[d] != 0)
      snprintf(problem, sizeof(problem),
               "the cluster size %" PRId64 " along %c does not divide the "
               "grid's %" PRId64 " workgroups",
               sizes[d], dimensions[d], e->grid[d]);
  /* From here each size divides a grid size below 2^31: whether their
     product exceeds the limit is decided without an overflow. */
  int tooMany =
      !problem[0] &&
      (cluster_x > EMU_MAX_CLUSTER_CTAS || cluster_y > EMU_MAX_CLUSTER_CTAS ||
       cluster_x * cluster_y * cluster_z > EMU_MAX_CLUSTER_CTAS);
  if (tooMany)
    snprintf(problem, sizeof(problem),
             "%" PRId64 " x %" PRId64 " x %" PRId64
             " blocks are more than the portable limit of %d blocks in a "
             "cluster",
             cluster_x, cluster_y, cluster_z, EMU_MAX_CLUSTER_CTAS);
  int64_t blocks =
      problem[0] || tooMany ? 0 : cluster_x * cluster_y * cluster_z;
  int64_t blockThreads = e->block[0] * e->block[1] * e->block[2];
  if (!problem[0] && blocks * blockThreads > EMU_MAX_CLUSTER_THREADS)
    snprintf(problem, sizeof(problem),
             "%" PRId64 " blocks of %" PRId64 " threads are %" PRId64
             " threads; the emulator runs at most %d threads in a cluster",
             blocks, blockThreads, blocks * blockThreads,
             EMU_MAX_CLUSTER_THREADS);
  if (problem[0])
    emuFatal("gpucg_emu_configure_cluster: invalid cluster (%" PRId64
             ", %" PRId64 ", %" PRId64 ") of grid (%" PRId64 ", %" PRId64
             ", %" PRId64 "), block (%" PRId64 ", %" PRId64 ", %" PRId64
             "): %s",
             cluster_x, cluster_y, cluster_z, e->grid[0], e->grid[1],
             e->grid[2], e->block[0], e->block[1], e->block[2], problem);
  e->cluster[0] = cluster_x;
  e->cluster[1] = cluster_y;
  e->cluster[2] = cluster_z;
}

/* GPUCG_EMU_ORDER: whether the scheduler sweeps in reverse order. */
static int reverseOrder(void) {
  const char *order = getenv("GPUCG_EMU_ORDER");
  if (!order || !*order || strcmp(order, "forward") == 0)
    return 0;
  if (strcmp(order, "reverse") == 0)
    return 1;
  emuFatal("GPUCG_EMU_ORDER=%s: expected `forward` or `reverse`", order);
}

void gpucg_emu_launch(void (*body)(void *closure), void *closure) {
  Emu *e = &gpucgEmu;
  if (e->current || e->launching)
    emuFatal("gpucg_emu_launch called from a kernel thread");
  if (!e->configured)
    emuFatal("gpucg_emu_launch: no launch configuration (call "
             "gpucg_emu_configure first)");
  if (!body)
    emuFatal("gpucg_emu_launch: the body is NULL");
  int reverse = reverseOrder();
  e->numThreads = (int32_t)(e->block[0] * e->block[1] * e->block[2]);
  e->numCtas = (int32_t)(e->cluster[0] * e->cluster[1] * e->cluster[2]);
  prepareStacks(e->numThreads * e->numCtas);
  for (int32_t rank = 0; rank < e->numCtas; ++rank) {
    e->ctas[rank].rank = rank;
    e->ctas[rank].threads = e->threads + (size_t)rank * e->numThreads;
  }
  emuMemoryPrepare();
  emuGlobalBeginLaunch();
  e->body = body;
  e->closure = closure;
  e->launching = 1;
  /* The clusters in linear order (x fastest), or the last first when
     reversed: then a split-K tile's first part is the last to arrive, and
     a kernel that relies on the launch order shows. */
  const int64_t *size = e->cluster;
  int64_t counts[3];
  for (int dim = 0; dim < 3; ++dim)
    counts[dim] = e->grid[dim] / size[dim];
  int64_t numClusters = counts[0] * counts[1] * counts[2];
  for (int64_t i = 0; i < numClusters; ++i) {
    int64_t linear = reverse ? numClusters - 1 - i : i;
    int64_t x = linear % counts[0] * size[0];
    int64_t y = linear / counts[0] % counts[1] * size[1];
    int64_t z = linear / (counts[0] * counts[1]) * size[2];
    /* PTX's %cluster_ctarank: x fastest within the cluster. */
    for (int32_t rank = 0; rank < e->numCtas; ++rank) {
      EmuCta *cta = &e->ctas[rank];
      cta->blockId[0] = x + rank % size[0];
      cta->blockId[1] = y + rank / size[0] % size[1];
      cta->blockId[2] = z + rank / (size[0] * size[1]);
    }
    runCluster(reverse);
  }
  e->launching = 0;
  e->body = NULL;
  e->closure = NULL;
}

/*===----------------------------------------------------------------------===*/
/* Thread context                                                             */
/*===----------------------------------------------------------------------===*/

static int dimension(const char *function, int64_t dim) {
  if (dim < 0 || dim > 2)
    emuFatal("%s: dimension %" PRId64 " is not 0 (x), 1 (y) or 2 (z)",
             function, dim);
  return (int)dim;
}

int64_t gpucg_emu_thread_id(int64_t dim) {
  const EmuThread *thread = emuRequireThread("gpucg_emu_thread_id");
  return thread->tid[dimension("gpucg_emu_thread_id", dim)];
}

int64_t gpucg_emu_block_id(int64_t dim) {
  const EmuThread *thread = emuRequireThread("gpucg_emu_block_id");
  return thread->cta->blockId[dimension("gpucg_emu_block_id", dim)];
}

int64_t gpucg_emu_block_dim(int64_t dim) {
  emuRequireThread("gpucg_emu_block_dim");
  return gpucgEmu.block[dimension("gpucg_emu_block_dim", dim)];
}

int64_t gpucg_emu_grid_dim(int64_t dim) {
  emuRequireThread("gpucg_emu_grid_dim");
  return gpucgEmu.grid[dimension("gpucg_emu_grid_dim", dim)];
}

int64_t gpucg_emu_cluster_size(int64_t dim) {
  emuRequireThread("gpucg_emu_cluster_size");
  return gpucgEmu.cluster[dimension("gpucg_emu_cluster_size", dim)];
}

int64_t gpucg_emu_lane_id(void) {
  return emuRequireThread("gpucg_emu_lane_id")->lane;
}

void _mlir_ciface_gpucg_emu_workgroup_memory(gpucg_emu_memref_i8 *result) {
  const EmuThread *thread = emuRequireThread("gpucg_emu_workgroup_memory");
  if (!result)
    emuFatal("gpucg_emu_workgroup_memory: the result descriptor is NULL");
  const Emu *e = &gpucgEmu;
  result->allocated = (int8_t *)thread->cta->memory;
  result->aligned = (int8_t *)thread->cta->memory;
  result->offset = 0;
  result->sizes[0] = e->workgroupBytes;
  result->strides[0] = 1;
}

void gpucg_emu_barrier(const char *site) {
  EmuThread *thread = emuRequireThread("gpucg_emu_barrier");
  thread->state = EMU_AT_BARRIER;
  thread->site = site ? site : "(unknown gpu.barrier)";
  switchToScheduler(thread);
}

void gpucg_emu_named_barrier(int32_t id, int32_t threads, const char *site) {
  EmuThread *thread = emuRequireThread("gpucg_emu_named_barrier");
  const Emu *e = &gpucgEmu;
  site = site ? site : "(unknown nvvm.barrier)";
  if (threads == 0)
    threads = e->numThreads;
  char name[48];
  if (id < 0 || id >= EMU_NAMED_BARRIERS)
    emuFatal("%s: thread %s: barrier id %d is not in [0, %d]", site,
             emuThreadName(thread, name), id, EMU_NAMED_BARRIERS - 1);
  if (threads < 0 || threads > e->numThreads ||
      (threads % EMU_WARP_SIZE != 0 && threads != e->numThreads))
    emuFatal("%s: thread %s: barrier %d counts %d threads; it takes a "
             "multiple of %d up to the workgroup's %d",
             site, emuThreadName(thread, name), id, threads, EMU_WARP_SIZE,
             e->numThreads);
  thread->state = EMU_AT_NAMED_BARRIER;
  thread->site = site;
  thread->barrierId = id;
  thread->barrierThreads = threads;
  switchToScheduler(thread);
}

void gpucg_emu_cluster_arrive(const char *site) {
  EmuThread *thread = emuRequireThread("gpucg_emu_cluster_arrive");
  Emu *e = &gpucgEmu;
  site = site ? site : "(unknown nvvm.cluster.arrive)";
  if (thread->clusterArrived) {
    char name[48], workgroup[80];
    emuFatal("%s: thread %s of workgroup %s arrives at the cluster barrier "
             "again without waiting for phase %" PRId64
             " it arrived at (barrier.cluster.arrive and wait alternate)",
             site, emuThreadName(thread, name),
             emuWorkgroupName(thread->cta, workgroup),
             thread->clusterArrivalPhase);
  }
  thread->clusterArrived = 1;
  thread->clusterArrivalPhase = e->clusterPhase;
  ++e->clusterArrivals;
  completeClusterPhaseIfDone();
}

void gpucg_emu_cluster_wait(const char *site) {
  EmuThread *thread = emuRequireThread("gpucg_emu_cluster_wait");
  site = site ? site : "(unknown nvvm.cluster.wait)";
  if (!thread->clusterArrived) {
    char name[48], workgroup[80];
    emuFatal("%s: thread %s of workgroup %s waits at the cluster barrier "
             "without having arrived (barrier.cluster.wait needs a "
             "barrier.cluster.arrive before it)",
             site, emuThreadName(thread, name),
             emuWorkgroupName(thread->cta, workgroup));
  }
  if (arrivedAtClusterPhase(thread)) {
    thread->state = EMU_AT_CLUSTER_WAIT;
    thread->site = site;
    switchToScheduler(thread);
  }
  thread->clusterArrived = 0;
}
