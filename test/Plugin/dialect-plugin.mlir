// Debian's stock mlir-opt parses and prints every gpucg attribute once
// GpucgPlugin.so is loaded with --load-dialect-plugin. A plugin that fails to
// load is only a warning ("... Request ignored."), so that text fails the test.

// RUN: mlir-opt %S/../Dialect/Gpucg/roundtrip.mlir -split-input-file \
// RUN:   --load-dialect-plugin=%gpucg_plugin --mlir-print-local-scope 2>&1 \
// RUN:   | FileCheck %S/../Dialect/Gpucg/roundtrip.mlir \
// RUN:     --implicit-check-not="Request ignored"

// RUN: mlir-opt %S/../Dialect/Gpucg/target.mlir -split-input-file \
// RUN:   --load-dialect-plugin=%gpucg_plugin --mlir-print-local-scope 2>&1 \
// RUN:   | FileCheck %S/../Dialect/Gpucg/target.mlir \
// RUN:     --implicit-check-not="Request ignored"

// The dialect's verifiers run inside mlir-opt too.
// RUN: mlir-opt %S/../Dialect/Gpucg/invalid.mlir -split-input-file \
// RUN:   -verify-diagnostics --load-dialect-plugin=%gpucg_plugin

// And the test can fail: without the plugin, mlir-opt rejects the dialect.
// RUN: not mlir-opt %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN
// NOPLUGIN: attribute created with unregistered dialect

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {}
