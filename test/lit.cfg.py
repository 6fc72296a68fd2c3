# -*- Python -*-
"""lit configuration of the gpucg regression tests."""

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "GPUCG"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py"]

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

tools = [
    "gpucg-opt",
    ToolSubst("mlir-runner", command=os.path.join(config.llvm_tools_dir, "mlir-runner"),
              unresolved="fatal"),
    # Debian's stock mlir-opt, for the plugin tests.
    ToolSubst("mlir-opt", command=config.mlir_opt, unresolved="fatal"),
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
