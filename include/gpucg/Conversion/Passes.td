//===- Passes.td - gpucg conversion passes -----------------*- tablegen -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_CONVERSION_PASSES_TD
#define GPUCG_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def BuildGPULaunch : Pass<"gpucg-build-gpu-launch", "func::FuncOp"> {
  let summary = "Wrap a distributed kernel's body in a gpu.launch built from its "
                "own grid, block and workgroup-memory facts";
  let description = [{
    Turns a kernel that the gpucg pipelines have distributed (a `func.func`
    with a `gpucg.translation_info` whose workgroups are one `scf.forall`
    mapped to `#gpu.block<...>`) into a host function holding one
    `gpu.launch`, ready for upstream's `gpu-kernel-outlining`:

    * the whole body moves inside the launch, so the thread ids, index math
      and workgroup allocations hoisted above the workgroup loop run in every
      workgroup (upstream's `generate_gpu_launch` wraps only the loop);
    * the workgroup `scf.forall` is replaced by its body, each induction
      variable becoming `lb + block_id * step` (non-unit steps and lower
      bounds are fine; upstream's `map_forall_to_blocks` refuses them). The
      grid is the loop's trip counts, computed on the host before the launch
      from constants and function arguments;
    * the block is the `translation_info` workgroup size;
    * workgroup-memory `memref.alloc`s become workgroup attributions of the
      launch when they fit in the target's static limit
      (`max_shared_memory_per_block`, 48 KB) and otherwise views of
      `gpu.dynamic_shared_memory`, with the byte count as the launch's dynamic
      shared memory size; both 16-byte aligned. Over the target's opt-in limit
      (`max_shared_memory_per_block_optin`) is an error.

    Functions without a `gpucg.translation_info` are left alone.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

def ConvertNVGPUToNVVM : Pass<"gpucg-convert-nvgpu-to-nvvm"> {
  let summary = "Upstream's nvgpu-to-nvvm conversion plus gpucg's patterns "
                "for what it lacks (bf16 mma.sync)";
  let description = [{
    Runs upstream's `populateNVGPUToNVVMConversionPatterns` together with
    gpucg's own patterns (`populateGpucgNVGPUToNVVMConversionPatterns`) for
    the `nvgpu` forms upstream leaves unconverted. Unlike upstream's pass, an
    `nvgpu` op left unconverted is an error naming it.
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect"
  ];
}

def ConvertToNVVM : Pass<"gpucg-convert-to-nvvm", "gpu::GPUModuleOp"> {
  let summary = "Lower a gpu.module of gpucg kernels to the LLVM and NVVM "
                "dialects in one conversion";
  let description = [{
    Lowers everything gpucg's pipelines leave in a `gpu.module` (linalg ops
    on buffers, as loops; `affine`, `scf`, `vector` including 1-D transfers
    on workgroup memory, `memref`, `arith`, `math`, `gpu`, `nvgpu` with
    gpucg's extra patterns) to the
    `llvm` and `nvvm` dialects, then checks that nothing else survived: an
    op from any other dialect is an error naming it.
  }];
  let options = [
    Option<"indexBitwidth", "index-bitwidth", "unsigned", "64",
           "Bit width of the index type in the kernel">,
    Option<"useBarePointers", "bare-pointers", "bool", "false",
           "Pass memref kernel arguments as bare pointers where every memref "
           "argument of the kernel has a static shape and an identity "
           "layout; memref descriptors otherwise">,
    Option<"nvvmFloat8", "nvvm-float8", "bool", "false",
           "Convert f8E4M3FN and f8E5M2 with NVVM's cvt instructions "
           "(sm_89+) instead of integer arithmetic (gpucg-expand-small-floats"
           "{nvvm-float8}); off until checked on a GPU">,
  ];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect"
  ];
}

def AttachNVVMTarget : Pass<"gpucg-attach-nvvm-target", "ModuleOp"> {
  let summary = "Attach an #nvvm.target for the module's gpucg.target to each "
                "gpu.module";
  let description = [{
    Like upstream's `nvvm-attach-target`, but the chip is the one the
    kernels were planned for: that of the `#gpucg.target`s on the module and
    inside it (a kernel function's own included), which must agree. A module
    without one is an error (a pipeline's `chip` option, through
    `gpucg-set-target`, gives it one).

    It also gives each kernel launched in thread-block clusters (a
    `gpu.launch_func` with cluster sizes, which outlining does not pass on
    to the kernel) the NVVM attribute `nvvm.cluster_dim`, so that the PTX
    declares `.reqnctapercluster` and a plain launch (the C runtime's
    `cuLaunchKernel`) runs it in those clusters. A kernel launched with
    two cluster shapes, or with a cluster size that is not a constant, is
    an error.
  }];
  let options = [
    Option<"features", "features", "std::string", "\"\"",
           "PTX features (e.g. +ptx80); LLVM's default for the chip if empty">,
    Option<"optLevel", "O", "unsigned", "3", "LLVM optimization level">,
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect",
                           "::mlir::gpucg::GpucgDialect"];
}

def ExportKernels : Pass<"gpucg-export-kernels", "ModuleOp"> {
  let summary = "Write each kernel's binary and launch facts (ABI) to files";
  let description = [{
    For every `gpu.launch_func` of a host function whose kernel module has
    been serialized (`gpu.binary`), writes into `output-dir`
    `<kernel>.cubin` (or `.ptx`, `.fatbin`, by the object's format) and
    `<kernel>.abi`, the launch facts a C program needs without MLIR: kernel
    symbol, grid (a number or a formula over argument sizes per dimension),
    block, dynamic shared memory, and the argument list (docs/ABI.md). The IR
    is left unchanged; an empty `output-dir` writes nothing.

    For a cubin, it reads what ptxas gave each kernel (registers, stack
    frame, static workgroup memory: KernelResources.h) and warns about a
    kernel that spills (a stack frame: gpucg's kernels keep no arrays in
    local memory); with `report`, it says all of it and the occupancy in a
    remark on the launch.
  }];
  let options = [
    Option<"outputDir", "output-dir", "std::string", "\"\"",
           "Directory to write the binaries and .abi files into">,
    Option<"useBarePointers", "bare-pointers", "bool", "false",
           "The kernels were lowered with bare-pointers=true: each kernel "
           "whose memref arguments allow it takes bare pointers">,
    Option<"report", "report", "bool", "false",
           "Say what ptxas gave each kernel of a cubin in a remark on its "
           "launch: registers, stack, workgroup memory, occupancy">,
  ];
}

#endif // GPUCG_CONVERSION_PASSES_TD
