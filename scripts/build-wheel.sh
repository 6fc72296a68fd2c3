#!/usr/bin/env bash
#===- scripts/build-wheel.sh - The Python package as a wheel ---------------===#
#
#   scripts/build-wheel.sh OUT                    the pure-Python wheel
#   scripts/build-wheel.sh OUT --with-libs [DIR]  with DIR's (default
#                                                 build/lib) gpucg libraries
#
# Builds python/ into OUT/gpucg-<version>-py3-none-any.whl with the flit_core
# of the project's .venv (scripts/install-deps.sh puts it there), offline
# and from a copy, so that nothing is written into the source tree. With
# --with-libs the wheel ships libGpucgCAPI.so and, where built,
# libgpucg_cuda_runtime.so in gpucg/lib/, where the package looks after
# GPUCG_LIB_DIR: installed, it compiles with no variable set, on a machine
# with the same LLVM/MLIR 22 shared libraries (libMLIR.so.22, libLLVM.so.22)
# that the build linked (docs/Python.md).
#
#===----------------------------------------------------------------------===#
set -euo pipefail
SOURCE_DIR=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: $0 OUT [--with-libs [LIB_DIR]]" >&2; exit 2; }
(($# >= 1)) || usage
out=$1; shift
libs=""
if (($# > 0)); then
  [[ $1 == --with-libs ]] || usage
  libs=${2:-$SOURCE_DIR/build/lib}
fi
python=${GPUCG_WHEEL_PYTHON:-$SOURCE_DIR/.venv/bin/python}
if ! "$python" -c 'import flit_core.buildapi' 2>/dev/null; then
  echo "build-wheel: $python has no flit_core (scripts/install-deps.sh installs it into .venv)" >&2
  exit 2
fi
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cp -r "$SOURCE_DIR/python/." "$stage/"
find "$stage" -name __pycache__ -prune -exec rm -rf {} +
rm -rf "$stage/gpucg/lib"
if [[ -n $libs ]]; then
  if [[ ! -f $libs/libGpucgCAPI.so ]]; then
    echo "build-wheel: no $libs/libGpucgCAPI.so: build gpucg first (ninja -C build GpucgCAPI)" >&2
    exit 2
  fi
  mkdir -p "$stage/gpucg/lib"
  # The real files (the build's names are links to versioned ones).
  cp -L "$libs/libGpucgCAPI.so" "$stage/gpucg/lib/"
  if [[ -f $libs/libgpucg_cuda_runtime.so ]]; then
    cp -L "$libs/libgpucg_cuda_runtime.so" "$stage/gpucg/lib/"
  fi
fi
mkdir -p "$out"
wheel=$(cd "$stage" && "$python" -c '
import sys, flit_core.buildapi as api
print(api.build_wheel(sys.argv[1]))' "$(cd "$out" && pwd)")
if [[ -n $libs ]]; then
  # flit_core writes a pure wheel (py3-none-any); one with shared libraries
  # is for this platform only: its WHEEL file, RECORD and name say so.
  wheel=$("$python" - "$out/$wheel" "$("$python" -c '
import sysconfig; print(sysconfig.get_platform().replace("-", "_").replace(".", "_"))')" <<'PY'
import base64, hashlib, os, sys, zipfile
path, platform = sys.argv[1], sys.argv[2]
tag = f"py3-none-{platform}"
with zipfile.ZipFile(path) as source:
    entries = [(info, source.read(info)) for info in source.infolist()]
def digest(data):
    raw = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
files = {}
for info, data in entries:
    if info.filename.endswith(".dist-info/WHEEL"):
        data = data.replace(b"Root-Is-Purelib: true", b"Root-Is-Purelib: false")
        data = data.replace(b"Tag: py3-none-any", f"Tag: {tag}".encode())
    files[info.filename] = (info, data)
record = next(name for name in files if name.endswith(".dist-info/RECORD"))
lines = [f"{name},{digest(data)},{len(data)}"
         for name, (_, data) in files.items() if name != record]
files[record] = (files[record][0], ("\n".join(lines + [f"{record},,"]) + "\n").encode())
target = path.replace("py3-none-any", tag)
with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
    for name, (info, data) in files.items():
        out.writestr(info, data)
if target != path:
    os.remove(path)
print(os.path.basename(target))
PY
)
fi
echo "build-wheel: wrote $out/$wheel"
