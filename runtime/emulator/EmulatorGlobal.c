/*===- EmulatorGlobal.c - Global memory: stores, reads, their order -------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* What one launch's workgroups do to global memory, and whether the          *|
|* accesses of different workgroups to one byte are ordered                   *|
|* (docs/Emulator-runtime.md, "Global memory"). The emulator's memory is one  *|
|* sequentially consistent array and its workgroups run one after another,    *|
|* so a missing fence or an unordered read gives the right numbers here;      *|
|* this file checks the order a GPU guarantees instead: a store by thread T   *|
|* of workgroup W is ordered before an access by thread R of workgroup V if   *|
|*   1. T fences at gpu scope after the store (membar.gl),                    *|
|*   2. an atomic of W (by T, or by a thread a barrier of W orders after      *|
|*      T's fence) comes after that fence: the release,                       *|
|*   3. an atomic of V on the same address comes after the release (an        *|
|*      atomic read-modify-write reads the latest value, so it reads from     *|
|*      the release's sequence): the acquire,                                 *|
|*   4. the acquiring thread fences after it, and R is that thread or a       *|
|*      barrier of V orders R's access after the fence.                       *|
|* A read of another workgroup's store, a store over another workgroup's      *|
|* read or store, without that chain, is reported.                            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "EmulatorInternal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Grows `*array` (of `*capacity` elements of `size` bytes) to hold one
   more than `count`. */
static void *growArray(void *array, size_t count, size_t *capacity, size_t size,
                       const char *what) {
  if (count < *capacity)
    return array;
  size_t grown = *capacity ? *capacity * 2 : 8;
  void *bigger = realloc(array, grown * size);
  if (!bigger)
    emuFatal("out of memory for %s (%zu bytes)", what, grown * size);
  *capacity = grown;
  return bigger;
}

/*===----------------------------------------------------------------------===*/
/* The order: fences, barriers, atomics                                       */
/*===----------------------------------------------------------------------===*/

/* Events are numbered in the order the emulator runs them, from 1 in each
   launch; 0 is "none". */
static uint64_t globalTick;

/* An atomic of a workgroup on an address: as a release, what it may
   publish; as an acquire, which releases it read from. */
typedef struct Release {
  uint32_t workgroup, thread;
  uint64_t tick;
} Release;

typedef struct AtomicAddress {
  Release *releases; /* in tick order */
  size_t count, capacity;
} AtomicAddress;

/* An atomic of a thread: it reads from the first `seen` releases of its
   address; `fence` is the thread's first gpu-scope fence after it (0 until
   the thread fences). */
typedef struct Acquire {
  uint32_t thread, address; /* address: index in atomicAddresses */
  size_t seen;
  uint64_t tick, fence;
} Acquire;

typedef struct ThreadFences {
  uint64_t *ticks; /* in order */
  size_t count, capacity;
} ThreadFences;

/* What one workgroup did that orders global memory; made when it first
   fences or runs an atomic (barriers before that order nothing across
   workgroups). */
typedef struct WorkgroupOrder {
  uint32_t workgroup;
  /* By thread, made at the workgroup's first fence (a workgroup that only
     runs atomics, as a reduction's, needs none). */
  int32_t numThreads;
  ThreadFences *threads;
  uint64_t *barriers; /* ticks of its barrier completions */
  size_t numBarriers, barrierCapacity;
  Acquire *acquires;
  size_t numAcquires, acquireCapacity;
} WorkgroupOrder;

static struct {
  AtomicAddress *addresses;
  size_t count, capacity;
} atomicAddresses;

/* By workgroup: an open-addressing table of pointers (NULL: empty). */
static struct {
  WorkgroupOrder **slots;
  size_t capacity, count; /* capacity: a power of two, or 0 */
} workgroupOrders;

static uint32_t linearWorkgroup(const EmuCta *cta) {
  const Emu *e = &gpucgEmu;
  return (uint32_t)(cta->blockId[0] +
                    e->grid[0] *
                        (cta->blockId[1] + e->grid[1] * cta->blockId[2]));
}

static const char *workgroupName(uint32_t linear, char buffer[80]) {
  const Emu *e = &gpucgEmu;
  EmuCta cta = {0};
  cta.blockId[0] = linear % e->grid[0];
  cta.blockId[1] = linear / e->grid[0] % e->grid[1];
  cta.blockId[2] = linear / (e->grid[0] * e->grid[1]);
  return emuWorkgroupName(&cta, buffer);
}

static size_t hashSlot(uint64_t key, size_t capacity) {
  uint64_t hash = key * 0x9E3779B97F4A7C15ull;
  return (size_t)(hash >> 17) & (capacity - 1);
}

static WorkgroupOrder **findOrderSlot(uint32_t workgroup) {
  size_t mask = workgroupOrders.capacity - 1;
  for (size_t slot = hashSlot(workgroup, workgroupOrders.capacity);;
       slot = (slot + 1) & mask) {
    WorkgroupOrder **entry = &workgroupOrders.slots[slot];
    if (!*entry || (*entry)->workgroup == workgroup)
      return entry;
  }
}

static WorkgroupOrder *findOrder(uint32_t workgroup) {
  if (!workgroupOrders.capacity)
    return NULL;
  return *findOrderSlot(workgroup);
}

static WorkgroupOrder *getOrder(uint32_t workgroup) {
  if (2 * (workgroupOrders.count + 1) > workgroupOrders.capacity) {
    WorkgroupOrder **old = workgroupOrders.slots;
    size_t oldCapacity = workgroupOrders.capacity;
    size_t capacity = oldCapacity ? oldCapacity * 2 : 64;
    workgroupOrders.slots = calloc(capacity, sizeof(WorkgroupOrder *));
    if (!workgroupOrders.slots)
      emuFatal("out of memory for the global-memory order records");
    workgroupOrders.capacity = capacity;
    for (size_t slot = 0; slot < oldCapacity; ++slot)
      if (old[slot])
        *findOrderSlot(old[slot]->workgroup) = old[slot];
    free(old);
  }
  WorkgroupOrder **slot = findOrderSlot(workgroup);
  if (!*slot) {
    WorkgroupOrder *order = calloc(1, sizeof(WorkgroupOrder));
    if (!order)
      emuFatal("out of memory for the global-memory order records");
    order->workgroup = workgroup;
    *slot = order;
    ++workgroupOrders.count;
  }
  return *slot;
}

static void forgetOrders(void) {
  for (size_t slot = 0; slot < workgroupOrders.capacity; ++slot) {
    WorkgroupOrder *order = workgroupOrders.slots[slot];
    if (!order)
      continue;
    for (int32_t t = 0; t < order->numThreads; ++t)
      free(order->threads[t].ticks);
    free(order->threads);
    free(order->barriers);
    free(order->acquires);
    free(order);
    workgroupOrders.slots[slot] = NULL;
  }
  workgroupOrders.count = 0;
  for (size_t i = 0; i < atomicAddresses.count; ++i)
    free(atomicAddresses.addresses[i].releases);
  atomicAddresses.count = 0;
}

void emuGlobalBarrier(const EmuCta *cta) {
  if (!gpucgEmu.launching || !workgroupOrders.count)
    return;
  WorkgroupOrder *order = findOrder(linearWorkgroup(cta));
  if (!order)
    return;
  order->barriers =
      growArray(order->barriers, order->numBarriers, &order->barrierCapacity,
                sizeof(uint64_t), "the global-memory order records");
  order->barriers[order->numBarriers++] = ++globalTick;
}

/* Whether a barrier of `order`'s workgroup completed after `from` and
   before `to`. */
static int barrierBetween(const WorkgroupOrder *order, uint64_t from,
                          uint64_t to) {
  /* The first barrier after `from`, by bisection. */
  size_t low = 0, high = order->numBarriers;
  while (low < high) {
    size_t middle = low + (high - low) / 2;
    if (order->barriers[middle] <= from)
      low = middle + 1;
    else
      high = middle;
  }
  return low < order->numBarriers && order->barriers[low] < to;
}

/* The tick of thread `thread`'s first fence after `tick`, or 0. */
static uint64_t fenceAfter(const WorkgroupOrder *order, uint32_t thread,
                           uint64_t tick) {
  if (!order->threads)
    return 0;
  const ThreadFences *fences = &order->threads[thread];
  for (size_t i = 0; i < fences->count; ++i)
    if (fences->ticks[i] > tick)
      return fences->ticks[i];
  return 0;
}

/* Why an access (workgroup `from`, thread `fromThread`, at `fromTick`) is
   not ordered before another workgroup's (`to`, `toThread`, `toTick`): NULL
   if it is, else the first missing link of the chain above. */
static const char *whyUnordered(uint32_t from, uint32_t fromThread,
                                uint64_t fromTick, uint32_t to,
                                uint32_t toThread, uint64_t toTick) {
  const WorkgroupOrder *writer = findOrder(from);
  uint64_t fence = writer ? fenceAfter(writer, fromThread, fromTick) : 0;
  if (!fence)
    return "the first thread did not fence at gpu scope (membar.gl, "
           "nvvm.memory.barrier <gpu>) after its access";
  const WorkgroupOrder *reader = findOrder(to);
  int acquired = 0;
  for (size_t i = 0; reader && i < reader->numAcquires; ++i) {
    const Acquire *acquire = &reader->acquires[i];
    if (acquire->tick >= toTick)
      break;
    const AtomicAddress *address = &atomicAddresses.addresses[acquire->address];
    int released = 0;
    for (size_t r = acquire->seen; r-- > 0 && !released;) {
      const Release *release = &address->releases[r];
      if (release->tick <= fence)
        break;
      released = release->workgroup == from &&
                 (release->thread == fromThread ||
                  barrierBetween(writer, fence, release->tick));
    }
    if (!released)
      continue;
    acquired = 1;
    if (acquire->fence && acquire->fence < toTick &&
        (acquire->thread == toThread ||
         barrierBetween(reader, acquire->fence, toTick)))
      return NULL;
  }
  if (!acquired)
    return "no atomic of the second workgroup came after an atomic that "
           "the first workgroup ran after that fence (with a barrier "
           "between them where different threads fence and run the "
           "atomic)";
  return "the second workgroup's atomic that saw the first's was not "
         "followed by a fence at gpu scope ordered before the access (by "
         "its thread, or with a barrier between)";
}

void gpucg_emu_fence(const char *site) {
  const EmuThread *thread = emuRequireThread("gpucg_emu_fence");
  (void)site;
  if (gpucgEmu.racesOff)
    return;
  WorkgroupOrder *order = getOrder(linearWorkgroup(thread->cta));
  if (!order->threads) {
    order->threads = calloc((size_t)gpucgEmu.numThreads, sizeof(ThreadFences));
    if (!order->threads)
      emuFatal("out of memory for the global-memory fences");
    order->numThreads = gpucgEmu.numThreads;
  }
  ThreadFences *fences = &order->threads[thread->linear];
  fences->ticks = growArray(fences->ticks, fences->count, &fences->capacity,
                            sizeof(uint64_t), "the global-memory fences");
  uint64_t tick = ++globalTick;
  fences->ticks[fences->count++] = tick;
  for (size_t i = 0; i < order->numAcquires; ++i) {
    Acquire *acquire = &order->acquires[i];
    if (acquire->thread == (uint32_t)thread->linear && !acquire->fence)
      acquire->fence = tick;
  }
}

/*===----------------------------------------------------------------------===*/
/* Bytes: who stored and read each in this launch                             */
/*===----------------------------------------------------------------------===*/

/* One access to a byte: workgroup (linear), thread (linear in it), tick;
   tick 0: none. */
typedef struct GlobalAccess {
  uint64_t tick;
  uint32_t workgroup, thread;
  const char *site;
} GlobalAccess;

/* One byte of global memory accessed in a launch: an open-addressing table
   keyed by the byte's address. A slot from an earlier launch counts as
   empty, so a launch starts with no entries and nothing to clear: slots
   only go from empty to current within a launch, so a probe for a current
   byte never crosses an empty one before it. */
typedef struct GlobalByte {
  uint64_t address;
  uint32_t launch; /* 0: never used */
  uint32_t atomic; /* 1 + its index in atomicAddresses, or 0 */
  GlobalAccess writer, reader;
} GlobalByte;

static struct {
  GlobalByte *slots;
  size_t capacity; /* a power of two, or 0 */
  size_t count;    /* slots of the current launch */
  uint32_t launch; /* the current launch, counted from 1 */
} globalBytes;

void emuGlobalBeginLaunch(void) {
  if (++globalBytes.launch == 0) {
    /* Wrapped around: forget every slot. */
    if (globalBytes.slots)
      memset(globalBytes.slots, 0, globalBytes.capacity * sizeof(GlobalByte));
    globalBytes.launch = 1;
  }
  globalBytes.count = 0;
  globalTick = 0;
  forgetOrders();
}

/* The slot of `address` in the current launch, or the empty slot where it
   goes. */
static GlobalByte *findGlobalByte(uint64_t address) {
  size_t mask = globalBytes.capacity - 1;
  for (size_t slot = hashSlot(address, globalBytes.capacity);;
       slot = (slot + 1) & mask) {
    GlobalByte *entry = &globalBytes.slots[slot];
    if (entry->launch != globalBytes.launch || entry->address == address)
      return entry;
  }
}

static void growGlobalBytes(void) {
  size_t capacity = globalBytes.capacity ? globalBytes.capacity * 2 : 4096;
  GlobalByte *old = globalBytes.slots;
  size_t oldCapacity = globalBytes.capacity;
  globalBytes.slots = calloc(capacity, sizeof(GlobalByte));
  if (!globalBytes.slots)
    emuFatal("out of memory for the global-memory records (%zu bytes)",
             capacity * sizeof(GlobalByte));
  globalBytes.capacity = capacity;
  for (size_t slot = 0; slot < oldCapacity; ++slot)
    if (old[slot].launch == globalBytes.launch)
      *findGlobalByte(old[slot].address) = old[slot];
  free(old);
}

/* The current launch's entry of `address`, made if `make`, else NULL when
   there is none. */
static GlobalByte *globalByte(uint64_t address, int make) {
  if (!make && !globalBytes.count)
    return NULL;
  if (make && 2 * (globalBytes.count + 1) > globalBytes.capacity)
    growGlobalBytes();
  GlobalByte *entry = findGlobalByte(address);
  if (entry->launch == globalBytes.launch)
    return entry;
  if (!make)
    return NULL;
  memset(entry, 0, sizeof(*entry));
  entry->address = address;
  entry->launch = globalBytes.launch;
  ++globalBytes.count;
  return entry;
}

/* The last pair checked, so that the bytes of one access that another
   access of one thread wrote are checked once. */
static struct {
  uint64_t launch, fromTick, toTick;
  uint32_t from, fromThread, to, toThread;
  const char *why;
} lastCheck;

static const char *whyUnorderedCached(const GlobalAccess *earlier, uint32_t to,
                                      uint32_t toThread, uint64_t toTick) {
  if (lastCheck.launch == globalBytes.launch &&
      lastCheck.fromTick == earlier->tick && lastCheck.toTick == toTick &&
      lastCheck.from == earlier->workgroup &&
      lastCheck.fromThread == earlier->thread && lastCheck.to == to &&
      lastCheck.toThread == toThread)
    return lastCheck.why;
  lastCheck.launch = globalBytes.launch;
  lastCheck.fromTick = earlier->tick;
  lastCheck.toTick = toTick;
  lastCheck.from = earlier->workgroup;
  lastCheck.fromThread = earlier->thread;
  lastCheck.to = to;
  lastCheck.toThread = toThread;
  lastCheck.why = whyUnordered(earlier->workgroup, earlier->thread,
                               earlier->tick, to, toThread, toTick);
  return lastCheck.why;
}

EMU_NORETURN static void
reportUnordered(uint64_t address, const GlobalAccess *earlier,
                const char *earlierVerb, const EmuThread *thread,
                const char *verb, const char *site, const char *why) {
  char firstThread[48], firstWorkgroup[80], secondThread[48],
      secondWorkgroup[80];
  emuFatal("unordered access to global memory at address 0x%" PRIx64
           ": thread %s of workgroup %s %s it at %s and thread %s of "
           "workgroup %s %s it at %s in the same launch, with nothing that "
           "orders the two: %s. The GPU runs workgroups at once, and "
           "another workgroup's access is ordered only by fences and "
           "atomics: the first fences, then runs an atomic; the second "
           "runs an atomic on the same address after it, then fences",
           address, emuLinearName((int32_t)earlier->thread, firstThread),
           workgroupName(earlier->workgroup, firstWorkgroup), earlierVerb,
           earlier->site, emuThreadName(thread, secondThread),
           emuWorkgroupName(thread->cta, secondWorkgroup), verb, site, why);
}

/* Reports `access` (of `thread`) unless `earlier`, an access of another
   workgroup to the byte at `address`, is ordered before it. */
static void checkOrder(uint64_t address, const GlobalAccess *earlier,
                       const char *earlierVerb, const EmuThread *thread,
                       GlobalAccess access, const char *verb) {
  if (!earlier->tick || earlier->workgroup == access.workgroup)
    return;
  const char *why =
      whyUnorderedCached(earlier, access.workgroup, access.thread, access.tick);
  if (why)
    reportUnordered(address, earlier, earlierVerb, thread, verb, access.site,
                    why);
}

/* Reports a thread that reads one address (a load or an atomic)
   EMU_SPIN_READS times in a row, storing nothing: it waits for a value
   another workgroup stores, and workgroups run one after another here, so
   the one it waits for runs only after it, that is never (a hang
   otherwise). */
static void checkSpin(EmuThread *thread, int64_t address, int64_t bytes,
                      const char *site) {
  if (address != thread->spinAddress) {
    thread->spinAddress = address;
    thread->spinReads = 0;
  }
  if (++thread->spinReads < EMU_SPIN_READS)
    return;
  char name[48], workgroup[80];
  emuFatal("thread %s of workgroup %s has read the %" PRId64
           " bytes at address 0x%" PRIx64 " %d times in a row at %s: it "
           "seems to wait for another workgroup's store, but the emulator "
           "runs the workgroups of a launch one after another (a cluster's "
           "together), so a workgroup that waits for one that runs later "
           "waits forever here",
           emuThreadName(thread, name),
           emuWorkgroupName(thread->cta, workgroup), bytes, address,
           (int)EMU_SPIN_READS, site ? site : "(unknown site)");
}

/* Records a store (`isStore`) or a read of the `bytes` bytes at `address`
   by the calling thread, after checking its order against the other
   workgroups' accesses to them. */
static void recordAccess(int64_t address, int64_t bytes, const char *site,
                         int isStore, const char *function) {
  EmuThread *thread = emuRequireThread(function);
  /* A thread that stores does more than wait. */
  if (isStore)
    thread->spinReads = 0;
  else
    checkSpin(thread, address, bytes, site);
  if (gpucgEmu.racesOff || bytes <= 0)
    return;
  site = site ? site : "(unknown site)";
  uint32_t workgroup = linearWorkgroup(thread->cta);
  GlobalAccess access = {++globalTick, workgroup, (uint32_t)thread->linear,
                         site};
  for (int64_t byte = 0; byte < bytes; ++byte) {
    uint64_t key = (uint64_t)address + (uint64_t)byte;
    GlobalByte *entry = globalByte(key, 1);
    if (!isStore) {
      checkOrder(key, &entry->writer, "stored", thread, access, "reads");
      /* Keep a read by another workgroup than the store's: the one a
         later store must be ordered after. */
      if (!entry->reader.tick || entry->reader.workgroup == workgroup ||
          entry->reader.workgroup == entry->writer.workgroup)
        entry->reader = access;
      continue;
    }
    if (entry->writer.tick && entry->writer.workgroup != workgroup &&
        whyUnorderedCached(&entry->writer, workgroup, access.thread,
                           access.tick)) {
      char first[80], second[80];
      emuFatal("race on global memory at address 0x%" PRIx64
               ": workgroup %s stored it at %s and workgroup %s stores it "
               "at %s in the same launch; the GPU runs workgroups in any "
               "order, so which value remains is a race (only atomics "
               "combine the stores of several workgroups)",
               key, workgroupName(entry->writer.workgroup, first),
               entry->writer.site, emuWorkgroupName(thread->cta, second), site);
    }
    checkOrder(key, &entry->reader, "read", thread, access, "stores");
    /* Ordered after the read now: a later store is checked against this
       one. */
    entry->reader.tick = 0;
    entry->writer = access;
  }
}

void gpucg_emu_global_store(int64_t address, int64_t bytes, const char *site) {
  recordAccess(address, bytes, site, 1, "gpucg_emu_global_store");
}

void gpucg_emu_global_load(int64_t address, int64_t bytes, const char *site) {
  recordAccess(address, bytes, site, 0, "gpucg_emu_global_load");
}

void gpucg_emu_global_atomic(int64_t address, int64_t bytes, const char *site) {
  EmuThread *thread = emuRequireThread("gpucg_emu_global_atomic");
  checkSpin(thread, address, bytes, site);
  if (gpucgEmu.racesOff || bytes <= 0)
    return;
  GlobalByte *entry = globalByte((uint64_t)address, 1);
  if (!entry->atomic) {
    atomicAddresses.addresses =
        growArray(atomicAddresses.addresses, atomicAddresses.count,
                  &atomicAddresses.capacity, sizeof(AtomicAddress),
                  "the global-memory atomics");
    atomicAddresses.addresses[atomicAddresses.count] = (AtomicAddress){0};
    entry->atomic = (uint32_t)++atomicAddresses.count;
  }
  AtomicAddress *atomic = &atomicAddresses.addresses[entry->atomic - 1];
  uint32_t workgroup = linearWorkgroup(thread->cta);
  WorkgroupOrder *order = getOrder(workgroup);
  uint64_t tick = ++globalTick;
  order->acquires =
      growArray(order->acquires, order->numAcquires, &order->acquireCapacity,
                sizeof(Acquire), "the global-memory atomics");
  order->acquires[order->numAcquires++] = (Acquire){
      (uint32_t)thread->linear, entry->atomic - 1, atomic->count, tick, 0};
  atomic->releases =
      growArray(atomic->releases, atomic->count, &atomic->capacity,
                sizeof(Release), "the global-memory atomics");
  atomic->releases[atomic->count++] =
      (Release){workgroup, (uint32_t)thread->linear, tick};
}
