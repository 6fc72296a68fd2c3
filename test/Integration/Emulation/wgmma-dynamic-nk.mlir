// gpucg-matmul-wgmma for dynamic N and K (a hidden size known at run
// time), on the CPU emulator: the host encodes the tensor maps from the
// run-time sizes (A's and B's row pitches among them), the K loop runs
// ceildiv(K, 64) steps, TMA zero-fills the K tail and the partial tiles,
// and the staged store writes only the rows below M and the columns below
// N, which the kernel reads from the arguments' sizes. A dynamic N may end
// inside an epilogue piece of 16 bytes: that piece is written element by
// element. Kernels (the strategy's plans):
// - @hidden: every size dynamic, B[k, n], run with 200 x 136 x 200 (a K
//   tail of 8, partial tiles) and 1 x 64 x 8 (one K step, mostly padding);
// - @linear: x * W^T + bias to f16, every size dynamic, 70 x 100 x 72:
//   N = 100 ends inside a piece of 8 f16;
// - @decode: 16 tokens (C^T = W x^T, a transposed tile) with N = 102 and
//   K = 136: N ends inside a piece of 4 f32 there too;
// - @wide: M = 256 static, N = 72 and K = 104 dynamic, also in clusters of
//   two workgroups along M (a dynamic N allows them; along N it would not);
// - @deep: 256 x 256 with K = 200 dynamic, also on a persistent grid of two
//   workgroups in clusters of two (a dynamic K allows both);
// - @narrow: one warpgroup of 4 stages (a user's plan), whose first loads
//   are min(4, K steps): K = 40 (one step) and K = 328 (six);
// - @scores: attention's Q K^T with the batch (3), the queries (40) and
//   the keys (72) counted at run time: the grid's z, the tensor maps over
//   the batch's rows stacked and each matrix's first row from the sizes.
// In order, reversed with TMA data at the wait and wgmma at issue, and
// with clusters and a persistent grid asked for. Small-integer inputs keep
// every sum exact: the results must equal the untiled kernels'.
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a})' -o %t.wgmma.mlir
// RUN: gpucg-opt %t.wgmma.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.mlir
// RUN: %mlir_runner_emulated %t.mlir | %strip_address > %t.forward
// RUN: diff %t.ref %t.forward
// RUN: env GPUCG_EMU_ORDER=reverse GPUCG_EMU_TMA=wait GPUCG_EMU_WGMMA=issue %mlir_runner_emulated %t.mlir | %strip_address > %t.modes
// RUN: diff %t.ref %t.modes
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-cluster-m=2 wgmma-persistent=true wgmma-persistent-workgroups=2},gpucg-test-emulate-on-cpu)' -o %t.c.mlir
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.c.mlir | %strip_address > %t.c
// RUN: diff %t.ref %t.c
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true wgmma-cluster-m=2 wgmma-persistent=true wgmma-persistent-workgroups=2}))' -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PLAN
//
// Mutation: the pieces N cuts taken whole (@linear's, @decode's) run past
// the row into the next one's columns, which the emulator's bounds check
// of global vector accesses reports (@linear's rows of 200 bytes start
// 16-byte aligned every other row, and only those pieces take the vector
// store, whose whole piece of the bias, read first, already runs past N;
// @decode's N = 102 cuts a piece of 4 f32).
// RUN: %mutate whole-edge-piece 2 < %t.wgmma.mlir > %t.m2.mlir
// RUN: gpucg-opt %t.m2.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.m2e.mlir
// RUN: env GPUCG_EMU_ORDER=reverse not %mlir_runner_emulated %t.m2e.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PAST-N
// PAST-N: gpucg-emulator: error: vector access out of bounds: thread ({{[0-9]+}}, 0, 0) of workgroup ({{[0-9]+}}, {{[0-9]+}}, 0) accesses indices [96, 104) of dimension 0 (of 1, 0 outermost) of its memref, whose size there is 100, at {{.*}}: vector.transfer_read
// RUN: %mutate whole-edge-piece 3 < %t.wgmma.mlir > %t.m3.mlir
// RUN: gpucg-opt %t.m3.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.m3e.mlir
// RUN: not %mlir_runner_emulated %t.m3e.mlir 2>&1 | FileCheck %s --check-prefix=MUTATED
// MUTATED: gpucg-emulator: error: vector access out of bounds: thread ({{[0-9]+}}, 0, 0) of workgroup ({{[0-9]+}}, {{[0-9]+}}, 0) accesses indices [100, 104) of dimension 1 (of 2, 0 outermost) of its memref, whose size there is 102, at {{.*}}: vector.store
// The run-time alignment check left out (mutate.py assume-aligned) in the
// linear layer, whose rows of 100 f16 are 200 bytes apart: every other
// row's pieces take the 16-byte store misaligned, which the emulator
// reports (a GPU faults).
// RUN: %mutate assume-aligned 2 < %t.wgmma.mlir > %t.ma.mlir
// RUN: gpucg-opt %t.ma.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.mae.mlir
// RUN: not %mlir_runner_emulated %t.mae.mlir 2>&1 | FileCheck %s --check-prefix=UNALIGNED
// UNALIGNED: gpucg-emulator: error: misaligned access: thread ({{[0-9]+}}, 0, 0) of workgroup ({{[0-9]+}}, {{[0-9]+}}, 0) accesses address 0x{{[0-9a-f]+}}, which is not a multiple of the 16 bytes the access claims, at {{.*}}: vector.store (on a GPU, a misaligned wide access faults)

// What ran (and that it parses again).
// RUN: gpucg-opt %t.wgmma.mlir | FileCheck %s
// CHECK-LABEL: func.func @hidden
// CHECK-SAME: %[[A:.+]]: memref<?x?xf16>, %[[B:.+]]: memref<?x?xf16>, %[[C:.+]]: memref<?x?xf32>
// CHECK-DAG: nvgpu.tma.create.descriptor {{.*}} box[%c128, %c64]
// CHECK-DAG: nvgpu.tma.create.descriptor {{.*}} box[%c64, %c64]
// N is B's columns (the grid's too), K A's columns: the K loop's steps
// are ceildiv(K, 64).
// CHECK: %[[N:.+]] = memref.dim %[[B]], %c1 : memref<?x?xf16>
// CHECK: %[[K:.+]] = memref.dim %[[A]], %c1 : memref<?x?xf16>
// CHECK: %[[STEPS:.+]] = arith.ceildivui %[[K]], %c64 : index
// CHECK: scf.for %{{.+}} = %c0 to %[[STEPS]] step %c1
// The staged store's columns below N, a cut piece element by element.
// CHECK: arith.cmpi ult, %[[COLUMN:[^,]+]], %[[N]] : index
// A whole piece whose address is 16-byte aligned at run time is one
// vector store with that alignment, through a private buffer.
// CHECK: %[[LEFT:.+]] = arith.subi %[[N]], %[[COLUMN]] : index
// CHECK: %[[POINTER:.+]] = memref.extract_aligned_pointer_as_index
// CHECK: %[[ADDRESS:.+]] = arith.addi %[[POINTER]], %{{.+}} : index
// CHECK: %[[MISALIGNED:.+]] = arith.remui %[[ADDRESS]], %c16 : index
// CHECK: %[[ALIGNED:.+]] = arith.cmpi eq, %[[MISALIGNED]], %c0 : index
// CHECK: %[[FITS:.+]] = arith.cmpi uge, %[[LEFT]], %c4 : index
// CHECK: %[[WHOLE:.+]] = arith.andi %[[FITS]], %[[ALIGNED]] : i1
// CHECK: scf.if %[[WHOLE]] {
// CHECK: %[[PRIVATE:.+]] = memref.alloca() : memref<1x4xf32>
// CHECK: %[[PIECE:.+]] = vector.load %[[PRIVATE]][%c0, %c0] : memref<1x4xf32>, vector<4xf32>
// CHECK: vector.store %[[PIECE]], %[[C]][%{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
// CHECK: } else {
// CHECK: %[[ELEMENTS:.+]] = arith.minui %[[LEFT]], %c4 : index
// CHECK: scf.for %{{.+}} = %c0 to %[[ELEMENTS]] step %c1 {
// CHECK: vector.transfer_write {{.*}} : vector<1xf32>, memref<?x?xf32>
// CHECK-LABEL: func.func @linear
// CHECK: vector.store {{.*}} {alignment = 16 : i64} : memref<?x?xf16>, vector<8xf16>
// CHECK: vector.transfer_write {{.*}} : vector<1xf16>, memref<?x?xf16>
// CHECK-LABEL: func.func @decode
// CHECK-LABEL: func.func @wide
// CHECK-LABEL: func.func @deep
// CHECK-LABEL: func.func @narrow
// The first loads: min(stages, K steps).
// CHECK: %[[K:.+]] = memref.dim %arg0, %c1 : memref<64x?xf16>
// CHECK: %[[STEPS:.+]] = arith.ceildivui %[[K]], %c64 : index
// CHECK: %[[FIRST:.+]] = arith.minui %[[STEPS]], %c4 : index
// CHECK: scf.for %{{.+}} = %c0 to %[[FIRST]] step %c1
// CHECK-LABEL: func.func @scores
// CHECK: memref.collapse_shape %arg0 {{\[}}[0, 1], [2]] : memref<?x?x128xf16> into memref<?x128xf16>
// CHECK: %[[BATCH:.+]] = memref.dim %arg0, %c0 : memref<?x?x128xf16>
// CHECK: %[[ROWS:.+]] = memref.dim %arg0, %c1 : memref<?x?x128xf16>
// CHECK: scf.forall (%[[B:.+]], %{{.+}}, %{{.+}}) = (0, 0, 0) to (%[[BATCH]], %[[ROWS]], %{{.+}}) step (1, 128, 128)

// PLAN: remark: plan of @hidden: pipeline MatmulWgmma (wgmma), workgroup 384x1x1 threads, workgroup tile 128x128x64, 4 stages on sm_90a; clusters of 2x1 workgroups not taken: its M is dynamic, so its tiles along M may not be a multiple of 2; a persistent grid not taken: its M is dynamic
// PLAN: remark: plan of @linear: pipeline MatmulWgmma
// PLAN: remark: plan of @decode: pipeline MatmulWgmma (wgmma), workgroup 256x1x1 threads, workgroup tile 16x64x64, 4 stages on sm_90a; small M: computed as C^T = B^T * A^T, the 16 rows as wgmma's N in a tile of 16, the weights as its 64-row M; clusters of 2x1 workgroups not taken: its tile of 16 rows is computed as C^T = B^T * A^T, whose workgroups share no cluster's tiles yet; a persistent grid not taken: its N is dynamic, and a persistent grid's workgroups walk a tile count known when the kernel is compiled
// PLAN: remark: plan of @wide: pipeline MatmulWgmma (wgmma), workgroup 384x1x1 threads, workgroup tile 128x128x64, 4 stages, clusters of 2x1 workgroups on sm_90a; a persistent grid not taken: its N is dynamic
// PLAN: remark: plan of @deep: pipeline MatmulWgmma (wgmma), workgroup 384x1x1 threads, workgroup tile 128x128x64, 4 stages, persistent grid of 2 workgroups, clusters of 2x1 workgroups on sm_90a{{$}}
// PLAN: remark: plan of @narrow: pipeline MatmulWgmma (wgmma), workgroup 128x1x1 threads
// PLAN: remark: plan of @scores: pipeline MatmulWgmma (wgmma), workgroup 384x1x1 threads, workgroup tile 1x128x128x64

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // A hidden size known at run time: every size dynamic, B stored K x N.
  func.func @hidden(%a: tensor<?x?xf16>, %b: tensor<?x?xf16>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
    %r = linalg.matmul ins(%a, %b : tensor<?x?xf16>, tensor<?x?xf16>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
    return %r : tensor<?x?xf32>
  }
  // A linear layer x * W^T + bias to f16, every size dynamic.
  func.func @linear(%x: tensor<?x?xbf16>, %w: tensor<?x?xbf16>, %bias: tensor<?xf32>, %out: tensor<?x?xf16>) -> tensor<?x?xf16> {
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows = tensor.dim %x, %c0 : tensor<?x?xbf16>
    %columns = tensor.dim %w, %c0 : tensor<?x?xbf16>
    %e = tensor.empty(%rows, %columns) : tensor<?x?xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
    %m = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%x, %w : tensor<?x?xbf16>, tensor<?x?xbf16>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<?x?xf32>, tensor<?xf32>) outs(%out : tensor<?x?xf16>) {
    ^bb0(%v: f32, %b: f32, %o: f16):
      %s = arith.addf %v, %b : f32
      %t = arith.truncf %s : f32 to f16
      linalg.yield %t : f16
    } -> tensor<?x?xf16>
    return %r : tensor<?x?xf16>
  }
  // A decode step of 16 tokens through a layer whose sizes are known at
  // run time: C^T = W x^T, C's columns wgmma's rows.
  func.func @decode(%x: tensor<16x?xf16>, %w: tensor<?x?xf16>, %c: tensor<16x?xf32>) -> tensor<16x?xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<16x?xf32>) -> tensor<16x?xf32>
    %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%x, %w : tensor<16x?xf16>, tensor<?x?xf16>) outs(%f : tensor<16x?xf32>) -> tensor<16x?xf32>
    return %r : tensor<16x?xf32>
  }
  // 256 rows of a weight-gradient-like product whose other sizes are known
  // at run time: clusters along M take it.
  func.func @wide(%a: tensor<256x?xf16>, %b: tensor<?x?xf16>, %c: tensor<256x?xf32>) -> tensor<256x?xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x?xf32>) -> tensor<256x?xf32>
    %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<256x?xf16>, tensor<?x?xf16>) outs(%f : tensor<256x?xf32>) -> tensor<256x?xf32>
    return %r : tensor<256x?xf32>
  }
  // K known at run time on static M and N: a persistent grid and clusters
  // take it.
  func.func @deep(%a: tensor<256x?xbf16>, %b: tensor<?x256xbf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    %r = linalg.matmul ins(%a, %b : tensor<256x?xbf16>, tensor<?x256xbf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %r : tensor<256x256xf32>
  }
  // One warpgroup (a user's plan of 4 stages): its first loads are
  // min(4, K steps), run with fewer steps than stages and with more.
  func.func @narrow(%a: tensor<64x?xf16>, %b: tensor<?x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    %r = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 4>>}
      ins(%a, %b : tensor<64x?xf16>, tensor<?x64xf16>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %r : tensor<64x64xf32>
  }
  // Attention's scores Q K^T with the batch, the queries and the keys
  // counted at run time.
  func.func @scores(%q: tensor<?x?x128xf16>, %k: tensor<?x?x128xf16>, %c: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %r = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%q, %k : tensor<?x?x128xf16>, tensor<?x?x128xf16>) outs(%f : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    return %r : tensor<?x?x?xf32>
  }
  func.func @main() {
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
    %c5_i32 = arith.constant 5 : i32
    %h1a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<200x200xf16>
    %h1b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 11)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c5_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<200x136xf16>
    %h1c = tensor.empty() : tensor<200x136xf32>
    %h1_k0 = tensor.cast %h1a : tensor<200x200xf16> to tensor<?x?xf16>
    %h1_k1 = tensor.cast %h1b : tensor<200x136xf16> to tensor<?x?xf16>
    %h1_k2 = tensor.cast %h1c : tensor<200x136xf32> to tensor<?x?xf32>
    %h1_kr = func.call @hidden(%h1_k0, %h1_k1, %h1_k2) : (tensor<?x?xf16>, tensor<?x?xf16>, tensor<?x?xf32>) -> tensor<?x?xf32>
    %h1_r = tensor.cast %h1_kr : tensor<?x?xf32> to tensor<200x136xf32>
    %h1_m = bufferization.to_buffer %h1_r : tensor<200x136xf32> to memref<200x136xf32>
    %h1_u = memref.cast %h1_m : memref<200x136xf32> to memref<*xf32>
    func.call @printMemrefF32(%h1_u) : (memref<*xf32>) -> ()
    %h2a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<1x8xf16>
    %h2b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 11)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c5_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<8x64xf16>
    %h2c = tensor.empty() : tensor<1x64xf32>
    %h2_k0 = tensor.cast %h2a : tensor<1x8xf16> to tensor<?x?xf16>
    %h2_k1 = tensor.cast %h2b : tensor<8x64xf16> to tensor<?x?xf16>
    %h2_k2 = tensor.cast %h2c : tensor<1x64xf32> to tensor<?x?xf32>
    %h2_kr = func.call @hidden(%h2_k0, %h2_k1, %h2_k2) : (tensor<?x?xf16>, tensor<?x?xf16>, tensor<?x?xf32>) -> tensor<?x?xf32>
    %h2_r = tensor.cast %h2_kr : tensor<?x?xf32> to tensor<1x64xf32>
    %h2_m = bufferization.to_buffer %h2_r : tensor<1x64xf32> to memref<1x64xf32>
    %h2_u = memref.cast %h2_m : memref<1x64xf32> to memref<*xf32>
    func.call @printMemrefF32(%h2_u) : (memref<*xf32>) -> ()
    %la = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<70x72xbf16>
    %lw = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 11)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c5_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<100x72xbf16>
    %lbias = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<100xf32>
    %lo = tensor.empty() : tensor<70x100xf16>
    %l_k0 = tensor.cast %la : tensor<70x72xbf16> to tensor<?x?xbf16>
    %l_k1 = tensor.cast %lw : tensor<100x72xbf16> to tensor<?x?xbf16>
    %l_k2 = tensor.cast %lbias : tensor<100xf32> to tensor<?xf32>
    %l_k3 = tensor.cast %lo : tensor<70x100xf16> to tensor<?x?xf16>
    %l_kr = func.call @linear(%l_k0, %l_k1, %l_k2, %l_k3) : (tensor<?x?xbf16>, tensor<?x?xbf16>, tensor<?xf32>, tensor<?x?xf16>) -> tensor<?x?xf16>
    %l_r = tensor.cast %l_kr : tensor<?x?xf16> to tensor<70x100xf16>
    %l_m = bufferization.to_buffer %l_r : tensor<70x100xf16> to memref<70x100xf16>
    %l_u = memref.cast %l_m : memref<70x100xf16> to memref<*xf16>
    func.call @printMemrefF16(%l_u) : (memref<*xf16>) -> ()
    %da = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<16x136xf16>
    %dw = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 11)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c5_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<102x136xf16>
    %dc = tensor.empty() : tensor<16x102xf32>
    %d_k0 = tensor.cast %da : tensor<16x136xf16> to tensor<16x?xf16>
    %d_k1 = tensor.cast %dw : tensor<102x136xf16> to tensor<?x?xf16>
    %d_k2 = tensor.cast %dc : tensor<16x102xf32> to tensor<16x?xf32>
    %d_kr = func.call @decode(%d_k0, %d_k1, %d_k2) : (tensor<16x?xf16>, tensor<?x?xf16>, tensor<16x?xf32>) -> tensor<16x?xf32>
    %d_r = tensor.cast %d_kr : tensor<16x?xf32> to tensor<16x102xf32>
    %d_m = bufferization.to_buffer %d_r : tensor<16x102xf32> to memref<16x102xf32>
    %d_u = memref.cast %d_m : memref<16x102xf32> to memref<*xf32>
    func.call @printMemrefF32(%d_u) : (memref<*xf32>) -> ()
    %wa = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x104xf16>
    %wb = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 11)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c5_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<72x104xf16>
    %wc = tensor.empty() : tensor<256x72xf32>
    %w_k0 = tensor.cast %wa : tensor<256x104xf16> to tensor<256x?xf16>
    %w_k1 = tensor.cast %wb : tensor<72x104xf16> to tensor<?x?xf16>
    %w_k2 = tensor.cast %wc : tensor<256x72xf32> to tensor<256x?xf32>
    %w_kr = func.call @wide(%w_k0, %w_k1, %w_k2) : (tensor<256x?xf16>, tensor<?x?xf16>, tensor<256x?xf32>) -> tensor<256x?xf32>
    %w_r = tensor.cast %w_kr : tensor<256x?xf32> to tensor<256x72xf32>
    %w_m = bufferization.to_buffer %w_r : tensor<256x72xf32> to memref<256x72xf32>
    %w_u = memref.cast %w_m : memref<256x72xf32> to memref<*xf32>
    func.call @printMemrefF32(%w_u) : (memref<*xf32>) -> ()
    %ea = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<256x200xbf16>
    %eb = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 11)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c5_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<200x256xbf16>
    %ec = tensor.empty() : tensor<256x256xf32>
    %e_k0 = tensor.cast %ea : tensor<256x200xbf16> to tensor<256x?xbf16>
    %e_k1 = tensor.cast %eb : tensor<200x256xbf16> to tensor<?x256xbf16>
    %e_r = func.call @deep(%e_k0, %e_k1, %ec) : (tensor<256x?xbf16>, tensor<?x256xbf16>, tensor<256x256xf32>) -> tensor<256x256xf32>
    %e_m = bufferization.to_buffer %e_r : tensor<256x256xf32> to memref<256x256xf32>
    %e_u = memref.cast %e_m : memref<256x256xf32> to memref<*xf32>
    func.call @printMemrefF32(%e_u) : (memref<*xf32>) -> ()
    %n1a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<64x40xf16>
    %n1b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 11)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c5_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<40x64xf16>
    %n1c = tensor.empty() : tensor<64x64xf32>
    %n1_k0 = tensor.cast %n1a : tensor<64x40xf16> to tensor<64x?xf16>
    %n1_k1 = tensor.cast %n1b : tensor<40x64xf16> to tensor<?x64xf16>
    %n1_r = func.call @narrow(%n1_k0, %n1_k1, %n1c) : (tensor<64x?xf16>, tensor<?x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %n1_m = bufferization.to_buffer %n1_r : tensor<64x64xf32> to memref<64x64xf32>
    %n1_u = memref.cast %n1_m : memref<64x64xf32> to memref<*xf32>
    func.call @printMemrefF32(%n1_u) : (memref<*xf32>) -> ()
    %n2a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<64x328xf16>
    %n2b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 11)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c5_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<328x64xf16>
    %n2c = tensor.empty() : tensor<64x64xf32>
    %n2_k0 = tensor.cast %n2a : tensor<64x328xf16> to tensor<64x?xf16>
    %n2_k1 = tensor.cast %n2b : tensor<328x64xf16> to tensor<?x64xf16>
    %n2_r = func.call @narrow(%n2_k0, %n2_k1, %n2c) : (tensor<64x?xf16>, tensor<?x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %n2_m = bufferization.to_buffer %n2_r : tensor<64x64xf32> to memref<64x64xf32>
    %n2_u = memref.cast %n2_m : memref<64x64xf32> to memref<*xf32>
    func.call @printMemrefF32(%n2_u) : (memref<*xf32>) -> ()
    %sq = tensor.generate {
    ^bb0(%i0: index, %i1: index, %i2: index):
      %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 9 + d1 * 3 + d2 * 5) mod 7)>(%i0, %i1, %i2)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<3x40x128xf16>
    %sk = tensor.generate {
    ^bb0(%i0: index, %i1: index, %i2: index):
      %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 6 + d1 * 2 + d2 * 3) mod 11)>(%i0, %i1, %i2)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c5_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<3x72x128xf16>
    %so = tensor.empty() : tensor<3x40x72xf32>
    %s_k0 = tensor.cast %sq : tensor<3x40x128xf16> to tensor<?x?x128xf16>
    %s_k1 = tensor.cast %sk : tensor<3x72x128xf16> to tensor<?x?x128xf16>
    %s_k2 = tensor.cast %so : tensor<3x40x72xf32> to tensor<?x?x?xf32>
    %s_kr = func.call @scores(%s_k0, %s_k1, %s_k2) : (tensor<?x?x128xf16>, tensor<?x?x128xf16>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %s_r = tensor.cast %s_kr : tensor<?x?x?xf32> to tensor<3x40x72xf32>
    %s_m = bufferization.to_buffer %s_r : tensor<3x40x72xf32> to memref<3x40x72xf32>
    %s_u = memref.cast %s_m : memref<3x40x72xf32> to memref<*xf32>
    func.call @printMemrefF32(%s_u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
}
