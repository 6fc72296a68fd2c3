# ===- __init__.py - gpucg from Python ---------------------------------------===#
#
# Part of the gpucg project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===------------------------------------------------------------------------===#
"""gpucg from Python: compile linalg kernels to PTX or cubins, inspect and
sweep their configurations, and run them on NumPy arrays or PyTorch tensors.

Pure ctypes over libGpucgCAPI.so (the C API, docs/CAPI.md) and
libgpucg_cuda_runtime.so (runtime/include/gpucg_runtime.h); docs/Python.md.

    import gpucg
    result = gpucg.compile(source, chip="sm_80", format="ptx")
    print(result.abi)
"""

from ._capi import LibraryNotFoundError, library_path
from .abi import AbiError, KernelAbi
from .compiler import (CompileError, CompileResult, CompiledKernel,
                       Diagnostic, PassInfo, PassOption, compile, passes,
                       pipelines, version)
from .ir import (Attribute, Context, Module, Operation, compilation_info,
                 known_chips, with_compilation_info)
from .runtime import (GpucgRuntimeError, Kernel, check_arguments,
                      device_count, device_info)

__all__ = [
    "AbiError", "Attribute", "CompileError", "CompileResult",
    "CompiledKernel", "Context", "Diagnostic", "GpucgRuntimeError", "Kernel",
    "KernelAbi", "LibraryNotFoundError", "Module", "Operation", "PassInfo",
    "PassOption", "check_arguments", "compilation_info", "compile",
    "device_count", "device_info", "known_chips", "library_path", "passes",
    "pipelines", "version", "with_compilation_info",
]
