# The command line, python -m gpucg.
#
# RUN: %sanitizer_preload %gpucg_python -m gpucg compile \
# RUN:   %S/../../examples/matmul_512x128x512_f16.mlir | FileCheck %s --check-prefix=PTX
# PTX: .target sm_80
# PTX: .visible .entry matmul_kernel(
# PTX: mma.sync.aligned.m16n8k16
#
# RUN: rm -rf %t && %sanitizer_preload %gpucg_python -m gpucg compile \
# RUN:   %S/../../examples/matmul_512x128x512_f16.mlir -o %t | FileCheck %s --check-prefix=SAVED
# RUN: FileCheck %s --check-prefix=ABI < %t/matmul_kernel.abi
# RUN: FileCheck %s --check-prefix=PTX < %t/matmul_kernel.ptx
# SAVED: matmul_kernel.abi
# ABI: kernel matmul_kernel
# ABI: format ptx
#
# RUN: %sanitizer_preload %gpucg_python -m gpucg compile \
# RUN:   %S/../../examples/matmul_512x128x512_f16.mlir -p gpucg-matmul-mma-sync \
# RUN:   | FileCheck %s --check-prefix=MODULE
# MODULE: nvgpu.mma.sync
#
# Rows of float sums split across workgroups, or kept whole.
# RUN: rm -rf %t.split %t.whole
# RUN: %sanitizer_preload %gpucg_python -m gpucg compile \
# RUN:   %S/../Pipelines/compile-split-rows.mlir -o %t.split > /dev/null
# RUN: FileCheck %s --check-prefix=SPLIT < %t.split/row_sum_kernel.abi
# RUN: %sanitizer_preload %gpucg_python -m gpucg compile --deterministic-reductions \
# RUN:   %S/../Pipelines/compile-split-rows.mlir -o %t.whole > /dev/null
# RUN: FileCheck %s --check-prefix=WHOLE < %t.whole/row_sum_kernel.abi
# SPLIT: grid_x 32
# SPLIT-NEXT: grid_y 8
# WHOLE: grid_x 32
# WHOLE-NEXT: grid_y 1
#
# --report says each kernel's plan on stderr.
# RUN: %sanitizer_preload %gpucg_python -m gpucg compile --report \
# RUN:   %S/../../examples/matmul_512x128x512_f16.mlir 2>&1 > /dev/null | FileCheck %s --check-prefix=REPORT
# REPORT: matmul_512x128x512_f16.mlir:6:10: remark: plan of @matmul: pipeline MatmulTensorCoreMmaSync (mma_sync 16x8x16), workgroup 64x2x1 threads, workgroup tile 32x32x32, warp tile 16x16x0, 4 stages on sm_80
#
# --f32-precision ieee: an f32 matmul in IEEE f32 on the SIMT cores.
# RUN: %sanitizer_preload %gpucg_python -m gpucg compile --report --f32-precision ieee --chip sm_80 \
# RUN:   %S/Inputs/matmul-f32.mlir 2>&1 > /dev/null | FileCheck %s --check-prefix=IEEE
# IEEE: remark: plan of @mm: pipeline MatmulSimt, {{.*}}; not on tensor cores: its f32 operands are to be multiplied in IEEE f32 (f32_precision="ieee")
#
# The compile cache: where it is, what it holds, --clear.
# RUN: rm -rf %t.cache
# RUN: env GPUCG_CACHE=1 GPUCG_CACHE_DIR=%t.cache %sanitizer_preload %gpucg_python -m gpucg compile \
# RUN:   %S/../../examples/matmul_512x128x512_f16.mlir > /dev/null
# RUN: env GPUCG_CACHE=1 GPUCG_CACHE_DIR=%t.cache %gpucg_python -m gpucg cache | FileCheck %s --check-prefix=CACHE
# CACHE: cache: 1 entries, {{[1-9][0-9]*}} bytes; on
# RUN: env GPUCG_CACHE_DIR=%t.cache %gpucg_python -m gpucg cache --clear | FileCheck %s --check-prefix=CLEAR
# CLEAR: gpucg: removed 1 entries from {{.*}}cache
#
# A copy of the package with no gpucg build to load (as once installed
# without GPUCG_LIB_DIR): what to do, with exit status 2, not a traceback.
# RUN: rm -rf %t.pkg && mkdir -p %t.pkg && cp -r %S/../../python/gpucg %t.pkg/
# RUN: env -u GPUCG_LIB_DIR PYTHONPATH=%t.pkg %gpucg_python -m gpucg compile \
# RUN:   %S/../../examples/matmul_512x128x512_f16.mlir > %t.nolib 2>&1; test $? -eq 2
# RUN: FileCheck %s --check-prefix=NOLIB < %t.nolib
# NOLIB: gpucg: cannot load libGpucgCAPI.so ({{.*}}); searched {{.*}}: build it (ninja -C build GpucgCAPI) or set GPUCG_LIB_DIR to the folder that holds it
# NOLIB-NOT: Traceback
# RUN: not %sanitizer_preload %gpucg_python -m gpucg compile %t.missing.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
# MISSING: gpucg: [Errno 2] No such file or directory: '{{.*}}missing.mlir'
#
# RUN: not %sanitizer_preload %gpucg_python -m gpucg compile %s 2>&1 \
# RUN:   | FileCheck %s --check-prefix=BAD
# BAD: cli.py:1:1: error:
# BAD: gpucg: parse error
#
# RUN: %sanitizer_preload %gpucg_python -m gpucg passes --options \
# RUN:   | FileCheck %s --check-prefix=PASSES
# PASSES: pass     gpucg-multi-buffering [func.func]: Multi-buffer
# PASSES-NEXT: num-buffers=0  Number of buffers
# PASSES: pipeline gpucg-compile [builtin.module]: From a module of linalg kernels
# PASSES: format=bin  What gpu-module-to-binary produces
#
# A sweep of workgroup tiles; without --run (or without a GPU) it compiles
# only, and an invalid configuration is reported, not fatal.
# RUN: %sanitizer_preload %gpucg_python -m gpucg bench \
# RUN:   %S/../../examples/matmul_512x128x512_f16.mlir \
# RUN:   --tiles 32x32x32,64x64x32,256x256x32 --workgroup 64x2x1 --depth 2 \
# RUN:   | FileCheck %s --check-prefix=BENCH
# BENCH:   32x32x32  compiled grid 16x16x1 block 64x2x1 dynamic smem 0
# BENCH:   64x64x32  compiled grid 8x8x1 block 64x2x1
# BENCH: 256x256x32  error {{.*}}bytes of shared memory
#
# With ptxas, each configuration's registers and spills (from its cubin):
# 128x256x32 on 4 warps spills and is flagged.
# RUN: %if ptxas %{ %sanitizer_preload %gpucg_python -m gpucg bench \
# RUN:   %S/../../examples/matmul_512x128x512_f16.mlir \
# RUN:   --tiles 32x32x32,128x256x32 --workgroup 64x2x1 --depth 2 \
# RUN:   | FileCheck %s --check-prefix=SPILLS %}
# SPILLS:   32x32x32  compiled{{ +}}grid {{.*}}; {{[0-9]+}} registers, 0 bytes spilled, {{[0-9]+}} workgroups per SM
# SPILLS: 128x256x32  SPILLS{{ +}}grid {{.*}}; {{[0-9]+}} registers, {{[1-9][0-9]*}} bytes spilled
