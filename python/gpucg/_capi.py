# ===- _capi.py - ctypes declarations of libGpucgCAPI.so --------------------===#
#
# Part of the gpucg project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===------------------------------------------------------------------------===#
"""The C API of libGpucgCAPI.so (include/gpucg-c, mlir-c) through ctypes.

The library is found, in this order, in $GPUCG_LIB_DIR, in the package's own
lib/ folder, in the build tree this package sits in (<repo>/build/lib), and
by the system loader (LD_LIBRARY_PATH). It is loaded on first use, so that
`import gpucg` works without it (gpucg.abi needs no library).
"""

import ctypes
import os
import pathlib
import threading
from ctypes import (CFUNCTYPE, POINTER, Structure, c_bool, c_int,
                    c_int8, c_int64, c_size_t, c_uint, c_void_p)

c_intptr = ctypes.c_ssize_t

LIBRARY_NAME = "libGpucgCAPI.so"


class LibraryNotFoundError(ImportError):
    """libGpucgCAPI.so (or the runtime library) could not be found or loaded."""


def candidate_library_dirs():
    """Folders searched for gpucg's shared libraries, in order."""
    dirs = []
    if os.environ.get("GPUCG_LIB_DIR"):
        dirs.append(pathlib.Path(os.environ["GPUCG_LIB_DIR"]))
    package = pathlib.Path(__file__).resolve().parent
    dirs.append(package / "lib")
    # python/gpucg/_capi.py in a source checkout: <repo>/build/lib.
    dirs.append(package.parent.parent / "build" / "lib")
    return dirs


def find_library(name):
    """The path of `name` in the first folder that has it, else `name` alone
    (for the system loader)."""
    for directory in candidate_library_dirs():
        path = directory / name
        if path.is_file():
            return str(path)
    return name


# ===------------------------------------------------------------------------===#
# Types
# ===------------------------------------------------------------------------===#


class MlirStringRef(Structure):
    _fields_ = [("data", c_void_p), ("length", c_size_t)]

    @classmethod
    def of(cls, data):
        """A string ref over `data` (bytes); keep `data` alive meanwhile."""
        return cls(ctypes.cast(ctypes.c_char_p(data), c_void_p), len(data))

    def bytes(self):
        if not self.length:
            return b""
        return ctypes.string_at(self.data, self.length)

    def str(self):
        return self.bytes().decode("utf-8", errors="replace")


def _handle(name):
    return type(name, (Structure,), {"_fields_": [("ptr", c_void_p)]})


MlirContext = _handle("MlirContext")
MlirDialectRegistry = _handle("MlirDialectRegistry")
MlirModule = _handle("MlirModule")
MlirOperation = _handle("MlirOperation")
MlirAttribute = _handle("MlirAttribute")
MlirType = _handle("MlirType")
MlirLocation = _handle("MlirLocation")
MlirIdentifier = _handle("MlirIdentifier")
MlirPassManager = _handle("MlirPassManager")
MlirOpPassManager = _handle("MlirOpPassManager")
MlirDiagnostic = _handle("MlirDiagnostic")
MlirOpPrintingFlags = _handle("MlirOpPrintingFlags")
MlirTypeID = _handle("MlirTypeID")


class MlirLogicalResult(Structure):
    _fields_ = [("value", c_int8)]


MlirStringCallback = CFUNCTYPE(None, MlirStringRef, c_void_p)
# MlirLogicalResult (*)(MlirDiagnostic, void *): ctypes callbacks cannot
# return structures; a struct of one int8_t is returned as an int8_t.
MlirDiagnosticHandler = CFUNCTYPE(c_int8, MlirDiagnostic, c_void_p)
MlirDeleteUserData = CFUNCTYPE(None, c_void_p)
# MlirWalkResult (*)(MlirOperation, void *)
MlirOperationWalkCallback = CFUNCTYPE(c_int, MlirOperation, c_void_p)

# MlirDiagnosticSeverity
SEVERITIES = {0: "error", 1: "warning", 2: "note", 3: "remark"}


class MlirGpucgCompileOptions(Structure):
    _fields_ = [
        ("pipeline", MlirStringRef),
        ("chip", MlirStringRef),
        ("format", MlirStringRef),
        ("features", MlirStringRef),
        ("optLevel", c_uint),
        ("barePointers", c_bool),
        ("printGenericForm", c_bool),
        ("verifyEachPass", c_bool),
        ("deterministicReductions", c_bool),
        ("wgmmaPersistent", c_bool),
        ("wgmmaPersistentWorkgroups", c_int64),
        ("wgmmaStagedStore", c_bool),
        ("workgroupGroupSize", c_int64),
        ("nvvmFloat8", c_bool),
        ("wgmmaClusterM", c_int64),
        ("wgmmaClusterN", c_int64),
        ("report", c_bool),
        ("f32Precision", MlirStringRef),
        ("splitK", c_int64),
        ("wgmmaStreamK", c_bool),
    ]


class MlirGpucgCompiledKernel(Structure):
    _fields_ = [
        ("name", MlirStringRef),
        ("binaryFileName", MlirStringRef),
        ("binary", MlirStringRef),
        ("abi", MlirStringRef),
        ("registers", c_int64),
        ("stackFrameBytes", c_int64),
        ("staticSharedBytes", c_int64),
        ("workgroupsPerSm", c_int64),
    ]


MlirGpucgKernelCallback = CFUNCTYPE(None, POINTER(MlirGpucgCompiledKernel),
                                    c_void_p)
MlirGpucgDiagnosticCallback = CFUNCTYPE(None, c_int, MlirStringRef,
                                        MlirStringRef, c_void_p)


class MlirGpucgCompileCallbacks(Structure):
    _fields_ = [
        ("onKernel", MlirGpucgKernelCallback),
        ("onModule", MlirStringCallback),
        ("onDiagnostic", MlirGpucgDiagnosticCallback),
        ("userData", c_void_p),
    ]


class MlirGpucgPassEntry(Structure):
    _fields_ = [
        ("argument", MlirStringRef),
        ("summary", MlirStringRef),
        ("kind", c_int),
        ("anchor", MlirStringRef),
        ("numOptions", c_intptr),
    ]


class MlirGpucgPassOption(Structure):
    _fields_ = [
        ("name", MlirStringRef),
        ("defaultValue", MlirStringRef),
        ("description", MlirStringRef),
    ]


# MlirGpucgCompileStatus
COMPILE_STATUS = {
    0: "success",
    1: "invalid argument",
    2: "parse error",
    3: "pipeline error",
    4: "pass failure",
    5: "export error",
}

# ===------------------------------------------------------------------------===#
# Functions: name -> (result type, argument types)
# ===------------------------------------------------------------------------===#

_S, _A, _C, _O = MlirStringRef, MlirAttribute, MlirContext, MlirOperation
_FUNCTIONS = {
    # mlir-c/IR.h, Support.h, Diagnostics.h
    "mlirContextDestroy": (None, [_C]),
    "mlirContextAttachDiagnosticHandler":
        (ctypes.c_uint64, [_C, MlirDiagnosticHandler, c_void_p,
                           MlirDeleteUserData]),
    "mlirContextDetachDiagnosticHandler": (None, [_C, ctypes.c_uint64]),
    "mlirDiagnosticPrint": (None, [MlirDiagnostic, MlirStringCallback,
                                   c_void_p]),
    "mlirDiagnosticGetLocation": (MlirLocation, [MlirDiagnostic]),
    "mlirDiagnosticGetSeverity": (c_int, [MlirDiagnostic]),
    "mlirDiagnosticGetNumNotes": (c_intptr, [MlirDiagnostic]),
    "mlirDiagnosticGetNote": (MlirDiagnostic, [MlirDiagnostic, c_intptr]),
    "mlirLocationPrint": (None, [MlirLocation, MlirStringCallback, c_void_p]),
    "mlirModuleCreateParse": (MlirModule, [_C, _S]),
    "mlirModuleDestroy": (None, [MlirModule]),
    "mlirModuleGetOperation": (_O, [MlirModule]),
    "mlirOperationPrint": (None, [_O, MlirStringCallback, c_void_p]),
    "mlirOperationPrintWithFlags": (None, [_O, MlirOpPrintingFlags,
                                           MlirStringCallback, c_void_p]),
    "mlirOpPrintingFlagsCreate": (MlirOpPrintingFlags, []),
    "mlirOpPrintingFlagsDestroy": (None, [MlirOpPrintingFlags]),
    "mlirOpPrintingFlagsPrintGenericOpForm": (None, [MlirOpPrintingFlags]),
    "mlirOperationVerify": (c_bool, [_O]),
    "mlirOperationGetName": (MlirIdentifier, [_O]),
    "mlirIdentifierStr": (_S, [MlirIdentifier]),
    "mlirOperationWalk": (None, [_O, MlirOperationWalkCallback, c_void_p,
                                 c_int]),
    "mlirOperationGetDiscardableAttributeByName": (_A, [_O, _S]),
    "mlirOperationSetDiscardableAttributeByName": (None, [_O, _S, _A]),
    "mlirOperationRemoveDiscardableAttributeByName": (c_bool, [_O, _S]),
    "mlirOperationGetContext": (_C, [_O]),
    "mlirAttributeParseGet": (_A, [_C, _S]),
    "mlirAttributePrint": (None, [_A, MlirStringCallback, c_void_p]),
    "mlirAttributeEqual": (c_bool, [_A, _A]),
    # mlir-c/Pass.h
    "mlirPassManagerCreate": (MlirPassManager, [_C]),
    "mlirPassManagerDestroy": (None, [MlirPassManager]),
    "mlirPassManagerGetAsOpPassManager": (MlirOpPassManager,
                                          [MlirPassManager]),
    "mlirPassManagerEnableVerifier": (None, [MlirPassManager, c_bool]),
    "mlirPassManagerRunOnOp": (MlirLogicalResult, [MlirPassManager, _O]),
    "mlirParsePassPipeline": (MlirLogicalResult, [MlirOpPassManager, _S,
                                                  MlirStringCallback,
                                                  c_void_p]),
    # gpucg-c/Dialects.h
    "mlirGpucgContextCreate": (_C, []),
    "mlirGpucgRegisterAllPasses": (None, []),
    "mlirGpucgGetVersion": (_S, []),
    # gpucg-c/Passes.h
    "mlirGpucgGetNumPassEntries": (c_intptr, []),
    "mlirGpucgGetPassEntry": (MlirGpucgPassEntry, [c_intptr]),
    "mlirGpucgGetPassEntryOption": (MlirGpucgPassOption, [c_intptr,
                                                          c_intptr]),
    # gpucg-c/Compile.h
    "mlirGpucgCompileOptionsGetDefault": (MlirGpucgCompileOptions, []),
    "mlirGpucgCompile": (c_int, [_S, _S, POINTER(MlirGpucgCompileOptions),
                                 POINTER(MlirGpucgCompileCallbacks)]),
    # gpucg-c/Attributes.h
    "mlirGpucgPipelineGetName": (_S, [c_int]),
    "mlirGpucgPipelineFromName": (c_bool, [_S, POINTER(c_int)]),
    "mlirAttributeIsAGpucgLoweringConfigAttr": (c_bool, [_A]),
    "mlirGpucgLoweringConfigAttrGet": (_A, [_C, c_intptr, POINTER(c_intptr),
                                            POINTER(c_int64)]),
    "mlirGpucgLoweringConfigAttrGetNumLevels": (c_intptr, [_A]),
    "mlirGpucgLoweringConfigAttrGetNumTileSizes": (c_intptr, [_A, c_intptr]),
    "mlirGpucgLoweringConfigAttrGetTileSize": (c_int64, [_A, c_intptr,
                                                         c_intptr]),
    "mlirAttributeIsAGpucgTranslationInfoAttr": (c_bool, [_A]),
    "mlirGpucgTranslationInfoAttrGet": (_A, [_C, c_int, c_intptr,
                                             POINTER(c_int64), c_int64,
                                             c_int64, c_int64, c_int]),
    "mlirGpucgTranslationInfoAttrGetPipeline": (c_int, [_A]),
    "mlirGpucgTranslationInfoAttrGetNumWorkgroupSizes": (c_intptr, [_A]),
    "mlirGpucgTranslationInfoAttrGetWorkgroupSize": (c_int64, [_A, c_intptr]),
    "mlirGpucgTranslationInfoAttrGetSubgroupSize": (c_int64, [_A]),
    "mlirGpucgTranslationInfoAttrGetPipelineDepth": (c_int64, [_A]),
    "mlirGpucgTranslationInfoAttrGetStoreStage": (c_int64, [_A]),
    "mlirGpucgTranslationInfoAttrGetMmaKind": (c_int, [_A]),
    "mlirGpucgTranslationInfoAttrGetWorkgroupGroupSize": (c_int64, [_A]),
    "mlirGpucgTranslationInfoAttrGetPersistentWorkgroups": (c_int64, [_A]),
    "mlirGpucgTranslationInfoAttrGetClusterM": (c_int64, [_A]),
    "mlirGpucgTranslationInfoAttrGetClusterN": (c_int64, [_A]),
    "mlirGpucgTranslationInfoAttrGetStagedStore": (c_bool, [_A]),
    "mlirGpucgTranslationInfoAttrGetSplitK": (c_int64, [_A]),
    "mlirGpucgTranslationInfoAttrGetStreamK": (c_bool, [_A]),
    "mlirAttributeIsAGpucgCompilationInfoAttr": (c_bool, [_A]),
    "mlirGpucgCompilationInfoAttrGet": (_A, [_C, _A, _A]),
    "mlirGpucgCompilationInfoAttrGetLoweringConfig": (_A, [_A]),
    "mlirGpucgCompilationInfoAttrGetTranslationInfo": (_A, [_A]),
    "mlirAttributeIsAGpucgTargetAttr": (c_bool, [_A]),
    "mlirGpucgTargetAttrGetForChip": (_A, [_C, _S]),
    "mlirGpucgTargetGetNumKnownChips": (c_intptr, []),
    "mlirGpucgTargetGetKnownChip": (_S, [c_intptr]),
    "mlirGpucgTargetAttrGetChip": (_S, [_A]),
    "mlirGpucgTargetAttrGetComputeCapability": (c_int64, [_A]),
    "mlirGpucgTargetAttrGetWarpSize": (c_int64, [_A]),
    "mlirGpucgTargetAttrGetMaxThreadsPerBlock": (c_int64, [_A]),
    "mlirGpucgTargetAttrGetMaxSharedMemoryPerBlock": (c_int64, [_A]),
    "mlirGpucgTargetAttrGetMaxSharedMemoryPerBlockOptin": (c_int64, [_A]),
    "mlirGpucgTargetAttrGetMaxRegistersPerBlock": (c_int64, [_A]),
    "mlirGpucgTargetAttrGetMaxRegistersPerThread": (c_int64, [_A]),
    "mlirGpucgTargetAttrGetNumSms": (c_int64, [_A]),
    "mlirGpucgTargetAttrGetNumMmaShapes": (c_intptr, [_A]),
    "mlirGpucgTargetAttrGetMmaShape": (_A, [_A, c_intptr]),
    "mlirAttributeIsAGpucgMmaShapeAttr": (c_bool, [_A]),
}

_lock = threading.Lock()
_lib = None


def lib():
    """The loaded libGpucgCAPI.so, its functions typed; raises
    LibraryNotFoundError when it cannot be loaded."""
    global _lib
    with _lock:
        if _lib is not None:
            return _lib
        path = find_library(LIBRARY_NAME)
        try:
            library = ctypes.CDLL(path)
        except OSError as error:
            searched = ", ".join(str(d) for d in candidate_library_dirs())
            raise LibraryNotFoundError(
                f"cannot load {LIBRARY_NAME} ({error}); searched {searched}: "
                "build it (ninja -C build GpucgCAPI) or set GPUCG_LIB_DIR to "
                "the folder that holds it") from None
        for name, (restype, argtypes) in _FUNCTIONS.items():
            function = getattr(library, name)
            function.restype = restype
            function.argtypes = argtypes
        library.mlirGpucgRegisterAllPasses()
        _lib = library
        return _lib


def library_path():
    """The file libGpucgCAPI.so was loaded from."""
    lib()
    return find_library(LIBRARY_NAME)


def string_ref(text):
    """A (string ref, owner) pair for `text` (str or bytes): keep the owner
    alive while the string ref is used."""
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    buffer = ctypes.create_string_buffer(data, len(data))
    return MlirStringRef(ctypes.cast(buffer, c_void_p), len(data)), buffer


def collect_string(print_function, *args):
    """Calls a C print function `print_function(*args, callback, userData)`
    and returns what it printed, as str."""
    chunks = []

    @MlirStringCallback
    def append(text, _):
        chunks.append(text.bytes())

    print_function(*args, append, None)
    return b"".join(chunks).decode("utf-8", errors="replace")


def is_null(handle):
    return not handle.ptr


__all__ = ["LibraryNotFoundError", "lib", "find_library", "string_ref",
           "collect_string"]
