//===- GpucgBase.td - gpucg dialect definition -------------*- tablegen -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_DIALECT_GPUCG_IR_GPUCGBASE_TD
#define GPUCG_DIALECT_GPUCG_IR_GPUCGBASE_TD

include "mlir/IR/OpBase.td"

def Gpucg_Dialect : Dialect {
  let name = "gpucg";
  let cppNamespace = "::mlir::gpucg";
  let summary = "Decisions that gpucg's GPU code-generation passes hand on";
  let description = [{
    The `gpucg` dialect carries the decisions that one gpucg pass makes and a
    later one consumes, as attributes with verifiers rather than string
    markers:

    * `#gpucg.lowering_config` - tile sizes per tiling level of a root op;
    * `#gpucg.translation_info` - the pipeline, workgroup size, subgroup size,
      software-pipelining depth, store stage and MMA kind of a kernel;
    * `#gpucg.compilation_info` - both, as a user override on a root op;
    * `#gpucg.target` - a GPU target description with its hardware limits and
      the MMA instruction shapes it supports;
    * `#gpucg.mma_shape` - one MMA instruction shape.

    They are attached under the dialect-prefixed names `gpucg.target`
    (on a module), `gpucg.translation_info` (on a function),
    `gpucg.lowering_config` and `gpucg.compilation_info` (on the root op of a
    kernel); the dialect verifies the kind of attribute under each name.

    More names state what one pass made for a later one, so that the
    later pass need not recognise the IR's shape:

    * `gpucg.num_buffers = N : i64` on a `memref.alloc` that
      gpucg-multi-buffering made: its leading dimension (of size N) selects
      one of N copies of the original buffer;
    * `gpucg.workgroup_specialization` (a unit attribute) on the `scf.if`
      that gpucg-workgroup-specialization made: its `then` region runs the
      full, statically shaped tiles, its `else` region the partial ones;
    * `gpucg.row_pitch_specialization` (a unit attribute) on the `scf.if`
      that gpucg-row-pitch-specialization made: its `then` region runs where
      a run-time check found the row pitches of the matmul's operands
      multiples of 16 bytes (and views them through a
      `memref.reinterpret_cast` that says so), its `else` region elsewhere;
    * `gpucg.alignment = N : i64` on the `gpu.dynamic_shared_memory` that
      gpucg-build-gpu-launch made: its views' offsets assume a base aligned
      to N bytes (a power of two above 16; 1024 for 128-byte-swizzled TMA
      tiles), which gpucg-convert-to-nvvm gives the shared-memory symbol;
    * `gpucg.cluster_shape = array<i64: X, Y, Z>` on a kernel's workgroup
      loop (the `scf.forall` over `#gpu.block`) that
      gpucg-lower-matmul-to-wgmma made cluster-aware: its launch groups the
      workgroups into thread-block clusters of X x Y x Z (sm_90), which
      gpucg-build-gpu-launch gives the `gpu.launch` and
      gpucg-attach-nvvm-target the kernel (PTX `.reqnctapercluster`).
  }];

  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let discardableAttrs = (ins
    "::mlir::gpucg::TargetAttr":$target,
    "::mlir::gpucg::TranslationInfoAttr":$translation_info,
    "::mlir::gpucg::LoweringConfigAttr":$lowering_config,
    "::mlir::gpucg::CompilationInfoAttr":$compilation_info,
    "::mlir::IntegerAttr":$num_buffers,
    "::mlir::UnitAttr":$workgroup_specialization,
    "::mlir::UnitAttr":$row_pitch_specialization,
    "::mlir::IntegerAttr":$alignment,
    "::mlir::DenseI64ArrayAttr":$cluster_shape
  );
  let extraClassDeclaration = [{
  private:
    void registerAttributes();
  }];
}

#endif // GPUCG_DIALECT_GPUCG_IR_GPUCGBASE_TD
