// Random MatmulWgmma plans through gpucg-matmul-wgmma and the CPU emulator
// (Inputs/sweep-wgmma.py, docs/Emulation.md): each bit-exact against the
// untiled kernel in two schedules. The first 12 cases of seed 2 include
// warp-specialized plans with one stage and warpgroups of 128 rows with
// N != 128, the two plans this sweep found broken (a hang, wrong rows),
// and seven fused epilogues (f32 ReLU, f16, bf16 and i8 casts, with a row
// scale and a column bias), some on persistent grids, six kernels that
// accumulate into C (C += A * B), in clusters and on persistent grids too,
// a transposed A (case 0: A[k, m], in clusters, batched) and two of f32
// operands multiplied as TF32 (cases 4 and 6).
// Longer sweeps:
//   python3 test/Integration/Emulation/Inputs/sweep-wgmma.py --help
// RUN: %python %S/Inputs/sweep-wgmma.py --gpucg-opt gpucg-opt \
// RUN:   --reference-runner '%mlir_runner_main' \
// RUN:   --emulated-runner '%mlir_runner_emulated' --seed 2 --count 12 \
// RUN:   --keep-dir %t | FileCheck %s --implicit-check-not=MISMATCH
// CHECK: sweep-wgmma: 12 cases, 0 failed
// Cases 25-29 of seed 2 include two of a dynamic M: one with a ReLU
// epilogue, one in clusters along N (which launches once refused as not
// dividing the grid's dynamic rows).
// RUN: %python %S/Inputs/sweep-wgmma.py --gpucg-opt gpucg-opt \
// RUN:   --reference-runner '%mlir_runner_main' \
// RUN:   --emulated-runner '%mlir_runner_emulated' --seed 2 --first 25 \
// RUN:   --count 5 --keep-dir %t | FileCheck %s --check-prefix=DYNAMIC --implicit-check-not=MISMATCH
// DYNAMIC: sweep-wgmma: 5 cases, 0 failed
