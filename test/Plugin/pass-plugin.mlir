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
