/*===- EmulatorHopper.c - Tensor maps, mbarriers, TMA and wgmma -----------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* The Hopper ops of gpucg-matmul-wgmma: tensor maps (host), mbarrier groups  *|
|* with phases and transaction counts, TMA box loads with the swizzle, and   *|
|* warpgroup MMA with its accumulator fragments and asynchronous groups.     *|
|* Everything here is per thread; the scheduler blocks a thread waiting on   *|
|* an mbarrier until emuMbarrierReady says its phase completed.               *|
|* docs/Emulator-runtime.md describes the model and what it does not catch.   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "EmulatorInternal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  EMU_MAX_TMA_RANK = 5,
  EMU_MAX_MBARRIERS = 64,
  EMU_MAX_MBARRIER_COUNT = (1 << 20) - 1,
  EMU_WARPGROUP_THREADS = 128,
};

/*===----------------------------------------------------------------------===*/
/* Tensor maps                                                                */
/*===----------------------------------------------------------------------===*/

typedef struct EmuTensorMap {
  struct EmuTensorMap *next; /* every map made, kept until exit */
  uint64_t magic;
  unsigned char *base;
  int32_t rank, elementBytes, swizzleBytes;
  int64_t sizes[EMU_MAX_TMA_RANK], strides[EMU_MAX_TMA_RANK],
      box[EMU_MAX_TMA_RANK];
} EmuTensorMap;

static const uint64_t TensorMapMagic = 0x6770756367746d61ull; /* "gpucgtma" */
static EmuTensorMap *tensorMaps;

int64_t gpucg_emu_tensor_map(int64_t address, int64_t rank,
                             int64_t element_bytes, int64_t swizzle_bytes,
                             int64_t size0, int64_t size1, int64_t size2,
                             int64_t size3, int64_t size4, int64_t stride0,
                             int64_t stride1, int64_t stride2, int64_t stride3,
                             int64_t stride4, int64_t box0, int64_t box1,
                             int64_t box2, int64_t box3, int64_t box4) {
  const int64_t sizes[] = {size0, size1, size2, size3, size4};
  const int64_t strides[] = {stride0, stride1, stride2, stride3, stride4};
  const int64_t box[] = {box0, box1, box2, box3, box4};
  const char *prefix = "gpucg_emu_tensor_map: invalid tensor map";
  if (rank < 1 || rank > EMU_MAX_TMA_RANK)
    emuFatal("%s: rank %" PRId64 " is not in [1, %d]", prefix, rank,
             EMU_MAX_TMA_RANK);
  if (element_bytes != 1 && element_bytes != 2 && element_bytes != 4 &&
      element_bytes != 8)
    emuFatal("%s: elements of %" PRId64 " bytes (1, 2, 4 or 8)", prefix,
             element_bytes);
  if (swizzle_bytes != 0 && swizzle_bytes != 32 && swizzle_bytes != 64 &&
      swizzle_bytes != 128)
    emuFatal("%s: a swizzle of %" PRId64 " bytes (0, 32, 64 or 128)", prefix,
             swizzle_bytes);
  if (address == 0 || address % 16 != 0)
    emuFatal("%s: the tensor's address 0x%" PRIx64
             " is not 16-byte aligned (or is NULL)",
             prefix, (uint64_t)address);
  for (int64_t d = 0; d < rank; ++d) {
    if (sizes[d] < 1 || sizes[d] > ((int64_t)1 << 32))
      emuFatal("%s: dimension %" PRId64 " has %" PRId64 " elements (1 to 2^32)",
               prefix, d, sizes[d]);
    if (box[d] < 1 || box[d] > 256)
      emuFatal("%s: the box has %" PRId64 " elements in dimension %" PRId64
               " (1 to 256)",
               prefix, box[d], d);
    int innermost = d == rank - 1;
    if (innermost ? strides[d] != 1
                  : strides[d] < 1 || strides[d] * element_bytes % 16 != 0)
      emuFatal("%s: dimension %" PRId64 " has a stride of %" PRId64
               " elements; %s",
               prefix, d, strides[d],
               innermost ? "the innermost must be 1"
                         : "the others must be positive multiples of 16 bytes");
  }
  int64_t rowBytes = box[rank - 1] * element_bytes;
  if (rowBytes % 16 != 0)
    emuFatal("%s: the box's innermost row is %" PRId64
             " bytes, not a multiple of 16",
             prefix, rowBytes);
  if (swizzle_bytes != 0 && rowBytes > swizzle_bytes)
    emuFatal("%s: the box's innermost row is %" PRId64
             " bytes, more than the %" PRId64 "-byte swizzle",
             prefix, rowBytes, swizzle_bytes);
  EmuTensorMap *map = calloc(1, sizeof(EmuTensorMap));
  if (!map)
    emuFatal("out of memory for a tensor map");
  map->magic = TensorMapMagic;
  map->base = (unsigned char *)(intptr_t)address;
  map->rank = (int32_t)rank;
  map->elementBytes = (int32_t)element_bytes;
  map->swizzleBytes = (int32_t)swizzle_bytes;
  for (int64_t d = 0; d < rank; ++d) {
    map->sizes[d] = sizes[d];
    map->strides[d] = strides[d];
    map->box[d] = box[d];
  }
  map->next = tensorMaps;
  tensorMaps = map;
  return (int64_t)(intptr_t)map;
}

static const EmuTensorMap *requireTensorMap(int64_t handle, const char *site) {
  for (const EmuTensorMap *map = tensorMaps; map; map = map->next)
    if ((int64_t)(intptr_t)map == handle && map->magic == TensorMapMagic)
      return map;
  emuFatal("%s: 0x%" PRIx64 " is not a tensor map made by "
           "gpucg_emu_tensor_map",
           site, (uint64_t)handle);
}

/*===----------------------------------------------------------------------===*/
/* Workgroup memory addresses and the swizzle                                 */
/*===----------------------------------------------------------------------===*/

/* The offset in `cta`'s workgroup memory of the `bytes` bytes at
   `address`, or an error naming `what`. */
static int64_t workgroupOffset(const EmuCta *cta, int64_t address,
                               int64_t bytes, const char *what,
                               const char *site) {
  const Emu *e = &gpucgEmu;
  int64_t offset = address - (int64_t)(intptr_t)cta->memory;
  if (offset < 0 || bytes < 0 || offset + bytes > e->workgroupBytes)
    emuFatal("%s: %s: %" PRId64 " bytes at 0x%" PRIx64
             " are not inside the %" PRId64 " bytes of workgroup memory",
             site, what, bytes, (uint64_t)address, e->workgroupBytes);
  return offset;
}

/* Where the byte at `offset` of workgroup memory lands with a
   `swizzleBytes` swizzle: its 16-byte chunk within the 128-byte row XORed
   with the row's index modulo swizzleBytes / 16 (CUTLASS's Swizzle<B,4,3>;
   the pattern repeats every swizzleBytes / 16 rows of 128 bytes). */
static int64_t swizzle(int64_t offset, int32_t swizzleBytes) {
  if (swizzleBytes == 0)
    return offset;
  int64_t mask = swizzleBytes / 16 - 1;
  return offset ^ (((offset >> 7) & mask) << 4);
}

/*===----------------------------------------------------------------------===*/
/* mbarriers                                                                  */
/*===----------------------------------------------------------------------===*/

typedef struct EmuTmaLoad {
  const EmuTensorMap *map;
  int64_t coordinates[EMU_MAX_TMA_RANK];
  EmuCta *cta;         /* whose workgroup memory it lands in */
  int64_t destination; /* workgroup memory offset */
  const char *site;
} EmuTmaLoad;

struct EmuMbarrierGroup;

typedef struct EmuMbarrier {
  const struct EmuMbarrierGroup *group; /* for reports */
  int32_t index;
  int initialized;
  /* PTX lets the transaction count go negative: another block's multicast
     may complete its bytes before this block's expect_tx adds them. */
  int64_t expected, pending, transactionBytes;
  int64_t phase; /* completed phases */
  /* Loads that complete on it and have not landed (GPUCG_EMU_TMA=wait). */
  EmuTmaLoad *loads;
  size_t numLoads, loadCapacity;
} EmuMbarrier;

typedef struct EmuMbarrierGroup {
  const char *site; /* of its nvgpu.mbarrier.create, the same in each block */
  const EmuCta *cta;
  int32_t count;
  EmuMbarrier barriers[EMU_MAX_MBARRIERS];
} EmuMbarrierGroup;

/* The groups of one block of the running cluster, reused across
   clusters. */
typedef struct EmuCtaGroups {
  EmuMbarrierGroup **groups;
  size_t numGroups, capacity, inUse;
} EmuCtaGroups;

/* By rank: a remote arrival or a multicast finds the group of another
   block by its site. */
static EmuCtaGroups ctaGroups[EMU_MAX_CLUSTER_CTAS];

void emuHopperBeginCluster(void) {
  for (int32_t rank = 0; rank < gpucgEmu.numCtas; ++rank) {
    EmuCtaGroups *mine = &ctaGroups[rank];
    for (size_t i = 0; i < mine->inUse; ++i) {
      EmuMbarrierGroup *group = mine->groups[i];
      for (int32_t b = 0; b < EMU_MAX_MBARRIERS; ++b) {
        EmuMbarrier *barrier = &group->barriers[b];
        barrier->initialized = 0;
        barrier->numLoads = 0;
      }
      group->site = NULL;
    }
    mine->inUse = 0;
  }
}

/* The group of `cta` made at `site`, or NULL before a thread of it made
   one. */
static EmuMbarrierGroup *findGroup(const EmuCta *cta, const char *site) {
  const EmuCtaGroups *groups = &ctaGroups[cta->rank];
  for (size_t i = 0; i < groups->inUse; ++i)
    if (groups->groups[i]->site == site)
      return groups->groups[i];
  return NULL;
}

int64_t gpucg_emu_mbarrier_group(int64_t count, const char *site) {
  const EmuThread *thread = emuRequireThread("gpucg_emu_mbarrier_group");
  site = site ? site : "(unknown nvgpu.mbarrier.create)";
  if (count < 1 || count > EMU_MAX_MBARRIERS)
    emuFatal("%s: a group of %" PRId64 " mbarriers; the emulator models 1 "
             "to %d",
             site, count, EMU_MAX_MBARRIERS);
  EmuMbarrierGroup *found = findGroup(thread->cta, site);
  if (found)
    return (int64_t)(intptr_t)found;
  EmuCtaGroups *mine = &ctaGroups[thread->cta->rank];
  if (mine->inUse == mine->numGroups) {
    if (mine->numGroups == mine->capacity) {
      size_t capacity = mine->capacity ? 2 * mine->capacity : 4;
      EmuMbarrierGroup **grown =
          realloc(mine->groups, capacity * sizeof(*grown));
      if (!grown)
        emuFatal("out of memory for mbarrier groups");
      mine->groups = grown;
      mine->capacity = capacity;
    }
    mine->groups[mine->numGroups] = calloc(1, sizeof(EmuMbarrierGroup));
    if (!mine->groups[mine->numGroups])
      emuFatal("out of memory for an mbarrier group");
    ++mine->numGroups;
  }
  EmuMbarrierGroup *group = mine->groups[mine->inUse++];
  group->site = site;
  group->cta = thread->cta;
  group->count = (int32_t)count;
  for (int32_t b = 0; b < EMU_MAX_MBARRIERS; ++b) {
    group->barriers[b].group = group;
    group->barriers[b].index = b;
  }
  return (int64_t)(intptr_t)group;
}

/* The group of the calling thread's block that `handle` names, which has
   a barrier `index`; an error otherwise. */
static EmuMbarrierGroup *requireGroup(const EmuThread *thread, int64_t handle,
                                      int64_t index, const char *site) {
  const EmuCtaGroups *mine = &ctaGroups[thread->cta->rank];
  EmuMbarrierGroup *group = NULL;
  for (size_t i = 0; i < mine->inUse; ++i)
    if ((int64_t)(intptr_t)mine->groups[i] == handle)
      group = mine->groups[i];
  if (!group)
    emuFatal("%s: 0x%" PRIx64 " is not an mbarrier group of this workgroup",
             site, (uint64_t)handle);
  if (index < 0 || index >= group->count)
    emuFatal("%s: mbarrier %" PRId64 " of a group of %d (made at %s)", site,
             index, group->count, group->site);
  return group;
}

static EmuMbarrier *requireMbarrier(const EmuThread *thread, int64_t handle,
                                    int64_t index, const char *site,
                                    int mustBeInitialized) {
  EmuMbarrierGroup *group = requireGroup(thread, handle, index, site);
  EmuMbarrier *barrier = &group->barriers[index];
  if (mustBeInitialized && !barrier->initialized) {
    char workgroup[80];
    emuFatal("%s: mbarrier %" PRId64 " of the group made at %s is used "
             "before nvgpu.mbarrier.init in workgroup %s",
             site, index, group->site,
             emuWorkgroupName(thread->cta, workgroup));
  }
  return barrier;
}

/* Mbarrier `index` of the group that `mine` (the caller's) is in block
   `rank` of the cluster, which a remote arrival or a multicast (`what`)
   reaches; an error if that block has no such rank, has no thread left,
   or has not initialized it. */
static EmuMbarrier *requireClusterMbarrier(const EmuMbarrierGroup *mine,
                                           int64_t index, int64_t rank,
                                           const char *what, const char *site) {
  const Emu *e = &gpucgEmu;
  if (rank < 0 || rank >= e->numCtas) {
    char cluster[80];
    emuFatal("%s: %s CTA rank %" PRId64 ", but cluster %s has %d blocks "
             "(%" PRId64 " x %" PRId64 " x %" PRId64 "): ranks 0 to %d",
             site, what, rank, emuClusterName(cluster), e->numCtas,
             e->cluster[0], e->cluster[1], e->cluster[2], e->numCtas - 1);
  }
  const EmuCta *cta = &e->ctas[rank];
  /* On a GPU a block's workgroup memory goes when its last thread exits,
     so its peers' accesses must come before: a block that may exit first
     has to wait for them (for the remote arrivals gpucg's wgmma producer
     sends, its own producer's wait on the same barriers does). The
     caller's own block has a living thread, the caller. */
  if (cta->living == 0) {
    char workgroup[80];
    emuFatal("%s: %s mbarrier %" PRId64 " of the group made at %s in CTA "
             "rank %" PRId64 " (workgroup %s), whose %d threads have all "
             "returned: on a GPU its workgroup memory is gone (the block "
             "must not exit before its peers' last remote arrival or "
             "multicast to it)",
             site, what, index, mine->site, rank,
             emuWorkgroupName(cta, workgroup), e->numThreads);
  }
  EmuMbarrierGroup *group = findGroup(cta, mine->site);
  if (!group || !group->barriers[index].initialized) {
    char workgroup[80];
    emuFatal("%s: %s mbarrier %" PRId64 " of the group made at %s in CTA "
             "rank %" PRId64 " (workgroup %s), which has not initialized it "
             "(a cluster barrier between its nvgpu.mbarrier.init and this "
             "op orders them)",
             site, what, index, mine->site, rank,
             emuWorkgroupName(cta, workgroup));
  }
  return &group->barriers[index];
}

/* PTX keeps a phase's transaction count within +-(2^20 - 1). */
static void requireTransactionRange(const EmuMbarrier *barrier,
                                    const char *site) {
  const int64_t limit = ((int64_t)1 << 20) - 1;
  if (barrier->transactionBytes >= -limit && barrier->transactionBytes <= limit)
    return;
  char workgroup[80];
  emuFatal("%s: the transaction count of mbarrier %d of the group made at %s "
           "in workgroup %s reaches %" PRId64
           ", outside PTX's range of -(2^20 - 1) to 2^20 - 1",
           site, barrier->index, barrier->group->site,
           emuWorkgroupName(barrier->group->cta, workgroup),
           barrier->transactionBytes);
}

/* A phase completes when every arrival came and the transaction count is
   back at zero, whichever happens last. */
static void completePhaseIfDone(EmuMbarrier *barrier) {
  if (barrier->pending == 0 && barrier->transactionBytes == 0) {
    ++barrier->phase;
    barrier->pending = barrier->expected;
  }
}

void gpucg_emu_mbarrier_init(int64_t group, int64_t index, int64_t count,
                             int32_t predicate, const char *site) {
  const EmuThread *thread = emuRequireThread("gpucg_emu_mbarrier_init");
  site = site ? site : "(unknown nvgpu.mbarrier.init)";
  EmuMbarrier *barrier = requireMbarrier(thread, group, index, site, 0);
  if (!predicate)
    return;
  if (count < 1 || count > EMU_MAX_MBARRIER_COUNT)
    emuFatal("%s: an mbarrier of %" PRId64 " arrivals (1 to %d)", site, count,
             EMU_MAX_MBARRIER_COUNT);
  barrier->initialized = 1;
  barrier->expected = count;
  barrier->pending = count;
  barrier->transactionBytes = 0;
  barrier->phase = 0;
  barrier->numLoads = 0;
}

int64_t gpucg_emu_mbarrier_arrive(int64_t group, int64_t index,
                                  int64_t tx_bytes, int32_t predicate,
                                  const char *site) {
  const EmuThread *thread = emuRequireThread("gpucg_emu_mbarrier_arrive");
  site = site ? site : "(unknown nvgpu.mbarrier.arrive)";
  EmuMbarrier *barrier = requireMbarrier(thread, group, index, site, 1);
  int64_t phase = barrier->phase;
  if (!predicate)
    return phase;
  if (tx_bytes < 0 || tx_bytes >= ((int64_t)1 << 20))
    emuFatal("%s: expects %" PRId64 " transaction bytes (0 to 2^20 - 1)", site,
             tx_bytes);
  barrier->transactionBytes += tx_bytes;
  requireTransactionRange(barrier, site);
  --barrier->pending;
  completePhaseIfDone(barrier);
  return phase;
}

void gpucg_emu_mbarrier_arrive_cluster(int64_t group, int64_t index,
                                       int32_t cta_rank, const char *site) {
  const EmuThread *thread =
      emuRequireThread("gpucg_emu_mbarrier_arrive_cluster");
  site = site ? site : "(unknown nvvm.mbarrier.arrive)";
  const EmuMbarrierGroup *mine = requireGroup(thread, group, index, site);
  EmuMbarrier *barrier =
      requireClusterMbarrier(mine, index, cta_rank, "arrives on", site);
  --barrier->pending;
  completePhaseIfDone(barrier);
}

/*===----------------------------------------------------------------------===*/
/* TMA loads                                                                  */
/*===----------------------------------------------------------------------===*/

/* Whether the environment variable `name` chooses `other` (1) or, unset or
   empty, `usual` (0); anything else is an error. */
static int environmentChooses(const char *name, const char *usual,
                              const char *other) {
  const char *mode = getenv(name);
  if (!mode || !*mode || strcmp(mode, usual) == 0)
    return 0;
  if (strcmp(mode, other) == 0)
    return 1;
  emuFatal("%s=%s: expected `%s` or `%s`", name, mode, usual, other);
}

/* GPUCG_EMU_TMA: whether loads land when issued (default) or when a thread
   next waits on their mbarrier. */
static int tmaLandsAtWait(void) {
  return environmentChooses("GPUCG_EMU_TMA", "issue", "wait");
}

static int64_t boxBytes(const EmuTensorMap *map) {
  int64_t bytes = map->elementBytes;
  for (int32_t d = 0; d < map->rank; ++d)
    bytes *= map->box[d];
  return bytes;
}

/* Copies the box into its block's workgroup memory and completes its bytes
   on `barrier` (of that block). */
static void landLoad(const EmuTmaLoad *load, EmuMbarrier *barrier) {
  const EmuTensorMap *map = load->map;
  int32_t rank = map->rank;
  int64_t elements = 1;
  for (int32_t d = 0; d < rank; ++d)
    elements *= map->box[d];
  int64_t index[EMU_MAX_TMA_RANK] = {0};
  for (int64_t linear = 0; linear < elements; ++linear) {
    int64_t rest = linear, source = 0, inside = 1;
    for (int32_t d = rank - 1; d >= 0; --d) {
      index[d] = rest % map->box[d];
      rest /= map->box[d];
      int64_t coordinate = load->coordinates[d] + index[d];
      if (coordinate < 0 || coordinate >= map->sizes[d])
        inside = 0;
      source += coordinate * map->strides[d];
    }
    int64_t offset = swizzle(load->destination + linear * map->elementBytes,
                             map->swizzleBytes);
    unsigned char *destination = load->cta->memory + offset;
    if (inside)
      memcpy(destination, map->base + source * map->elementBytes,
             (size_t)map->elementBytes);
    else
      memset(destination, 0, (size_t)map->elementBytes);
  }
  barrier->transactionBytes -= boxBytes(map);
  requireTransactionRange(barrier, load->site);
  completePhaseIfDone(barrier);
}

static void landLoads(EmuMbarrier *barrier) {
  for (size_t i = 0; i < barrier->numLoads; ++i)
    landLoad(&barrier->loads[i], barrier);
  barrier->numLoads = 0;
}

/* Keeps `load` on `barrier` until a thread of its block waits there. */
static void deferLoad(const EmuTmaLoad *load, EmuMbarrier *barrier) {
  if (barrier->numLoads == barrier->loadCapacity) {
    size_t capacity = barrier->loadCapacity ? 2 * barrier->loadCapacity : 4;
    EmuTmaLoad *grown = realloc(barrier->loads, capacity * sizeof(*grown));
    if (!grown)
      emuFatal("out of memory for pending TMA loads");
    barrier->loads = grown;
    barrier->loadCapacity = capacity;
  }
  barrier->loads[barrier->numLoads++] = *load;
}

/* The ranks (bit r: CTA rank r) a load with `mask` lands in. */
static uint32_t destinationRanks(const EmuThread *thread, int32_t mask,
                                 const char *site) {
  const Emu *e = &gpucgEmu;
  if (mask == 0)
    return 1u << thread->cta->rank;
  uint32_t bits = (uint32_t)mask;
  if (bits & ~(uint32_t)(GPUCG_EMU_TMA_MULTICAST | 0xFFFF))
    emuFatal("%s: multicast mask 0x%08x has bits other than the 16 CTA "
             "ranks and GPUCG_EMU_TMA_MULTICAST (0x%x)",
             site, bits, GPUCG_EMU_TMA_MULTICAST);
  uint32_t ranks = bits & 0xFFFF;
  if (ranks == 0)
    emuFatal("%s: a multicast_mask of 0 loads to no CTA of the cluster", site);
  for (int32_t rank = 0; rank < 16; ++rank)
    if ((ranks >> rank & 1) && rank >= e->numCtas) {
      char cluster[80];
      emuFatal("%s: multicast_mask 0x%04x names CTA rank %d, but cluster %s "
               "has %d blocks (%" PRId64 " x %" PRId64 " x %" PRId64
               "): ranks 0 to %d",
               site, ranks, rank, emuClusterName(cluster), e->numCtas,
               e->cluster[0], e->cluster[1], e->cluster[2], e->numCtas - 1);
    }
  return ranks;
}

void gpucg_emu_tma_load(int64_t map, int64_t destination, int64_t c0,
                        int64_t c1, int64_t c2, int64_t c3, int64_t c4,
                        int64_t group, int64_t index, int32_t predicate,
                        int32_t multicast_mask, const char *site) {
  const EmuThread *thread = emuRequireThread("gpucg_emu_tma_load");
  Emu *e = &gpucgEmu;
  site = site ? site : "(unknown nvgpu.tma.async.load)";
  const EmuTensorMap *tensorMap = requireTensorMap(map, site);
  /* A multicast's barriers are those of the destination blocks, checked
     below; the caller's must be initialized when it is the only one. */
  int multicast = multicast_mask != 0;
  EmuMbarrier *own = requireMbarrier(thread, group, index, site, !multicast);
  if (!predicate)
    return;
  uint32_t ranks = destinationRanks(thread, multicast_mask, site);
  int64_t bytes = boxBytes(tensorMap);
  /* The same offset in every destination block's workgroup memory. */
  int64_t offset = workgroupOffset(thread->cta, destination, bytes,
                                   "the TMA destination", site);
  int64_t alignment = tensorMap->swizzleBytes == 128  ? 1024
                      : tensorMap->swizzleBytes == 64 ? 512
                      : tensorMap->swizzleBytes == 32 ? 256
                                                      : 128;
  if (offset % alignment != 0)
    emuFatal("%s: the TMA destination at workgroup memory offset %" PRId64
             " is not %" PRId64 "-byte aligned, as a %d-byte swizzle needs",
             site, offset, alignment, tensorMap->swizzleBytes);
  int atWait = tmaLandsAtWait();
  for (int32_t rank = 0; rank < e->numCtas; ++rank) {
    if (!(ranks >> rank & 1))
      continue;
    EmuMbarrier *barrier = multicast
                               ? requireClusterMbarrier(own->group, index, rank,
                                                        "multicasts to", site)
                               : own;
    EmuTmaLoad load = {
        tensorMap, {c0, c1, c2, c3, c4}, &e->ctas[rank], offset, site};
    if (atWait)
      deferLoad(&load, barrier);
    else
      landLoad(&load, barrier);
  }
}

/*===----------------------------------------------------------------------===*/
/* Waiting                                                                    */
/*===----------------------------------------------------------------------===*/

int emuMbarrierReady(EmuThread *thread) {
  EmuMbarrier *barrier = thread->mbarrier;
  if ((barrier->phase & 1) != thread->parity)
    return 1;
  landLoads(barrier);
  return (barrier->phase & 1) != thread->parity;
}

void emuDescribeMbarrierWait(const EmuThread *thread, char *buffer,
                             size_t size) {
  const EmuMbarrier *barrier = thread->mbarrier;
  snprintf(buffer, size,
           "waits at %s for the phase of parity %d of an mbarrier at phase "
           "%" PRId64 " with %" PRId64 " of %" PRId64 " arrivals and %" PRId64
           " transaction bytes outstanding",
           thread->site, thread->parity, barrier->phase, barrier->pending,
           barrier->expected, barrier->transactionBytes);
}

void gpucg_emu_mbarrier_wait(int64_t group, int64_t index, int32_t parity,
                             const char *site) {
  EmuThread *thread = emuRequireThread("gpucg_emu_mbarrier_wait");
  site = site ? site : "(unknown nvgpu.mbarrier.try_wait.parity)";
  EmuMbarrier *barrier = requireMbarrier(thread, group, index, site, 1);
  if (parity != 0 && parity != 1)
    emuFatal("%s: parity %d is not 0 or 1", site, parity);
  thread->mbarrier = barrier;
  thread->parity = parity;
  thread->site = site;
  if (emuMbarrierReady(thread))
    return;
  emuWaitMbarrier(thread);
}

/*===----------------------------------------------------------------------===*/
/* Warpgroup MMA                                                              */
/*===----------------------------------------------------------------------===*/

/* GPUCG_EMU_WGMMA: whether a group reads its operands when it retires
   (default) or when it is issued. */
static int wgmmaReadsAtIssue(void) {
  return environmentChooses("GPUCG_EMU_WGMMA", "retire", "issue");
}

/* The workgroup memory offset of element (row, column) of a tile at
   `offset` with rows `pitch` bytes apart, swizzled. */
static int64_t tileElement(int64_t offset, int64_t row, int64_t byteInRow,
                           int32_t pitch) {
  return swizzle(offset + row * pitch + byteInRow, pitch);
}

/* The workgroup memory offset of element (outer, k) of an operand tile at
   `offset`: K-major, row `outer` of K; MN-major, row k of the
   swizzle-wide block of M or N columns `outer` is in, the blocks
   `leadingBytes` apart. */
static int64_t operandElement(int64_t offset, int32_t outer, int32_t k,
                              int32_t bytes, int32_t swizzleBytes,
                              int32_t mnMajor, int64_t leadingBytes) {
  if (!mnMajor)
    return tileElement(offset, outer, (int64_t)k * bytes, swizzleBytes);
  int32_t blockColumns = swizzleBytes / bytes;
  return tileElement(offset + (int64_t)(outer / blockColumns) * leadingBytes, k,
                     (int64_t)(outer % blockColumns) * bytes, swizzleBytes);
}

static void computeWgmma(const EmuThread *thread, const EmuWgmmaOp *op) {
  const unsigned char *memory = thread->cta->memory;
  int32_t inWarpgroup = thread->linear % EMU_WARPGROUP_THREADS;
  int32_t warp = inWarpgroup / EMU_WARP_SIZE,
          lane = inWarpgroup % EMU_WARP_SIZE;
  int32_t bytes = emuElementBytes(op->abType);
  float *accumulator = (float *)(intptr_t)op->accumulator;
  int32_t perBlock = op->n / 2;
  for (int32_t block = 0; block < op->m / 64; ++block)
    for (int32_t i = 0; i < perBlock; ++i) {
      int32_t column = 8 * (i / 4) + 2 * (lane % 4) + (i & 1);
      int32_t row = 64 * block + 16 * warp + lane / 4 + ((i & 2) ? 8 : 0);
      double sum = 0;
      for (int32_t k = 0; k < op->k; ++k) {
        int64_t a = operandElement(op->a, row, k, bytes, op->aSwizzle,
                                   op->transposeA, op->aLeadingBytes);
        int64_t b = operandElement(op->b, column, k, bytes, op->bSwizzle,
                                   op->transposeB, op->bLeadingBytes);
        sum += emuLoadElement(op->abType, memory + a) *
               emuLoadElement(op->abType, memory + b);
      }
      float *element = &accumulator[block * perBlock + i];
      *element = (float)((double)*element + sum);
    }
}

static void retireWgmma(EmuThread *thread, int32_t keep) {
  while (thread->numWgmma > keep) {
    EmuWgmmaOp *op = &thread->wgmma[0];
    if (!op->computed)
      computeWgmma(thread, op);
    memmove(&thread->wgmma[0], &thread->wgmma[1],
            (size_t)(thread->numWgmma - 1) * sizeof(EmuWgmmaOp));
    --thread->numWgmma;
  }
}

void gpucg_emu_wgmma_init(int64_t accumulator, int64_t elements,
                          const char *site) {
  EmuThread *thread = emuRequireThread("gpucg_emu_wgmma_init");
  site = site ? site : "(unknown nvgpu.warpgroup.mma.init.accumulator)";
  /* At most a 256 x 256 accumulator over 128 threads. */
  if (elements < 0 || elements > 512)
    emuFatal("%s: an accumulator fragment of %" PRId64
             " elements (0 to 512 per thread)",
             site, elements);
  for (int32_t i = 0; i < thread->numWgmma; ++i)
    if (thread->wgmma[i].accumulator == accumulator)
      emuFatal("%s: zeroes an accumulator that the wgmma group of %s still "
               "writes",
               site, thread->wgmma[i].site);
  memset((void *)(intptr_t)accumulator, 0, (size_t)elements * sizeof(float));
}

/* Bytes an operand tile of `outer` rows (M or N) and K = `k` spans from
   the start of its first swizzled row. */
static int64_t operandSpan(int32_t outer, int32_t k, int32_t bytes,
                           int32_t swizzleBytes, int32_t mnMajor,
                           int64_t leadingBytes) {
  if (!mnMajor)
    return (int64_t)outer * swizzleBytes;
  int64_t blocks = ((int64_t)outer * bytes + swizzleBytes - 1) / swizzleBytes;
  return (blocks - 1) * leadingBytes + (int64_t)k * swizzleBytes;
}

void gpucg_emu_wgmma(int64_t accumulator, int64_t a, int64_t b, int32_t m,
                     int32_t n, int32_t k, int32_t ab_type, int32_t a_swizzle,
                     int32_t b_swizzle, int32_t transpose_a,
                     int32_t transpose_b, int64_t a_leading_bytes,
                     int64_t b_leading_bytes, int32_t wait_group,
                     const char *site) {
  EmuThread *thread = emuRequireThread("gpucg_emu_wgmma");
  site = site ? site : "(unknown nvgpu.warpgroup.mma)";
  if (ab_type != GPUCG_EMU_F16 && ab_type != GPUCG_EMU_BF16 &&
      ab_type != GPUCG_EMU_TF32 && ab_type != GPUCG_EMU_F8E4M3 &&
      ab_type != GPUCG_EMU_F8E5M2)
    emuFatal("%s: wgmma of element type %d; the emulator models f16, bf16, "
             "tf32, e4m3 and e5m2",
             site, ab_type);
  /* One wgmma reads 32 bytes of each row along K: k16 of 16-bit types, k8
     of tf32, k32 of 8-bit ones. */
  int32_t bytes = emuElementBytes(ab_type);
  int32_t instructionK = 32 / bytes;
  if (m < 64 || m % 64 != 0 || n < 8 || n > 256 || n % 8 != 0 ||
      k < instructionK || k % instructionK != 0)
    emuFatal("%s: a %dx%dx%d wgmma; the emulator models M a multiple of 64, "
             "N a multiple of 8 up to 256, K a multiple of %d",
             site, m, n, k, instructionK);
  if (bytes != 2 && transpose_a)
    emuFatal("%s: %s %d-bit wgmma with an M-major (transposed) A; wgmma "
             "transposes 16-bit operands only",
             site, bytes == 1 ? "an" : "a", 8 * bytes);
  if (bytes != 2 && transpose_b)
    emuFatal("%s: %s %d-bit wgmma with an N-major (transposed) B; wgmma "
             "transposes 16-bit operands only",
             site, bytes == 1 ? "an" : "a", 8 * bytes);
  if (a_swizzle != 128 && a_swizzle != 64 && a_swizzle != 32)
    emuFatal("%s: A without a swizzle of 32, 64 or 128 bytes (%d)", site,
             a_swizzle);
  if (b_swizzle != 128 && b_swizzle != 64 && b_swizzle != 32)
    emuFatal("%s: B without a swizzle of 32, 64 or 128 bytes (%d)", site,
             b_swizzle);
  if ((!transpose_a && k * bytes > a_swizzle) ||
      (!transpose_b && k * bytes > b_swizzle))
    emuFatal("%s: a K-major tile of K = %d does not fit one %d-byte swizzled "
             "row; the emulator models tiles of one row",
             site, k, !transpose_a ? a_swizzle : b_swizzle);
  /* An MN-major operand wider than one swizzle row takes a leading byte
     offset past its own block of K rows. */
  if ((transpose_a && m * bytes > a_swizzle &&
       a_leading_bytes < (int64_t)k * a_swizzle) ||
      (transpose_b && n * bytes > b_swizzle &&
       b_leading_bytes < (int64_t)k * b_swizzle))
    emuFatal("%s: an MN-major operand's column blocks overlap (leading byte "
             "offset %" PRId64 " below K = %d rows of %d bytes)",
             site, transpose_a ? a_leading_bytes : b_leading_bytes, k,
             transpose_a ? a_swizzle : b_swizzle);
  if (wait_group < 0 || wait_group >= EMU_MAX_WGMMA_GROUPS)
    emuFatal("%s: wait_group %d is not in [0, %d)", site, wait_group,
             EMU_MAX_WGMMA_GROUPS);
  if (thread->numWgmma == EMU_MAX_WGMMA_GROUPS)
    emuFatal("%s: more than %d wgmma groups in flight", site,
             EMU_MAX_WGMMA_GROUPS);
  EmuWgmmaOp op = {0};
  op.accumulator = accumulator;
  op.m = m;
  op.n = n;
  op.k = k;
  op.abType = ab_type;
  op.aSwizzle = a_swizzle;
  op.bSwizzle = b_swizzle;
  op.transposeA = transpose_a;
  op.transposeB = transpose_b;
  op.aLeadingBytes = a_leading_bytes;
  op.bLeadingBytes = b_leading_bytes;
  op.site = site;
  /* Both tiles lie in workgroup memory: the swizzled rows they touch, from
     the start of the first. */
  const EmuCta *cta = thread->cta;
  int64_t aStart = a - (a - (int64_t)(intptr_t)cta->memory) % a_swizzle;
  int64_t bStart = b - (b - (int64_t)(intptr_t)cta->memory) % b_swizzle;
  workgroupOffset(
      cta, aStart,
      operandSpan(m, k, bytes, a_swizzle, transpose_a, a_leading_bytes),
      "wgmma operand A", site);
  workgroupOffset(
      cta, bStart,
      operandSpan(n, k, bytes, b_swizzle, transpose_b, b_leading_bytes),
      "wgmma operand B", site);
  op.a = workgroupOffset(cta, a, 0, "wgmma operand A", site);
  op.b = workgroupOffset(cta, b, 0, "wgmma operand B", site);
  if (wgmmaReadsAtIssue()) {
    computeWgmma(thread, &op);
    op.computed = 1;
  }
  thread->wgmma[thread->numWgmma++] = op;
  retireWgmma(thread, wait_group);
}

void gpucg_emu_wgmma_wait(int32_t pending, const char *site) {
  EmuThread *thread = emuRequireThread("gpucg_emu_wgmma_wait");
  site = site ? site : "(unknown nvvm.wgmma.wait.group.sync)";
  if (pending < 0 || pending >= EMU_MAX_WGMMA_GROUPS)
    emuFatal("%s: wait_group %d is not in [0, %d)", site, pending,
             EMU_MAX_WGMMA_GROUPS);
  retireWgmma(thread, pending);
}

void gpucg_emu_wgmma_store(int64_t accumulator, int32_t m, int32_t n,
                           int64_t destination, int64_t row_stride,
                           int64_t column_stride, const char *site) {
  EmuThread *thread = emuRequireThread("gpucg_emu_wgmma_store");
  site = site ? site : "(unknown nvgpu.warpgroup.mma.store)";
  if (m < 64 || m % 64 != 0 || n < 8 || n > 256 || n % 8 != 0)
    emuFatal("%s: stores a %dx%d accumulator; M is a multiple of 64, N a "
             "multiple of 8 up to 256",
             site, m, n);
  for (int32_t i = 0; i < thread->numWgmma; ++i)
    if (thread->wgmma[i].accumulator == accumulator)
      emuFatal("%s: reads an accumulator that the wgmma group of %s still "
               "writes (no nvvm.wgmma.wait.group.sync retired it)",
               site, thread->wgmma[i].site);
  const float *values = (const float *)(intptr_t)accumulator;
  int32_t tid = thread->tid[0];
  int32_t lane = tid % EMU_WARP_SIZE, warp = tid / EMU_WARP_SIZE;
  int32_t perBlock = n / 2;
  float *base = (float *)(intptr_t)destination;
  for (int32_t block = 0; block < m / 64; ++block)
    for (int32_t i = 0; i < perBlock; ++i) {
      /* MLIR 22's lowering: the absolute thread id, each further 64-row
         block offset by the elements a thread holds of the one before. */
      int64_t row =
          16 * warp + lane / 4 + ((i & 2) ? 8 : 0) + (int64_t)block * perBlock;
      int64_t column = 8 * (i / 4) + 2 * (lane % 4) + (i & 1);
      base[row * row_stride + column * column_stride] =
          values[block * perBlock + i];
    }
}
