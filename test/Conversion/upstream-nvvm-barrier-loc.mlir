// RUN: gpucg-opt %s --mlir-print-debuginfo \
// RUN:   | not gpucg-opt 2>&1 | FileCheck %s --check-prefix=CUSTOM
// RUN: gpucg-opt %s --mlir-print-debuginfo --mlir-print-op-generic \
// RUN:   | gpucg-opt --mlir-print-debuginfo | FileCheck %s --check-prefix=GENERIC

// What MLIR 22.1's parser does with `nvvm.barrier` followed by a location:
// the op's assembly format ends in an optional `$reductionOp` attribute
// before `attr-dict`, so the trailing `loc(...)` that
// `--mlir-print-debuginfo` prints is parsed as that attribute. Printed
// with a location alias (`loc(#loc4)`, defined at the end of the file), the
// alias is read before its definition; an inline `loc("f.mlir":1:1)` fails
// the attribute's constraint instead. Every named barrier gpucg emits (a
// fused wgmma epilogue's `nvvm.barrier id = .. number_of_threads = ..`)
// therefore does not re-parse when printed with debug info; without debug
// info, or in the generic form, it does (docs/Hopper-survey.md, pitfall
// 14). When the first RUN line fails (the re-parse succeeds), upstream
// fixed the parser: drop this test and the notes.

// CUSTOM: error: undefined symbol alias id 'loc{{[0-9]+}}'
// GENERIC-LABEL: llvm.func @named_barrier
// GENERIC: nvvm.barrier id = %{{.+}} number_of_threads = %{{.+}} loc(#loc[[N:[0-9]+]])
// GENERIC: #loc[[N]] = loc("{{.*}}upstream-nvvm-barrier-loc.mlir":[[@LINE+2]]:3)
llvm.func @named_barrier(%id: i32, %threads: i32) {
  nvvm.barrier id = %id number_of_threads = %threads
  llvm.return
}
