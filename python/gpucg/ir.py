# ===- ir.py - Context, Module, Operation and gpucg attributes --------------===#
#
# Part of the gpucg project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===------------------------------------------------------------------------===#
"""A small object layer over the MLIR C API and gpucg's attribute C API:
parse a module, run a pipeline string on it, read and write gpucg's
attributes, print it. Enough for scripts and sweeps; not MLIR's Python
bindings (which Debian does not ship)."""

import ctypes
import re
import threading
import weakref

from . import _capi
from .compiler import CompileError, Diagnostic

_LOCATION = re.compile(r'^loc\("(.*)":(\d+):(\d+)\)$')

# MlirGpucgPipeline and MlirGpucgMmaKind (gpucg-c/Attributes.h)
MMA_KINDS = {"wmma": 0, "mma_sync": 1}
_MMA_KIND_NAMES = {v: k for k, v in MMA_KINDS.items()}


def _location_text(location):
    text = _capi.collect_string(_capi.lib().mlirLocationPrint, location)
    match = _LOCATION.match(text)
    if match:
        return f"{match.group(1)}:{match.group(2)}:{match.group(3)}"
    if text == "loc(unknown)":
        return ""
    return text[4:-1] if text.startswith("loc(") else text


class Context:
    """An MLIR context with everything gpucg-opt registers. Diagnostics are
    collected (not printed) and raised with the error they explain."""

    def __init__(self):
        self._capi = _capi.lib()
        self._ctx = self._capi.mlirGpucgContextCreate()
        self._diagnostics = []
        self._modules = weakref.WeakSet()
        self._handler = _capi.MlirDiagnosticHandler(self._on_diagnostic)
        self._capi.mlirContextAttachDiagnosticHandler(
            self._ctx, self._handler, None, _capi.MlirDeleteUserData())

    def _on_diagnostic(self, diagnostic, _):
        capi = self._capi

        def add(diag, severity=None):
            message = _capi.collect_string(capi.mlirDiagnosticPrint, diag)
            self._diagnostics.append(Diagnostic(
                severity or _capi.SEVERITIES.get(
                    capi.mlirDiagnosticGetSeverity(diag), "error"),
                _location_text(capi.mlirDiagnosticGetLocation(diag)),
                message))
            for i in range(capi.mlirDiagnosticGetNumNotes(diag)):
                add(capi.mlirDiagnosticGetNote(diag, i), "note")

        add(diagnostic)
        return 1  # handled: not printed by MLIR's default handler

    def take_diagnostics(self):
        """The diagnostics collected since the last call."""
        diagnostics, self._diagnostics = self._diagnostics, []
        return diagnostics

    def close(self):
        """Destroys the context and every module parsed in it."""
        if self._ctx is None:
            return
        for module in list(self._modules):
            module._destroy()
        self._capi.mlirContextDestroy(self._ctx)
        self._ctx = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    @property
    def handle(self):
        if self._ctx is None:
            raise ValueError("the context is closed")
        return self._ctx

    # --- parsing -------------------------------------------------------------

    def parse(self, text):
        """Parses and verifies a module; raises CompileError("parse error")
        with the diagnostics (whose locations name the source "-")."""
        self.take_diagnostics()
        string_ref, owner = _capi.string_ref(text)
        module = self._capi.mlirModuleCreateParse(self.handle, string_ref)
        del owner
        if _capi.is_null(module):
            raise CompileError("parse error", self.take_diagnostics())
        return Module(self, module)

    def attribute(self, text):
        """Parses an attribute (`#gpucg.lowering_config<...>`, ...)."""
        self.take_diagnostics()
        string_ref, owner = _capi.string_ref(text)
        attr = self._capi.mlirAttributeParseGet(self.handle, string_ref)
        del owner
        return self._checked(attr, f"cannot parse attribute '{text}'")

    def _checked(self, attr, what):
        if _capi.is_null(attr):
            details = "; ".join(d.message for d in self.take_diagnostics())
            raise ValueError(what + (f": {details}" if details else ""))
        return Attribute(self, attr)

    # --- gpucg attribute builders -------------------------------------------

    def lowering_config(self, tile_sizes):
        """#gpucg.lowering_config from one list of tile sizes per level (a
        flat list is one level)."""
        levels = _levels(tile_sizes)
        sizes = (_capi.c_intptr * len(levels))(*[len(l) for l in levels])
        flat = [s for level in levels for s in level]
        values = (ctypes.c_int64 * max(len(flat), 1))(*flat)
        self.take_diagnostics()
        return self._checked(
            self._capi.mlirGpucgLoweringConfigAttrGet(self.handle, len(levels),
                                                      sizes, values),
            "invalid lowering_config")

    def translation_info(self, pipeline, workgroup_size=None,
                         subgroup_size=None, pipeline_depth=1, store_stage=1,
                         mma_kind=None):
        """#gpucg.translation_info; `pipeline` by name ("MatmulTensorCore",
        ...), `mma_kind` "wmma", "mma_sync" or None."""
        value = ctypes.c_int()
        string_ref, owner = _capi.string_ref(pipeline)
        if not self._capi.mlirGpucgPipelineFromName(string_ref,
                                                    ctypes.byref(value)):
            raise ValueError(f"unknown pipeline '{pipeline}'")
        del owner
        if mma_kind is not None and mma_kind not in MMA_KINDS:
            raise ValueError(f"unknown mma kind '{mma_kind}': expected "
                             "wmma or mma_sync")
        workgroup = list(workgroup_size or [])
        sizes = (ctypes.c_int64 * max(len(workgroup), 1))(*workgroup)
        self.take_diagnostics()
        return self._checked(
            self._capi.mlirGpucgTranslationInfoAttrGet(
                self.handle, value.value, len(workgroup), sizes,
                subgroup_size or 0, pipeline_depth, store_stage,
                MMA_KINDS.get(mma_kind, -1)),
            "invalid translation_info")

    def compilation_info(self, lowering_config, translation_info):
        """#gpucg.compilation_info from the two attributes."""
        self.take_diagnostics()
        return self._checked(
            self._capi.mlirGpucgCompilationInfoAttrGet(
                self.handle, lowering_config.handle,
                translation_info.handle),
            "invalid compilation_info")

    def target(self, chip):
        """#gpucg.target of a chip gpucg knows (known_chips())."""
        string_ref, owner = _capi.string_ref(chip)
        attr = self._capi.mlirGpucgTargetAttrGetForChip(self.handle,
                                                        string_ref)
        del owner
        if _capi.is_null(attr):
            raise ValueError(f"unknown chip '{chip}': gpucg knows "
                             + ", ".join(known_chips()))
        return Attribute(self, attr)


def _levels(tile_sizes):
    tile_sizes = list(tile_sizes)
    if tile_sizes and all(isinstance(s, int) for s in tile_sizes):
        return [tile_sizes]
    return [list(level) for level in tile_sizes]


def known_chips():
    """The chips #gpucg.target describes by name."""
    capi = _capi.lib()
    return [capi.mlirGpucgTargetGetKnownChip(i).str()
            for i in range(capi.mlirGpucgTargetGetNumKnownChips())]


class Attribute:
    """An attribute; gpucg's kinds have typed accessors."""

    def __init__(self, context, handle):
        self.context = context
        self.handle = handle

    def __str__(self):
        return _capi.collect_string(_capi.lib().mlirAttributePrint,
                                    self.handle)

    def __repr__(self):
        return f"Attribute({self})"

    def __eq__(self, other):
        return (isinstance(other, Attribute) and
                _capi.lib().mlirAttributeEqual(self.handle, other.handle))

    def __hash__(self):
        return hash(str(self))

    @property
    def kind(self):
        """"lowering_config", "translation_info", "compilation_info",
        "target", "mma_shape", or "other"."""
        capi = _capi.lib()
        for kind, isa in (
                ("lowering_config", capi.mlirAttributeIsAGpucgLoweringConfigAttr),
                ("translation_info", capi.mlirAttributeIsAGpucgTranslationInfoAttr),
                ("compilation_info", capi.mlirAttributeIsAGpucgCompilationInfoAttr),
                ("target", capi.mlirAttributeIsAGpucgTargetAttr),
                ("mma_shape", capi.mlirAttributeIsAGpucgMmaShapeAttr)):
            if isa(self.handle):
                return kind
        return "other"

    def _expect(self, *kinds):
        if self.kind not in kinds:
            raise TypeError(f"{self} is not a #gpucg.{' or '.join(kinds)}")

    # lowering_config
    @property
    def tile_sizes(self):
        self._expect("lowering_config")
        capi, h = _capi.lib(), self.handle
        return [[capi.mlirGpucgLoweringConfigAttrGetTileSize(h, level, i)
                 for i in range(
                     capi.mlirGpucgLoweringConfigAttrGetNumTileSizes(h, level))]
                for level in range(
                    capi.mlirGpucgLoweringConfigAttrGetNumLevels(h))]

    # translation_info
    @property
    def pipeline(self):
        self._expect("translation_info")
        capi = _capi.lib()
        return capi.mlirGpucgPipelineGetName(
            capi.mlirGpucgTranslationInfoAttrGetPipeline(self.handle)).str()

    @property
    def workgroup_size(self):
        self._expect("translation_info")
        capi, h = _capi.lib(), self.handle
        return [capi.mlirGpucgTranslationInfoAttrGetWorkgroupSize(h, i)
                for i in range(
                    capi.mlirGpucgTranslationInfoAttrGetNumWorkgroupSizes(h))]

    @property
    def subgroup_size(self):
        self._expect("translation_info")
        value = _capi.lib().mlirGpucgTranslationInfoAttrGetSubgroupSize(
            self.handle)
        return value or None

    @property
    def pipeline_depth(self):
        self._expect("translation_info")
        return _capi.lib().mlirGpucgTranslationInfoAttrGetPipelineDepth(
            self.handle)

    @property
    def store_stage(self):
        self._expect("translation_info")
        return _capi.lib().mlirGpucgTranslationInfoAttrGetStoreStage(
            self.handle)

    @property
    def mma_kind(self):
        self._expect("translation_info")
        return _MMA_KIND_NAMES.get(
            _capi.lib().mlirGpucgTranslationInfoAttrGetMmaKind(self.handle))

    @property
    def workgroup_group_size(self):
        """Rows of tiles per group of the workgroup order (1: launch
        order)."""
        self._expect("translation_info")
        return _capi.lib().mlirGpucgTranslationInfoAttrGetWorkgroupGroupSize(
            self.handle)

    @property
    def persistent_workgroups(self):
        """Workgroups of a persistent grid, or None (one per tile)."""
        self._expect("translation_info")
        value = _capi.lib().mlirGpucgTranslationInfoAttrGetPersistentWorkgroups(
            self.handle)
        return value or None

    @property
    def cluster(self):
        """Workgroups of a thread-block cluster along M and N, as (m, n)."""
        self._expect("translation_info")
        capi = _capi.lib()
        return (capi.mlirGpucgTranslationInfoAttrGetClusterM(self.handle),
                capi.mlirGpucgTranslationInfoAttrGetClusterN(self.handle))

    @property
    def staged_store(self):
        self._expect("translation_info")
        return bool(_capi.lib().mlirGpucgTranslationInfoAttrGetStagedStore(
            self.handle))

    @property
    def split_k(self):
        """Parts K is split into, one workgroup each (1: no split-K)."""
        self._expect("translation_info")
        return _capi.lib().mlirGpucgTranslationInfoAttrGetSplitK(self.handle)

    @property
    def stream_k(self):
        """Whether the tiles' K steps are split evenly over the persistent
        grid's workgroups (stream-K)."""
        self._expect("translation_info")
        return bool(_capi.lib().mlirGpucgTranslationInfoAttrGetStreamK(
            self.handle))

    # compilation_info
    @property
    def lowering_config(self):
        self._expect("compilation_info")
        return Attribute(self.context, _capi.lib()
                         .mlirGpucgCompilationInfoAttrGetLoweringConfig(
                             self.handle))

    @property
    def translation_info(self):
        self._expect("compilation_info")
        return Attribute(self.context, _capi.lib()
                         .mlirGpucgCompilationInfoAttrGetTranslationInfo(
                             self.handle))

    # target
    @property
    def limits(self):
        """The target's chip and limits, as a dict."""
        self._expect("target")
        capi, h = _capi.lib(), self.handle
        return {
            "chip": capi.mlirGpucgTargetAttrGetChip(h).str(),
            "compute_capability":
                capi.mlirGpucgTargetAttrGetComputeCapability(h),
            "warp_size": capi.mlirGpucgTargetAttrGetWarpSize(h),
            "max_threads_per_block":
                capi.mlirGpucgTargetAttrGetMaxThreadsPerBlock(h),
            "max_shared_memory_per_block":
                capi.mlirGpucgTargetAttrGetMaxSharedMemoryPerBlock(h),
            "max_shared_memory_per_block_optin":
                capi.mlirGpucgTargetAttrGetMaxSharedMemoryPerBlockOptin(h),
            "max_registers_per_block":
                capi.mlirGpucgTargetAttrGetMaxRegistersPerBlock(h),
            "max_registers_per_thread":
                capi.mlirGpucgTargetAttrGetMaxRegistersPerThread(h),
            "num_sms": capi.mlirGpucgTargetAttrGetNumSms(h),
            "num_mma_shapes": capi.mlirGpucgTargetAttrGetNumMmaShapes(h),
        }


class Operation:
    """An operation of a live module."""

    def __init__(self, module, handle):
        self.module = module
        self.handle = handle

    @property
    def name(self):
        capi = _capi.lib()
        return capi.mlirIdentifierStr(
            capi.mlirOperationGetName(self.handle)).str()

    def __str__(self):
        return _capi.collect_string(_capi.lib().mlirOperationPrint,
                                    self.handle)

    def get_attribute(self, name):
        """The discardable attribute `name` ("gpucg.lowering_config"), or
        None."""
        string_ref, owner = _capi.string_ref(name)
        attr = _capi.lib().mlirOperationGetDiscardableAttributeByName(
            self.handle, string_ref)
        del owner
        return None if _capi.is_null(attr) else Attribute(
            self.module.context, attr)

    def set_attribute(self, name, attribute):
        """Sets `name` to an Attribute or to the attribute spelled by a
        string."""
        if isinstance(attribute, str):
            attribute = self.module.context.attribute(attribute)
        string_ref, owner = _capi.string_ref(name)
        _capi.lib().mlirOperationSetDiscardableAttributeByName(
            self.handle, string_ref, attribute.handle)
        del owner

    def remove_attribute(self, name):
        string_ref, owner = _capi.string_ref(name)
        removed = _capi.lib().mlirOperationRemoveDiscardableAttributeByName(
            self.handle, string_ref)
        del owner
        return removed


class Module:
    """A module parsed in a Context."""

    def __init__(self, context, handle):
        self.context = context
        self._module = handle
        context._modules.add(self)

    def _destroy(self):
        if self._module is not None:
            _capi.lib().mlirModuleDestroy(self._module)
            self._module = None

    def __del__(self):
        try:
            if self.context._ctx is not None:
                self._destroy()
        except Exception:  # interpreter shutdown
            pass

    @property
    def operation(self):
        if self._module is None:
            raise ValueError("the module was destroyed with its context")
        return Operation(self, _capi.lib().mlirModuleGetOperation(
            self._module))

    def __str__(self):
        return str(self.operation)

    def print(self, generic=False):
        """The module's text; `generic`: MLIR's generic op form."""
        if not generic:
            return str(self)
        capi = _capi.lib()
        flags = capi.mlirOpPrintingFlagsCreate()
        capi.mlirOpPrintingFlagsPrintGenericOpForm(flags)
        try:
            return _capi.collect_string(capi.mlirOperationPrintWithFlags,
                                        self.operation.handle, flags)
        finally:
            capi.mlirOpPrintingFlagsDestroy(flags)

    def verify(self):
        """Raises CompileError("verification error") when the module is
        invalid."""
        self.context.take_diagnostics()
        if not _capi.lib().mlirOperationVerify(self.operation.handle):
            raise CompileError("verification error",
                               self.context.take_diagnostics())

    def operations(self, name=None):
        """Every operation (pre-order), or those named `name`."""
        found = []

        @_capi.MlirOperationWalkCallback
        def visit(op, _):
            found.append(_capi.MlirOperation(op.ptr))
            return 0  # MlirWalkResultAdvance

        _capi.lib().mlirOperationWalk(self.operation.handle, visit, None, 0)
        ops = [Operation(self, handle) for handle in found]
        return [op for op in ops if name is None or op.name == name]

    def run(self, pipeline, verify_each=True):
        """Runs a textual pipeline (`builtin.module(...)`, or the passes to
        nest in the module) on the module, in place; returns self. Raises
        CompileError("pipeline error" or "pass failure")."""
        capi = _capi.lib()
        text = pipeline.strip()
        if not (text.startswith("builtin.module(") or text.startswith("any(")):
            text = f"builtin.module({text})"
        pm = capi.mlirPassManagerCreate(self.context.handle)
        try:
            capi.mlirPassManagerEnableVerifier(pm, verify_each)
            errors = []

            @_capi.MlirStringCallback
            def on_error(message, _):
                errors.append(message.str())

            string_ref, owner = _capi.string_ref(text)
            parsed = capi.mlirParsePassPipeline(
                capi.mlirPassManagerGetAsOpPassManager(pm), string_ref,
                on_error, None)
            del owner
            if not parsed.value:
                message = "".join(errors).strip()
                raise CompileError("pipeline error",
                                   [Diagnostic("error", "", message)])
            self.context.take_diagnostics()
            if not capi.mlirPassManagerRunOnOp(pm, self.operation.handle).value:
                raise CompileError("pass failure",
                                   self.context.take_diagnostics())
        finally:
            capi.mlirPassManagerDestroy(pm)
        return self

    def set_compilation_info(self, info, op_name="linalg.matmul"):
        """Puts `info` (an Attribute or its text) on every op named
        `op_name` as gpucg.compilation_info; returns how many. A
        lowering_config or translation_info the op already has would
        contradict it, so they are removed."""
        ops = self.operations(op_name)
        for op in ops:
            op.remove_attribute("gpucg.lowering_config")
            op.set_attribute("gpucg.compilation_info", info)
        return len(ops)


# ===------------------------------------------------------------------------===#
# Helpers for configuration sweeps (strings in, strings out)
# ===------------------------------------------------------------------------===#

_shared_lock = threading.Lock()
_shared_context = None


def _shared():
    global _shared_context
    if _shared_context is None:
        _shared_context = Context()
    return _shared_context


def compilation_info(tile_sizes, workgroup_size,
                     pipeline="MatmulTensorCoreMmaSync", depth=None,
                     subgroup_size=None, store_stage=None, mma_kind=None):
    """The text of a #gpucg.compilation_info, checked by the dialect's
    verifier (ValueError otherwise).

    tile_sizes: (M, N, K) workgroup tiles, or one list per level (workgroup,
        warp, instruction); gpucg-select-lowering-strategy completes the
        levels left out and verifies the whole against the target.
    workgroup_size: (x, y, z) threads.
    depth: software-pipelining depth (translation_info pipeline_depth).
    """
    with _shared_lock:
        context = _shared()
        config = context.lowering_config(tile_sizes)
        info = context.translation_info(
            pipeline, workgroup_size, subgroup_size,
            1 if depth is None else depth,
            1 if store_stage is None else store_stage, mma_kind)
        return str(context.compilation_info(config, info))


def with_compilation_info(source, info, op_name="linalg.matmul"):
    """`source` (MLIR text) with `info` (a compilation_info's text) as the
    gpucg.compilation_info of every op named `op_name`. ValueError when there
    is none."""
    with _shared_lock:
        context = _shared()
        module = context.parse(source)
        try:
            if module.set_compilation_info(info, op_name) == 0:
                raise ValueError(f"no '{op_name}' op in the source")
            return str(module)
        finally:
            module._destroy()
