//===- GpucgAttrs.td - gpucg attributes --------------------*- tablegen -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_DIALECT_GPUCG_IR_GPUCGATTRS_TD
#define GPUCG_DIALECT_GPUCG_IR_GPUCGATTRS_TD

include "gpucg/Dialect/Gpucg/IR/GpucgBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

// The summary of each enum is the key it is parsed for: the generated parser
// reports "expected one of [...] for <summary>, got: <word>".
def Gpucg_Pipeline : I32EnumAttr<"Pipeline", "pipeline", [
  I32EnumAttrCase<"None", 0>,
  I32EnumAttrCase<"SimtDistribute", 1>,
  I32EnumAttrCase<"Vectorize", 2>,
  I32EnumAttrCase<"MatmulSimt", 3>,
  I32EnumAttrCase<"MatmulTensorCore", 4>,
  I32EnumAttrCase<"MatmulTensorCoreMmaSync", 5>,
  I32EnumAttrCase<"WarpReduction", 6>,
  // Hopper (sm_90a): TMA loads on mbarriers feeding warpgroup MMA.
  I32EnumAttrCase<"MatmulWgmma", 7>
]> {
  let cppNamespace = "::mlir::gpucg";
  let genSpecializedAttr = 0;
}

def Gpucg_MmaKind : I32EnumAttr<"MmaKind", "mma_kind", [
  I32EnumAttrCase<"Wmma", 0, "wmma">,
  I32EnumAttrCase<"MmaSync", 1, "mma_sync">
]> {
  let cppNamespace = "::mlir::gpucg";
  let genSpecializedAttr = 0;
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

class Gpucg_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Gpucg_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Gpucg_LoweringConfigAttr : Gpucg_Attr<"LoweringConfig", "lowering_config"> {
  let summary = "Tile sizes of a root op, one list per tiling level";
  let description = [{
    Level 0 tiles the root op's loops across workgroups, level 1 across warps
    (or threads), later levels within a thread. Each level lists one size per
    loop of the op, in loop order; a size of 0 leaves that loop untiled at
    that level.

    ```mlir
    #gpucg.lowering_config<tile_sizes = [[32, 32, 16], [16, 16, 16]]>
    ```
  }];
  let parameters = (ins "::mlir::ArrayAttr":$levels);
  let assemblyFormat = "`<` `tile_sizes` `=` custom<TileSizeLevels>($levels) `>`";
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<::llvm::SmallVector<int64_t>>":$tileSizes)>
  ];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Number of tiling levels.
    unsigned getNumLevels() const { return getLevels().size(); }
    /// Tile sizes of `level`; empty when the config has no such level.
    ::llvm::ArrayRef<int64_t> getTileSizes(unsigned level) const;
  }];
}

def Gpucg_TranslationInfoAttr
    : Gpucg_Attr<"TranslationInfo", "translation_info"> {
  let summary = "How a kernel is lowered: pipeline and launch shape";
  let description = [{
    Attached to a kernel function as `gpucg.translation_info`. Only `pipeline`
    is required; the other keys may be given in any order:

    * `workgroup_size = [x, y, z]` - threads per workgroup, each at least 1;
    * `subgroup_size = N` - threads per subgroup (warp), a power of two;
    * `pipeline_depth = N` - stages of the software-pipelined K loop, at
      least 1 (1: no multi-buffering), default 1;
    * `store_stage = 0|1` - the pipeline stage that writes workgroup memory,
      default 1;
    * `mma_kind = wmma|mma_sync` - the MMA instruction family; it must agree
      with a tensor-core pipeline and is only allowed on one;
    * `workgroup_group_size = G` - the workgroup loop's tiles start in groups
      of `G` rows of tiles, column by column, for L2 reuse
      (`gpucg-reorder-workgroups`), default 1 (the launch order);
    * `split_k = S` - split-K: the K loop of each output tile is split into
      `S` equal parts, one per workgroup along grid z; each workgroup writes
      its partial sum to the kernel's workspace (of the accumulator's type), and the last of a
      tile's workgroups to arrive adds the `S` parts up in a fixed order and
      runs the epilogue (`gpucg-combine-split-k`), so the result does not
      depend on timing; default 1 (no split). Only with pipelines
      `MatmulTensorCoreMmaSync` and `MatmulWgmma` (whose consumer
      warpgroups add the parts in the staging buffer).

    The launch shape of a `MatmulWgmma` kernel (only allowed on that
    pipeline):

    * `persistent_workgroups = N` - a persistent grid: `N` workgroups, each
      looping over tiles, instead of one workgroup per tile;
    * `cluster = [m, n]` - thread-block clusters of `m` workgroups along the
      matmul's M and `n` along its N, sharing tiles by TMA multicast; at most
      8 workgroups (the portable cluster size), default `[1, 1]`;
    * `staged_store = true` - a kernel without a fused epilogue stores its
      accumulator through the staging buffer in the ring of stages, with
      16-byte stores, rather than from registers; default false;
    * `stream_k = true` - stream-K on the persistent grid (which it needs):
      the K steps of the last one or two waves of tiles, in tile order, are
      split evenly over the `persistent_workgroups` (the tiles before them
      run whole), so that a workgroup may compute a part of a tile's K;
      each such part goes to the kernel's workspace, and the
      workgroup whose part completes the tile adds the parts in workgroup
      order and runs the epilogue, so the result does not depend on timing
      (the split-K protocol with K steps counted); default false. Not with
      `split_k`.

    `gpucg-select-lowering-strategy` chooses these from what the user asks
    for (its options) and what each kernel can use, and
    `gpucg-reorder-workgroups`, `gpucg-lower-matmul-to-wgmma` and
    `gpucg-build-gpu-launch` read them.

    ```mlir
    #gpucg.translation_info<pipeline = MatmulTensorCore,
                            workgroup_size = [64, 2, 1], subgroup_size = 32,
                            pipeline_depth = 4, store_stage = 1,
                            mma_kind = wmma, workgroup_group_size = 8>
    #gpucg.translation_info<pipeline = MatmulWgmma,
                            workgroup_size = [384, 1, 1], subgroup_size = 32,
                            pipeline_depth = 4, persistent_workgroups = 132,
                            cluster = [2, 1]>
    ```
  }];
  let parameters = (ins
    EnumParameter<Gpucg_Pipeline>:$pipeline,
    OptionalArrayRefParameter<"int64_t">:$workgroupSize,
    OptionalParameter<"std::optional<int64_t>">:$subgroupSize,
    DefaultValuedParameter<"int64_t", "1">:$pipelineDepth,
    DefaultValuedParameter<"int64_t", "1">:$storeStage,
    OptionalParameter<"std::optional<::mlir::gpucg::MmaKind>">:$mmaKind,
    DefaultValuedParameter<"int64_t", "1">:$workgroupGroupSize,
    OptionalParameter<"std::optional<int64_t>">:$persistentWorkgroups,
    OptionalArrayRefParameter<"int64_t">:$cluster,
    DefaultValuedParameter<"bool", "false">:$stagedStore,
    DefaultValuedParameter<"int64_t", "1">:$splitK,
    DefaultValuedParameter<"bool", "false">:$streamK
  );
  let builders = [
    // The plan of a kernel launched one workgroup per tile, in the launch
    // order (every pipeline but a MatmulWgmma with a launch shape).
    AttrBuilder<(ins "::mlir::gpucg::Pipeline":$pipeline,
                     "::llvm::ArrayRef<int64_t>":$workgroupSize,
                     "std::optional<int64_t>":$subgroupSize,
                     "int64_t":$pipelineDepth, "int64_t":$storeStage,
                     "std::optional<::mlir::gpucg::MmaKind>":$mmaKind), [{
      return $_get($_ctxt, pipeline, workgroupSize, subgroupSize,
                   pipelineDepth, storeStage, mmaKind,
                   /*workgroupGroupSize=*/int64_t(1),
                   /*persistentWorkgroups=*/std::optional<int64_t>(),
                   /*cluster=*/::llvm::ArrayRef<int64_t>(),
                   /*stagedStore=*/false, /*splitK=*/int64_t(1),
                   /*streamK=*/false);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The most parts a split-K plan splits K into: the last workgroup of a
    /// tile reads this many partial sums.
    static constexpr int64_t kMaxSplitK = 64;
    /// Workgroups of a thread-block cluster along the matmul's M and N (1
    /// when `cluster` is not set).
    int64_t getClusterM() const {
      return getCluster().empty() ? 1 : getCluster()[0];
    }
    int64_t getClusterN() const {
      return getCluster().empty() ? 1 : getCluster()[1];
    }
    /// Total number of threads of the workgroup, or std::nullopt when the
    /// workgroup size is not set.
    std::optional<int64_t> getNumThreads() const;
    /// The MMA instruction family of a tensor-core pipeline (WMMA or
    /// mma.sync), or std::nullopt for any other pipeline.
    std::optional<::mlir::gpucg::MmaKind> getTensorCoreMmaKind() const;
  }];
}

def Gpucg_CompilationInfoAttr
    : Gpucg_Attr<"CompilationInfo", "compilation_info"> {
  let summary = "A user's lowering decisions for one root op";
  let description = [{
    Placed on a kernel's root op as `gpucg.compilation_info`, it overrides
    what `gpucg-select-lowering-strategy` would choose; the strategy pass
    still verifies it against the target.

    ```mlir
    #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>,
      translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore,
                                                 workgroup_size = [64, 2, 1]>>
    ```
  }];
  let parameters = (ins
    "::mlir::gpucg::LoweringConfigAttr":$loweringConfig,
    "::mlir::gpucg::TranslationInfoAttr":$translationInfo
  );
  let assemblyFormat = [{
    `<` `lowering_config` `=` qualified($loweringConfig) `,`
        `translation_info` `=` qualified($translationInfo) `>`
  }];
}

def Gpucg_MmaShapeAttr : Gpucg_Attr<"MmaShape", "mma_shape"> {
  let summary = "One warp-level MMA instruction shape and its element types";
  let description = [{
    `MxNxK` with operand types `A * B -> C`, for one instruction family:

    ```mlir
    #gpucg.mma_shape<mma_sync, 16x8x16, f16 * f16 -> f32>
    ```

    TF32 instructions are listed with `f32` operands: they read f32 values
    and round them to TF32.
  }];
  let parameters = (ins
    EnumParameter<Gpucg_MmaKind>:$kind,
    "int64_t":$m, "int64_t":$n, "int64_t":$k,
    "::mlir::Type":$aType, "::mlir::Type":$bType, "::mlir::Type":$cType
  );
  let assemblyFormat = [{
    `<` $kind `,` custom<MmaDims>($m, $n, $k) `,`
        $aType `*` $bType `->` $cType `>`
  }];
  let genVerifyDecl = 1;
}

def Gpucg_TargetAttr : Gpucg_Attr<"Target", "target"> {
  let summary = "An NVIDIA GPU and the limits code generation must respect";
  let description = [{
    Attached to a module as `gpucg.target`. `chip` is required; for a known
    chip (`sm_75`, `sm_80`, `sm_86`, `sm_87`, `sm_89`, `sm_90`, `sm_90a`)
    every other key defaults to NVIDIA's published number for it and may be
    overridden. An unknown chip must give every key.

    * `warp_size` - threads per warp;
    * `max_threads_per_block`;
    * `max_shared_memory_per_block` - bytes of static shared memory a block
      may use without opting in;
    * `max_shared_memory_per_block_optin` - bytes with the opt-in
      (`cudaFuncAttributeMaxDynamicSharedMemorySize`);
    * `max_registers_per_block`, `max_registers_per_thread`;
    * `num_sms` - streaming multiprocessors of the GPU; for a known chip the
      count of its largest data-center part (A100: 108, H100 SXM: 132),
      which strategies use to size grids; override it for other parts;
    * `mma_shapes` - the `#gpucg.mma_shape`s the chip executes.

    ```mlir
    #gpucg.target<chip = "sm_80">
    #gpucg.target<chip = "sm_80", max_shared_memory_per_block_optin = 65536>
    ```
    The printed form always lists every limit.
  }];
  let parameters = (ins
    StringRefParameter<"chip name, e.g. sm_80">:$chip,
    "int64_t":$warpSize,
    "int64_t":$maxThreadsPerBlock,
    "int64_t":$maxSharedMemoryPerBlock,
    "int64_t":$maxSharedMemoryPerBlockOptin,
    "int64_t":$maxRegistersPerBlock,
    "int64_t":$maxRegistersPerThread,
    "int64_t":$numSms,
    ArrayRefParameter<"::mlir::gpucg::MmaShapeAttr">:$mmaShapes
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The description of a known chip from NVIDIA's published limits, or a
    /// null attribute when `chip` is not one gpucg knows.
    static TargetAttr getForChip(::mlir::MLIRContext *context,
                                 ::llvm::StringRef chip);
    /// Names of the chips getForChip knows, in ascending order.
    static ::llvm::ArrayRef<::llvm::StringRef> getKnownChips();
    /// Compute capability as major * 10 + minor (sm_80 -> 80).
    int64_t getComputeCapability() const;
    /// Whether the chip executes warpgroup MMA (`wgmma.mma_async`) and TMA:
    /// a known chip with PTX's sm_90 architecture-specific features
    /// (sm_90a); never an unknown chip.
    bool hasWarpgroupMma() const;
    /// Shapes of `kind` whose operand types are (a, b) and accumulator c.
    ::llvm::SmallVector<MmaShapeAttr> getMmaShapes(MmaKind kind,
        ::mlir::Type a, ::mlir::Type b, ::mlir::Type c) const;
  }];
}

#endif // GPUCG_DIALECT_GPUCG_IR_GPUCGATTRS_TD
