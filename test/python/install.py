# The package once installed, as a user gets it: scripts/build-wheel.sh
# builds the wheel (with the build's libraries in gpucg/lib/) from a copy of
# python/, it is installed into a new virtual environment with no network,
# and that environment compiles a kernel from a folder outside the
# repository, with neither PYTHONPATH nor GPUCG_LIB_DIR: the libraries are
# found in the installed package. The pure wheel, without them, says what to
# do (exit status 2). Nothing is written into python/.
#
# REQUIRES: flit
# RUN: rm -rf %t && mkdir -p %t/elsewhere
# RUN: %S/../../scripts/build-wheel.sh %t/with-libs --with-libs %gpucg_lib_dir | FileCheck %s --check-prefix=WHEEL
# WHEEL: build-wheel: wrote {{.*}}with-libs/gpucg-{{[0-9.]+}}-py3-none-linux_{{.*}}.whl
# RUN: %S/../../scripts/build-wheel.sh %t/pure | FileCheck %s --check-prefix=PURE
# PURE: build-wheel: wrote {{.*}}pure/gpucg-{{[0-9.]+}}-py3-none-any.whl
# RUN: %gpucg_python -m venv %t/env
# RUN: %t/env/bin/python -m pip install -q --no-index --no-deps --disable-pip-version-check %t/with-libs/*.whl
# RUN: cd %t/elsewhere && %sanitizer_preload env -u PYTHONPATH -u GPUCG_LIB_DIR \
# RUN:   %t/env/bin/python %s %S/../../examples/matmul_512x128x512_f16.mlir | FileCheck %s
# CHECK: library: {{.*}}env/lib/python{{.*}}/site-packages/gpucg/lib/libGpucgCAPI.so
# CHECK: kernel matmul_kernel: .entry matmul_kernel
# RUN: cd %t/elsewhere && %sanitizer_preload env -u PYTHONPATH -u GPUCG_LIB_DIR \
# RUN:   %t/env/bin/gpucg compile %S/../../examples/matmul_512x128x512_f16.mlir | FileCheck %s --check-prefix=CLI
# CLI: .entry matmul_kernel
#
# The pure wheel in another environment: no library, a message, status 2.
# RUN: %gpucg_python -m venv %t/pure-env
# RUN: %t/pure-env/bin/python -m pip install -q --no-index --no-deps --disable-pip-version-check %t/pure/*.whl
# RUN: cd %t/elsewhere && env -u PYTHONPATH -u GPUCG_LIB_DIR LD_LIBRARY_PATH= \
# RUN:   %t/pure-env/bin/gpucg compile %S/../../examples/matmul_512x128x512_f16.mlir > %t/nolib.txt 2>&1; test $? -eq 2
# RUN: FileCheck %s --check-prefix=NOLIB < %t/nolib.txt
# NOLIB: gpucg: cannot load libGpucgCAPI.so
# NOLIB-NOT: Traceback
#
# Nothing of the build is left in the source tree.
# RUN: test ! -e %S/../../python/build && test ! -e %S/../../python/gpucg.egg-info && test ! -e %S/../../python/gpucg/lib

import sys

import gpucg

print("library:", gpucg.library_path())
result = gpucg.compile(sys.argv[1], chip="sm_80", cache=False)
entry = next(line for line in result.output.splitlines() if ".entry" in line)
print(f"kernel {result.kernels[0].name}: {entry.split('(')[0].split()[-2]} "
      f"{entry.split('(')[0].split()[-1]}")
