# -*- Python -*-
"""lit configuration of the gpucg regression tests."""

import os
import re
import shlex
import subprocess
import sys

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "GPUCG"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py",
                   "lsan.supp", "Inputs"]

config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.gpucg_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(
    ("%gpucg_plugin", os.path.join(config.gpucg_lib_dir, "GpucgPlugin.so"))
)

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# gpucg's own tools first, then Debian's llvm-22 tools (FileCheck, not, ...).
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.gpucg_tools_dir, append_path=True)

# The checked configuration (docs/Building.md): gpucg's own code built with
# assertions, AddressSanitizer and UndefinedBehaviorSanitizer.
mlir_opt_command = config.mlir_opt
sanitizer_preload = ""
if config.gpucg_assertions:
    config.available_features.add("asserts")
if config.gpucg_sanitizers:
    config.available_features.add("sanitizers")
    symbolizer = os.path.join(config.llvm_tools_dir, "llvm-symbolizer")
    # abort_on_error: a report ends the process with SIGABRT, like a failed
    # assertion, not with exit status 1, which `not gpucg-opt ...` and the
    # fuzzer would take for an ordinary diagnosed error.
    if "address" in config.gpucg_sanitizers:
        config.available_features.add("asan")
        # LeakSanitizer stays on: neither gpucg-opt nor Debian's mlir-opt with
        # the plugin leaks today. lsan.supp is where a leak of MLIR's own (never
        # gpucg's) would be suppressed, with its reason.
        config.environment["ASAN_OPTIONS"] = ":".join([
            "abort_on_error=1",
            "detect_leaks=1",
            "check_initialization_order=1",
            "strict_init_order=1",
            "detect_stack_use_after_return=1",
        ])
        config.environment["LSAN_OPTIONS"] = "suppressions=" + os.path.join(
            config.test_source_root, "lsan.supp")
        if os.path.exists(symbolizer):
            config.environment["ASAN_SYMBOLIZER_PATH"] = symbolizer
        # Debian's mlir-opt is not instrumented: the ASan runtime that the
        # plugin needs must be loaded before everything else.
        sanitizer_preload = "env LD_PRELOAD=" + config.gpucg_asan_runtime
        mlir_opt_command = sanitizer_preload + " " + config.mlir_opt
    if "undefined" in config.gpucg_sanitizers:
        config.available_features.add("ubsan")
        config.environment["UBSAN_OPTIONS"] = (
            "abort_on_error=1:halt_on_error=1:print_stacktrace=1")
        if os.path.exists(symbolizer):
            config.environment["UBSAN_SYMBOLIZER_PATH"] = symbolizer
# Prefix for an uninstrumented host program (mlir-opt, python3) that loads a
# gpucg library: preloads the sanitizer runtime in the checked configuration,
# nothing otherwise.
config.substitutions.append(("%sanitizer_preload", sanitizer_preload))

tools = [
    "gpucg-opt",
    ToolSubst("mlir-runner", command=os.path.join(config.llvm_tools_dir, "mlir-runner"),
              unresolved="fatal"),
    # Debian's stock mlir-opt, for the plugin tests.
    ToolSubst("mlir-opt", command=mlir_opt_command, unresolved="fatal"),
]
llvm_config.add_tool_substitutions(tools, [config.gpucg_tools_dir, config.llvm_tools_dir])

# CPU execution of lowered kernels through mlir-runner.
mlir_lib_dir = os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")
config.substitutions.append(
    ("%mlir_runner_utils", os.path.join(mlir_lib_dir, "libmlir_runner_utils.so")))
config.substitutions.append(
    ("%mlir_c_runner_utils", os.path.join(mlir_lib_dir, "libmlir_c_runner_utils.so")))

config.substitutions.append(
    ("%mlir_runner_main",
     "mlir-runner -e main -entry-point-result=void -shared-libs="
     + os.path.join(mlir_lib_dir, "libmlir_runner_utils.so") + ","
     + os.path.join(mlir_lib_dir, "libmlir_c_runner_utils.so")))
# printMemref prints the buffer's address, which differs from run to run.
config.substitutions.append(("%strip_address", "sed -e 's/base@ = 0x[0-9a-f]* //'"))

# The stages before the tensor-core passes, for tests of those passes that
# start from a kernel on tensors.
config.substitutions.append(
    ("%gpucg_tensorcore_front",
     "gpucg-set-target{chip=sm_80},"
     "func.func(gpucg-select-lowering-strategy,"
     "gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,"
     "func.func(gpucg-workgroup-specialization,"
     "gpucg-tile-and-distribute{distribute-to-warp=true},gpucg-multi-buffering)"))

# The CUDA toolkit is optional: tests that assemble PTX say `REQUIRES: ptxas`.
if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))

# Tests that read SASS say `REQUIRES: sass` (with `ptxas` when they assemble):
# a cuobjdump was found, the CUDA toolkit's or the one scripts/install-deps.sh
# put in the project's .venv/bin (CUDA 13's toolkit has none). CMake looked at
# configure time; a build configured before .venv existed looks here again.
gpucg_source_root = os.path.dirname(config.test_source_root)


def find_sass_tool(configured, name):
    candidates = [configured]
    if config.ptxas:
        candidates.append(os.path.join(os.path.dirname(config.ptxas), name))
    candidates.append(os.path.join(gpucg_source_root, ".venv", "bin", name))
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


cuobjdump = find_sass_tool(config.cuobjdump, "cuobjdump")
nvdisasm = find_sass_tool(config.nvdisasm, "nvdisasm")
if cuobjdump:
    config.available_features.add("sass")
    config.substitutions.append(("%cuobjdump", cuobjdump))
    # scripts/sass-mix.py disassembles with the same cuobjdump.
    config.environment["GPUCG_CUOBJDUMP"] = cuobjdump
if nvdisasm:
    config.available_features.add("nvdisasm")
    config.substitutions.append(("%nvdisasm", nvdisasm))
# Per-kernel SASS instruction mix of a cubin, or (--ptxas-info) the registers,
# spills, stack and shared memory that `ptxas -v` reports; its header says more.
config.substitutions.append(
    ("%sass_mix", shlex.quote(sys.executable) + " "
     + shlex.quote(os.path.join(gpucg_source_root, "scripts", "sass-mix.py"))))

# The CUDA runtime (docs/Runtime.md): libgpucg_cuda_runtime.so, its tools and
# the driver stand-in its tests load without a GPU (GPUCG_CUDA_DRIVER).
config.substitutions.extend([
    ("%gpucg_runtime_lib",
     os.path.join(config.gpucg_lib_dir, "libgpucg_cuda_runtime.so")),
    ("%gpucg_fake_cuda",
     os.path.join(config.gpucg_lib_dir, "libgpucg_fake_cuda.so")),
    ("%gpucg_runtime_tests",
     os.path.join(config.gpucg_tools_dir, "gpucg-runtime-tests")),
    ("%gpucg_cuda_probe", os.path.join(config.gpucg_tools_dir, "gpucg-cuda-probe")),
    ("%gpucg_bench_cases_tests",
     os.path.join(config.gpucg_tools_dir, "gpucg-bench-cases-tests")),
    ("%gpucg_bench", os.path.join(config.gpucg_tools_dir, "gpucg-bench")),
    # The CPU emulator of a workgroup (docs/Emulator-runtime.md).
    ("%gpucg_emulator_lib",
     os.path.join(config.gpucg_lib_dir, "libgpucg_emulator.so")),
    ("%gpucg_emulator_tests",
     os.path.join(config.gpucg_tools_dir, "gpucg-emulator-tests")),
])
# mlir-runner with APFloat's conversions (test/lib/ApfloatOracle.cpp) and
# the emulator's models of NVVM's (libgpucg_emulator), for the tests of
# small-float expansions. In the checked build the library is
# instrumented and mlir-runner is not: the ASan runtime goes first, and leak
# checking is off (the JIT's allocations are not gpucg's).
mlir_runner_apfloat = (
    "mlir-runner -e main -entry-point-result=void -shared-libs="
    + os.path.join(config.gpucg_lib_dir, "libgpucg_test_apfloat.so") + ","
    + os.path.join(config.gpucg_lib_dir, "libgpucg_emulator.so") + ","
    + os.path.join(mlir_lib_dir, "libmlir_c_runner_utils.so"))
if "asan" in config.available_features:
    mlir_runner_apfloat = (
        "env LD_PRELOAD=" + config.gpucg_asan_runtime + " ASAN_OPTIONS="
        + config.environment["ASAN_OPTIONS"].replace("detect_leaks=1",
                                                     "detect_leaks=0")
        + " " + mlir_runner_apfloat)
config.substitutions.append(("%mlir_runner_apfloat", mlir_runner_apfloat))
# C test programs against the runtime, built like it (sanitizers included).
gpucg_cc = [config.gpucg_c_compiler, "-std=c11", "-D_POSIX_C_SOURCE=200809L",
            "-I" + os.path.join(gpucg_source_root, "runtime", "include")]
if "address" in config.gpucg_sanitizers:
    gpucg_cc.append("-fsanitize=address")
if "undefined" in config.gpucg_sanitizers:
    gpucg_cc += ["-fsanitize=undefined", "-fno-sanitize-recover=undefined"]
config.substitutions.append(("%gpucg_cc", " ".join(map(shlex.quote, gpucg_cc))))
config.substitutions.append(
    ("%gpucg_runtime_link", "-L{0} -Wl,-rpath,{0} -lgpucg_cuda_runtime".format(
        shlex.quote(config.gpucg_lib_dir))))

# The toolkit's headers (feature `cuda-toolkit`), empty without them.
cuda_include = next((d for d in config.cuda_include_dirs.split(";")
                     if d and os.path.exists(os.path.join(d, "cuda.h"))), "")
if cuda_include:
    config.available_features.add("cuda-toolkit")
config.substitutions.append(("%cuda_include", cuda_include))

# Tests that run kernels say `REQUIRES: cuda-gpu`: set only when
# gpucg-cuda-probe, run here, loads the driver and allocates memory on every
# device. The environment of the runtime's tests: CUDA's device selection,
# and in the checked build what CUDA needs under ASan (the driver maps the
# address range ASan protects by default; leaks inside the driver are not
# gpucg's).
llvm_config.with_system_environment(["CUDA_VISIBLE_DEVICES", "GPUCG_DEVICE"])
config.gpucg_cuda_environment = {}
if "asan" in config.available_features:
    config.gpucg_cuda_environment = {
        "ASAN_OPTIONS": config.environment["ASAN_OPTIONS"] + ":protect_shadow_gap=0",
        "LSAN_OPTIONS": "suppressions=" + os.path.join(
            config.test_source_root, "Runtime", "cuda-driver.lsan.supp"),
    }


def probe_cuda_gpu():
    """gpucg-cuda-probe's description of the GPUs, or None when none is usable."""
    probe = os.path.join(config.gpucg_tools_dir, "gpucg-cuda-probe")
    if not os.access(probe, os.X_OK):
        return None
    environment = dict(config.environment)
    environment.update(config.gpucg_cuda_environment)
    if "asan" in config.available_features:
        environment["ASAN_OPTIONS"] += ":detect_leaks=0"
    try:
        result = subprocess.run([probe], env=environment, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, timeout=30,
                                universal_newlines=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return result.stdout.strip() if result.returncode == 0 else None


cuda_gpu = probe_cuda_gpu()
if cuda_gpu:
    config.available_features.add("cuda-gpu")
    lit_config.note("cuda-gpu: " + cuda_gpu.replace("\n", "; "))
    # The first device's chip (`sm_90`), for tests that build a cubin for it:
    # a cubin runs only on its own major compute capability.
    chip = re.search(r"\bsm_[0-9]+\b", cuda_gpu)
    if chip:
        config.substitutions.append(("%gpucg_gpu_chip", chip.group(0)))
        # sm_90a kernels (warpgroup MMA, TMA) run on sm_90 GPUs only.
        if chip.group(0) == "sm_90":
            config.available_features.add("cuda-gpu-sm90")
