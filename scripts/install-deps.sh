#!/usr/bin/env bash
#===- install-deps.sh - Install what gpucg needs, if missing --------------===#
#
# Idempotent: installs only the Debian packages that are missing, so a second
# run does nothing. Needs root (or password-less sudo) only when something is
# missing. Also reports whether the optional CUDA toolkit is present, and,
# when it is but lacks cuobjdump/nvdisasm (CUDA 13's does), installs NVIDIA's
# PyPI packages for them into the project's own virtual environment, .venv/
# at the repository root (git-ignored), linked as .venv/bin/cuobjdump and
# .venv/bin/nvdisasm. A failure there is only a warning: the lit tests that
# read SASS (feature `sass`) are then reported unsupported. NumPy goes into
# the same .venv for the Python package's tests (test/python, lit feature
# `numpy`); without it those tests are unsupported.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

PACKAGES=(
  libmlir-22-dev mlir-22-tools   # MLIR 22.1: libMLIR.so, headers, mlir-opt, mlir-tblgen, mlir-runner
  llvm-22-dev llvm-22-tools      # LLVM 22.1: CMake package, lit, FileCheck, not
  cmake ninja-build make g++     # build tools
  libasan8 libubsan1             # g++ 12's ASan/UBSan runtimes, for the checked build
  python3                        # lit
  python3-venv                   # .venv/ for cuobjdump/nvdisasm from PyPI (below)
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]} > 0)); then
  echo "gpucg: installing missing packages: ${missing[*]}"
  if [[ $(id -u) -eq 0 ]]; then
    SUDO=()
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO=(sudo)
  else
    cat >&2 <<MSG
gpucg: these Debian packages are missing: ${missing[*]}
gpucg: installing them needs root. Run, as root or with sudo:
    apt-get update && apt-get install -y --no-install-recommends ${missing[*]}
gpucg: then run the make command again.
MSG
    exit 1
  fi
  "${SUDO[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq \
    --no-install-recommends "${missing[@]}"
fi

LLVM_PREFIX=/usr/lib/llvm-22
for tool in mlir-opt mlir-tblgen lit FileCheck; do
  if [[ ! -x "$LLVM_PREFIX/bin/$tool" ]]; then
    echo "gpucg: $LLVM_PREFIX/bin/$tool is missing although its package is installed" >&2
    exit 1
  fi
done

# install_sass_tools CUDA_BIN_DIR CUDA_MAJOR: gives the tests a cuobjdump and
# an nvdisasm when the toolkit has none. NVIDIA ships them on PyPI
# (nvidia-cuda-cuobjdump, nvidia-cuda-nvdisasm, of the toolkit's major
# version); pip puts the binaries in .venv's site-packages/nvidia/cuNN/bin/,
# and .venv/bin/{cuobjdump,nvdisasm} link to them, where CMake and lit look.
# No network once they are there; never fails the install.
install_sass_tools() {
  local cuda_bin=$1 major=$2 venv="$SOURCE_DIR/.venv" tool pkgs=() found
  for tool in cuobjdump nvdisasm; do
    if [[ ! -x "$cuda_bin/$tool" ]] && ! "$venv/bin/$tool" --version >/dev/null 2>&1; then
      pkgs+=("nvidia-cuda-$tool${major:+==$major.*}")
    fi
  done
  ((${#pkgs[@]} > 0)) || return 0
  echo "gpucg: the CUDA toolkit lacks cuobjdump/nvdisasm; installing ${pkgs[*]} into $venv"
  if [[ ! -x "$venv/bin/pip" ]] && ! /usr/bin/python3 -m venv "$venv"; then
    echo "gpucg: warning: could not create $venv; SASS tests will be unsupported" >&2
    return 0
  fi
  if ! "$venv/bin/pip" install -q --disable-pip-version-check --timeout 30 --retries 2 \
      "${pkgs[@]}"; then
    echo "gpucg: warning: pip could not install ${pkgs[*]}; SASS tests will be unsupported" >&2
    return 0
  fi
  for tool in cuobjdump nvdisasm; do
    found=$(find "$venv/lib" -path '*/site-packages/nvidia/*/bin/*' -name "$tool" -type f \
      2>/dev/null | sort | tail -n 1 || true)
    if [[ -n "$found" ]]; then
      chmod +x "$found"
      ln -sfr "$found" "$venv/bin/$tool"
      echo "gpucg: $tool: $venv/bin/$tool -> $found"
    fi
  done
}

# install_python_packages: NumPy and flit_core in .venv, for test/python
# (lit runs those tests with .venv/bin/python when it exists; flit_core
# builds the package's wheel, scripts/build-wheel.sh). No network once they
# are there; never fails the install.
install_python_packages() {
  local venv="$SOURCE_DIR/.venv"
  if "$venv/bin/python" -c 'import numpy, flit_core.buildapi' >/dev/null 2>&1; then
    return 0
  fi
  echo "gpucg: installing numpy and flit_core into $venv (for the Python package's tests)"
  if [[ ! -x "$venv/bin/pip" ]] && ! /usr/bin/python3 -m venv "$venv"; then
    echo "gpucg: warning: could not create $venv; NumPy tests will be unsupported" >&2
    return 0
  fi
  if ! "$venv/bin/pip" install -q --disable-pip-version-check --timeout 30 --retries 2 \
      numpy 'flit_core>=3.4,<5'; then
    echo "gpucg: warning: pip could not install numpy and flit_core; their tests will be unsupported" >&2
  fi
}

# The CUDA toolkit is optional: without it, the tests that assemble PTX or run
# on a GPU report "unsupported".
SOURCE_DIR=$(cd "$(dirname "$0")/.." && pwd)
install_python_packages
nvcc_path=$(command -v nvcc 2>/dev/null || true)
if [[ -z "$nvcc_path" && -x /usr/local/cuda/bin/nvcc ]]; then
  nvcc_path=/usr/local/cuda/bin/nvcc
fi
if [[ -n "$nvcc_path" ]]; then
  cuda_version=$("$nvcc_path" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')
  echo "gpucg: CUDA toolkit ${cuda_version:-?} found ($nvcc_path)"
  install_sass_tools "$(dirname "$(readlink -f "$nvcc_path")")" "${cuda_version%%.*}"
else
  echo "gpucg: CUDA toolkit not found; PTX and GPU tests will be unsupported"
fi
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  echo "gpucg: GPU found: $(nvidia-smi -L | head -n 1)"
else
  echo "gpucg: no GPU on this machine; GPU tests will be unsupported"
fi
