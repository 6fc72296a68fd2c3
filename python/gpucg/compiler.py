# ===- compiler.py - gpucg.compile and the pass registry --------------------===#
#
# Part of the gpucg project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===------------------------------------------------------------------------===#
"""gpucg.compile over mlirGpucgCompile (gpucg-c/Compile.h), and the list of
gpucg's passes and pipelines (gpucg-c/Passes.h)."""

import dataclasses
import os
import pathlib
import re
from ctypes import byref
from typing import List, Optional, Union

from . import _capi
from . import abi as abi_module
from . import cache as cache_module

# format= spellings, and the file extension gpucg-export-kernels gives each.
FORMATS = {"ptx": "ptx", "isa": "ptx", "cubin": "cubin", "bin": "cubin",
           "fatbin": "fatbin"}
# f32_precision= values (gpucg-compile's f32-precision).
F32_PRECISIONS = ("tf32", "ieee")


@dataclasses.dataclass(frozen=True)
class Diagnostic:
    """One diagnostic: severity ("error", "warning", "note", "remark"), the
    location ("file:line:col", or "" when unknown) and the message."""
    severity: str
    location: str
    message: str

    def __str__(self):
        where = f"{self.location}: " if self.location else ""
        return f"{where}{self.severity}: {self.message}"


class CompileError(Exception):
    """A compilation failed. `status` says at which stage ("parse error",
    "pipeline error", "pass failure", ...), `diagnostics` why."""

    def __init__(self, status, diagnostics):
        self.status = status
        self.diagnostics = list(diagnostics)
        errors = [str(d) for d in self.diagnostics if d.severity == "error"]
        detail = "\n".join(errors or [str(d) for d in self.diagnostics])
        super().__init__(f"{status}" + (f":\n{detail}" if detail else ""))


@dataclasses.dataclass
class CompiledKernel:
    """One launched kernel: its binary (PTX as str, a cubin or fatbin as
    bytes) and the text of its .abi file."""
    name: str
    binary_file_name: str
    binary: Union[str, bytes]
    abi: str
    # The plan of the kernel's function (`plan of @F: ...`), with
    # compile(report=True); None otherwise.
    plan: Optional[str] = None
    # What ptxas gave the kernel, from a cubin (format="cubin"); None for
    # PTX and fatbin. `spills`: bytes of stack per thread, which in gpucg's
    # kernels (no arrays in local memory) hold spilled registers.
    registers: Optional[int] = None
    spills: Optional[int] = None
    shared_memory: Optional[int] = None  # static workgroup memory, bytes
    # Workgroups one SM holds at once (the CUDA occupancy calculator's
    # rules); None where unknown.
    workgroups_per_sm: Optional[int] = None

    @property
    def abi_info(self) -> abi_module.KernelAbi:
        """The parsed .abi text."""
        return abi_module.parse(self.abi)

    def save(self, directory) -> pathlib.Path:
        """Writes `<kernel>.<ext>` and `<kernel>.abi` into `directory` (made
        when missing), as gpucg-export-kernels does; returns the .abi path."""
        directory = pathlib.Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        binary = (self.binary.encode("utf-8") if isinstance(self.binary, str)
                  else self.binary)
        (directory / self.binary_file_name).write_bytes(binary)
        abi_path = directory / (self.name + ".abi")
        abi_path.write_text(self.abi, encoding="utf-8")
        return abi_path


@dataclasses.dataclass
class CompileResult:
    """What a compilation made.

    output: the binary of the first kernel (PTX as str, cubin/fatbin as
        bytes) when the pipeline made kernels, else the module's text;
    abi: the first kernel's .abi text, or None;
    kernels: every launched kernel;
    module: the module after the pipeline, printed;
    diagnostics: warnings and remarks (errors raise CompileError).
    """
    output: Union[str, bytes]
    abi: Optional[str]
    kernels: List[CompiledKernel]
    module: str
    diagnostics: List[Diagnostic]
    # Whether it came from the compile cache (gpucg.cache).
    cached: bool = False

    def save(self, directory):
        """Saves every kernel (CompiledKernel.save); returns the .abi
        paths."""
        return [kernel.save(directory) for kernel in self.kernels]


def _looks_like_path(text):
    """Whether a str passed as source names a file rather than holding IR:
    one line, no braces, and an existing file or a `.mlir` name."""
    if "\n" in text or "{" in text or "(" in text:
        return False
    return os.path.isfile(text) or text.strip().endswith(".mlir")


def _read_source(source):
    if isinstance(source, str) and _looks_like_path(source):
        source = pathlib.Path(source.strip())
        if not source.is_file():
            raise FileNotFoundError(f"gpucg.compile: no file '{source}' "
                                    "(a str source is IR text unless it is "
                                    "one line naming a file)")
    if isinstance(source, os.PathLike):
        path = pathlib.Path(source)
        return path.read_text(encoding="utf-8"), str(path)
    if isinstance(source, bytes):
        return source.decode("utf-8"), "<source>"
    return source, "<source>"


# The remark of gpucg-select-lowering-strategy{report=true}.
_PLAN = re.compile(r"plan of @([^:]+): ")

# gpucg-compile's options as diagnostics spell them, and compile()'s keywords.
_KEYWORDS = {
    "bare-pointers": "bare_pointers", "opt-level": "opt_level",
    "deterministic-reductions": "deterministic_reductions",
    "nvvm-float8": "nvvm_float8", "wgmma-staged-store": "wgmma_staged_store",
    "workgroup-group-size": "workgroup_group_size", "split-k": "split_k",
    "wgmma-persistent-workgroups": "wgmma_persistent",
    "wgmma-persistent": "wgmma_persistent", "chip": "chip",
    "wgmma-stream-k": "wgmma_stream_k",
    "f32-precision": "f32_precision",
    "format": "format", "features": "features",
}
_OPTION = re.compile(r"\b(" + "|".join(
    sorted(map(re.escape, _KEYWORDS), key=len, reverse=True))
    + r")=(<[^>]*>|[\w.]+)")


def _python_spelling(message):
    """`message` with gpucg-compile's option spellings (bare-pointers=false)
    in compile()'s (bare_pointers=False), for errors a Python caller reads.
    Pipeline text the caller wrote (`pipeline=`) keeps the CLI spelling."""
    def keyword(match):
        value = match.group(2)
        value = {"true": "True", "false": "False"}.get(value, value)
        if match.group(1) in ("chip", "format", "features",
                              "f32-precision") and \
                not value.startswith("<"):
            value = f'"{value}"'
        return f"{_KEYWORDS[match.group(1)]}={value}"
    return _OPTION.sub(keyword, message)


def compile(source, pipeline=None, chip="sm_80", format="ptx", *,
            features="", opt_level=3, bare_pointers=True, generic=False,
            verify_each=True, deterministic_reductions=False,
            wgmma_persistent=None, wgmma_staged_store=False,
            workgroup_group_size=0, nvvm_float8=False, wgmma_cluster=(1, 1),
            report=False, f32_precision="tf32", split_k=0,
            wgmma_stream_k=False, cache=None,
            source_name=None) -> CompileResult:
    """Compiles MLIR `source`: text, a pathlib.Path to read, or a str of
    one line naming a file (`"kernel.mlir"`).

    Without `pipeline`: gpucg-compile for `chip` (None: the module's
    #gpucg.target) and `format` ("ptx"/"isa" needs no CUDA; "cubin"/"bin"
    and "fatbin" run the CUDA toolkit's ptxas). With `pipeline`: that textual
    pipeline (anchored, `builtin.module(...)`, or the passes to nest in the
    module); `chip` and `format` are then ignored, and the kernels a pipeline
    serializes (gpucg-compile{...}) come back with ABI texts whose calling
    convention is `bare_pointers` (`memref_descriptors` for a kernel with a
    dynamic or strided memref argument). `deterministic_reductions` keeps rows of
    floating-point sums whole (gpucg-compile's deterministic-reductions).
    `wgmma_persistent` (a workgroup count, 0: one per SM) puts sm_90a's
    warp-specialized wgmma kernels on a persistent grid of that many
    workgroups (gpucg-compile's wgmma-persistent); None: one per tile.
    `wgmma_staged_store` stores C of wgmma kernels without a fused epilogue
    through shared memory in 16-byte pieces (gpucg-compile's
    wgmma-staged-store). `workgroup_group_size` starts the tiles in groups
    of that many rows, column by column (gpucg-compile's
    workgroup-group-size; 1: row by row; 0: the strategy's default, groups
    of 8 rows for a wgmma matmul of more than one wave). `nvvm_float8`
    converts f8E4M3FN and f8E5M2 with NVVM's cvt instructions (sm_89 and
    newer) instead of integer arithmetic (gpucg-compile's nvvm-float8).
    `wgmma_cluster`
    (m, n) runs warp-specialized wgmma kernels in thread-block clusters of
    m x n workgroups that share tiles of B (along M) and A (along N) by TMA
    multicast (gpucg-compile's wgmma-cluster-m and wgmma-cluster-n).
    `split_k` splits the K loop of each output tile of mma.sync and wgmma
    kernels into that many parts, one workgroup each, added in a fixed
    order by the last workgroup of the tile (gpucg-compile's split-k; 1: no
    split; 0: the strategy's default, the fewest parts that give a
    workgroup to every SM where the tiles alone are fewer than the SMs).
    `wgmma_stream_k` runs warp-specialized wgmma kernels stream-K on the
    persistent grid (of `wgmma_persistent` workgroups, or one per SM): the
    tiles' K steps split evenly over the workgroups, a tile's parts added
    in a fixed order (gpucg-compile's wgmma-stream-k).

    `f32_precision` says how contractions of f32 operands multiply them:
    "tf32" (the default, as Triton's `tl.dot`) on tensor cores as TF32
    (10-bit mantissas, f32 accumulation) where a tensor-core plan takes
    them; "ieee" in IEEE f32 on the SIMT cores, as PyTorch and cuBLAS do by
    default (gpucg-compile's f32-precision).

    `report` says each kernel's plan (gpucg-compile's report): a remark
    `plan of @F: pipeline ..., workgroup ..., workgroup tile ..., ... on
    sm_XY` among the diagnostics, and in `kernels[i].plan`.

    `cache` keeps the result on disk, keyed by the source, every option,
    gpucg's version and the library (gpucg.cache): a second call with the
    same key returns it without compiling (`result.cached`). None: on
    unless $GPUCG_CACHE is 0; False: off for this call.

    Raises CompileError with the diagnostics on any failure.
    """
    capi = _capi.lib()
    text, default_name = _read_source(source)
    if f32_precision not in F32_PRECISIONS:
        raise ValueError(f"unknown f32_precision {f32_precision!r}: "
                         "expected 'tf32' or 'ieee'")
    if pipeline is None and format not in FORMATS:
        raise ValueError(f"unknown format '{format}': expected one of "
                         + ", ".join(sorted(FORMATS)))
    options = capi.mlirGpucgCompileOptionsGetDefault()
    owners = []

    def ref(value):
        string_ref, owner = _capi.string_ref(value or "")
        owners.append(owner)
        return string_ref

    options.pipeline = ref(pipeline)
    if pipeline is None:
        options.chip = ref(chip)
        options.format = ref(format)
    options.features = ref(features)
    options.optLevel = opt_level
    options.barePointers = bare_pointers
    options.printGenericForm = generic
    options.verifyEachPass = verify_each
    options.deterministicReductions = deterministic_reductions
    if wgmma_persistent is not None:
        if wgmma_persistent < 0:
            raise ValueError("wgmma_persistent is a workgroup count (0: one "
                             f"per SM), not {wgmma_persistent}")
        options.wgmmaPersistent = True
        options.wgmmaPersistentWorkgroups = wgmma_persistent
    if workgroup_group_size < 0:
        raise ValueError("workgroup_group_size is a number of tile rows (1: "
                         "row by row; 0: the strategy's default), not "
                         f"{workgroup_group_size}")
    if split_k < 0:
        raise ValueError("split_k is a number of parts of K (1: no split; "
                         f"0: the strategy's default), not {split_k}")
    options.splitK = split_k
    options.wgmmaStreamK = wgmma_stream_k
    options.wgmmaStagedStore = wgmma_staged_store
    options.workgroupGroupSize = workgroup_group_size
    options.nvvmFloat8 = nvvm_float8
    cluster = tuple(wgmma_cluster)
    if len(cluster) != 2 or not all(
            isinstance(size, int) and size >= 1 for size in cluster):
        raise ValueError("wgmma_cluster is (m, n), two workgroup counts of "
                         f"at least 1, not {wgmma_cluster!r}")
    options.wgmmaClusterM, options.wgmmaClusterN = cluster
    options.report = report
    options.f32Precision = ref(f32_precision)

    use_cache = cache_module.enabled(cache)
    if use_cache:
        entry_key = cache_module.key(
            text, source_name or default_name,
            dict(pipeline=pipeline, chip=chip, format=format,
                 features=features, opt_level=opt_level,
                 bare_pointers=bare_pointers, generic=generic,
                 verify_each=verify_each,
                 deterministic_reductions=deterministic_reductions,
                 wgmma_persistent=wgmma_persistent,
                 wgmma_staged_store=wgmma_staged_store,
                 workgroup_group_size=workgroup_group_size,
                 nvvm_float8=nvvm_float8, wgmma_cluster=list(cluster),
                 report=report, f32_precision=f32_precision,
                 split_k=split_k, wgmma_stream_k=wgmma_stream_k),
            version(), _capi.library_path())
        stored = cache_module.load(entry_key)
        if stored is not None:
            return _result([CompiledKernel(**kernel)
                            for kernel in stored["kernels"]],
                           stored["module"],
                           [Diagnostic(*d) for d in stored["diagnostics"]],
                           cached=True)

    diagnostics = []
    kernels = []
    modules = []

    @_capi.MlirGpucgKernelCallback
    def on_kernel(kernel, _):
        kernel = kernel.contents
        file_name = kernel.binaryFileName.str()
        binary = kernel.binary.bytes()
        if file_name.endswith(".ptx"):
            binary = binary.decode("utf-8", errors="replace")
        known = lambda value: None if value < 0 else value  # noqa: E731
        kernels.append(CompiledKernel(
            kernel.name.str(), file_name, binary, kernel.abi.str(),
            registers=known(kernel.registers),
            spills=known(kernel.stackFrameBytes),
            shared_memory=known(kernel.staticSharedBytes),
            workgroups_per_sm=known(kernel.workgroupsPerSm)))

    @_capi.MlirStringCallback
    def on_module(text_ref, _):
        modules.append(text_ref.str())

    @_capi.MlirGpucgDiagnosticCallback
    def on_diagnostic(severity, location, message, _):
        text = message.str()
        if pipeline is None:
            text = _python_spelling(text)
        diagnostics.append(Diagnostic(_capi.SEVERITIES.get(severity, "error"),
                                      location.str(), text))

    callbacks = _capi.MlirGpucgCompileCallbacks(on_kernel, on_module,
                                                on_diagnostic, None)
    status = capi.mlirGpucgCompile(ref(text),
                                   ref(source_name or default_name),
                                   byref(options), byref(callbacks))
    if status != 0:
        raise CompileError(_capi.COMPILE_STATUS.get(status, str(status)),
                           diagnostics)
    plans = {}
    for diagnostic in diagnostics:
        match = _PLAN.match(diagnostic.message)
        if diagnostic.severity == "remark" and match:
            plans[match.group(1)] = diagnostic.message
    for kernel in kernels:
        kernel.plan = plans.get(kernel.abi_info.function)
    module = modules[0] if modules else ""
    if use_cache:
        cache_module.store(
            entry_key, [dataclasses.asdict(kernel) for kernel in kernels],
            module, [[d.severity, d.location, d.message] for d in diagnostics])
    return _result(kernels, module, diagnostics)


def _result(kernels, module, diagnostics, cached=False):
    return CompileResult(
        output=kernels[0].binary if kernels else module,
        abi=kernels[0].abi if kernels else None,
        kernels=kernels, module=module, diagnostics=diagnostics,
        cached=cached)


# ===------------------------------------------------------------------------===#
# Passes and pipelines
# ===------------------------------------------------------------------------===#


@dataclasses.dataclass(frozen=True)
class PassOption:
    name: str
    default: str
    description: str


@dataclasses.dataclass(frozen=True)
class PassInfo:
    """One of gpucg's passes or named pipelines."""
    name: str
    summary: str
    kind: str  # "pass" or "pipeline"
    anchor: str  # "func.func", "builtin.module", "" (any op)
    options: tuple

    def usage(self):
        """How a pipeline writes it, with every option at its default."""
        if not self.options:
            return self.name
        values = " ".join(f"{o.name}={o.default}" for o in self.options)
        return f"{self.name}{{{values}}}"


def _entries():
    capi = _capi.lib()
    result = []
    for i in range(capi.mlirGpucgGetNumPassEntries()):
        entry = capi.mlirGpucgGetPassEntry(i)
        options = []
        for j in range(entry.numOptions):
            option = capi.mlirGpucgGetPassEntryOption(i, j)
            options.append(PassOption(option.name.str(),
                                      option.defaultValue.str(),
                                      option.description.str()))
        result.append(PassInfo(entry.argument.str(), entry.summary.str(),
                               "pass" if entry.kind == 0 else "pipeline",
                               entry.anchor.str(), tuple(options)))
    return result


def passes() -> List[PassInfo]:
    """gpucg's passes, in name order, with their options."""
    return [e for e in _entries() if e.kind == "pass"]


def pipelines() -> List[PassInfo]:
    """gpucg's named pipelines, in name order, with their options."""
    return [e for e in _entries() if e.kind == "pipeline"]


def version() -> str:
    return _capi.lib().mlirGpucgGetVersion().str()
