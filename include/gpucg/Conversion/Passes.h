//===- Passes.h - gpucg conversion passes -----------------------*- C++ -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The passes that take gpucg's distributed kernels to NVVM and binaries, and
// the named pipelines built from them.
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_CONVERSION_PASSES_H
#define GPUCG_CONVERSION_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

#include "gpucg/Transforms/LoweringStrategy.h"

namespace mlir {
namespace gpucg {

#define GEN_PASS_DECL
#include "gpucg/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gpucg/Conversion/Passes.h.inc"

/// The options that say what binary to make, shared by `gpucg-lower-to-nvvm`
/// and `gpucg-compile` (CRTP over PassPipelineOptions, so that each pipeline
/// keeps its own options type).
template <typename Derived>
struct BinaryPipelineOptions : public PassPipelineOptions<Derived> {
  template <typename T>
  using Option = ::mlir::detail::PassOptions::Option<T>;

  Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("Target chip (e.g. sm_80); if empty, the module's "
                     "gpucg.target (gpucg-compile needs one of the two; "
                     "gpucg-lower-to-nvvm falls back to sm_80)"),
      llvm::cl::init("")};
  Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features (e.g. +ptx80); if empty, LLVM's default "
                     "for the chip (the lowest PTX version it supports)"),
      llvm::cl::init("")};
  Option<gpu::CompilationTarget> format{
      *this, "format", llvm::cl::desc("What gpu-module-to-binary produces"),
      llvm::cl::init(gpu::CompilationTarget::Binary),
      llvm::cl::values(
          clEnumValN(gpu::CompilationTarget::Assembly, "isa", "PTX"),
          clEnumValN(gpu::CompilationTarget::Binary, "bin",
                     "a cubin (runs ptxas)"),
          clEnumValN(gpu::CompilationTarget::Fatbin, "fatbin",
                     "a fatbin (runs ptxas and fatbinary)"),
          // The names of the files, the C API and Python.
          clEnumValN(gpu::CompilationTarget::Assembly, "ptx",
                     "PTX (the same as isa)"),
          clEnumValN(gpu::CompilationTarget::Binary, "cubin",
                     "a cubin (the same as bin)"))};
  Option<unsigned> optLevel{*this, "opt-level",
                            llvm::cl::desc("LLVM optimization level (0-3)"),
                            llvm::cl::init(3)};
  Option<bool> barePointers{
      *this, "bare-pointers",
      llvm::cl::desc("Pass memref kernel arguments as bare pointers where "
                     "every memref argument of the kernel has a static shape "
                     "and an identity layout; memref descriptors otherwise"),
      llvm::cl::init(true)};
  /// What the lowering would refuse at its end, said before it starts:
  /// an error message, or empty.
  std::string validate() const {
    if (optLevel > 3)
      return "opt-level=" + std::to_string(optLevel) +
             " is not an LLVM optimization level (0 to 3)";
    return "";
  }

  Option<bool> nvvmFloat8{
      *this, "nvvm-float8",
      llvm::cl::desc("Convert f8E4M3FN and f8E5M2 with NVVM's cvt "
                     "instructions (sm_89+) instead of integer arithmetic; "
                     "off until checked on a GPU"),
      llvm::cl::init(false)};
};

/// Options of `gpucg-lower-to-nvvm`: from distributed kernels to binaries.
struct LowerToNVVMPipelineOptions
    : public BinaryPipelineOptions<LowerToNVVMPipelineOptions> {};

/// Options of `gpucg-compile`: a module of kernels on tensors to binaries
/// and their ABI files.
struct CompilePipelineOptions
    : public BinaryPipelineOptions<CompilePipelineOptions> {
  Option<std::string> outputDir{
      *this, "output-dir",
      llvm::cl::desc("Write each kernel's binary and .abi file here (nothing "
                     "written if empty)"),
      llvm::cl::init("")};
  Option<bool> deterministicReductions{
      *this, "deterministic-reductions",
      llvm::cl::desc("Never split a row of a floating-point sum "
                     "across workgroups (gpucg-select-lowering-strategy)"),
      llvm::cl::init(false)};
  Option<F32Precision> f32Precision{
      *this, "f32-precision",
      llvm::cl::desc("How contractions of f32 operands multiply them "
                     "(gpucg-select-lowering-strategy)"),
      llvm::cl::init(F32Precision::Tf32),
      llvm::cl::values(
          clEnumValN(F32Precision::Tf32, "tf32",
                     "on tensor cores as TF32 (10-bit mantissas, f32 "
                     "accumulation) where a tensor-core plan takes them"),
          clEnumValN(F32Precision::Ieee, "ieee",
                     "in IEEE f32 on the SIMT cores (pipeline MatmulSimt)"))};
  Option<bool> report{
      *this, "report",
      llvm::cl::desc("Say each kernel's plan in a remark (`plan of @F: ...`: "
                     "pipeline, MMA instruction, workgroup, tiles, stages, "
                     "and why a contraction is off the tensor cores; "
                     "gpucg-select-lowering-strategy's report)"),
      llvm::cl::init(false)};
  Option<bool> wgmmaPersistent{
      *this, "wgmma-persistent",
      llvm::cl::desc("MatmulWgmma kernels: warp-specialized ones loop over "
                     "their tiles on at most `wgmma-persistent-workgroups` "
                     "workgroups (gpucg-lower-workgroup)"),
      llvm::cl::init(false)};
  Option<int64_t> wgmmaPersistentWorkgroups{
      *this, "wgmma-persistent-workgroups",
      llvm::cl::desc("Workgroups of a persistent MatmulWgmma grid; 0: the "
                     "target's SM count"),
      llvm::cl::init(0)};
  Option<bool> wgmmaStagedStore{
      *this, "wgmma-staged-store",
      llvm::cl::desc("MatmulWgmma kernels without a fused epilogue: store C "
                     "through the staging buffer with 16-byte stores when "
                     "the ring holds it (gpucg-lower-workgroup)"),
      llvm::cl::init(false)};
  Option<int64_t> wgmmaClusterM{
      *this, "wgmma-cluster-m",
      llvm::cl::desc("MatmulWgmma kernels: workgroups of a thread-block "
                     "cluster along M, sharing B's tile by TMA multicast "
                     "(gpucg-lower-workgroup)"),
      llvm::cl::init(1)};
  Option<int64_t> wgmmaClusterN{
      *this, "wgmma-cluster-n",
      llvm::cl::desc("MatmulWgmma kernels: workgroups of a thread-block "
                     "cluster along N, sharing A's tile by TMA multicast"),
      llvm::cl::init(1)};
  Option<int64_t> workgroupGroupSize{
      *this, "workgroup-group-size",
      llvm::cl::desc("Start the workgroup loop's tiles in groups of this "
                     "many rows, column by column, for L2 reuse "
                     "(gpucg-reorder-workgroups); 0 or 1: row by row"),
      llvm::cl::init(0)};
};

/// Adds the passes of `gpucg-lower-to-nvvm` to `pm` (anchored on
/// builtin.module): gpu.launch construction, outlining, conversion to NVVM,
/// target attachment and serialization.
void buildLowerToNVVMPipeline(OpPassManager &pm,
                              const LowerToNVVMPipelineOptions &options);

/// Adds the passes of `gpucg-compile` to `pm` (anchored on builtin.module).
void buildCompilePipeline(OpPassManager &pm,
                          const CompilePipelineOptions &options);

/// Options of the test-only `gpucg-test-emulate-on-cpu`.
struct TestEmulateOnCpuPipelineOptions
    : public PassPipelineOptions<TestEmulateOnCpuPipelineOptions> {
  Option<bool> checkRaces{
      *this, "check-races",
      llvm::cl::desc("Report every workgroup-memory access to the emulator's "
                     "race detector"),
      llvm::cl::init(true)};
};

/// Test only: adds `gpucg-test-emulate-on-cpu` to `pm` (on builtin.module):
/// from the output of a workgroup pipeline to LLVM for the CPU, each
/// gpu.launch run by libgpucg_emulator (docs/Emulation.md).
void buildTestEmulateOnCpuPipeline(
    OpPassManager &pm, const TestEmulateOnCpuPipelineOptions &options);

/// Registers `gpucg-lower-to-nvvm`, `gpucg-compile` and
/// `gpucg-test-emulate-on-cpu`.
void registerGpucgConversionPipelines();

} // namespace gpucg
} // namespace mlir

#endif // GPUCG_CONVERSION_PASSES_H
