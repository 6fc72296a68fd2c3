// Debian's stock mlir-opt runs gpucg's passes once GpucgPlugin.so is loaded
// with --load-pass-plugin. Plugin passes must be named in --pass-pipeline (a
// bare --gpucg-... flag is parsed before the plugin loads).

// RUN: mlir-opt %s --load-dialect-plugin=%gpucg_plugin \
// RUN:   --load-pass-plugin=%gpucg_plugin \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-remove-single-iteration-loop))' \
// RUN:   2>&1 | FileCheck %s --implicit-check-not="Request ignored"

// The plugin lists its passes in mlir-opt's help.
// RUN: mlir-opt --load-pass-plugin=%gpucg_plugin --help 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HELP --implicit-check-not="Request ignored"
// HELP: --gpucg-remove-single-iteration-loop

// The same test file as gpucg-opt's, through mlir-opt.
// RUN: mlir-opt %S/../Transforms/remove-single-iteration-loop.mlir -split-input-file \
// RUN:   --load-dialect-plugin=%gpucg_plugin --load-pass-plugin=%gpucg_plugin \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-remove-single-iteration-loop))' \
// RUN:   2>&1 | FileCheck %S/../Transforms/remove-single-iteration-loop.mlir \
// RUN:     --implicit-check-not="Request ignored"

// CHECK-LABEL: func.func @thread_loop
//       CHECK:   %[[TID:.+]] = gpu.thread_id x upper_bound 32
//   CHECK-NOT:   scf.for
//       CHECK:   memref.store %{{.+}}, %{{.+}}[%[[TID]]]
func.func @thread_loop(%buf: memref<32xf32>, %v: f32)
    attributes {gpucg.translation_info = #gpucg.translation_info<
      pipeline = SimtDistribute, workgroup_size = [32, 1, 1]>} {
  %c32 = arith.constant 32 : index
  %tid = gpu.thread_id x
  scf.for %i = %tid to %c32 step %c32 {
    memref.store %v, %buf[%i] : memref<32xf32>
  }
  return
}

// The front-half passes and pipelines, through mlir-opt, on gpucg-opt's test
// files.
// RUN: mlir-opt %S/../Transforms/select-lowering-strategy.mlir \
// RUN:   --load-dialect-plugin=%gpucg_plugin --load-pass-plugin=%gpucg_plugin \
// RUN:   --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy))' \
// RUN:   --mlir-print-local-scope 2>&1 \
// RUN:   | FileCheck %S/../Transforms/select-lowering-strategy.mlir --check-prefix=SM80 \
// RUN:     --implicit-check-not="Request ignored"
// RUN: mlir-opt %S/../Transforms/tile-and-distribute-to-workgroups.mlir -split-input-file \
// RUN:   --load-dialect-plugin=%gpucg_plugin --load-pass-plugin=%gpucg_plugin \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-tile-and-distribute-to-workgroups))' \
// RUN:   --mlir-print-local-scope 2>&1 \
// RUN:   | FileCheck %S/../Transforms/tile-and-distribute-to-workgroups.mlir \
// RUN:     --implicit-check-not="Request ignored"

// The named pipelines too: the whole front half and the CPU lowering give
// mlir-opt exactly gpucg-opt's output.
// RUN: gpucg-opt %S/../Integration/CPU/matmul-f16-unaligned.mlir \
// RUN:   --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-workgroup-specialization),gpucg-test-lower-to-cpu)' \
// RUN:   > %t.gpucg-opt.mlir
// RUN: mlir-opt %S/../Integration/CPU/matmul-f16-unaligned.mlir \
// RUN:   --load-dialect-plugin=%gpucg_plugin --load-pass-plugin=%gpucg_plugin \
// RUN:   --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-workgroup-specialization),gpucg-test-lower-to-cpu)' \
// RUN:   > %t.mlir-opt.mlir
// RUN: diff %t.gpucg-opt.mlir %t.mlir-opt.mlir
// RUN: FileCheck %s --check-prefix=LLVM < %t.mlir-opt.mlir
// LLVM: llvm.func @kernel

// The in-workgroup passes through mlir-opt, on gpucg-opt's test files.
// RUN: mlir-opt %S/../Transforms/tile-and-distribute.mlir -split-input-file \
// RUN:   --load-dialect-plugin=%gpucg_plugin --load-pass-plugin=%gpucg_plugin \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-tile-and-distribute{distribute-to-warp=true}))' \
// RUN:   --mlir-print-local-scope 2>&1 \
// RUN:   | FileCheck %S/../Transforms/tile-and-distribute.mlir --check-prefix=WARP \
// RUN:     --implicit-check-not="Request ignored"
// RUN: mlir-opt %S/../Transforms/multi-buffering.mlir -split-input-file \
// RUN:   --load-dialect-plugin=%gpucg_plugin --load-pass-plugin=%gpucg_plugin \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-multi-buffering{num-buffers=2}))' \
// RUN:   --mlir-print-local-scope 2>&1 \
// RUN:   | FileCheck %S/../Transforms/multi-buffering.mlir --check-prefix=TWO \
// RUN:     --implicit-check-not="Request ignored"

// The named tensor-core pipelines, with options, through mlir-opt: the same
// output as gpucg-opt.
// RUN: gpucg-opt %S/../Pipelines/matmul-mma-sync-nvidia-schedule.mlir \
// RUN:   --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80 schedule=nvidia-tensorcore epilogue-peeling=false})' \
// RUN:   > %t.pipeline.gpucg-opt.mlir
// RUN: mlir-opt %S/../Pipelines/matmul-mma-sync-nvidia-schedule.mlir \
// RUN:   --load-dialect-plugin=%gpucg_plugin --load-pass-plugin=%gpucg_plugin \
// RUN:   --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80 schedule=nvidia-tensorcore epilogue-peeling=false})' \
// RUN:   > %t.pipeline.mlir-opt.mlir
// RUN: diff %t.pipeline.gpucg-opt.mlir %t.pipeline.mlir-opt.mlir
// RUN: FileCheck %S/../Pipelines/matmul-mma-sync-nvidia-schedule.mlir < %t.pipeline.mlir-opt.mlir
