# -*- Python -*-
"""lit configuration of the gpucg regression tests."""

import os
import shlex
import sys

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "GPUCG"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py",
                   "lsan.supp"]

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
     "func.func(gpucg-select-lowering-strategy{chip=sm_80},"
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
