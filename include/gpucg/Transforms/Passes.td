//===- Passes.td - gpucg transformation passes -------------*- tablegen -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_TRANSFORMS_PASSES_TD
#define GPUCG_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def RemoveSingleIterationLoop
    : Pass<"gpucg-remove-single-iteration-loop", "func::FuncOp"> {
  let summary = "Inline scf.for and scf.forall loops proven to run exactly once";
  let description = [{
    Removes every `scf.for` and unmapped `scf.forall` that provably executes
    exactly one iteration, inlining its body with the induction variables
    replaced by the lower bounds and the results by the yielded values.

    A loop runs exactly once when `lb < ub` and `ub <= lb + step` (for each
    dimension of an `scf.forall`). Both are proven with upstream's
    `ValueBoundsOpInterface`, so bounds may be constants, `affine.apply` /
    `affine.min` / arith expressions, or GPU ids. When the function carries a
    `gpucg.translation_info` with a `workgroup_size`, the pass first records
    that size as the `upper_bound` of every `gpu.thread_id` in the function
    (keeping a tighter bound already present), which is what makes the loops
    that distribution creates over thread ids provable.

    Loops that cannot be proven are left alone, as are `scf.forall` ops with a
    `mapping` (their iterations are a distribution decision, not a loop) and
    loops with unsigned or non-index bounds whose trip count is not a
    constant.

    Before, in a function with `workgroup_size = [64, 2, 1]`:

    ```mlir
    %tid = gpu.thread_id x
    %r = scf.for %i = %tid to %c64 step %c64 iter_args(%acc = %init) -> (f32) {
      %v = memref.load %buf[%i] : memref<64xf32>
      %s = arith.addf %acc, %v : f32
      scf.yield %s : f32
    }
    ```

    After:

    ```mlir
    %tid = gpu.thread_id x upper_bound 64
    %v = memref.load %buf[%tid] : memref<64xf32>
    %r = arith.addf %init, %v : f32
    ```
  }];
}

def SimtFallback : Pass<"gpucg-simt-fallback", "func::FuncOp"> {
  let summary = "Re-plan kernels the SIMT stages cannot distribute as "
                "SimtDistribute";
  let description = [{
    gpucg's SIMT stages (`gpucg-simt`, and `gpucg-compile` for SIMT kernels)
    distribute each workgroup's tile over threads by per-thread level-1 tile
    sizes, which the pipelines SimtDistribute, Vectorize and MatmulSimt
    have. A kernel planned for any other pipeline (WarpReduction, whose own
    stages are `gpucg-warp-reduction`'s, or a tensor-core pipeline, whose
    level-1 sizes are per warp) is re-planned here as
    SimtDistribute on the same workgroups: the translation_info becomes
    SimtDistribute with the same workgroup size, and each op with a
    `gpucg.lowering_config` keeps its level-0 sizes and gets level-1 sizes
    of one element per thread on the (innermost three) parallel loops tiled
    at level 0, none on the reductions. Each thread then computes whole
    results, reductions serially, which is always correct. Runs after
    workgroup tiling (the workgroups and the grid do not change). Kernels
    already distributed over threads, kernels with pipeline None and
    functions without a `gpucg.translation_info` are left alone.

    Before (rows of 4096 f32, one row per workgroup of 1024 threads):

    ```mlir
    func.func @row_sum(...) attributes {gpucg.translation_info =
        #gpucg.translation_info<pipeline = WarpReduction,
          workgroup_size = [1024, 1, 1], subgroup_size = 32>} {
      ... linalg.generic {gpucg.lowering_config = #gpucg.lowering_config<
            tile_sizes = [[1, 4096], [0, 4]]>, ...}
    ```

    After:

    ```mlir
    func.func @row_sum(...) attributes {gpucg.translation_info =
        #gpucg.translation_info<pipeline = SimtDistribute,
          workgroup_size = [1024, 1, 1]>} {
      ... linalg.generic {gpucg.lowering_config = #gpucg.lowering_config<
            tile_sizes = [[1, 4096], [1, 0]]>, ...}
    ```

    With `keep-warp-reduction`, WarpReduction kernels are left to
    `gpucg-distribute-reduction` (the `gpucg-warp-reduction` pipeline
    re-plans only the others).
  }];
  let options = [
    Option<"keepWarpReduction", "keep-warp-reduction", "bool", "false",
           "Leave kernels planned as WarpReduction alone">,
  ];
}

def DecomposeAggregateOps : Pass<"gpucg-decompose-aggregate-ops",
                                 "func::FuncOp"> {
  let summary = "Decompose linalg ops with a decomposition (linalg.softmax) "
                "into structured ops";
  let description = [{
    Replaces each op implementing upstream's `linalg::AggregatedOpInterface`
    by the ops its `decomposeOperation` builds: `linalg.softmax` becomes a
    max reduction, the exponential of the difference, a sum reduction and a
    division, all `linalg.fill` / `linalg.generic`, which the lowering
    strategy makes one row kernel of. `gpucg-compile` runs it first. Such
    an op is no `LinalgOp`: undecomposed, it would stay on the host, and
    `gpucg-select-lowering-strategy` refuses it.

    Before:

    ```mlir
    %0 = linalg.softmax dimension(1) ins(%x : tensor<64x1024xf32>)
        outs(%out : tensor<64x1024xf32>) -> tensor<64x1024xf32>
    ```

    After:

    ```mlir
    %max = linalg.generic {... ["parallel", "reduction"]} ins(%x ...)
        outs(%filled ...) { arith.maxnumf ... }
    %exp = linalg.generic {...} ins(%x, %max ...) { arith.subf, math.exp }
    %sum = linalg.generic {... ["parallel", "reduction"]} ins(%exp ...)
        { arith.addf ... }
    %0 = linalg.generic {...} ins(%exp, %sum ...) { arith.divf ... }
    ```
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect", "::mlir::tensor::TensorDialect"
  ];
}

def CollapseElementwiseDims : Pass<"gpucg-collapse-elementwise-dims",
                                   "func::FuncOp"> {
  let summary = "Merge the loops of an elementwise kernel whose rows no "
                "128-bit vector divides";
  let description = [{
    A kernel over contiguous tensors whose innermost size is no multiple of
    a 128-bit vector (`tensor<64x4097xf16>`: an odd row) would be planned
    one element per thread, each row starting misaligned; its elements are
    one run in memory, so the same op over one loop of 262208 elements
    takes 128-bit vectors. For each all-parallel op on tensors whose
    operands are the function's arguments (its init also a `tensor.empty`),
    whose result only goes to `func.return`, and whose indexing maps keep
    its static trailing loops contiguous (identity maps), the pass merges
    those loops where their product takes a wider vector than the innermost
    size (upstream's `linalg::collapseOpIterationDims`): the operands become
    `tensor.collapse_shape`s, the result a `tensor.expand_shape`. A
    broadcast operand (a bias indexed by the column alone), a transposed
    one, an op feeding or fed by another, a dynamic trailing size and an op
    with a plan of its own are left alone. `gpucg-compile` and the other
    pipelines run it before `gpucg-select-lowering-strategy`.

    Before:

    ```mlir
    %r = linalg.generic {indexing_maps = [#id, #id, #id], ...}
        ins(%x, %y : tensor<64x4097xf16>, tensor<64x4097xf16>)
        outs(%e : tensor<64x4097xf16>) { arith.addf ... }
    ```

    After:

    ```mlir
    %xc = tensor.collapse_shape %x [[0, 1]] : tensor<64x4097xf16> into tensor<262208xf16>
    ...
    %g = linalg.generic {...} ins(%xc, %yc : tensor<262208xf16>, tensor<262208xf16>) ...
    %r = tensor.expand_shape %g [[0, 1]] output_shape [64, 4097] ...
    ```
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect"
  ];
}

def SplitKAcrossWorkgroups
    : Pass<"gpucg-split-k-across-workgroups", "func::FuncOp"> {
  let summary = "Give the parts of each split-K tile's K loop their own "
                "workgroups on grid z";
  let description = [{
    For kernels planned `MatmulTensorCoreMmaSync` or `MatmulWgmma` with
    `split_k = S` above 1 (after workgroup tiling and bufferization, first
    in their workgroup pipelines): the workgroup loop gets a dimension of
    `S` workgroups on grid z, and the root matmul of each reads its part of
    K, `K / S` elements of A and B starting at `part * K / S` (subviews).
    `gpu.known_grid_size` grows accordingly. The accumulator still starts
    from its fill of zero and the epilogue is unchanged: each workgroup now
    computes a partial sum, which `gpucg-combine-split-k` (mma.sync) or the
    MatmulWgmma kernel's consumers (`gpucg-lower-matmul-to-wgmma`) later
    add up across the tile's workgroups. A plan the strategy's checks refuse
    (`whyNoSplitK`: an unbatched static matmul whose parts are whole 16-byte
    vectors of A and B and at least two K steps) is an error here, too.

    ```mlir
    scf.forall (%m, %n, %part) = (0, 0, 0) to (128, 4096, 4) step (64, 64, 1) {
      %off = affine.apply affine_map<(d0) -> (d0 * 1024)>(%part)
      %a = memref.subview %arow[0, %off] [64, 1024] [1, 1] : ...
      %b = memref.subview %bcol[%off, 0] [1024, 64] [1, 1] : ...
      linalg.fill ins(%zero : f32) outs(%acc : memref<64x64xf32>)
      linalg.matmul ins(%a, %b : ...) outs(%acc : memref<64x64xf32>)
      ...  // the epilogue on %acc
    } {mapping = [#gpu.block<y>, #gpu.block<x>, #gpu.block<z>]}
    ```
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def CreateSplitKWorkspace
    : Pass<"gpucg-create-split-k-workspace", "ModuleOp"> {
  let summary = "Create the module-level partial sums and arrival counters "
                "of each split-K kernel";
  let description = [{
    For each function whose `gpucg.translation_info` has `split_k = S`
    above 1: two `memref.global`s that its workgroups share, named after the
    function, `__gpucg_split_k_partials_<function>` (`tiles * S * tile
    elements` of the accumulator's element type, uninitialized) and
    `__gpucg_split_k_counters_<function>` (one `i32` per output tile,
    zero-initialized). A stream-K kernel (`stream_k = true`) gets the same
    two, sized for its persistent grid of W workgroups: `2 * W` slots of a
    tile's f32 partial sums and one counter per tile, of K steps.
    `gpu-kernel-outlining` copies them into the kernel's
    `gpu.module`, so they live in the GPU's global memory from the moment
    the module is loaded: a caller provides nothing. Each launch leaves
    the counters zero again, so launches may follow each other; two
    launches of one loaded kernel must not run at the same time (streams
    that overlap), as they would share the buffers. Runs in the front of
    every pipeline, after bufferization; functions without split-K or
    stream-K are left alone.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def CombineSplitK : Pass<"gpucg-combine-split-k", "func::FuncOp"> {
  let summary = "Add up the partial sums of each split-K tile in the last "
                "workgroup that arrives, in a fixed order";
  let description = [{
    For a kernel split by `gpucg-split-k-across-workgroups`, after
    `gpucg-vector-to-gpu` (each K loop carries its mma.sync accumulators as
    vectors), after each K loop:

      1. every thread stores its accumulators into its slot of the
         function's partial sums (tile, part, accumulator, thread:
         consecutive threads' vectors side by side, so each warp's stores
         are contiguous), then `nvvm.memory.barrier #nvvm.mem_scope<gpu>`
         (`membar.gl`) and a `gpu.barrier`;
      2. thread 0 adds 1 to the tile's arrival counter
         (`memref.atomic_rmw addi`), fences again, and, if it was the last
         of the S, stores 0 back into the counter for the next launch; it
         tells the workgroup through a flag in workgroup memory and a
         `gpu.barrier`;
      3. the last workgroup adds the S partial sums, from part 0 to part
         S - 1 whichever part it is, and runs the rest of the tile (the
         epilogue, the stores to C) on the total, inside an `scf.if`; the
         other workgroups are done.

    The sum's order does not depend on timing, so the result is the same
    from run to run. The K loop's accumulators must start from zero (each
    part is a sum of its own products); a kernel with `split_k` above 1
    and no K loop, or one whose accumulators start from another value, is
    an error. Kernels without split-K are left alone.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect"
  ];
}

def ResultsToOutParams
    : Pass<"gpucg-results-to-out-params", "ModuleOp"> {
  let summary = "Make each buffer a function returns an output argument "
                "(a kernel writes its results into its arguments)";
  let description = [{
    After bufferization, a function that returned a new tensor
    (`tensor.empty` + ops writing it + `return`, as torch-mlir, StableHLO's
    lowering and people write linalg) returns the `memref.alloc` that holds
    it. A GPU kernel allocates nothing its caller sees: each such result
    becomes an argument appended to the function, which the caller
    allocates, and the allocation is replaced by it (upstream's
    `promoteBufferResultsToOutParams`, with its static and dynamic
    allocations hoisted to the callers, public functions included). Call
    sites in the module allocate the new argument before the call.

    Each new argument carries `gpucg.result`, its sizes as the caller
    computes them: a number, `"argN.dimD"` for a dynamic size that is
    dimension D of argument N (a `memref.dim` of it), or `"?"`.
    `gpucg-export-kernels` writes them into the `.abi` (`result` lines,
    docs/ABI.md), from which the C runtime and Python allocate outputs
    that are not passed.

    `gpucg-bufferize` runs it after one-shot bufferization and
    `drop-equivalent-buffer-results` (a result that is an argument, written
    in place, is no output to add).

    Before:

    ```mlir
    func.func @f(%a: memref<?x64xf16>) -> memref<?x72xf32> {
      %c0 = arith.constant 0 : index
      %m = memref.dim %a, %c0 : memref<?x64xf16>
      %r = memref.alloc(%m) : memref<?x72xf32>
      ... writes %r ...
      return %r : memref<?x72xf32>
    }
    ```

    After:

    ```mlir
    func.func @f(%a: memref<?x64xf16>,
                 %r: memref<?x72xf32> {gpucg.result = ["arg0.dim0", 72]}) {
      ... writes %r ...
      return
    }
    ```

    A returned buffer that the function does not allocate (a constant, a
    view of another buffer) would need a copy into the output on the host:
    an error names the `func.return` and the result. A call site of a
    function whose result has a size the caller cannot compute (a dynamic
    size that is not one of the callee's arguments) is an error of the
    upstream rewrite.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def SetTarget : Pass<"gpucg-set-target", "ModuleOp"> {
  let summary = "Describe the module's GPU by a chip name: the #gpucg.target "
                "every later pass reads";
  let description = [{
    The entry of every named pipeline that takes a `chip`: the one place a
    chip name becomes the module's `gpucg.target`, NVIDIA's published limits
    and MMA shapes of that chip (`#gpucg.target<chip = "sm_90a">` in full).
    Every pass after it, the strategy and `gpucg-attach-nvvm-target`
    included, reads the target from the IR; none takes a chip of its own.

    * Without `chip`, the module is left as it is: its own `gpucg.target`
      (or its kernels') describes the GPU.
    * A module whose `gpucg.target` already names the chip keeps it, with
      whatever limits it overrides.
    * A module whose `gpucg.target` names another chip is an error: the
      kernels were written for that one. Drop the attribute or the option.
    * A chip gpucg does not know is an error that lists the known ones; an
      unknown chip is described by a `gpucg.target` that gives every key.

    ```mlir
    // gpucg-set-target{chip=sm_90a}
    module attributes {gpucg.target = #gpucg.target<chip = "sm_90a",
        warp_size = 32, ..., num_sms = 132, mma_shapes = [...]>} { ... }
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Target chip (e.g. sm_80, sm_90a); empty: the module's own "
           "gpucg.target">,
  ];
  let dependentDialects = ["::mlir::gpucg::GpucgDialect"];
}

def SelectLoweringStrategy
    : Pass<"gpucg-select-lowering-strategy", "func::FuncOp"> {
  let summary = "Choose and verify the pipeline and tile sizes of a kernel";
  let description = [{
    For a kernel function (a `func.func` with a body that contains linalg
    ops), finds its root op and attaches

    * `gpucg.translation_info` to the function: pipeline, workgroup size,
      software-pipelining depth, store stage, MMA kind, and the launch shape
      the options ask for as far as the kernel can take it (workgroup order;
      a MatmulWgmma kernel's persistent grid, clusters, staged store:
      `applyLaunchRequest`, whose reasons for a part not taken the report
      gives);
    * `gpucg.lowering_config` to the root op: tile sizes per level (level 0
      workgroup, level 1 warp or thread, level 2 the MMA instruction).

    The root is the op with a `gpucg.compilation_info` or
    `gpucg.lowering_config`, else the only op with reduction loops, else the
    last linalg op. A `gpucg.compilation_info` wins over gpucg's choice; it is
    verified like one, completed with the levels it leaves out, and replaced
    by the two attributes above. Every failed rule is an error on the root op
    that names the numbers and the limit. Functions without linalg ops are
    left alone.

    The target is the closest `gpucg.target` (`gpucg-set-target` makes one
    of a chip name). The heuristics and their reasons are in
    `docs/passes/select-lowering-strategy.md`.

    Before:

    ```mlir
    module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
      func.func @mm(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>,
                    %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
        %0 = linalg.matmul ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>)
                           outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
        return %0 : tensor<512x512xf32>
      }
    }
    ```

    After:

    ```mlir
    func.func @mm(...) attributes {gpucg.translation_info =
        #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync,
          workgroup_size = [64, 2, 1], subgroup_size = 32,
          pipeline_depth = 4, mma_kind = mma_sync>} {
      %0 = linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<
          tile_sizes = [[32, 32, 32], [16, 16, 0], [16, 8, 16]]>} ...
    ```
  }];
  let options = [
    Option<"mma", "mma", "::mlir::gpucg::MmaPreference",
           /*default=*/"::mlir::gpucg::MmaPreference::Auto",
           "MMA family of tensor-core strategies",
           [{::llvm::cl::values(
             clEnumValN(::mlir::gpucg::MmaPreference::Auto, "auto",
                        "warpgroup MMA where sm_90a takes the matmul, else "
                        "mma.sync on sm_80 and newer, WMMA before"),
             clEnumValN(::mlir::gpucg::MmaPreference::Wmma, "wmma",
                        "WMMA (gpu.subgroup_mma_*)"),
             clEnumValN(::mlir::gpucg::MmaPreference::MmaSync, "mma-sync",
                        "mma.sync with ldmatrix (nvgpu.mma.sync)"),
             clEnumValN(::mlir::gpucg::MmaPreference::Wgmma, "wgmma",
                        "warpgroup MMA fed by TMA (pipeline MatmulWgmma, "
                        "sm_90a) only"))}]>,
    Option<"deterministicReductions", "deterministic-reductions", "bool",
           /*default=*/"false",
           "Never split a row of a floating-point sum across workgroups: "
           "their totals are added atomically in the order the workgroups "
           "finish, which can change the rounding from run to run (integer, "
           "min and max reductions are exact in any order)">,
    Option<"f32Precision", "f32-precision", "::mlir::gpucg::F32Precision",
           /*default=*/"::mlir::gpucg::F32Precision::Tf32",
           "How contractions of f32 operands multiply them",
           [{::llvm::cl::values(
             clEnumValN(::mlir::gpucg::F32Precision::Tf32, "tf32",
                        "on tensor cores as TF32 (10-bit mantissas, f32 "
                        "accumulation) where a tensor-core plan takes them"),
             clEnumValN(::mlir::gpucg::F32Precision::Ieee, "ieee",
                        "in IEEE f32 on the SIMT cores (pipeline "
                        "MatmulSimt)"))}]>,
    Option<"pipelineDepth", "pipeline-depth", "unsigned", /*default=*/"0",
           "Stages of the software-pipelined K loop (pipeline_depth) of every "
           "kernel planned for a tensor-core pipeline, at most one per K "
           "step, budgeted like the strategy's own; 0: the strategy's "
           "choice">,
    Option<"requireTensorCores", "require-tensor-cores", "bool",
           /*default=*/"false",
           "Make a kernel that gets no tensor-core strategy an error that "
           "says why (the named tensor-core pipelines set it)">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Say each kernel's plan in a remark on its root op (`plan of @F: "
           "...`: pipeline, MMA instruction, workgroup, tiles, stages, "
           "launch shape) and, for a contraction planned off the tensor "
           "cores or a launch shape asked for but not taken, why">,
    // The launch shape asked for (LaunchRequest). The named pipelines take
    // the same options, declared once in gpucg/Pipelines/Passes.h
    // (LaunchRequestOptions); check-docs.py holds the two together.
    Option<"workgroupGroupSize", "workgroup-group-size", "int64_t",
           /*default=*/"0",
           "Start the workgroup loop's tiles in groups of this many rows, "
           "column by column, for L2 reuse (workgroup_group_size, "
           "gpucg-reorder-workgroups); 1: row by row; 0: the strategy's "
           "default, groups of 8 rows for a wgmma matmul of more than one "
           "wave">,
    Option<"wgmmaPersistent", "wgmma-persistent", "bool", /*default=*/"false",
           "Warp-specialized MatmulWgmma kernels with more tiles than "
           "`wgmma-persistent-workgroups` loop over them on that many "
           "workgroups (persistent_workgroups)">,
    Option<"wgmmaPersistentWorkgroups", "wgmma-persistent-workgroups",
           "int64_t", /*default=*/"0",
           "Workgroups of a persistent MatmulWgmma grid; 0: the target's SM "
           "count">,
    Option<"wgmmaStreamK", "wgmma-stream-k", "bool", /*default=*/"false",
           "Warp-specialized MatmulWgmma kernels with a static K run "
           "stream-K on the persistent grid (which this takes): the last "
           "waves' K steps split evenly over its workgroups, a tile's parts "
           "added in workgroup order by the workgroup that completes it "
           "(stream_k)">,
    Option<"wgmmaStagedStore", "wgmma-staged-store", "bool",
           /*default=*/"false",
           "MatmulWgmma kernels without a fused epilogue store C through the "
           "staging buffer with 16-byte stores where the ring of stages "
           "holds it (staged_store)">,
    Option<"wgmmaClusterM", "wgmma-cluster-m", "int64_t", /*default=*/"1",
           "Warp-specialized MatmulWgmma kernels run in thread-block "
           "clusters of this many workgroups along M, sharing B's tile by "
           "TMA multicast, where the tiles divide (cluster)">,
    Option<"wgmmaClusterN", "wgmma-cluster-n", "int64_t", /*default=*/"1",
           "Workgroups of a MatmulWgmma thread-block cluster along N, "
           "sharing A's tile by TMA multicast">,
    Option<"splitK", "split-k", "int64_t", /*default=*/"0",
           "Split the K loop of each output tile of MatmulTensorCoreMmaSync "
           "and MatmulWgmma kernels into this many parts, one workgroup each "
           "on grid z (split_k): the parts meet in a workspace, added in a "
           "fixed order by the last workgroup of the tile; 1: no split; 0: "
           "the strategy's default, the fewest parts that give a workgroup "
           "to every SM where the tiles alone are fewer than the SMs">
  ];
  let dependentDialects = ["::mlir::gpucg::GpucgDialect"];
}

def TileAndDistributeToWorkgroups
    : Pass<"gpucg-tile-and-distribute-to-workgroups", "func::FuncOp"> {
  let summary = "Tile a kernel's root op into an scf.forall over workgroups";
  let description = [{
    Tiles the parallel loops of the root op (the op with a
    `gpucg.lowering_config`) by the level-0 tile sizes into an `scf.forall`
    mapped to `#gpu.block<x/y/z>` (the innermost tiled loop is x), with
    upstream's `tileConsumerAndFuseProducersUsingSCF`. The chain of
    elementwise consumers that follows the root (bias add, ReLU, casts) is
    tiled with it - the last of them is the op actually tiled - and every
    producer (`linalg.fill`, elementwise ops, the root) is fused into the
    tile. Reduction loops are not tiled here.

    It records the launch shape on the function with upstream's attributes:
    `gpu.known_block_size` from the workgroup size, and
    `gpu.known_grid_size` when the grid is static. A dynamic grid is
    computed, by whoever launches the kernel, from the `scf.forall` bounds.

    Ops on memrefs are tiled in place without fusion. Functions without a
    `gpucg.translation_info` are left alone.

    Before (`tile_sizes = [[32, 32, 16]]`):

    ```mlir
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
    %m = linalg.matmul {gpucg.lowering_config = ...}
           ins(%a, %b : ...) outs(%f : tensor<512x512xf32>) -> tensor<512x512xf32>
    ```

    After:

    ```mlir
    %r = scf.forall (%i, %j) = (0, 0) to (512, 512) step (32, 32)
        shared_outs(%o = %c) -> (tensor<512x512xf32>) {
      %fill = linalg.fill ... -> tensor<32x32xf32>
      %mm = linalg.matmul {gpucg.lowering_config = ...} ... -> tensor<32x32xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %mm into %o[%i, %j] [32, 32] [1, 1] ...
      }
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    ```
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def ReorderWorkgroups : Pass<"gpucg-reorder-workgroups", "func::FuncOp"> {
  let summary = "Group the workgroup loop's tiles for L2 reuse";
  let description = [{
    A GPU starts workgroups in the order of their linear id, x fastest. With
    the workgroup loop's rows of tiles on `#gpu.block<y>` and its columns on
    `#gpu.block<x>`, the workgroups resident together cover whole rows of
    tiles: few rows of A, but every column of B. With
    `workgroup_group_size = G` in the function's `gpucg.translation_info`
    (which `gpucg-select-lowering-strategy{workgroup-group-size=G}` plans),
    the workgroup of linear id `L` takes instead the tile of the group of `G`
    rows it falls in, column by column:

    ```
    within = L % (G * cols)
    row = L / (G * cols) * G + within % G     col = within / G
    ```

    so workgroups started together cover `G` rows and `1/G`th of the
    columns, sharing both operands in L2 (Triton's `GROUP_M`, IREE's
    workgroup swizzle). The order is a permutation of the tiles: every tile
    is still computed once, and the result does not change.

    The rewrite replaces the uses of the x and y induction variables of a
    workgroup `scf.forall` (all of its mapping `#gpu.block`, static bounds)
    by the reordered ones, computed at the start of its body; a z loop
    (batches) keeps its order. A loop without both x and y, with dynamic
    bounds, or with one row or one column of tiles is left alone, and so is
    every function without a `workgroup_group_size` above 1 (1 is the launch
    order itself). Groups are whole: `G` is the largest divisor of the rows
    of tiles not above `workgroup_group_size`, so the order stays affine (5
    rows with `workgroup_group_size = 2`: left alone).
    Run it once, after `gpucg-tile-and-distribute-to-workgroups`, as every
    named pipeline does.

    Before (4 x 3 tiles):

    ```mlir
    scf.forall (%i, %j) = (0, 0) to (512, 384) step (128, 128) {
      ... %a[%i, 0] ... %b[0, %j] ...
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    ```

    After (`workgroup_group_size = 2`):

    ```mlir
    scf.forall (%i, %j) = (0, 0) to (512, 384) step (128, 128) {
      %linear = affine.apply (%i floordiv 128) * 3 + %j floordiv 128
      %row = affine.apply (%linear floordiv 6) * 2 + %linear mod 2
      %col = affine.apply (%linear mod 6) floordiv 2
      %i2 = affine.apply %row * 128    %j2 = affine.apply %col * 128
      ... %a[%i2, 0] ... %b[0, %j2] ...
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    ```
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect"
  ];
}

def WorkgroupSpecialization
    : Pass<"gpucg-workgroup-specialization", "func::FuncOp"> {
  let summary = "Split partial workgroup tiles into a static full-tile path";
  let description = [{
    In a workgroup `scf.forall` (mapped to `#gpu.block`) on memrefs whose tile
    sizes are `affine.min(tile, remainder)`, wraps the body in

    ```mlir
    scf.if (every such min equals its tile size) { body with static sizes }
    else { the original body }
    ```

    and canonicalizes the `then` branch, so that full tiles - all but the
    last along each dimension - run on static shapes, as IREE's
    `WorkgroupSpecializationPass` did. Workgroup loops whose tiles always
    divide have no such `affine.min` and are left alone, as are mins whose
    operands are computed inside the loop body and `scf.forall` ops with
    tensor results (run the pass after bufferization).

    Before (100000 rows, tile 256):

    ```mlir
    scf.forall (%i) = (0) to (100000) step (256) {
      %size = affine.min affine_map<(d0) -> (-d0 + 100000, 256)>(%i)
      %in = memref.subview %arg0[%i, 0] [%size, 100] [1, 1] ...
      ...
    } {mapping = [#gpu.block<x>]}
    ```

    After:

    ```mlir
    scf.forall (%i) = (0) to (100000) step (256) {
      %size = affine.min affine_map<(d0) -> (-d0 + 100000, 256)>(%i)
      %full = arith.cmpi eq, %size, %c256 : index
      scf.if %full {
        %in = memref.subview %arg0[%i, 0] [256, 100] [1, 1] ...  // static
        ...
      } else {
        %in = memref.subview %arg0[%i, 0] [%size, 100] [1, 1] ...
        ...
      }
    } {mapping = [#gpu.block<x>]}
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::gpucg::GpucgDialect"];
}

def RowPitchSpecialization
    : Pass<"gpucg-row-pitch-specialization", "func::FuncOp"> {
  let summary = "Version workgroup tiles on their operands' run-time row "
                "pitches being 16-byte multiples";
  let description = [{
    A row pitch known only at run time (a dynamic K makes A's, a dynamic N
    B's) proves no alignment when the copies into workgroup memory are
    built, so they cannot be `cp.async` (which moves 4, 8 or 16 aligned
    bytes): they are register-staged, or one element at a time. Most sizes
    users run keep rows 16-byte aligned. In each workgroup `scf.forall`
    (mapped to `#gpu.block`) whose body holds a root (a linalg op with a
    `gpucg.lowering_config`) reading a global memref with such a pitch,
    this pass wraps the body in

    ```mlir
    scf.if (every such pitch, and a run-time offset, is a multiple of
            16 bytes) { body on an aligned view of each such memref }
    else { the original body }
    ```

    marked `gpucg.row_pitch_specialization`. The aligned view is a
    `memref.reinterpret_cast` of the same type whose run-time strides are
    `(stride floordiv E) * E` (E elements in 16 bytes): equal to the
    strides where the check holds, and a multiple of E that
    gpucg-distribute-shared-memory-copy and gpucg-vector-to-gpu read
    (getKnownRowPitchMultiple) to take 16-byte async copies. Run it after
    bufferization (and gpucg-workgroup-specialization, whose branches it
    wraps), before gpucg-tile-and-distribute. Memrefs whose static layout
    misaligns rows whatever the pitch (a static stride of 33 f16), element
    types of 16 bytes or more or not whole bytes, and bodies it already
    versioned are left alone.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::gpucg::GpucgDialect"];
}

def StripAttributes : Pass<"gpucg-strip-attributes"> {
  let summary = "Remove every gpucg.* attribute";
  let description = [{
    Removes the `gpucg.target`, `gpucg.translation_info`,
    `gpucg.lowering_config` and `gpucg.compilation_info` attributes from
    every op nested under the one it runs on, for handing IR to a tool that
    does not load the gpucg dialect (`mlir-runner`, `mlir-translate`). The
    decisions must have been consumed by then.

    ```mlir
    func.func @k() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = None>}
    // becomes
    func.func @k()
    ```
  }];
}

def TileAndDistribute : Pass<"gpucg-tile-and-distribute", "func::FuncOp"> {
  let summary = "Tile K, promote to workgroup memory, distribute to warps or threads";
  let description = [{
    The in-workgroup half of IREE's `LLVMGPUTileAndDistribute`, on upstream
    ops and without markers. For each copy of the root op (the op with a
    `gpucg.lowering_config`; workgroup specialization makes two) of a
    bufferized, workgroup-tiled kernel:

    1. tensor-core matmuls get their accumulator staged in workgroup
       memory: each warp initializes its own part (with the constant of a
       `linalg.fill` of C, which is then erased, else with a copy of C) and
       the workgroup copies the tile out after the K loop;
       `gpucg-tensor-core-vectorization` keeps it in registers in between;
    2. the reduction loops are tiled by the level-0 sizes into a serial
       `scf.for`;
    3. matmuls of workgroups with more than one warp get A and B promoted
       to workgroup memory inside the K loop (upstream
       `linalg::promoteSubViews`, `#gpu.address_space<workgroup>` allocs at
       the function entry, `linalg.copy` between `gpu.barrier`s);
    4. the parallel loops of the root and of the other linalg ops of its
       tile (fill, elementwise consumers) are tiled by the level-1 sizes and
       distributed cyclically over warps (`distribute-to-warp=true`, tensor-
       core pipelines: `gpu.thread_id x / 32` over N, `gpu.thread_id y` over
       M) or threads (SIMT pipelines: x over the innermost tiled loop, then
       y, z). The partial-tile branch of workgroup specialization, which no
       MMA fits, is distributed over threads one element at a time even on
       tensor-core pipelines: warp-level scalar ops would have every lane of
       a warp update the same elements;
    5. the function is canonicalized with the single-iteration-loop
       patterns, thread ids bounded by the workgroup size, so that the
       warp / thread tiles are static.

    Seed: `512x128 * 128x512` f16, tile `[32, 32, 16]`, workgroup
    `[64, 2, 1]` -> a K loop of 8 steps, A `32x16`, B `16x32` and C `32x32`
    in workgroup memory, 2x2 warps each computing `16x16x16`:

    ```mlir
    %a_smem = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
    ...
    gpu.barrier
    linalg.copy ins(%c_tile ...) outs(%c_smem ...)
    gpu.barrier
    scf.for %k = %c0 to %c128 step %c16 {
      gpu.barrier
      linalg.copy ins(%a_tile ...) outs(%a_smem ...)
      gpu.barrier
      gpu.barrier
      linalg.copy ins(%b_tile ...) outs(%b_smem ...)
      gpu.barrier
      %wm = affine.apply ... (%tid_y)          // warp row
      %wn = affine.apply ... (%tid_x / 32)     // warp column
      linalg.matmul ins(subview %a_smem [16, 16], subview %b_smem [16, 16])
                    outs(subview %c_smem [16, 16])
    }
    gpu.barrier
    linalg.copy ins(%c_smem ...) outs(%c_tile ...)
    ```
  }];
  let options = [
    Option<"distributeToWarp", "distribute-to-warp", "bool",
           /*default=*/"false",
           "Distribute to warps (tensor-core pipelines) instead of threads">
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def MultiBuffering : Pass<"gpucg-multi-buffering", "func::FuncOp"> {
  let summary = "Multi-buffer the workgroup-memory allocations of the K loop";
  let description = [{
    Hoists statically shaped workgroup-memory (`#gpu.address_space<workgroup>`)
    allocations to the function entry, then multi-buffers each one whose
    users are all inside one `scf.for` with upstream `memref::multiBuffer`:
    the allocation gets a leading dimension of `num-buffers` and iteration
    `iv` uses buffer `((iv - lb) / step) mod num-buffers`, so that software
    pipelining can fill one buffer while another is read. Allocations used
    outside loops (the staged accumulator, written after the K loop) are
    left alone. An allocation used only inside loops that cannot
    be multi-buffered (users in two loops, data carried from one iteration
    to the next) is an error, since pipelining depends on it.

    `num-buffers=0` (the default) takes the count from the function's
    `gpucg.translation_info` `pipeline_depth`; a count of 1 only hoists.

    ```mlir
    %a = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c128 step %c16 {
      linalg.copy ins(%ak ...) outs(%a ...)
      ...
    }
    ```

    becomes, with `num-buffers=3`,

    ```mlir
    %a = memref.alloc() : memref<3x32x16xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c128 step %c16 {
      %i = affine.apply affine_map<(d0) -> ((d0 floordiv 16) mod 3)>(%k)
      %ai = memref.subview %a[%i, 0, 0] [1, 32, 16] [1, 1, 1] ...
      linalg.copy ins(%ak ...) outs(%ai ...)
      ...
    }
    ```
  }];
  let options = [
    Option<"numBuffers", "num-buffers", "unsigned", /*default=*/"0",
           "Number of buffers (0: the translation_info's pipeline_depth)">
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::gpucg::GpucgDialect"];
}

def TestSerializeThreads
    : Pass<"gpucg-test-serialize-threads", "func::FuncOp"> {
  let summary = "Test only: run the threads of a workgroup one after another";
  let description = [{
    For CPU execution of thread-distributed kernels in tests: wraps the body
    of each workgroup (the `#gpu.block` `scf.forall`, or the function) in
    `scf.for` loops over z, y and x up to the function's
    `gpu.known_block_size`, and replaces `gpu.thread_id` by the induction
    variables. Only threads that do not synchronize can run one after
    another: a function with a `gpu.barrier` is an error, as is one without
    a known block size. Functions without `gpu.thread_id` are left alone.

    ```mlir
    scf.forall (%i) in (4) {
      %tid = gpu.thread_id x
      "use"(%tid) : (index) -> ()
    } {mapping = [#gpu.block<x>]}
    ```

    becomes, with `gpu.known_block_size = array<i32: 32, 1, 1>`,

    ```mlir
    scf.forall (%i) in (4) {
      scf.for %tz = %c0 to %c1 step %c1 {
        scf.for %ty = %c0 to %c1 step %c1 {
          scf.for %tx = %c0 to %c32 step %c1 {
            "use"(%tx) : (index) -> ()
          }
        }
      }
    } {mapping = [#gpu.block<x>]}
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TensorCoreVectorization
    : Pass<"gpucg-tensor-core-vectorization", "func::FuncOp"> {
  let summary = "Vectorize warp-level linalg ops to MMA-instruction-shaped vectors";
  let description = [{
    For a tensor-core kernel (after `gpucg-tile-and-distribute`): vectorizes
    every static linalg op but the workgroup-wide copies and the scalar
    partial-tile branch of workgroup specialization with upstream
    `linalg::vectorize`, turns reductions of products into `vector.contract`,
    drops unit dimensions, canonicalizes the contractions for MMA
    (`populatePrepareVectorToMMAPatterns`), unrolls `vector.contract` and the
    reads, writes and elementwise ops around it to the instruction shape of
    the root's `lowering_config` level 2 (WMMA 16x16x16 / 16x16x8 TF32;
    mma.sync 16x8x16 / 16x8x8 TF32 / 16x8x32 i8), hoists the
    accumulator's reads and writes out of the K loop, forwards its first
    value from its initialization (zeros in registers, no store and read
    back), and puts a barrier before its write-back to workgroup memory.

    ```mlir
    linalg.matmul ins(%a : memref<16x16xf16, ...>, %b : memref<16x16xf16, ...>)
                  outs(%c : memref<16x16xf32, ...>)
    ```

    becomes, for mma.sync (m16n8k16),

    ```mlir
    %a0 = vector.transfer_read %a[%c0, %c0] ... : memref<...>, vector<16x16xf16>
    %b0 = vector.transfer_read %b[%c0, %c0] ... : memref<...>, vector<8x16xf16>
    %b1 = vector.transfer_read %b[%c8, %c0] ... : memref<...>, vector<8x16xf16>
    %d0 = vector.contract {...} %a0, %b0, %acc0 : vector<16x16xf16>, vector<8x16xf16> into vector<16x8xf32>
    %d1 = vector.contract {...} %a0, %b1, %acc1 : vector<16x16xf16>, vector<8x16xf16> into vector<16x8xf32>
    ```
  }];
  let options = [
    Option<"mma", "mma", "::mlir::gpucg::MmaPreference",
           /*default=*/"::mlir::gpucg::MmaPreference::Auto",
           "MMA family; a value that contradicts the pipeline is an error",
           [{::llvm::cl::values(
             clEnumValN(::mlir::gpucg::MmaPreference::Auto, "auto",
                        "the family of the kernel's pipeline"),
             clEnumValN(::mlir::gpucg::MmaPreference::Wmma, "wmma",
                        "WMMA (gpu.subgroup_mma_*)"),
             clEnumValN(::mlir::gpucg::MmaPreference::MmaSync, "mma-sync",
                        "mma.sync with ldmatrix (nvgpu.mma.sync)"))}]>
  ];
  let dependentDialects = [
    "::mlir::vector::VectorDialect", "::mlir::arith::ArithDialect"
  ];
}

def GenericVectorization
    : Pass<"gpucg-generic-vectorization", "func::FuncOp"> {
  let summary = "Vectorize each thread's statically shaped linalg ops";
  let description = [{
    For SIMT kernels after `gpucg-tile-and-distribute`: every linalg op
    whose iteration space is static and has at most `max-vector-elements`
    points (a thread's tile) becomes vector ops with upstream
    `linalg::vectorize`: `vector.transfer_read` of each operand over the
    whole tile, the body on vectors, reductions as `vector.multi_reduction`
    into the output's vector, and a `vector.transfer_write` of the result.
    Larger ops, dynamically shaped ones (the partial-tile path of workgroup
    specialization), empty ones, ops the vectorizer does not take (its
    precondition) and workgroup-wide copies to or from workgroup memory
    (`gpucg-distribute-shared-memory-copy`'s business) are left alone; the
    loop lowering runs them as scalar loops, so the pass never changes what
    a kernel computes, only how.

    A thread's part of the 100000x100 row sum `addf(addf(a, b), acc)`
    (4 rows, a K step of 4):

    ```mlir
    linalg.generic {iterator_types = ["parallel", "reduction"], ...}
        ins(%a, %b : memref<4x4xf32, strided<[100, 1], offset: ?>>, ...)
        outs(%c : memref<4xf32, strided<[1], offset: ?>>) { ... }
    ```

    becomes

    ```mlir
    %va = vector.transfer_read %a[%c0, %c0], %pad {in_bounds = [true, true]} : memref<4x4xf32, ...>, vector<4x4xf32>
    %vb = vector.transfer_read %b[%c0, %c0], %pad {in_bounds = [true, true]} : memref<4x4xf32, ...>, vector<4x4xf32>
    %vc = vector.transfer_read %c[%c0], %pad {in_bounds = [true]} : memref<4xf32, ...>, vector<4xf32>
    %s = arith.addf %va, %vb : vector<4x4xf32>
    %r = vector.multi_reduction <add>, %s, %vc [1] : vector<4x4xf32> to vector<4xf32>
    vector.transfer_write %r, %c[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32, ...>
    ```
  }];
  let options = [
    Option<"maxVectorElements", "max-vector-elements", "int64_t",
           /*default=*/"64",
           "Largest iteration space (product of the loop sizes) vectorized; "
           "larger ops stay scalar loops. Must be positive">
  ];
  let dependentDialects = [
    "::mlir::vector::VectorDialect", "::mlir::arith::ArithDialect"
  ];
}

def OptimizeVectorTransfers
    : Pass<"gpucg-optimize-vector-transfers", "func::FuncOp"> {
  let summary = "Keep accumulators in registers across loops and forward "
                "vector stores to loads";
  let description = [{
    Cleans up the vector transfers of vectorized thread code:
      1. leading unit dimensions are cast away (`vector<1x4xf32>` reads and
         writes become `vector<4xf32>` ones), so that each transfer is one
         1-D access;
      2. loop-invariant code is hoisted out of every `scf.for`, and then each
         `vector.transfer_read` / `vector.transfer_write` pair of the loop on
         the same loop-invariant location is moved out of it, the vector
         carried in `iter_args`: a reduction's accumulator stays in registers
         across the K loop, read once before and written once after. Only
         for locations in buffers no other buffer aliases (an allocation or
         a kernel argument) that nothing else in the loop touches;
      3. in functions without `gpu.barrier` (whose threads then share no
         memory they write), upstream's store-to-load forwarding and
         dead-store elimination (`vector::transferOpflowOpt`).

    ```mlir
    scf.for %k = %c0 to %c100 step %c4 {
      %acc = vector.transfer_read %c[%i], %pad : memref<100000xf32>, vector<4xf32>
      %r = vector.multi_reduction <add>, %v, %acc [1] : vector<4x4xf32> to vector<4xf32>
      vector.transfer_write %r, %c[%i] : vector<4xf32>, memref<100000xf32>
    }
    ```

    becomes

    ```mlir
    %init = vector.transfer_read %c[%i], %pad : memref<100000xf32>, vector<4xf32>
    %sum = scf.for %k = %c0 to %c100 step %c4 iter_args(%acc = %init) -> (vector<4xf32>) {
      %r = vector.multi_reduction <add>, %v, %acc [1] : vector<4x4xf32> to vector<4xf32>
      scf.yield %r : vector<4xf32>
    }
    vector.transfer_write %sum, %c[%i] : vector<4xf32>, memref<100000xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::vector::VectorDialect", "::mlir::scf::SCFDialect"
  ];
}

def PromoteThreadBuffers
    : Pass<"gpucg-promote-thread-buffers", "func::FuncOp"> {
  let summary = "Put a kernel's small per-thread temporary buffers on the "
                "thread's stack";
  let description = [{
    Bufferization gives a tile's temporaries (a fused producer's result, an
    accumulator from `tensor.empty` + `linalg.fill`) `memref.alloc` ops in
    the default memory space. In a kernel every thread that runs one
    allocates its own buffer: the NVVM lowering makes it a device `malloc`
    that nothing frees. This pass turns each statically shaped `memref.alloc`
    of at most `max-bytes` bytes in the default memory space (integers and
    floats; not workgroup memory, not returned) into a `memref.alloca` with
    the same alignment, and erases its `memref.dealloc`s; LLVM keeps such
    buffers in registers when their accesses are static. Larger buffers stay
    as they are. Unlike upstream's `promote-buffers-to-stack`, which decides
    by size alone, it leaves workgroup memory alone.

    ```mlir
    %acc = memref.alloc() {alignment = 64 : i64} : memref<1xf32>
    ```

    becomes

    ```mlir
    %acc = memref.alloca() {alignment = 64 : i64} : memref<1xf32>
    ```
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"1024",
           "Largest buffer put on the stack, in bytes (at least 0)">
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def SplitRowsAcrossWorkgroups
    : Pass<"gpucg-split-rows-across-workgroups", "func::FuncOp"> {
  let summary = "Give the parts of each long WarpReduction row their own "
                "workgroups, combined atomically";
  let description = [{
    For kernels planned `WarpReduction` (after workgroup tiling and
    bufferization, one row of the innermost reduction loop per workgroup)
    whose root has a level-0 tile `t` of the reduction loop less than its
    rows of `n` elements (the strategy plans this for few long rows, which
    would leave SMs idle): the workgroup loop gets one more dimension, of
    `n / t` workgroups on the first grid dimension no row loop uses, and
    each workgroup
      1. reduces its `t` elements of the row (a `memref.subview` of each
         input) into a private total, filled with the combiner's neutral
         element;
      2. combines that total into the accumulator with `memref.atomic_rmw`
         (`memref.generic_atomic_rmw`, a compare-and-swap loop, for
         integer products).
    `gpu.known_grid_size` grows accordingly, and `gpucg-distribute-reduction`
    then splits each part over the workgroup's threads, thread 0 issuing the
    atomic update. Workgroups finish in any order, so floating-point sums are
    rounded in an order that can change from run to run
    (`deterministic-reductions` on the strategy keeps such rows whole).

    The root must be the only op of its tile, its accumulator a view of a
    kernel argument of 8, 16 or 32 bits (not a floating-point product, which
    has no atomic form), its inputs indexed along the row by
    the row loop alone, and a grid dimension must be free; otherwise the pass
    fails with an error that says which. Roots that reduce whole rows and
    kernels of other pipelines are left alone.

    Rows of 1048576 f32 in 16 parts of 65536:

    ```mlir
    scf.forall (%row, %part) in (32, 16) {
      %off = affine.apply affine_map<(d0) -> (d0 * 65536)>(%part)
      %in = memref.subview %a[%row, %off] [1, 65536] [1, 1] : ...
      %acc = memref.subview %out[%row] [1] [1] : ...
      %t = memref.alloca() : memref<1xf32>
      linalg.fill ins(%zero : f32) outs(%t : memref<1xf32>)
      linalg.generic ... ins(%in : ...) outs(%t : memref<1xf32>)
      %v = memref.load %t[%c0] : memref<1xf32>
      %old = memref.atomic_rmw addf %v, %acc[%c0] : (f32, memref<1xf32, ...>) -> f32
    } {mapping = [#gpu.block<x>, #gpu.block<y>]}
    ```
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def LowerMatmulToWgmma
    : Pass<"gpucg-lower-matmul-to-wgmma", "func::FuncOp"> {
  let summary = "Lower a MatmulWgmma workgroup's matmul to TMA loads on "
                "mbarriers feeding warpgroup MMA (sm_90a)";
  let description = [{
    For kernels planned `MatmulWgmma` (after workgroup tiling and
    bufferization): the workgroup's `linalg.matmul` C[m, n] += A[m, k] *
    B[k, n] (or A[m, k] * B[n, k]) on f16 or bf16 operands, or on f8E4M3FN
    or f8E5M2 ones with B[n, k] (wgmma transposes 16-bit operands only),
    whose f32 accumulator tile is filled with zero right before it, becomes

      1. on the host, at the top of the function, one
         `nvgpu.tma.create.descriptor` per operand on the kernel's argument:
         A in boxes of `tileM x tileK`, B in boxes of `tileK x 64` (f16 or
         bf16) or `tileN x tileK` (B[n, k]): rows of 128 bytes, swizzled
         128B, the only swizzle warpgroup descriptors encode;
      2. a ring of `pipeline_depth` stages in one workgroup buffer aligned to
         1024 bytes, and one mbarrier per stage, initialised by thread 0;
      3. thread 0 loading the first stages (`nvgpu.mbarrier.arrive.expect_tx`
         with the stage's bytes, then `nvgpu.tma.async.load` of A's box and
         B's column chunks);
      4. an `scf.for` over the K tiles: wait on the stage's phase
         (`nvgpu.mbarrier.try_wait.parity`), then per 64-row accumulator in
         registers `nvgpu.warpgroup.mma` of its rows of A and of B
         (`transposeB`: B is N-contiguous; a K-contiguous B takes one op per
         wgmma K step of 32 bytes: k16, or k32 for 8-bit floats), each
         leaving the K step's own groups in flight, a
         `gpu.barrier`, and thread 0 refilling the stage the step before
         read (with one stage: this step's, whose groups retired at once);
      5. `nvvm.wgmma.wait.group.sync.aligned 0` and
         `nvgpu.warpgroup.mma.store` of each accumulator into its 64 rows of
         C's tile.

    Accumulators are 64 rows because MLIR 22's lowering of
    `nvgpu.warpgroup.mma.store` puts a taller one's second block N/2 rows,
    not 64, below the first.

    That is a workgroup of one warpgroup (`workgroup_size = [128, 1, 1]`).
    With 256 or 384 threads the workgroup is warp specialized: the last
    warpgroup produces (its first thread issues the loads once the stage's
    empty barrier says every consumer thread released it; with two
    consumers it gives registers away, `setmaxnreg` 40), the others consume
    (`setmaxnreg` 232 with two), each multiplying its own 64 or 128 rows and
    arriving on the empty barrier of the stage its retired groups read.

    The launch shape is the `translation_info`'s, which
    `gpucg-select-lowering-strategy` chooses (its `wgmma-*` options say what
    the user asks for). With `persistent_workgroups = W`, a warp-specialized
    kernel of more tiles than `W` launches `W` workgroups instead, as an
    `scf.forall` over them; in each, the producer
    and the consumers loop over the tiles `block_id + i * workgroups` (in
    M-major order), the ring's stages and mbarrier phases running on across
    tiles, so that the producer loads the next tile while the consumers
    store the last.

    With `cluster = [m, n]` (not `[1, 1]`), a warp-specialized kernel's
    workgroups run in thread-block clusters of that many neighbouring tiles
    (`gpucg.cluster_shape` on the workgroup loop, for the launch): the
    workgroups of a cluster that share a tile of A (one row of tiles) or of
    B (one column) each load a slice of it and multicast it to all of them
    (`multicast_mask`), so that each tile is read from L2 once per cluster.
    A producer refills a stage only when every workgroup its multicasts
    reach has released it: after its own consumers' empty barrier, it
    arrives on a third barrier of each of those workgroups
    (`nvvm.mapa` + `nvvm.mbarrier.arrive` at cluster scope) and waits for
    all of theirs on its own. The barriers are initialised before a
    cluster-wide barrier (`nvvm.cluster.arrive` / `wait`). On a persistent
    grid too, whole clusters loop over blocks of tiles.

    Elementwise linalg ops after the matmul that consume its accumulator
    (a fused bias, activation or cast) become its epilogue: the accumulator
    goes to a staging buffer in workgroup memory (tileM x (tileN + 8) f32;
    the ring of stages itself, after a barrier of all multiplying threads,
    when it is large enough and no persistent grid loads more into it)
    instead of C, each multiplying warpgroup waits for its own threads
    (`nvvm.barrier` of its 128 threads, id 1 + warpgroup; `gpu.barrier` for
    the one warpgroup), and each thread runs the ops tiled to pieces of 16
    bytes of a row (`gpucg-generic-vectorization` makes them vectors); the
    temporaries a chain of such ops passes results through become private
    buffers of one piece. With `staged_store = true`, a kernel without such
    ops stores its accumulator the same way (a copy to C in 16-byte pieces;
    the staging buffer must fit in the ring); otherwise each thread stores
    its accumulator fragments from registers (`nvgpu.warpgroup.mma.store`).

    A and B must be kernel arguments (or unit-stride views of them) with identity
    layouts, the matmul the only op before it in its tile with memory
    effects besides its fill, and every op after it one the epilogue takes;
    otherwise the pass fails with an error that says which. So does a
    launch shape the kernel cannot take (one warpgroup, tile counts a
    cluster does not divide, no more tiles than persistent workgroups, a
    staged store the ring cannot hold). Kernels of other pipelines are left
    alone.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::nvgpu::NVGPUDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def DistributeReduction
    : Pass<"gpucg-distribute-reduction", "func::FuncOp"> {
  let summary = "Split each WarpReduction row over the threads of its "
                "workgroup, combined with gpu.subgroup_reduce";
  let description = [{
    For kernels planned `WarpReduction` (after workgroup tiling and
    bufferization, one row of the innermost reduction loop per workgroup of
    `[T, 1, 1]` threads): each root op becomes
      1. per thread, a private partial initialized to the combiner's neutral
         element and an `scf.for` over the row from `tid * v` in steps of
         `T * v` (`v`: the level-1 size of the reduction loop) running the
         root op tiled to `v` elements into it (vectorized later by
         `gpucg-generic-vectorization`);
      2. `gpu.subgroup_reduce` of the partials of each warp;
      3. with more than one warp, each warp's result written to workgroup
         memory by its lane 0, a `gpu.barrier`, and a second
         `gpu.subgroup_reduce` of those, run by every warp (the neutral
         element past the last warp) so that control flow stays uniform;
      4. thread 0 combining the total with the output's value and storing it.
    Ops fused into the tile are handled too: an elementwise producer of an
    input, written to a local buffer only it and the root use, is computed
    per step into a private buffer of the step's size; ops that write the
    output before the root (a fill) and every op after it (consumers of the
    row's result) run in thread 0.
    The combiner must be one op of a kind `gpu.subgroup_reduce` has (add,
    mul, min/max signed, unsigned and float, and, or, xor) with a neutral
    element; other bodies are an error. Floating-point reductions are
    reassociated (a tree, not the sequential order of the untiled op).
    Kernels of other pipelines are left alone.

    A row of 4096 f32 on 1024 threads, 4 per step:

    ```mlir
    %p = memref.alloca() : memref<1xf32>
    linalg.fill ins(%cst_0 : f32) outs(%p : memref<1xf32>)
    scf.for %k = %tid4 to %c4096 step %c4096 {
      linalg.generic ... ins(%row[0, %k] [1, 4] ...) outs(%p : memref<1xf32>)
    }
    %v = memref.load %p[%c0] : memref<1xf32>
    %w = gpu.subgroup_reduce add %v uniform : (f32) -> f32
    scf.if %lane_is_0 { memref.store %w, %shared[%warp] : memref<32xf32, #gpu.address_space<workgroup>> }
    gpu.barrier
    ...
    %t = gpu.subgroup_reduce add %x uniform : (f32) -> f32
    scf.if %tid_is_0 { ... memref.store %sum, %out[%c0] : memref<1xf32, ...> }
    ```
  }];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def DistributeSharedMemoryCopy
    : Pass<"gpucg-distribute-shared-memory-copy", "func::FuncOp"> {
  let summary = "Spread workgroup-memory copies over all threads as 128-bit vectors";
  let description = [{
    Splits every `linalg.copy` to or from workgroup memory over all threads
    of the workgroup (flat id `x + y * X + z * X * Y`): the innermost
    dimension is cut into vectors of up to 128 bits (8 f16, 4 f32), the
    threads are laid out over (rows, vectors), and each thread loops
    cyclically over its rows; the pieces are vectorized to
    `vector.transfer_read` / `vector.transfer_write`. A width that does not
    divide the innermost size falls back to the widest power of two that
    does; dynamically shaped copies (partial tiles) are distributed element
    by element. Single-iteration loops are removed afterwards.

    A `32x16xf16` copy over 128 threads: 2 vectors of 8 per row, 64 rows per
    round, so rows `tid / 2` and `tid / 2 + 64` (only the first exists):

    ```mlir
    %row = affine.apply affine_map<()[s0, s1, s2] -> ((s0 + s1 * 64) floordiv 2)>()[%tx, %ty, %tz]
    %col = affine.apply affine_map<()[s0, s1, s2] -> (((s0 + s1 * 64) mod 2) * 8)>()[%tx, %ty, %tz]
    %v = vector.transfer_read %src[%row, %col], %pad : memref<32x16xf16, ...>, vector<1x8xf16>
    vector.transfer_write %v, %dst[%row, %col] : vector<1x8xf16>, memref<32x16xf16, ..., #gpu.address_space<workgroup>>
    ```
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def VectorToGPU : Pass<"gpucg-vector-to-gpu", "func::FuncOp"> {
  let summary = "Convert MMA-shaped vectors to WMMA or mma.sync, copies to async copies";
  let description = [{
    For a tensor-core kernel after `gpucg-tensor-core-vectorization` and
    `gpucg-distribute-shared-memory-copy`:

    * WMMA (`MatmulTensorCore`): upstream `convertVectorToMMAOps` turns the
      reads, contractions and writes into `gpu.subgroup_mma_load_matrix`,
      `gpu.subgroup_mma_compute` and `gpu.subgroup_mma_store_matrix`;
    * mma.sync (`MatmulTensorCoreMmaSync`): upstream
      `convertVectorToNVVMCompatibleMMASync` produces `nvgpu.mma.sync` fed
      by `nvgpu.ldmatrix` from workgroup memory;
    * global-to-workgroup `vector.transfer_read`/`transfer_write` pairs
      become `nvgpu.device_async_copy` grouped by
      `nvgpu.device_async_create_group` and waited for with
      `nvgpu.device_async_wait` (`nvgpu::createAsyncGroups`, L1 bypassed for
      16-byte copies);
    * mma.sync with `swizzle`: views of workgroup memory are folded into
      the accesses, and every workgroup buffer that
      `gpucg-reduce-bank-conflicts` did not pad, whose rows are a power of
      two of at least 32 bytes and whose every access is an async copy,
      `ldmatrix`, load or store of at most 16 bytes, gets the XOR swizzle of
      `nvgpu::optimizeSharedMemoryReadsAndWrites` against bank conflicts
      (the column index of each access becomes
      `col xor ((row & mask) << shift)`). WMMA is padded instead
      (`gpucg-reduce-bank-conflicts`): its loads take a leading dimension,
      not a swizzle.

    ```mlir
    %v = vector.transfer_read %global[%i, %j], %pad {in_bounds = [true, true]} : memref<..., vector<1x8xf16>
    vector.transfer_write %v, %smem[%i, %j] {in_bounds = [true, true]} : vector<1x8xf16>, memref<..., #gpu.address_space<workgroup>>
    ```

    becomes

    ```mlir
    %t = nvgpu.device_async_copy %global[%i, %j], %smem[%i, %j], 8 {bypassL1} : memref<...> to memref<..., #gpu.address_space<workgroup>>
    %g = nvgpu.device_async_create_group %t
    nvgpu.device_async_wait %g
    ```
  }];
  let options = [
    Option<"mma", "mma", "::mlir::gpucg::MmaPreference",
           /*default=*/"::mlir::gpucg::MmaPreference::Auto",
           "MMA family; a value that contradicts the pipeline is an error",
           [{::llvm::cl::values(
             clEnumValN(::mlir::gpucg::MmaPreference::Auto, "auto",
                        "the family of the kernel's pipeline"),
             clEnumValN(::mlir::gpucg::MmaPreference::Wmma, "wmma",
                        "WMMA (gpu.subgroup_mma_*)"),
             clEnumValN(::mlir::gpucg::MmaPreference::MmaSync, "mma-sync",
                        "mma.sync with ldmatrix (nvgpu.mma.sync)"))}]>,
    Option<"tf32", "tf32", "bool", /*default=*/"true",
           "Let f32 matmuls run as TF32 (WMMA m16n16k8); when false they "
           "are an error">,
    Option<"swizzle", "swizzle", "bool", /*default=*/"true",
           "mma.sync: swizzle the workgroup buffers that are not padded "
           "against bank conflicts (no effect on WMMA)">,
    Option<"reportSwizzle", "report-swizzle", "bool", /*default=*/"false",
           "Emit a remark on each workgroup allocation saying whether it "
           "was swizzled, and why not">
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::nvgpu::NVGPUDialect",
    "::mlir::vector::VectorDialect", "::mlir::memref::MemRefDialect",
    "::mlir::arith::ArithDialect", "::mlir::affine::AffineDialect"
  ];
}

def SoftwarePipelining : Pass<"gpucg-software-pipelining", "func::FuncOp"> {
  let summary = "Software-pipeline the K loop over async copies";
  let description = [{
    Pipelines each outermost `scf.for` that issues `nvgpu.device_async_copy`
    ops (the K loop after `gpucg-vector-to-gpu`) with upstream
    `scf::pipelineForLoop`, so that the copies of the next `depth - 1` K
    steps are in flight while the current one computes:

    * each iteration commits exactly one async-copy group (the per-copy
      groups and waits are replaced by one `nvgpu.device_async_create_group`
      after the last copy) and waits once, before its reads of workgroup
      memory, with `numGroups = depth - 1` (`depth - 2` for
      `nvidia-tensorcore`);
    * stage 0 holds the copies, their address arithmetic, the commit and
      the barrier before the copies; the last stage everything else;
      `nvidia-tensorcore` moves the wait, the barrier after it and the loads
      from workgroup memory (`ldmatrix`, `subgroup_mma_load_matrix`) to the
      stage before the MMAs;
    * without `epilogue-peeling`, the last iterations predicate the copies
      of iterations past the end instead of peeling an epilogue.

    A schedule gpucg cannot prove valid is an error, not IR: fewer
    iterations than stages, a buffer with fewer copies than the depth (run
    `gpucg-multi-buffering` first), `nvidia-tensorcore` below depth 3 or
    with loads that depend on the accumulators.

    ```mlir
    scf.for %k = %c0 to %c128 step %c16 iter_args(%acc = %init) {
      gpu.barrier
      %t = nvgpu.device_async_copy %a[...], %a_smem[%buf(%k), ...], 8 ...
      %g = nvgpu.device_async_create_group %t
      nvgpu.device_async_wait %g
      gpu.barrier
      ... compute on %a_smem[%buf(%k)] ...
    }
    ```

    becomes (depth 2, `load-global-stage0`): a prologue issuing the copies
    of K step 0, a kernel loop of 7 steps each issuing the copies of step
    `k + 1`, committing one group, waiting with `numGroups = 1` and
    computing step `k`, and an epilogue computing the last step.
  }];
  let options = [
    Option<"depth", "depth", "unsigned", /*default=*/"0",
           "Stages (0: the translation_info's pipeline_depth; 1: none)">,
    Option<"epiloguePeeling", "epilogue-peeling", "bool", /*default=*/"true",
           "Peel the epilogue (otherwise predicate the copies of the last "
           "iterations)">,
    Option<"schedule", "schedule", "::mlir::gpucg::PipelineSchedule",
           /*default=*/"::mlir::gpucg::PipelineSchedule::LoadGlobalStage0",
           "How the K loop's ops are assigned to stages",
           [{::llvm::cl::values(
             clEnumValN(::mlir::gpucg::PipelineSchedule::LoadGlobalStage0,
                        "load-global-stage0",
                        "global-to-workgroup copies in stage 0, the rest in "
                        "the last"),
             clEnumValN(::mlir::gpucg::PipelineSchedule::NvidiaTensorCore,
                        "nvidia-tensorcore",
                        "also loads from workgroup memory one stage before "
                        "the MMAs (depth >= 3)"))}]>
  ];
  let dependentDialects = ["::mlir::nvgpu::NVGPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def ReduceBankConflicts : Pass<"gpucg-reduce-bank-conflicts", "func::FuncOp"> {
  let summary = "Pad workgroup-memory allocations against bank conflicts";
  let description = [{
    Pads the innermost dimension of every statically shaped
    `#gpu.address_space<workgroup>` allocation of rank 2 or more by
    `padding-bits` (128 bits: 8 f16, 4 f32), so that consecutive rows start
    in different banks, and rewrites the users through a subview of the
    padded buffer, re-creating the subviews on the way with their new
    strides. Elements are sized by the data layout (index, vectors and
    complex numbers included); the padding must be a whole number of them,
    and the padded size must fit in 64 bits, or the pass fails with an
    error. An allocation with a user that cannot take another layout (a
    call, an unknown op), with elements the data layout cannot size (or of
    size 0), or already padded, is left alone. gpucg pads for WMMA (its
    loads take any leading dimension); mma.sync buffers are swizzled
    instead by `gpucg-vector-to-gpu`.

    ```mlir
    %a = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
    %v = memref.subview %a[%i, 0] [16, 16] [1, 1] : ... to memref<16x16xf16, strided<[16, 1], offset: ?>, ...>
    ```

    becomes

    ```mlir
    %p = memref.alloc() : memref<32x24xf16, #gpu.address_space<workgroup>>
    %a = memref.subview %p[0, 0] [32, 16] [1, 1] : ... to memref<32x16xf16, strided<[24, 1]>, ...>
    %v = memref.subview %a[%i, 0] [16, 16] [1, 1] : ... to memref<16x16xf16, strided<[24, 1], offset: ?>, ...>
    ```
  }];
  let options = [
    Option<"paddingBits", "padding-bits", "unsigned", /*default=*/"128",
           "Bits added to each row (0: no padding)">
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def PackSharedMemoryAlloc
    : Pass<"gpucg-pack-shared-memory-alloc", "func::FuncOp"> {
  let summary = "Pack workgroup allocations that are never live together into one buffer";
  let description = [{
    Replaces every statically shaped, identity-layout, int- or
    float-element `#gpu.address_space<workgroup>` allocation by a
    `memref.view` at a byte offset into one `i8` buffer. Two allocations
    share bytes when a `gpu.barrier` separates them on every path. Let C be
    the innermost block holding every access of both (uses through views,
    forwarded values and async-copy tokens):
    - within one execution of C, a `gpu.barrier` of C lies between the
      last access of one and the first of the other, or both are confined
      to two mutually exclusive regions of one `RegionBranchOpInterface` op
      of C (the two paths of an `scf.if`);
    - when C may run again (it lies in a loop, an `scf.while`, an
      unmapped or thread-mapped `scf.forall`, a CFG cycle or an op of
      unknown region semantics, up to the function; a forall mapped to
      `#gpu.block` does not repeat), also a `gpu.barrier` of C after the
      later's last access or before the earlier's first (the wrap-around
      path from iteration i to i+1).
    Offsets are first-fit by decreasing size, 16-byte aligned or to an
    allocation's larger `alignment`. Freed allocations and those in a
    `gpu.launch` are left alone.

    ```mlir
    scf.for %i = %c0 to %n step %c1 {
      linalg.copy ins(%x : memref<32x16xf16>) outs(%a : ...)
      gpu.barrier
      linalg.copy ins(%b : ...) outs(%y : memref<32x32xf32>)
      gpu.barrier  // without it, iteration i+1 writes %a while %b is read
    }
    ```

    with `%a` 32x16xf16 and `%b` 32x32xf32 workgroup allocations, becomes

    ```mlir
    %buf = memref.alloc() {alignment = 16 : i64} : memref<4096xi8, #gpu.address_space<workgroup>>
    %a = memref.view %buf[%c0][] : memref<4096xi8, ...> to memref<32x16xf16, #gpu.address_space<workgroup>>
    %b = memref.view %buf[%c0][] : memref<4096xi8, ...> to memref<32x32xf32, #gpu.address_space<workgroup>>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def VersionVectorAlignment
    : Pass<"gpucg-version-vector-alignment", "func::FuncOp"> {
  let summary = "Check at run time whether a wide global access is aligned";
  let description = [{
    A vector load or store of global memory is one wide access only where
    `gpucg-convert-to-nvvm` proves its address a multiple of the vector's
    bytes; elsewhere LLVM splits it into element accesses. Under a row
    pitch that is a run-time size (a dynamic K makes A's, a dynamic N B's
    and C's) nothing is proven, and every row moved one element at a time,
    although the sizes users run mostly keep rows 16-byte aligned.

    This pass versions each vector access of global memory (no memory
    space, or `#gpu.address_space<global>`) whose alignment rests on
    run-time sizes alone: a `vector.load` or `vector.store` without an
    `alignment`, or a 1-D, in-bounds, minor-identity `vector.transfer_read`
    or `transfer_write` (unmasked, or masked by a 1-D `vector.create_mask`)
    of 2 or more elements and a power-of-two number of bytes, on a memref
    that has, up through its views, a dynamic outer stride, an innermost
    stride of 1, and static strides and offsets that keep the vector
    aligned (a row of 33 f16 misaligns most rows whatever the sizes: left
    alone). The access's address (the memref's aligned pointer, offset and
    strides, `memref.extract_strided_metadata`) is checked against the
    vector's bytes, at most 16, and a masked transfer's count against the
    vector's length; where both hold, a `vector.load` or `vector.store`
    claims that alignment, elsewhere the access stays as it was. The check
    costs a few integer ops per access; a warp whose rows disagree (an odd
    pitch) takes both paths. Accesses already versioned are left alone, so
    the pass may run twice.

    The tensor-core pipelines (`gpucg-matmul-mma-sync`,
    `gpucg-matmul-tensorcore`) run it last, after software pipelining: the
    register-staged copies of rows of run-time pitch
    (`gpucg-distribute-shared-memory-copy`) load 16 bytes at a time where
    their rows are aligned, and C's stores are 128-bit.

    ```mlir
    %v = vector.transfer_read %a[%i, %j], %pad, %mask {in_bounds = [true]}
        : memref<?x?xf16>, vector<8xf16>
    ```

    with `%mask = vector.create_mask %n : vector<8xi1>`, becomes

    ```mlir
    %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %a
    %pointer = memref.extract_aligned_pointer_as_index %a
    ... %address = %pointer + (%offset + %i * %strides#0 + %j) * 2
    %misaligned = arith.remui %address, %c16 : index
    %aligned = arith.cmpi eq, %misaligned, %c0 : index
    %whole = arith.cmpi sge, %n, %c8 : index
    %ok = arith.andi %whole, %aligned : i1
    %v = scf.if %ok -> (vector<8xf16>) {
      %w = vector.load %a[%i, %j] {alignment = 16 : i64}
          : memref<?x?xf16>, vector<8xf16>
      scf.yield %w : vector<8xf16>
    } else {
      %w = vector.transfer_read %a[%i, %j], %pad, %mask {in_bounds = [true]}
          : memref<?x?xf16>, vector<8xf16>
      scf.yield %w : vector<8xf16>
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect"
  ];
}

def ExpandSmallFloats : Pass<"gpucg-expand-small-floats"> {
  let summary = "Conversions to and from floats of 8 bits and fewer as integer arithmetic";
  let description = [{
    LLVM has no type for the floats of 8 bits and fewer (`f8E4M3FN`,
    `f8E5M2`, `f8E4M3`, `f8E3M4`, the FNUZ formats, `f6E2M3FN`, `f6E3M2FN`,
    `f4E2M1FN`, `f8E8M0FNU`): MLIR carries them as integers of their width,
    and `arith.extf` from them or `arith.truncf` to them has no lowering to
    LLVM or NVVM. This pass, on any op:

    1. computes other arith arithmetic on small floats in f32 (upstream's
       `arith-emulate-unsupported-floats`: exact, f32 having more than twice
       their precision plus two bits), which leaves conversions;
    2. rewrites each conversion into integer arithmetic on the bit
       patterns, with arith's exact meaning (APFloat's): every
       `roundingmode`, NaN, infinity, overflow (to infinity, NaN or the
       largest finite value, as the format and mode say) and signed zero.
       The formats' widths, bias and special results are taken from their
       APFloat semantics when the op is rewritten, and the decoding is
       checked against APFloat for every bit pattern first. `f8E8M0FNU`
       uses upstream's expansion.

    `truncf` reads `f16`, `bf16`, `f32`, `f64` and small floats (through
    `f32`, exactly); `extf` writes any float (through `f32`, exactly).

    ```mlir
    %h = arith.extf %x : vector<4xf8E4M3FN> to vector<4xf32>
    %l = arith.truncf %y : f32 to f8E5M2
    ```

    becomes `arith.bitcast`s to `i8`, shifts, masks, compares and selects
    in `i32` (a subnormal's value is its mantissa times its unit, one exact
    `arith.mulf`), and no conversion from or to a small float.

    With `nvvm-float8`, the conversions NVVM has instructions for (sm_89
    and newer) use them: `truncf` from f32, f16 or bf16 to `f8E4M3FN` or
    `f8E5M2` rounding to nearest even becomes `nvvm.convert.f32x2.to.f8x2`
    (`cvt.rn.satfinite`) on pairs of values, and selects on the source's
    magnitude give an overflow, an infinity and a NaN arith's meaning
    (`satfinite` saturates instead); `extf` from them becomes
    `nvvm.convert.f8x2.to.f16x2` on pairs (exact). Off by default until
    checked and measured on a GPU.

    Errors: a `truncf` from another float (`f80`, `f128`, `tf32`) to a small
    float.
  }];
  let options = [
    Option<"nvvmFloat8", "nvvm-float8", "bool", /*default=*/"false",
           "use NVVM's f8x2 conversions (sm_89+) for f8E4M3FN and f8E5M2">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // GPUCG_TRANSFORMS_PASSES_TD
