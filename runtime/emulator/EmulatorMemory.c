/*===- EmulatorMemory.c - Workgroup memory, races, async copies -----------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* The workgroup memory buffer, the per-byte shadow that finds races on it   *|
|* (docs/Emulator-runtime.md, "Races"), and cp.async's copies, which land    *|
|* only when a wait retires their group.                                      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "EmulatorInternal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#ifdef EMU_ASAN
#include <sanitizer/asan_interface.h>
#endif

/*===----------------------------------------------------------------------===*/
/* The buffer                                                                 */
/*===----------------------------------------------------------------------===*/

/* Gives `cta` a buffer of the launch's size and its shadow; both stay
   for later clusters and launches (grown when needed). */
static void prepareCtaMemory(EmuCta *cta) {
  const Emu *e = &gpucgEmu;
  size_t bytes = (size_t)e->workgroupBytes;
  /* 1024-aligned, as the GPU's shared memory window: TMA's and wgmma's
     128-byte swizzle is a function of the address bits up to 2^9. */
  size_t capacity = bytes < 1024 ? 1024 : (bytes + 1023) / 1024 * 1024;
  if (capacity > cta->memoryCapacity) {
#ifdef EMU_ASAN
    if (cta->memory)
      ASAN_UNPOISON_MEMORY_REGION(cta->memory, cta->memoryCapacity);
#endif
    free(cta->memory);
    cta->memory = aligned_alloc(1024, capacity);
    cta->memoryCapacity = cta->memory ? capacity : 0;
    if (!cta->memory)
      emuFatal("out of memory for %zu bytes of workgroup memory", bytes);
  }
#ifdef EMU_ASAN
  /* The bytes past this launch's size are off limits to instrumented code
     (the test driver; JIT-compiled kernels are not instrumented). */
  ASAN_UNPOISON_MEMORY_REGION(cta->memory, cta->memoryCapacity);
  ASAN_POISON_MEMORY_REGION(cta->memory + bytes, cta->memoryCapacity - bytes);
#endif
  if (bytes > cta->shadowCapacity) {
    free(cta->shadow);
    /* Epoch 0 is "never": a zeroed shadow knows no accesses. */
    cta->shadow = calloc(bytes, sizeof(EmuShadow));
    cta->shadowCapacity = cta->shadow ? bytes : 0;
    if (!cta->shadow)
      emuFatal("out of memory for the race shadow of %zu bytes of workgroup "
               "memory",
               bytes);
  }
}

void emuMemoryPrepare(void) {
  Emu *e = &gpucgEmu;
  for (int32_t rank = 0; rank < e->numCtas; ++rank)
    prepareCtaMemory(&e->ctas[rank]);
}

void emuNewEpoch(EmuCta *cta) {
  Emu *e = &gpucgEmu;
  if (++e->lastEpoch == UINT32_MAX) {
    /* Forget every access of every block: then any epoch number is new. */
    for (int32_t rank = 0; rank < EMU_MAX_CLUSTER_CTAS; ++rank) {
      EmuCta *other = &e->ctas[rank];
      if (other->shadow)
        memset(other->shadow, 0, other->shadowCapacity * sizeof(EmuShadow));
      other->epoch = 1;
    }
    e->lastEpoch = 2;
  }
  cta->epoch = e->lastEpoch;
  /* A barrier completion also orders global memory (EmulatorGlobal.c). */
  emuGlobalBarrier(cta);
}

void emuMemoryBeginCluster(void) {
  Emu *e = &gpucgEmu;
  for (int32_t rank = 0; rank < e->numCtas; ++rank) {
    EmuCta *cta = &e->ctas[rank];
    /* Poison: NaN in f16, bf16, f32 and f64, -1 in integers. */
    memset(cta->memory, 0xFF, (size_t)e->workgroupBytes);
    /* A new epoch forgets every access of the block that ran here before. */
    emuNewEpoch(cta);
  }
}

/*===----------------------------------------------------------------------===*/
/* Races                                                                      */
/*===----------------------------------------------------------------------===*/

EMU_NORETURN static void reportRace(int64_t offset, int32_t firstThread,
                                    int firstWrote, const char *firstSite,
                                    const EmuThread *second, int secondWrote,
                                    const char *secondSite) {
  char workgroup[80], first[48], other[48];
  emuFatal("race on workgroup memory at byte offset %" PRId64
           " of workgroup %s: thread %s %s it at %s and thread %s %s it at %s "
           "with no gpu.barrier between",
           offset, emuWorkgroupName(second->cta, workgroup),
           emuLinearName(firstThread, first), firstWrote ? "wrote" : "read",
           firstSite, emuThreadName(second, other),
           secondWrote ? "wrote" : "read", secondSite);
}

void emuRecordAccess(const EmuThread *thread, int64_t address, int64_t bytes,
                     int isWrite, const char *site) {
  const Emu *e = &gpucgEmu;
  EmuCta *cta = thread->cta;
  if (bytes <= 0 || !cta->memory || e->racesOff)
    return;
  /* The part of [address, address + bytes) inside the block's buffer. */
  uint64_t base = (uint64_t)(uintptr_t)cta->memory;
  uint64_t size = (uint64_t)e->workgroupBytes;
  uint64_t begin = (uint64_t)address;
  uint64_t end = begin + (uint64_t)bytes;
  if (end < begin)
    end = UINT64_MAX;
  if (begin < base)
    begin = base;
  if (end > base + size)
    end = base + size;
  if (begin >= end)
    return;
  uint32_t epoch = cta->epoch;
  uint16_t me = (uint16_t)thread->linear;
  for (uint64_t offset = begin - base; offset < end - base; ++offset) {
    EmuShadow *shadow = &cta->shadow[offset];
    if (shadow->writeEpoch == epoch && shadow->writer != me)
      reportRace((int64_t)offset, shadow->writer, 1, shadow->writeSite, thread,
                 isWrite, site);
    if (isWrite) {
      for (int slot = 0; slot < 2; ++slot)
        if (shadow->readEpoch[slot] == epoch && shadow->reader[slot] != me)
          reportRace((int64_t)offset, shadow->reader[slot], 0,
                     shadow->readSite[slot], thread, 1, site);
      shadow->writeEpoch = epoch;
      shadow->writer = me;
      shadow->writeSite = site;
      continue;
    }
    /* Two distinct readers at most: any later writer differs from one of
       them, so a read-write race always names a real other thread. Slot 1
       is current only when slot 0 is. */
    int slot;
    if (shadow->readEpoch[0] != epoch)
      slot = 0;
    else if (shadow->reader[0] == me)
      continue;
    else if (shadow->readEpoch[1] != epoch)
      slot = 1;
    else
      continue;
    shadow->readEpoch[slot] = epoch;
    shadow->reader[slot] = me;
    shadow->readSite[slot] = site;
  }
}

void gpucg_emu_access(int64_t address, int64_t bytes, int32_t is_write,
                      const char *site) {
  const EmuThread *thread = emuRequireThread("gpucg_emu_access");
  emuRecordAccess(thread, address, bytes, is_write != 0,
                  site ? site : "(unknown site)");
}

void gpucg_emu_set_race_detection(int32_t enabled) {
  Emu *e = &gpucgEmu;
  if (e->current || e->launching)
    emuFatal("gpucg_emu_set_race_detection called during a launch");
  e->racesOff = enabled == 0;
}

/*===----------------------------------------------------------------------===*/
/* Async copies                                                               */
/*===----------------------------------------------------------------------===*/

void gpucg_emu_async_copy(int64_t dst_address, int64_t src_address,
                          int64_t dst_bytes, int64_t src_bytes,
                          const char *site) {
  EmuThread *thread = emuRequireThread("gpucg_emu_async_copy");
  Emu *e = &gpucgEmu;
  char name[48], workgroup[80];
  if (dst_bytes != 4 && dst_bytes != 8 && dst_bytes != 16)
    emuFatal("gpucg_emu_async_copy: thread %s of workgroup %s: the copy "
             "size %" PRId64 " is not 4, 8 or 16 bytes",
             emuThreadName(thread, name),
             emuWorkgroupName(thread->cta, workgroup), dst_bytes);
  if (src_bytes < 0 || src_bytes > dst_bytes)
    emuFatal("gpucg_emu_async_copy: thread %s of workgroup %s: the source "
             "size %" PRId64 " is not in [0, %" PRId64 "]",
             emuThreadName(thread, name),
             emuWorkgroupName(thread->cta, workgroup), src_bytes, dst_bytes);
  uint64_t base = (uint64_t)(uintptr_t)thread->cta->memory;
  uint64_t offset = (uint64_t)dst_address - base;
  uint64_t size = (uint64_t)e->workgroupBytes;
  if ((uint64_t)dst_address < base || offset >= size ||
      size - offset < (uint64_t)dst_bytes)
    emuFatal("gpucg_emu_async_copy: thread %s of workgroup %s: the "
             "destination 0x%" PRIx64 " (workgroup memory offset %" PRId64
             ", %" PRId64 " bytes) is outside workgroup memory (%" PRIu64
             " bytes at 0x%" PRIx64 ")",
             emuThreadName(thread, name),
             emuWorkgroupName(thread->cta, workgroup), (uint64_t)dst_address,
             (int64_t)offset, dst_bytes, size, base);
  if ((uint64_t)dst_address % (uint64_t)dst_bytes != 0)
    emuFatal("gpucg_emu_async_copy: thread %s of workgroup %s: the "
             "destination 0x%" PRIx64 " (workgroup memory offset %" PRIu64
             ") is not aligned to the copy size, %" PRId64 " bytes",
             emuThreadName(thread, name),
             emuWorkgroupName(thread->cta, workgroup), (uint64_t)dst_address,
             offset, dst_bytes);
  if (src_bytes > 0 && (src_address == 0 ||
                        (uint64_t)src_address % (uint64_t)dst_bytes != 0))
    emuFatal("gpucg_emu_async_copy: thread %s of workgroup %s: the source "
             "0x%" PRIx64 " is %s",
             emuThreadName(thread, name),
             emuWorkgroupName(thread->cta, workgroup), (uint64_t)src_address,
             src_address == 0 ? "null" : "not aligned to the copy size");
  if (thread->numCopies == thread->copyCapacity) {
    size_t capacity = thread->copyCapacity ? 2 * thread->copyCapacity : 16;
    EmuAsyncCopy *copies =
        realloc(thread->copies, capacity * sizeof(EmuAsyncCopy));
    if (!copies)
      emuFatal("out of memory for async copies");
    thread->copies = copies;
    thread->copyCapacity = capacity;
  }
  EmuAsyncCopy *copy = &thread->copies[thread->numCopies++];
  copy->offset = (int64_t)offset;
  copy->bytes = (int32_t)dst_bytes;
  copy->group = -1;
  copy->site = site;
  memset(copy->data, 0, sizeof(copy->data));
  /* The source is read now, as cp.async reads it some time before the
     wait; what lands later is this snapshot. */
  if (src_bytes > 0)
    memcpy(copy->data, (const void *)(uintptr_t)src_address,
           (size_t)src_bytes);
  /* The hardware may write the destination as early as now: the shadow
     sees a write here as well as where the copy lands, so that another
     thread's access between the issue and the previous barrier (a buffer
     refilled while a slow warp still reads it) is a race too. */
  emuRecordAccess(thread, dst_address, dst_bytes, 1,
                  site ? site : "nvgpu.device_async_copy (issued)");
}

/* Fails unless [index, index + count) lies inside [0, extent): the indices
   of one dimension of a memref that an access touches. The error starts
   with `what`, says the thread `verb`s the indices of `memref` (what the
   access calls it) and names `site`, else `defaultSite`. Nothing is
   accessed when count is 0. */
static void emuCheckIndexRange(const char *function, const char *what,
                               const char *verb, const char *memref,
                               int32_t dim, int32_t rank, int64_t index,
                               int64_t count, int64_t extent,
                               const char *site, const char *defaultSite) {
  EmuThread *thread = emuRequireThread(function);
  char name[48], workgroup[80];
  if (count <= 0)
    return;
  if (index >= 0 && index <= extent && count <= extent - index)
    return;
  emuFatal("%s: thread %s of workgroup %s %s "
           "indices [%" PRId64 ", %" PRId64 ") of dimension %d (of %d, 0 "
           "outermost) of its %s, whose size there is %" PRId64 ", at %s",
           what, emuThreadName(thread, name),
           emuWorkgroupName(thread->cta, workgroup), verb, index,
           index + count, (int)dim, (int)rank, memref, extent,
           site ? site : defaultSite);
}

void gpucg_emu_check_copy_source(int32_t dim, int32_t rank, int64_t index,
                                 int64_t count, int64_t extent,
                                 const char *site) {
  emuCheckIndexRange("gpucg_emu_check_copy_source", "async copy out of bounds",
                     "reads", "source", dim, rank, index, count, extent, site,
                     "nvgpu.device_async_copy");
}

void gpucg_emu_check_vector_bounds(int32_t dim, int32_t rank, int64_t index,
                                   int64_t count, int64_t extent,
                                   const char *site) {
  emuCheckIndexRange("gpucg_emu_check_vector_bounds",
                     "vector access out of bounds", "accesses", "memref", dim,
                     rank, index, count, extent, site, "a vector access");
}

void gpucg_emu_check_alignment(int64_t address, int64_t alignment,
                               const char *site) {
  EmuThread *thread = emuRequireThread("gpucg_emu_check_alignment");
  char name[48], workgroup[80];
  if (alignment <= 1 || (uint64_t)address % (uint64_t)alignment == 0)
    return;
  emuFatal("misaligned access: thread %s of workgroup %s accesses address "
           "0x%" PRIx64 ", which is not a multiple of the %" PRId64
           " bytes the access claims, at %s (on a GPU, a misaligned wide "
           "access faults)",
           emuThreadName(thread, name),
           emuWorkgroupName(thread->cta, workgroup), (uint64_t)address,
           alignment, site ? site : "a vector access");
}

int32_t gpucg_emu_async_commit(void) {
  EmuThread *thread = emuRequireThread("gpucg_emu_async_commit");
  int32_t group = thread->nextGroup++;
  for (size_t i = 0; i < thread->numCopies; ++i)
    if (thread->copies[i].group < 0)
      thread->copies[i].group = group;
  return group;
}

void emuLandCopies(EmuThread *thread, int32_t pendingGroups, const char *site) {
  /* Groups below `limit` retire; -1 lands everything, even copies not
     committed (a returning thread). */
  int64_t limit = pendingGroups < 0
                      ? INT64_MAX
                      : (int64_t)thread->nextGroup - pendingGroups;
  size_t kept = 0;
  for (size_t i = 0; i < thread->numCopies; ++i) {
    EmuAsyncCopy copy = thread->copies[i];
    int lands = pendingGroups < 0 || (copy.group >= 0 && copy.group < limit);
    if (!lands) {
      thread->copies[kept++] = copy;
      continue;
    }
    unsigned char *destination = thread->cta->memory + copy.offset;
    emuRecordAccess(thread, (int64_t)(uintptr_t)destination, copy.bytes, 1,
                    copy.site ? copy.site : site);
    memcpy(destination, copy.data, (size_t)copy.bytes);
  }
  thread->numCopies = kept;
}

void gpucg_emu_async_wait(int32_t pending_groups) {
  EmuThread *thread = emuRequireThread("gpucg_emu_async_wait");
  if (pending_groups < 0) {
    char name[48], workgroup[80];
    emuFatal("gpucg_emu_async_wait: thread %s of workgroup %s: the number "
             "of pending groups, %d, is negative",
             emuThreadName(thread, name),
             emuWorkgroupName(thread->cta, workgroup), pending_groups);
  }
  emuLandCopies(thread, pending_groups,
                "nvgpu.device_async_copy (landed by nvgpu.device_async_wait)");
}
