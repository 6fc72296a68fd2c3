# README.md and docs/ against the build: scripts/check-docs.py compares the
# pass table, the passes' pages and docs/Pipelines.md with the registered
# passes, pipelines, options and defaults (gpucg.passes(), pipelines()),
# docs/Python.md's gpucg.compile signature with the function's, and the
# C API's compile options with gpucg-compile's and docs/CAPI.md, and
# checks every path the docs cite and every relative link.
#
# RUN: %sanitizer_preload %gpucg_python %S/../../scripts/check-docs.py %S/../.. | FileCheck %s
# CHECK: check-docs: {{[0-9]+}} passes and pipelines ({{[0-9]+}} options), {{[0-9]+}} cited paths, {{[0-9]+}} links: 0 problems
#
# A copy of the docs with one mistake of each kind: an option left out of
# the pass table, a row missing, a wrong default, a path that does not
# exist, a link to a heading that does not exist, a wrong default in the
# Python signature, a C API options field not named.
# RUN: rm -rf %t && mkdir -p %t && cp -r %S/../../README.md %S/../../docs %t
# RUN: ln -s %S/../../bench %S/../../examples %S/../../include %S/../../lib \
# RUN:   %S/../../python %S/../../runtime %S/../../scripts %S/../../test \
# RUN:   %S/../../tools %t
# RUN: sed -i -e '/^| .gpucg-matmul-wgmma. (pipeline)/s/, .wgmma-cluster-n.//' \
# RUN:   -e '/^| .gpucg-strip-attributes. |/d' \
# RUN:   -e '/^| .gpucg-compile. (pipeline)/s/Pipelines.md#gpucg-compile)/Pipelines.md#gpucg-compiler)/' %t/README.md
# RUN: sed -i -e 's/^| .workgroup-group-size. | .0. |/| `workgroup-group-size` | `2` |/' %t/docs/passes/select-lowering-strategy.md
# RUN: sed -i -e 's/wgmma-launch-invalid.mlir/wgmma-lunch-invalid.mlir/' %t/docs/passes/lower-matmul-to-wgmma.md
# RUN: sed -i -e 's/nvvm_float8=False,/nvvm_float8=True,/' %t/docs/Python.md
# RUN: sed -i -e 's/`wgmmaClusterN`/wgmmaClusterN/' %t/docs/CAPI.md
# RUN: not %sanitizer_preload %gpucg_python %S/../../scripts/check-docs.py --docs-root %t %S/../.. > %t/report
# RUN: FileCheck %s --check-prefix=BAD < %t/report
# BAD-DAG: README.md:{{[0-9]+}}: options column: gpucg-matmul-wgmma's option 'wgmma-cluster-n' is not listed
# BAD-DAG: README.md:1: the pass table has no row for pass gpucg-strip-attributes
# BAD-DAG: README.md:{{[0-9]+}}: links to docs/Pipelines.md#gpucg-compiler: docs/Pipelines.md has no heading with anchor #gpucg-compiler
# BAD-DAG: docs/passes/select-lowering-strategy.md:{{[0-9]+}}: options table: 'workgroup-group-size' defaults to '0', not '2'
# BAD-DAG: docs/passes/lower-matmul-to-wgmma.md:{{[0-9]+}}: cites `test/Transforms/lower-matmul-to-wgmma-lunch-invalid.mlir`, which does not exist
# BAD-DAG: docs/Python.md:{{[0-9]+}}: gpucg.compile's 'nvvm_float8' defaults to False, not True
# BAD-DAG: docs/CAPI.md:1: does not name MlirGpucgCompileOptions's 'wgmmaClusterN' (gpucg-compile's 'wgmma-cluster-n')
# BAD: check-docs: {{.*}}: 7 problems
