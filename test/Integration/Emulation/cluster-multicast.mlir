// A cluster launch on the CPU emulator, hand-written as gpucg's cluster
// kernels will be: clusters of 2 workgroups (grid 4x1, 128 threads), each
// cluster loading a 16x8 f32 tile of a 32x8 matrix together. Every
// workgroup's thread 0 expects the whole tile's 512 bytes on its mbarrier 0
// and loads HALF of it (rows 8 r .. 8 r + 7 for its rank r) multicast to
// both workgroups (mask 0b11), at the same offset in each; all threads wait,
// then write their element of the tile, plus 1000 times the block id, to
// the output. A cluster barrier after the mbarrier inits orders them before
// the other workgroup's multicast and arrival; mbarrier 1 counts two
// arrivals, this workgroup's thread 0 and, through nvvm.mapa, the other's.
// In the forward order the first workgroup's multicast reaches the second
// before its own expect_tx: a transaction count negative for a while.
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.mlir
// RUN: %mlir_runner_emulated %t.mlir | FileCheck %s
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.mlir | FileCheck %s
// RUN: env GPUCG_EMU_TMA=wait %mlir_runner_emulated %t.mlir | FileCheck %s
// RUN: env GPUCG_EMU_TMA=wait GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.mlir | FileCheck %s
//
// Block b's element (r, c) is 8 (16 (b / 2) + r) + c + 1000 b: rows 0-7 of
// each tile come from rank 0's load, rows 8-15 from rank 1's.
// CHECK:      sizes = [4, 16, 8]
// CHECK-NEXT: {{\[\[\[}}0,   1,   2,   3,   4,   5,   6,   7],
// CHECK:      [64,   65,   66,   67,   68,   69,   70,   71],
// CHECK:      {{\[\[}}1000,   1001,   1002,   1003,   1004,   1005,   1006,   1007],
// CHECK:      [1064,   1065,   1066,   1067,   1068,   1069,   1070,   1071],
// CHECK:      {{\[\[}}2128,   2129,   2130,   2131,   2132,   2133,   2134,   2135],
// CHECK:      [2192,   2193,   2194,   2195,   2196,   2197,   2198,   2199],
// CHECK:      {{\[\[}}3128,   3129,   3130,   3131,   3132,   3133,   3134,   3135],
// CHECK:      [3248,   3249,   3250,   3251,   3252,   3253,   3254,   3255]]]
// CHECK-NEXT: mismatches: 0
//
// Mutations, each caught by a report rather than a hang. A mask without
// the issuing workgroup (0b10): workgroup (0, 0, 0) receives neither half.
// A mask without the other (0b01): workgroup (1, 0, 0) receives neither,
// never arrives on (0, 0, 0)'s mbarrier 1, and that wait is reported. No
// remote arrival: the same wait lacks it. No cluster barrier after the
// inits: the first workgroup's multicast reaches the second's mbarrier
// before its init.
// RUN: sed -e 's/%mask = arith.constant 3 : i16/%mask = arith.constant 2 : i16/' %s \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.own.mlir
// RUN: not %mlir_runner_emulated %t.own.mlir 2>&1 | FileCheck %s --check-prefix=OWN
// OWN: gpucg-emulator: error: workgroup (0, 0, 0): deadlock: thread (0, 0, 0) waits at {{.*}}: nvgpu.mbarrier.try_wait.parity for the phase of parity 0 of an mbarrier at phase 0 with 0 of 1 arrivals and 512 transaction bytes outstanding
// RUN: sed -e 's/%mask = arith.constant 3 : i16/%mask = arith.constant 1 : i16/' %s \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.other.mlir
// RUN: not %mlir_runner_emulated %t.other.mlir 2>&1 | FileCheck %s --check-prefix=RELEASE
// RUN: sed -e '/nvvm.mbarrier.arrive %remote/d' %s \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.remote.mlir
// RUN: not %mlir_runner_emulated %t.remote.mlir 2>&1 | FileCheck %s --check-prefix=RELEASE
// RELEASE: gpucg-emulator: error: workgroup (0, 0, 0): deadlock: thread (0, 0, 0) waits at {{.*}}: nvgpu.mbarrier.try_wait.parity for the phase of parity 0 of an mbarrier at phase 0 with 1 of 2 arrivals and 0 transaction bytes outstanding
// RUN: sed -e '/nvvm.cluster.arrive {aligned}/d' -e '/nvvm.cluster.wait {aligned}/d' %s \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.unordered.mlir
// RUN: not %mlir_runner_emulated %t.unordered.mlir 2>&1 | FileCheck %s --check-prefix=UNORDERED
// UNORDERED: gpucg-emulator: error: {{.*}}: nvgpu.tma.async.load: multicasts to mbarrier 0 of the group made at {{.*}}: nvgpu.mbarrier.create in CTA rank 1 (workgroup (1, 0, 0)), which has not initialized it

!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
!half = memref<8x8xf32, #gpu.address_space<workgroup>>
!map = !nvgpu.tensormap.descriptor<tensor = !half, swizzle = none, l2promo = none, oob = zero, interleave = none>

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %a = memref.alloc() : memref<32x8xf32>
  scf.for %i = %c0 to %c32 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %row = arith.muli %i, %c8 : index
      %k = arith.addi %row, %j : index
      %ki = arith.index_cast %k : index to i32
      %v = arith.sitofp %ki : i32 to f32
      memref.store %v, %a[%i, %j] : memref<32x8xf32>
    }
  }
  %out = memref.alloc() : memref<4x16x8xf32>
  %u = memref.cast %a : memref<32x8xf32> to memref<*xf32>
  %map = nvgpu.tma.create.descriptor %u box[%c8, %c8] : memref<*xf32> -> !map
  gpu.launch clusters(%cx, %cy, %cz) in (%scx = %c2, %scy = %c1, %scz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
             workgroup(%buffer : memref<512xi8, #gpu.address_space<workgroup>>) {
    %c1_i32 = arith.constant 1 : i32
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %c1000 = arith.constant 1000.0 : f32
    %ticks = arith.constant 1000000 : index
    %false = arith.constant false
    %mask = arith.constant 3 : i16
    %bars = nvgpu.mbarrier.create -> !barriers
    %leader = arith.cmpi eq, %tx, %c0 : index
    scf.if %leader {
      nvgpu.mbarrier.init %bars[%c0], %c1 : !barriers
      nvgpu.mbarrier.init %bars[%c1], %c2 : !barriers
    }
    nvvm.fence.mbarrier.init
    nvvm.cluster.arrive {aligned}
    nvvm.cluster.wait {aligned}

    // This workgroup's half: tile rows 8 r .. 8 r + 7, matrix rows from
    // 16 (block id / 2) on, 256 bytes into the tile in both workgroups.
    %rank_index = gpu.cluster_block_id x
    %rank = arith.index_cast %rank_index : index to i32
    %other = arith.xori %rank, %c1_i32 : i32
    %cluster = gpu.cluster_id x
    %tile_row = arith.muli %cluster, %c16 : index
    %half_row = arith.muli %rank_index, %c8 : index
    %row = arith.addi %tile_row, %half_row : index
    %offset = arith.muli %rank_index, %c256 : index
    %half = memref.view %buffer[%offset][] : memref<512xi8, #gpu.address_space<workgroup>> to !half
    scf.if %leader {
      nvgpu.mbarrier.arrive.expect_tx %bars[%c0], %c512 : !barriers
      nvgpu.tma.async.load %map[%c0, %row], %bars[%c0] to %half multicast_mask = %mask : !map, !barriers -> !half
    }
    nvgpu.mbarrier.try_wait.parity %bars[%c0], %false, %ticks : !barriers

    %tile = memref.view %buffer[%c0][] : memref<512xi8, #gpu.address_space<workgroup>> to memref<16x8xf32, #gpu.address_space<workgroup>>
    %r = arith.divui %tx, %c8 : index
    %c = arith.remui %tx, %c8 : index
    %value = memref.load %tile[%r, %c] : memref<16x8xf32, #gpu.address_space<workgroup>>
    %block_i32 = arith.index_cast %bx : index to i32
    %block = arith.sitofp %block_i32 : i32 to f32
    %tag = arith.mulf %block, %c1000 : f32
    %tagged = arith.addf %value, %tag : f32
    memref.store %tagged, %out[%bx, %r, %c] : memref<4x16x8xf32>

    // Neither workgroup finishes before the other has read its copy.
    scf.if %leader {
      %token = nvgpu.mbarrier.arrive %bars[%c1] : !barriers -> !nvgpu.mbarrier.token
      %address = nvgpu.mbarrier.get %bars[%c1] : !barriers -> i32
      %pointer = llvm.inttoptr %address : i32 to !llvm.ptr<3>
      %remote = nvvm.mapa %pointer, %other : !llvm.ptr<3> -> !llvm.ptr<7>
      nvvm.mbarrier.arrive %remote {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
    }
    nvgpu.mbarrier.try_wait.parity %bars[%c1], %false, %ticks : !barriers
    gpu.terminator
  }
  %printed = memref.cast %out : memref<4x16x8xf32> to memref<*xf32>
  func.call @printMemrefF32(%printed) : (memref<*xf32>) -> ()
  // Every element, not only the lines checked above.
  %mismatches = scf.for %b = %c0 to %c4 step %c1 iter_args(%count = %c0) -> index {
    %inner = scf.for %r = %c0 to %c16 step %c1 iter_args(%count_r = %count) -> index {
      %next = scf.for %c = %c0 to %c8 step %c1 iter_args(%count_c = %count_r) -> index {
        %cluster = arith.divui %b, %c2 : index
        %first = arith.muli %cluster, %c16 : index
        %i = arith.addi %first, %r : index
        %expected = memref.load %a[%i, %c] : memref<32x8xf32>
        %b_i32 = arith.index_cast %b : index to i32
        %b_f32 = arith.sitofp %b_i32 : i32 to f32
        %thousand = arith.constant 1000.0 : f32
        %tag = arith.mulf %b_f32, %thousand : f32
        %want = arith.addf %expected, %tag : f32
        %got = memref.load %out[%b, %r, %c] : memref<4x16x8xf32>
        %same = arith.cmpf oeq, %got, %want : f32
        %plus = arith.addi %count_c, %c1 : index
        %counted = arith.select %same, %count_c, %plus : index
        scf.yield %counted : index
      }
      scf.yield %next : index
    }
    scf.yield %inner : index
  }
  %count_i64 = arith.index_cast %mismatches : index to i64
  vector.print str "mismatches: "
  vector.print %count_i64 : i64
  return
}
