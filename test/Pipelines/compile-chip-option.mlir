// gpucg-compile{chip=sm_80} on a module without a gpucg.target: the chip
// option reaches every stage, not only the strategy. The strategy picks
// 128x128x32 tiles and four stages (64 KB of workgroup memory), which
// gpucg-build-gpu-launch used to check against the 48 KB default of a
// module without a target ("more than the default target opt-in limit").
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{chip=sm_80 format=isa output-dir=%t})' -o %t/lowered.mlir
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=ABI < %t/matmul_4096_kernel.abi
// RUN: FileCheck %s --check-prefix=PTX < %t/matmul_4096_kernel.ptx

// format takes the names the files, the C API and Python use (ptx, cubin)
// as well as gpu-module-to-binary's (isa, bin): the same PTX.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{chip=sm_80 format=ptx output-dir=%t/ptx})' -o /dev/null
// RUN: cmp %t/matmul_4096_kernel.ptx %t/ptx/matmul_4096_kernel.ptx
// An option the lowering would refuse at its end is refused before
// anything runs, without the IR.
// RUN: not gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{chip=sm_80 opt-level=7})' 2>&1 | FileCheck %s --check-prefix=OPTLEVEL
// OPTLEVEL: error: invalid options for pipeline 'gpucg-compile': opt-level=7 is not an LLVM optimization level (0 to 3)
// OPTLEVEL-NOT: func.func

// report=true says the kernel's plan.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{chip=sm_80 format=isa report=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// REPORT: remark: plan of @matmul_4096: pipeline MatmulTensorCoreMmaSync (mma_sync 16x8x16), workgroup 64x2x1 threads, workgroup tile 128x128x32, warp tile 64x64x0, 4 stages on sm_80

// ABI: chip sm_80
// ABI: block_x 64
// ABI: block_y 2
// ABI: dynamic_shared_memory 65536

// PTX: .target sm_80
// PTX: .shared .align 16 .b8 __dynamic_shmem__0;

func.func @matmul_4096(%a: tensor<4096x4096xf16>, %b: tensor<4096x4096xf16>, %c: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<4096x4096xf16>, tensor<4096x4096xf16>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
