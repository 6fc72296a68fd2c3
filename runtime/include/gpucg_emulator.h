/*===- gpucg_emulator.h - Run a CUDA workgroup's per-thread code on a CPU
--===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* The C11 API of libgpucg_emulator.so (docs/Emulator-runtime.md): a          *|
|* deterministic CPU emulator of a CUDA workgroup (or sm_90 cluster of       *|
|* workgroups). Kernel code lowered to LLVM and JIT-compiled by mlir-runner   *|
|* (which loads the library with -shared-libs) calls these functions; every   *|
|* GPU thread of a cluster runs the kernel's per-thread body as a fiber       *|
|* (ucontext), and a deterministic scheduler switches between them at         *|
|* barriers and warp collectives.                                             *|
|*                                                                            *|
|* Units: sizes and addresses are bytes; addresses are the integer value of a *|
|* pointer (what llvm.ptrtoint gives); ids and sizes of the grid and block    *|
|* are counts. `site` arguments are NUL-terminated strings that name the      *|
|* operation in the source, e.g. "matmul.mlir:12:5: gpu.barrier"; the         *|
|* emulator keeps the pointer (not a copy) for as long as a launch runs.      *|
|*                                                                            *|
|* Errors: a kernel bug (a barrier not reached by every thread, lanes of a    *|
|* warp at different collectives, a race on workgroup memory, an address      *|
|* outside workgroup memory, ...) and a misuse of the API are reported on     *|
|* stderr as lines that start with "gpucg-emulator: error: ", after which the *|
|* process exits with status 1. No function returns an error status.          *|
|*                                                                            *|
|* Threading: the emulator's state is global; one host thread at a time may   *|
|* configure and launch. The functions marked "thread context" may be called  *|
|* only by a kernel thread, i.e. from inside the body that gpucg_emu_launch   *|
|* runs (a call from anywhere else is reported as an error).                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GPUCG_EMULATOR_H
#define GPUCG_EMULATOR_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define GPUCG_EMULATOR_EXPORT __attribute__((visibility("default")))
#else
#define GPUCG_EMULATOR_EXPORT
#endif

/*===----------------------------------------------------------------------===*/
/* Launch                                                                     */
/*===----------------------------------------------------------------------===*/

/* Sets the configuration of the next launches: a grid of grid_x * grid_y *
   grid_z workgroups, each of block_x * block_y * block_z threads, each with
   workgroup_bytes bytes of workgroup (CUDA shared) memory, in clusters of
   one workgroup. Every size must be at least 1, a block has at most 1024
   threads, and workgroup_bytes lies in [0, 2^30]; otherwise an error is
   reported. The configuration holds until the next call. */
GPUCG_EMULATOR_EXPORT void gpucg_emu_configure(int64_t grid_x, int64_t grid_y,
                                               int64_t grid_z, int64_t block_x,
                                               int64_t block_y, int64_t block_z,
                                               int64_t workgroup_bytes);

/* Thread-block clusters (sm_90) for the launches that follow, until the
   next gpucg_emu_configure (which resets them to 1 x 1 x 1): clusters of
   cluster_x * cluster_y * cluster_z workgroups (blocks). Every size is at
   least 1 and divides the grid's size in its dimension, a cluster has at
   most 8 blocks (CUDA's portable limit) and at most 4096 threads in all;
   otherwise an error is reported, as it is without a prior
   gpucg_emu_configure or during a launch. A block's rank in its cluster
   (PTX %cluster_ctarank) is x + cluster_x * (y + cluster_y * z) for its
   block id modulo the cluster size (x, y, z). */
GPUCG_EMULATOR_EXPORT void gpucg_emu_configure_cluster(int64_t cluster_x,
                                                       int64_t cluster_y,
                                                       int64_t cluster_z);

/* Runs body(closure) once per GPU thread of every workgroup of the
   configured grid, and returns when all have returned.

   Clusters run one after another, in linear order (x fastest, then y,
   then z); all threads of all workgroups of a cluster run together, the
   workgroups in rank order. Each workgroup has its own workgroup memory
   (1024-byte aligned, one allocation per rank reused across clusters and
   launches), filled with 0xFF bytes before its cluster runs, a poison
   that reads as NaN in f16/bf16/f32/f64, so that a read of memory nobody
   wrote shows; its own barriers, mbarriers and race-detection epochs.
   Every thread runs body(closure) as a fiber with its own stack (256 KiB,
   or GPUCG_EMU_STACK_KIB KiB, below a guard page).

   A thread's linear id is x + block_x * (y + block_y * z); its warp is
   linear / 32 and its lane linear % 32 (the last warp of a block whose size
   is not a multiple of 32 has fewer lanes).

   Scheduling is deterministic: the scheduler takes the workgroups of the
   cluster in rank order and each one's warps in linear order (or, when the
   environment variable GPUCG_EMU_ORDER is `reverse`, read at every launch,
   in reverse order, lanes too) and runs each warp as
   far as it can go: its runnable lanes in order, each until it blocks at a
   barrier or warp collective or returns, and each collective as soon as
   every lane of the warp waits at it. When every warp waits at the barrier
   (or returned), it completes the barrier and starts again, until every
   thread has returned. A warp running ahead of the others is a schedule the
   GPU may pick, and it shows a missing barrier as data not written yet. A state
   from which no progress is possible is an error: threads at a barrier while
   another returned or waits at a different barrier, lanes of a warp at a
   collective while another lane returned, waits at a barrier or at a different
   collective.

   Without a prior gpucg_emu_configure, or when called by a kernel thread,
   an error is reported. */
GPUCG_EMULATOR_EXPORT void gpucg_emu_launch(void (*body)(void *closure),
                                            void *closure);

/*===----------------------------------------------------------------------===*/
/* Thread context                                                             */
/*===----------------------------------------------------------------------===*/

/* gpu.thread_id / gpu.block_id / gpu.block_dim / gpu.grid_dim of the calling
   kernel thread; dim 0, 1, 2 is x, y, z (any other dim is an error). */
GPUCG_EMULATOR_EXPORT int64_t gpucg_emu_thread_id(int64_t dim);
GPUCG_EMULATOR_EXPORT int64_t gpucg_emu_block_id(int64_t dim);
GPUCG_EMULATOR_EXPORT int64_t gpucg_emu_block_dim(int64_t dim);
GPUCG_EMULATOR_EXPORT int64_t gpucg_emu_grid_dim(int64_t dim);

/* The cluster's size in workgroups along dim 0, 1, 2 (x, y, z): PTX
   %cluster_nctaid, gpu.cluster_dim_blocks; 1 in a launch without
   clusters. Thread context. */
GPUCG_EMULATOR_EXPORT int64_t gpucg_emu_cluster_size(int64_t dim);

/* gpu.lane_id: the caller's linear thread id modulo 32. */
GPUCG_EMULATOR_EXPORT int64_t gpucg_emu_lane_id(void);

/* The descriptor of an MLIR memref<?xi8>, as MLIR's C interface
   (llvm.emit_c_interface) returns it. */
typedef struct gpucg_emu_memref_i8 {
  int8_t *allocated;
  int8_t *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
} gpucg_emu_memref_i8;

/* The calling thread's workgroup's memory as memref<?xi8>: offset 0, size
   workgroup_bytes, stride 1, 1024-byte aligned. Thread context. The
   buffer stays valid, with the last cluster's content, until the next
   launch (which may move it). */
GPUCG_EMULATOR_EXPORT void
_mlir_ciface_gpucg_emu_workgroup_memory(gpucg_emu_memref_i8 *result);

/* gpu.barrier (PTX bar.sync 0): blocks the caller until every thread of the
   workgroup waits at the same barrier site; its completion starts a new
   race-detection epoch. Thread context. */
GPUCG_EMULATOR_EXPORT void gpucg_emu_barrier(const char *site);

/* nvvm.barrier id = `id` number_of_threads = `threads` (PTX bar.sync id,
   threads): blocks the caller until `threads` threads (0: all of the
   workgroup) wait at barrier `id` (0 to 15), then starts a new
   race-detection epoch (which forgets the accesses of threads that did not
   take part as well: a race between those is not reported). `threads` is a
   multiple of the warp size. Thread context. */
GPUCG_EMULATOR_EXPORT void gpucg_emu_named_barrier(int32_t id, int32_t threads,
                                                   const char *site);

/* nvvm.cluster.arrive and nvvm.cluster.arrive.relaxed (PTX
   barrier.cluster.arrive): the caller arrives at the cluster barrier's
   current phase, which completes when every thread of the cluster that has
   not returned arrived, and starts a new race-detection epoch in every
   workgroup of the cluster. Arriving again before gpucg_emu_cluster_wait
   is an error. Thread context. */
GPUCG_EMULATOR_EXPORT void gpucg_emu_cluster_arrive(const char *site);

/* nvvm.cluster.wait (PTX barrier.cluster.wait): blocks the caller until the
   phase it arrived at completed. A wait without an arrive before it is an
   error, and so is a wait that no arrival can complete any more. Thread
   context. */
GPUCG_EMULATOR_EXPORT void gpucg_emu_cluster_wait(const char *site);

/*===----------------------------------------------------------------------===*/
/* Warp collectives                                                           */
/*===----------------------------------------------------------------------===*/
/* Every lane of the warp calls the function at the same site (a lane that
   returned, waits at a barrier or at another collective instead is an
   error); the call blocks until all have arrived, then the operation is
   computed once for the whole warp from every lane's arguments, and every
   lane's results are written before any lane resumes. Thread context. */

/* The modes of gpu.shuffle (MLIR's gpu::ShuffleMode). */
enum {
  GPUCG_EMU_SHUFFLE_XOR = 0,
  GPUCG_EMU_SHUFFLE_UP = 1,
  GPUCG_EMU_SHUFFLE_DOWN = 2,
  GPUCG_EMU_SHUFFLE_IDX = 3
};

/* gpu.shuffle as MLIR's NVVM lowering emits it: shfl.sync with member mask
   lanes [0, width) and clamp value c = width - 1 (xor, down, idx) or
   c = 32 - width (up), segment mask 0, evaluated as the PTX ISA defines
   shfl.sync, with b = offset & 31 and maxLane = c & 31:
     xor:  j = lane ^ b,  valid = j <= maxLane
     up:   j = lane - b,  valid = j >= maxLane
     down: j = lane + b,  valid = j <= maxLane
     idx:  j = b,         valid = j <= maxLane
   and j = lane when not valid. Returns the 32 bits `value` of lane j in the
   low half and valid in bit 32: (uint32_t)value_j | (int64_t)valid << 32.
   width (1..32) and mode must be the same on every lane. A valid j that
   names a lane the warp does not have (a warp shorter than 32 threads) or a
   lane outside the member mask is an error. (With this encoding an `up`
   shuffle of width < 32 is never valid for lanes below width: that is what
   the hardware does with MLIR's lowering.) */
GPUCG_EMULATOR_EXPORT int64_t gpucg_emu_shuffle(int32_t value, int32_t offset,
                                                int32_t width, int32_t mode,
                                                const char *site);

/* nvgpu.ldmatrix, PTX ldmatrix.sync.aligned.m8n8.x{1,2,4}{,.trans}.shared.b16.
   num_tiles (1, 2 or 4) 8x8 matrices of 16-bit elements are read from
   workgroup memory when the collective completes; lanes 8*i .. 8*i+7 give
   the addresses of rows 0..7 of matrix i (16 bytes each, 16-byte aligned,
   inside workgroup memory: an error otherwise), the addresses of lanes from
   8*num_tiles on are ignored. Every lane receives num_tiles 32-bit registers,
   written to result_address (4*num_tiles bytes), register i from matrix i:
     not transposed: row lane/4, elements 2*(lane%4) (low 16 bits) and
                     2*(lane%4)+1 (high 16 bits);
     transposed:     column lane/4, elements of rows 2*(lane%4) (low) and
                     2*(lane%4)+1 (high).
   Each row read counts, for race detection, as a read of its 16 bytes by
   the lane that gave its address. num_tiles and transpose must be the same
   on every lane; the warp must have 32 threads. */
GPUCG_EMULATOR_EXPORT void gpucg_emu_ldmatrix(int64_t row_address,
                                              int32_t num_tiles,
                                              int32_t transpose,
                                              int64_t result_address,
                                              const char *site);

/* Element types of the matrix operations. In memory: f16, bf16 2 bytes; tf32
   4 bytes (an f32 bit pattern); f32, s32 4 bytes; f64 8 bytes; s8, u8 1;
   the 8-bit floats e4m3 (MLIR's f8E4M3FN) and e5m2 (f8E5M2) 1, wgmma's
   only. */
enum {
  GPUCG_EMU_F16 = 0,
  GPUCG_EMU_BF16 = 1,
  GPUCG_EMU_TF32 = 2,
  GPUCG_EMU_F32 = 3,
  GPUCG_EMU_F64 = 4,
  GPUCG_EMU_S8 = 5,
  GPUCG_EMU_U8 = 6,
  GPUCG_EMU_S32 = 7,
  GPUCG_EMU_F8E4M3 = 8,
  GPUCG_EMU_F8E5M2 = 9
};

/* nvgpu.mma.sync, PTX mma.sync.aligned.mMnNkK.row.col: D = A * B + C for an
   M x K matrix A, K x N matrix B and M x N matrices C and D, whose elements
   the 32 lanes hold in the fragment layouts of the PTX ISA ("Matrix
   fragments for mma.m16n8k*", groupID g = lane >> 2, t = lane % 4). Each
   lane passes the addresses of its A, B, C fragments and of where its D
   fragment goes, each the nvgpu vector flattened row-major (element i =
   PTX element a_i, b_i, c_i, d_i); D may be C. Supported:
     m16n8k16  f16 -> f16 or f32, bf16 -> f32, s8/u8 -> s32
     m16n8k8   f16 -> f16 or f32, bf16 -> f32, tf32 -> f32
     m16n8k4   tf32 -> f32
     m16n8k32  s8/u8 -> s32
     m8n8k16   s8/u8 -> s32
     m8n8k4    f64 -> f64
   (ab_type -> c_type; anything else is an error naming it). Arithmetic: a
   tf32 operand is its f32 bit pattern with the low 13 mantissa bits dropped
   (truncation, as the tensor cores read it); the products and their sum over
   k are computed in double (exact for f16, bf16, tf32 operands), C is added,
   and the result is rounded once to D's type (round to nearest even, also
   for f16 with its subnormals, infinities and NaN). Integer products are
   summed exactly and D wraps around to 32 bits. All arguments but the
   addresses must be the same on every lane; the warp must have 32 threads. */
GPUCG_EMULATOR_EXPORT void gpucg_emu_mma_sync(int32_t m, int32_t n, int32_t k,
                                              int32_t ab_type, int32_t c_type,
                                              int64_t a_address,
                                              int64_t b_address,
                                              int64_t c_address,
                                              int64_t d_address,
                                              const char *site);

/* gpu.subgroup_mma_compute: D = A * B + C as mma_sync computes it, in the
   layout gpucg's WMMA lowering defines: of a rows x cols matrix (A: M x K,
   B: K x N, C and D: M x N), lane L holds the E = rows*cols/32 elements
   L*E .. L*E+E-1 of the row-major matrix. Types (ab_type -> c_type): f16 or
   bf16 -> f16 or f32, tf32 -> f32, s8/u8 -> s32, f64 -> f64. M, N, K lie in
   [1, 256] and M*K, K*N, M*N are multiples of 32; the warp must have 32
   threads. */
GPUCG_EMULATOR_EXPORT void gpucg_emu_wmma_mma(int32_t m, int32_t n, int32_t k,
                                              int32_t ab_type, int32_t c_type,
                                              int64_t a_address,
                                              int64_t b_address,
                                              int64_t c_address,
                                              int64_t d_address,
                                              const char *site);

/*===----------------------------------------------------------------------===*/
/* Asynchronous copies (per thread, not collective)                           */
/*===----------------------------------------------------------------------===*/

/* nvgpu.device_async_copy, PTX cp.async: copies dst_bytes (4, 8 or 16)
   bytes to workgroup memory at dst_address (inside it and aligned to
   dst_bytes: an error otherwise), the first src_bytes (0..dst_bytes) read
   from src_address (aligned to dst_bytes when src_bytes > 0) when the copy is
   issued, the remaining dst_bytes - src_bytes zeros. The data lands in
   workgroup memory only when a gpucg_emu_async_wait of the same thread
   retires the copy's group, or when the thread returns, so a missing or too
   weak wait leaves readers with stale (or poison) data. `site` (may be
   NULL) names the copy in race reports on its landing. Thread context. */
GPUCG_EMULATOR_EXPORT void gpucg_emu_async_copy(int64_t dst_address,
                                                int64_t src_address,
                                                int64_t dst_bytes,
                                                int64_t src_bytes,
                                                const char *site);

/* The bounds of one dimension of an nvgpu.device_async_copy's source
   memref (`dim` of `rank`, 0 outermost): a copy that reads `count` > 0
   elements from index `index` of a dimension of `extent` elements (count 1
   for an outer dimension, the source elements for the innermost) must stay
   inside it; an error naming the thread, the indices and the extent
   otherwise. A copy that reads nothing (count 0, a source size of 0) is
   never out of bounds. On a GPU such a copy reads another row or another
   allocation, or faults; gpucg's zero-padded copies clamp their source
   size so that it never does. Thread context. */
/* Checks that a vector access which claims an alignment (vector.load or
   vector.store with `alignment`, such as the 16-byte stores gpucg writes
   where a run-time address check allows them) is at an address that is a
   multiple of `alignment` bytes; an error naming the thread, the address
   and the alignment otherwise. On a GPU such an access is a wide load or
   store at a misaligned address, which faults. Thread context. */
GPUCG_EMULATOR_EXPORT void
gpucg_emu_check_alignment(int64_t address, int64_t alignment, const char *site);

GPUCG_EMULATOR_EXPORT void gpucg_emu_check_copy_source(int32_t dim,
                                                       int32_t rank,
                                                       int64_t index,
                                                       int64_t count,
                                                       int64_t extent,
                                                       const char *site);

/* Checks that a vector.load or vector.store of global memory touches only
   elements of its memref: per dimension (`dim` of `rank`, 0 outermost),
   [index, index + count) inside [0, extent), where count is the vector's
   length in the dimensions it spans and 1 in the others; an error naming
   the thread, the indices and the size otherwise. MLIR leaves such an
   access undefined; on a GPU it reads or writes another row (or faults),
   which a kernel's results may not show. Thread context. */
GPUCG_EMULATOR_EXPORT void gpucg_emu_check_vector_bounds(int32_t dim,
                                                         int32_t rank,
                                                         int64_t index,
                                                         int64_t count,
                                                         int64_t extent,
                                                         const char *site);

/* nvgpu.device_async_create_group, PTX cp.async.commit_group: puts the
   caller's copies not yet in a group into a new group (possibly empty) and
   returns its number: 0, 1, 2, ... per thread and workgroup. Thread
   context. */
GPUCG_EMULATOR_EXPORT int32_t gpucg_emu_async_commit(void);

/* nvgpu.device_async_wait, PTX cp.async.wait_group pending_groups: lands,
   in the order they were issued, the copies of every group the caller
   committed except the newest pending_groups groups (pending_groups >= 0).
   Copies not committed yet are never landed by a wait. A landing counts as
   a write by the caller, in the current epoch, for race detection. Thread
   context. */
GPUCG_EMULATOR_EXPORT void gpucg_emu_async_wait(int32_t pending_groups);

/*===----------------------------------------------------------------------===*/
/* Race detection                                                             */
/*===----------------------------------------------------------------------===*/

/* Records that the caller reads (is_write 0) or writes (is_write 1) the
   `bytes` bytes at `address`. The part outside the current workgroup memory
   is ignored. Two different threads that access the same byte between two
   barrier completions (an epoch), at least one of them writing, is a race,
   reported with both threads, both sites and the byte's offset. Thread
   context. */
GPUCG_EMULATOR_EXPORT void gpucg_emu_access(int64_t address, int64_t bytes,
                                            int32_t is_write,
                                            const char *site);

/* Global memory (docs/Emulator-runtime.md, "Global memory"): each
   records an access by the calling thread to the `bytes` bytes at
   `address` (any memory outside workgroup memory) and checks its order
   against the other workgroups' accesses to them in the same launch. An
   access of one workgroup is ordered before one of another workgroup when
   its thread fences (gpucg_emu_fence) after it, an atomic of its
   workgroup (gpucg_emu_global_atomic on any address; by the same thread or
   after a barrier) comes after that fence, an atomic of the other workgroup on
   the same address comes after that one, and that atomic's thread fences
   after it, before the other access (by the same thread or with a barrier
   between). A store of a byte another workgroup stored or read, or a read
   of a byte another workgroup stored, without that order is reported with
   both threads, workgroups and sites, the address and the missing link:
   the GPU runs workgroups in any order and at once (a split-K tile's sum
   written by two of its workgroups, a sum read before a part was
   published). A thread that reads one address 2^20 times in a row (a
   load or an atomic) waits for a workgroup that runs after it, and is
   reported. Thread context; the order checks are off with race
   detection, the report of a wait is not. */
GPUCG_EMULATOR_EXPORT void
gpucg_emu_global_store(int64_t address, int64_t bytes, const char *site);
GPUCG_EMULATOR_EXPORT void gpucg_emu_global_load(int64_t address, int64_t bytes,
                                                 const char *site);

/* Records an atomic read-modify-write of the `bytes` bytes at `address`
   (memref.atomic_rmw): as a release, it publishes what its workgroup
   fenced before it; as an acquire, it reads from every atomic on the
   address before it in the launch. It does not count as a store or a
   read (but as a read of the address for the waits above). Thread
   context; off with race detection, but for the waits. */
GPUCG_EMULATOR_EXPORT void
gpucg_emu_global_atomic(int64_t address, int64_t bytes, const char *site);

/* A fence at gpu (or system) scope by the calling thread: PTX membar.gl,
   nvvm.memory.barrier <gpu>. Thread context. */
GPUCG_EMULATOR_EXPORT void gpucg_emu_fence(const char *site);

/* Turns race detection on (enabled != 0, the default) or off, for the
   launches that follow: off, gpucg_emu_access and the emulator's own
   records (ldmatrix reads, async-copy landings) are ignored, so that a bug
   can be shown to give wrong numbers without a race report. Host only: an
   error during a launch. */
GPUCG_EMULATOR_EXPORT void gpucg_emu_set_race_detection(int32_t enabled);

/*===----------------------------------------------------------------------===*/
/* Hopper: tensor maps, mbarriers, TMA loads, warpgroup MMA                   */
/*===----------------------------------------------------------------------===*/

/* nvgpu.tma.create.descriptor (cuTensorMapEncodeTiled), on the host: a
   tensor map of the rank-`rank` (1..5) tensor at `address` whose dimension
   d (outermost first, as the memref) has size_d elements, stride_d elements
   between consecutive indices (stride of the innermost dimension 1) and a
   box of box_d (1..256) elements; unused dimensions are ignored. Elements
   are element_bytes (1, 2, 4 or 8) bytes; swizzle_bytes is 0 (none), 32, 64
   or 128, and the box's innermost row is then at most that many bytes. The
   address is 16-byte aligned and every stride but the innermost a multiple
   of 16 bytes. Returns a handle that lives until the process exits; an
   invalid map is an error naming the limit. */
GPUCG_EMULATOR_EXPORT int64_t gpucg_emu_tensor_map(
    int64_t address, int64_t rank, int64_t element_bytes, int64_t swizzle_bytes,
    int64_t size0, int64_t size1, int64_t size2, int64_t size3, int64_t size4,
    int64_t stride0, int64_t stride1, int64_t stride2, int64_t stride3,
    int64_t stride4, int64_t box0, int64_t box1, int64_t box2, int64_t box3,
    int64_t box4);

/* nvgpu.mbarrier.create: the workgroup's group of `count` (1..64) mbarriers
   made by the op at `site`; every thread of the workgroup that calls it with
   the same site gets the same group, uninitialized at the start of each
   cluster. Each workgroup of a cluster has its own group; the site (the
   same pointer) names the corresponding group of another workgroup for
   remote arrivals and multicasts. Returns its handle. Thread context. */
GPUCG_EMULATOR_EXPORT int64_t gpucg_emu_mbarrier_group(int64_t count,
                                                       const char *site);

/* nvgpu.mbarrier.init, PTX mbarrier.init: when `predicate` is nonzero,
   mbarrier `index` of `group` expects `count` (1..2^20-1) arrivals per phase
   and starts at phase 0 with no transactions outstanding. Thread context. */
GPUCG_EMULATOR_EXPORT void gpucg_emu_mbarrier_init(int64_t group, int64_t index,
                                                   int64_t count,
                                                   int32_t predicate,
                                                   const char *site);

/* nvgpu.mbarrier.arrive (tx_bytes 0) and nvgpu.mbarrier.arrive.expect_tx:
   when `predicate` is nonzero, adds tx_bytes to the transactions the current
   phase of mbarrier `index` waits for, then arrives once. A phase completes
   when all its arrivals came and no transaction bytes are outstanding; the
   next phase then expects the initial count again. Returns the phase number
   the arrival belonged to. Thread context. */
GPUCG_EMULATOR_EXPORT int64_t gpucg_emu_mbarrier_arrive(int64_t group,
                                                        int64_t index,
                                                        int64_t tx_bytes,
                                                        int32_t predicate,
                                                        const char *site);

/* nvvm.mbarrier.arrive {scope = cluster} of an address that nvvm.mapa maps
   to CTA `cta_rank` of the cluster (PTX mbarrier.arrive.release.cluster.
   shared::cluster): one arrival, without transaction bytes, on mbarrier
   `index` of the group made at the same site as the caller's `group`, in
   the workgroup of rank `cta_rank` (possibly the caller's). A rank outside
   the cluster, or a barrier that workgroup has not initialized, is an
   error. Thread context. */
GPUCG_EMULATOR_EXPORT void gpucg_emu_mbarrier_arrive_cluster(int64_t group,
                                                             int64_t index,
                                                             int32_t cta_rank,
                                                             const char *site);

/* nvgpu.mbarrier.try_wait.parity (in the loop the NVVM lowering emits):
   blocks the thread until the phase of mbarrier `index` with parity
   `parity` (0 or 1) has completed, i.e. until the current phase's parity
   differs. A wait that can never complete is reported with the barrier's
   state. Thread context. */
GPUCG_EMULATOR_EXPORT void gpucg_emu_mbarrier_wait(int64_t group, int64_t index,
                                                   int32_t parity,
                                                   const char *site);

/* Marks gpucg_emu_tma_load's multicast_mask as the operand of a multicast
   (nvgpu.tma.async.load ... multicast_mask = %m), so that a mask whose
   16 CTA bits are all 0 is reported rather than read as "no multicast". */
enum { GPUCG_EMU_TMA_MULTICAST = 1 << 16 };

/* nvgpu.tma.async.load, PTX cp.async.bulk.tensor: when `predicate` is
   nonzero, copies the box of tensor map `map` at coordinates c0..c4 (element
   indices, outermost first like the map's dimensions) to workgroup memory at
   `destination` (128-byte aligned, 1024 with a 128-byte swizzle), elements
   outside the tensor read as zero, the box's rows one after another and
   each 128-byte row's 16-byte chunks permuted by the map's swizzle (chunk
   c of the row at offset o goes to c ^ ((o >> 7) & (swizzle/16 - 1))).
   The box's bytes complete as transactions on mbarrier `index` of `group`
   when the data lands: when it is issued, or (GPUCG_EMU_TMA=wait) when a
   thread next waits on that mbarrier.

   multicast_mask 0 loads to the caller's workgroup only. Otherwise (PTX
   .multicast::cluster) bit r of its low 16 bits names the workgroup of
   rank r of the cluster, optionally with GPUCG_EMU_TMA_MULTICAST set: the
   box lands at the same workgroup-memory offset in each of them (the
   caller's only if its own bit is set), and its bytes complete on the
   mbarrier of the same group (site) and index in each, which must be
   initialized there; with GPUCG_EMU_TMA=wait each lands when a thread of
   its workgroup waits there. A bit for a rank the cluster does not have,
   no bit at all, or other bits are errors. A transaction count may go
   negative when a multicast lands before the workgroup's expect_tx, as in
   PTX; beyond +-(2^20 - 1) it is an error. Thread context. */
GPUCG_EMULATOR_EXPORT void
gpucg_emu_tma_load(int64_t map, int64_t destination, int64_t c0, int64_t c1,
                   int64_t c2, int64_t c3, int64_t c4, int64_t group,
                   int64_t index, int32_t predicate, int32_t multicast_mask,
                   const char *site);

/* nvgpu.warpgroup.mma.init.accumulator: zeroes a thread's accumulator
   fragment of `elements` f32 at `accumulator`. Thread context. */
GPUCG_EMULATOR_EXPORT void
gpucg_emu_wgmma_init(int64_t accumulator, int64_t elements, const char *site);

/* nvgpu.warpgroup.mma as one wgmma group, then wait_group(wait_group):
   D += A * B for the M x K tile A at `a` and the K x N tile B at `b`, each
   K-major (transpose_a/transpose_b 0: row i of A, column n of B at i or n
   times its swizzle bytes, K * element bytes <= the swizzle) or MN-major
   (1: row k of each swizzle-wide block of M or N columns at k times the
   swizzle, the blocks a_leading_bytes or b_leading_bytes apart: the
   descriptor's leading byte offset), every byte address swizzled like a
   TMA box. M is a multiple of 64, N of 8 up to 256, K of 32 bytes of
   elements; a and b are f16, bf16 (K a multiple of 16), tf32 (f32 in
   memory, its low 13 mantissa bits dropped; K a multiple of 8), e4m3 or
   e5m2 (K a multiple of 32); tf32 and 8-bit types K-major only: wgmma
   transposes 16-bit types only (ab_type). The thread's accumulator holds,
   for each 64-row block j and 8-column block c, f32 elements j*N/2 + 4c +
   0..3 at rows 64j + 16w + l/4 (+8 for elements 2, 3), columns 8c +
   2(l%4) (+1 for elements 1, 3), with w and l the thread's warp and lane
   in its warpgroup. The group reads A and B and adds into the accumulator
   when it retires (GPUCG_EMU_WGMMA=issue: when issued). Thread context. */
GPUCG_EMULATOR_EXPORT void
gpucg_emu_wgmma(int64_t accumulator, int64_t a, int64_t b, int32_t m, int32_t n,
                int32_t k, int32_t ab_type, int32_t a_swizzle,
                int32_t b_swizzle, int32_t transpose_a, int32_t transpose_b,
                int64_t a_leading_bytes, int64_t b_leading_bytes,
                int32_t wait_group, const char *site);

/* nvvm.wgmma.wait.group.sync: retires the thread's oldest wgmma groups
   until at most `pending` are in flight. Thread context. */
GPUCG_EMULATOR_EXPORT void gpucg_emu_wgmma_wait(int32_t pending,
                                                const char *site);

/* nvgpu.warpgroup.mma.store as MLIR 22's NVVM lowering does it: the
   thread's M x N f32 accumulator to the f32 matrix at `destination` with
   `row_stride` and `column_stride` elements, element j*N/2 + 4c + e at row
   16 * (tid.x / 32) + (tid.x % 32) / 4 + j * N / 2 (+8 for e = 2, 3) and
   column 8c + 2 * (tid.x % 4) (+1 for e = 1, 3), tid.x the thread's
   absolute x index: rows beyond the first 64 of a warpgroup's view and
   the row offset of its second 64-row block are the lowering's, not the
   accumulator's. Reading an accumulator a wgmma group still writes is an
   error. Thread context. */
GPUCG_EMULATOR_EXPORT void gpucg_emu_wgmma_store(int64_t accumulator, int32_t m,
                                                 int32_t n, int64_t destination,
                                                 int64_t row_stride,
                                                 int64_t column_stride,
                                                 const char *site);

/* nvvm.convert.f32x2.to.f8x2 {rnd = rn, sat = satfinite} (PTX
   cvt.rn.satfinite.{e4m3,e5m2}x2.f32 d, a, b) as the PTX ISA defines it:
   each value rounded to nearest even, a NaN to the canonical NaN 0x7F, a
   magnitude beyond the largest finite value (448 in e4m3, 57344 in e5m2;
   an infinity too) to it; a's byte in bits 8-15 of the result, b's in
   bits 0-7. `type`: GPUCG_EMU_F8E4M3 or GPUCG_EMU_F8E5M2. Any context. */
GPUCG_EMULATOR_EXPORT int32_t gpucg_emu_cvt_f32x2_to_f8x2(float a, float b,
                                                          int32_t type);

/* nvvm.convert.f8x2.to.f16x2 (PTX cvt.rn.f16x2.{e4m3,e5m2}x2 d, a): the
   two 8-bit floats of `a` (bits 0-7 and 8-15) as f16 bit patterns, exact,
   the lower byte's in bits 0-15 of the result. Any context. */
GPUCG_EMULATOR_EXPORT int32_t gpucg_emu_cvt_f8x2_to_f16x2(int32_t a,
                                                          int32_t type);

#ifdef __cplusplus
}
#endif

#endif /* GPUCG_EMULATOR_H */
