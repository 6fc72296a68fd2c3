// Random MatmulWgmma plans through gpucg-matmul-wgmma and the CPU emulator
// (Inputs/sweep-wgmma.py, docs/Emulation.md): each bit-exact against the
// untiled kernel in two schedules. The first 12 cases of seed 2 include
// warp-specialized plans with one stage and warpgroups of 128 rows with
// N != 128, the two plans this sweep found broken (a hang, wrong rows),
// and seven fused epilogues (f32 ReLU, f16, bf16 and i8 casts, with a row
// scale and a column bias), some on persistent grids, six kernels that
// accumulate into C (C += A * B), in clusters and on persistent grids too,
// a transposed A (case 0: A[k, m], in clusters, batched), two of f32
// operands multiplied as TF32 (cases 4 and 6), a dynamic N and K (case 3,
// asking for clusters on a persistent grid, neither taken), a dynamic
// batch size (case 9) and a small M with B[k, n] (case 10: one padded
// 64-row tile, C += A * B on a persistent grid).
// Longer sweeps:
//   python3 test/Integration/Emulation/Inputs/sweep-wgmma.py --help
// RUN: %python %S/Inputs/sweep-wgmma.py --gpucg-opt gpucg-opt \
// RUN:   --reference-runner '%mlir_runner_main' \
// RUN:   --emulated-runner '%mlir_runner_emulated' --seed 2 --count 12 \
// RUN:   --keep-dir %t | FileCheck %s --implicit-check-not=MISMATCH
// CHECK: sweep-wgmma: 12 cases, 0 failed
// Cases 25-29 of seed 2 include two of a dynamic M: one with a ReLU
// epilogue, one in clusters along N (which launches once refused as not
// dividing the grid's dynamic rows) and now also a dynamic N and K, which
// refuse those clusters; and a dynamic N with an f16 cast (case 26). Case
// 59 keeps clusters along N over a dynamic M (a batch of 3, an i8 cast).
// RUN: %python %S/Inputs/sweep-wgmma.py --gpucg-opt gpucg-opt \
// RUN:   --reference-runner '%mlir_runner_main' \
// RUN:   --emulated-runner '%mlir_runner_emulated' --seed 2 --first 59 \
// RUN:   --count 1 --keep-dir %t | FileCheck %s --check-prefix=ONE --implicit-check-not=MISMATCH
// ONE: sweep-wgmma: 1 cases, 0 failed
// RUN: %python %S/Inputs/sweep-wgmma.py --gpucg-opt gpucg-opt \
// RUN:   --reference-runner '%mlir_runner_main' \
// RUN:   --emulated-runner '%mlir_runner_emulated' --seed 2 --first 25 \
// RUN:   --count 5 --keep-dir %t | FileCheck %s --check-prefix=DYNAMIC --implicit-check-not=MISMATCH
// DYNAMIC: sweep-wgmma: 5 cases, 0 failed
// Split-K (split-k 2 or 3, drawn for a fifth of the kernels): cases 4, 12,
// 83 and 99 of seed 7 split a transposed small-M tile of f32 operands
// (TF32) in 3 parts, a transposed tile on two consumers with an f16 cast,
// an A[k, m] tile with a chained epilogue, and the strategy's plan with a
// chained ReLU (since 2026-12-02 of A[k, m] times B[n, k], computed as C^T
// = B^T * A^T on 128x128 tiles; the 17 cases among the first 100 of seeds 2, 5 and 7 whose
// plans take the split passed; 14 others decline it: one warpgroup, or a
// ring too small for the staging buffer).
// RUN: for i in 4 12 83 99; do %python %S/Inputs/sweep-wgmma.py --gpucg-opt gpucg-opt \
// RUN:   --reference-runner '%mlir_runner_main' \
// RUN:   --emulated-runner '%mlir_runner_emulated' --seed 7 --first $i \
// RUN:   --count 1 --keep-dir %t; done | FileCheck %s --check-prefix=SPLIT --implicit-check-not=MISMATCH
// SPLIT-COUNT-4: sweep-wgmma: 1 cases, 0 failed
