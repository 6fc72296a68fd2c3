# ===- runtime.py - gpucg.Kernel over libgpucg_cuda_runtime.so --------------===#
#
# Part of the gpucg project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===------------------------------------------------------------------------===#
"""Load a compiled kernel (binary + .abi) and call it on NumPy arrays (copied
to and from the device) or on PyTorch CUDA tensors (by data_ptr, no copies),
through the C API of libgpucg_cuda_runtime.so (runtime/include/
gpucg_runtime.h). Arguments are checked against the kernel's ABI before
anything reaches the GPU; that check needs neither the runtime nor a GPU."""

import ctypes
import os
import struct
import tempfile
import threading
from ctypes import POINTER, Structure, c_char, c_char_p, c_int, c_size_t
from ctypes import c_uint, c_uint64, c_void_p

from . import _capi
from . import abi as abi_module

RUNTIME_LIBRARY_NAME = "libgpucg_cuda_runtime.so"

# The ABI's element types: NumPy dtype names and torch dtype attributes.
# (bfloat16 and the 8-bit floats are ml_dtypes' NumPy dtypes.)
_NUMPY_DTYPES = {
    "f16": "float16", "bf16": "bfloat16", "f32": "float32",
    "f64": "float64", "i1": "bool", "i8": "int8", "i16": "int16",
    "i32": "int32", "i64": "int64", "index": "int64",
    "f8E4M3FN": "float8_e4m3fn", "f8E5M2": "float8_e5m2",
}
_TORCH_DTYPES = {
    "f16": "float16", "bf16": "bfloat16", "f32": "float32",
    "f64": "float64", "i1": "bool", "i8": "int8", "i16": "int16",
    "i32": "int32", "i64": "int64", "index": "int64",
    "f8E4M3FN": "float8_e4m3fn", "f8E5M2": "float8_e5m2",
}
# struct formats of scalars, by element type.
_SCALAR_FORMATS = {
    "f16": "<e", "f32": "<f", "f64": "<d", "i1": "<?", "i8": "<b",
    "i16": "<h", "i32": "<i", "i64": "<q", "index": "<q",
}


class GpucgRuntimeError(RuntimeError):
    """A call into libgpucg_cuda_runtime.so failed; `status` is its
    gpucg_status name ("GPUCG_ERROR_NO_DRIVER", ...)."""

    def __init__(self, status, message):
        self.status = status
        super().__init__(f"{status}: {message}" if message else status)


class _DeviceInfo(Structure):
    _fields_ = [
        ("name", c_char * 256),
        ("compute_capability_major", c_int),
        ("compute_capability_minor", c_int),
        ("multiprocessor_count", c_int),
        ("driver_version", c_int),
        ("total_memory_bytes", c_size_t),
        ("max_shared_memory_per_block_optin", c_int),
        ("l2_cache_bytes", c_int),
    ]


class _KernelAttributes(Structure):
    _fields_ = [
        ("registers_per_thread", c_int),
        ("static_shared_bytes", c_int),
        ("dynamic_shared_bytes", c_int),
        ("local_bytes_per_thread", c_int),
        ("max_threads_per_block", c_int),
    ]


class _Argument(Structure):
    _fields_ = [
        ("device_pointer", c_uint64),
        ("rank", c_int),
        ("sizes", POINTER(ctypes.c_int64)),
        ("scalar_bits", c_uint64),
    ]


_RUNTIME_FUNCTIONS = {
    "gpucg_last_error": (c_char_p, []),
    "gpucg_status_name": (c_char_p, [c_int]),
    "gpucg_init": (c_int, [c_int]),
    "gpucg_device_count": (c_int, [POINTER(c_int)]),
    "gpucg_device_get_info": (c_int, [POINTER(_DeviceInfo)]),
    "gpucg_malloc": (c_int, [POINTER(c_uint64), c_size_t]),
    "gpucg_free": (c_int, [c_uint64]),
    "gpucg_copy_to_device": (c_int, [c_uint64, c_void_p, c_size_t]),
    "gpucg_copy_to_host": (c_int, [c_void_p, c_uint64, c_size_t]),
    "gpucg_synchronize": (c_int, []),
    "gpucg_kernel_load": (c_int, [c_char_p, POINTER(c_void_p)]),
    "gpucg_kernel_unload": (None, [c_void_p]),
    "gpucg_kernel_get_attributes": (c_int, [c_void_p,
                                            POINTER(_KernelAttributes)]),
    "gpucg_kernel_launch": (c_int, [c_void_p, POINTER(_Argument), c_int,
                                    c_void_p, POINTER(c_uint * 3)]),
}

_lock = threading.Lock()
_runtime = None


def runtime_library_path():
    """$GPUCG_RUNTIME_LIB, else libgpucg_cuda_runtime.so next to
    libGpucgCAPI.so (the folders of gpucg._capi.candidate_library_dirs),
    else the name alone for the system loader."""
    if os.environ.get("GPUCG_RUNTIME_LIB"):
        return os.environ["GPUCG_RUNTIME_LIB"]
    return _capi.find_library(RUNTIME_LIBRARY_NAME)


def runtime():
    """The loaded runtime library; raises gpucg.LibraryNotFoundError."""
    global _runtime
    with _lock:
        if _runtime is None:
            path = runtime_library_path()
            try:
                library = ctypes.CDLL(path)
            except OSError as error:
                raise _capi.LibraryNotFoundError(
                    f"cannot load the gpucg runtime ({error}): build it "
                    "(ninja -C build gpucg_cuda_runtime) or set "
                    "GPUCG_RUNTIME_LIB to its path") from None
            for name, (restype, argtypes) in _RUNTIME_FUNCTIONS.items():
                function = getattr(library, name)
                function.restype = restype
                function.argtypes = argtypes
            _runtime = library
        return _runtime


def _check(status):
    if status != 0:
        library = runtime()
        name = library.gpucg_status_name(status).decode()
        raise GpucgRuntimeError(name, library.gpucg_last_error().decode())


def device_count():
    """Number of CUDA devices; 0 when the runtime, the driver or a GPU is
    missing."""
    try:
        library = runtime()
    except _capi.LibraryNotFoundError:
        return 0
    count = c_int(0)
    if library.gpucg_device_count(ctypes.byref(count)) != 0:
        return 0
    return count.value


def device_info(ordinal=0):
    """Facts of device `ordinal` as a dict."""
    library = runtime()
    _check(library.gpucg_init(ordinal))
    info = _DeviceInfo()
    _check(library.gpucg_device_get_info(ctypes.byref(info)))
    return {name: (getattr(info, name).decode() if name == "name"
                   else getattr(info, name)) for name, _ in info._fields_}


# ===------------------------------------------------------------------------===#
# Arguments
# ===------------------------------------------------------------------------===#


def _is_torch_tensor(value):
    return type(value).__module__.startswith("torch") and hasattr(
        value, "data_ptr")


def _is_numpy_array(value):
    return type(value).__module__.startswith("numpy") and hasattr(
        value, "__array_interface__")


def _shape_text(shape):
    return "x".join("?" if d is None else str(d) for d in shape) or "scalar"


class _Prepared:
    """One checked argument: a memref (NumPy or torch) or a scalar."""

    def __init__(self, spec, value, kind, scalar_bits=0):
        self.spec = spec
        self.value = value
        self.kind = kind  # "numpy", "torch", "scalar", "unused"
        self.scalar_bits = scalar_bits

    @property
    def shape(self):
        return tuple(self.value.shape) if self.kind in ("numpy", "torch") \
            else ()


def _check_memref(spec, value, position, function):
    where = f"{function}: argument {position}"
    expected = f"memref {spec.element_type} {_shape_text(spec.shape)}"
    if _is_torch_tensor(value):
        dtype = str(value.dtype).replace("torch.", "")
        want = _TORCH_DTYPES.get(spec.element_type)
        if dtype != want:
            raise TypeError(f"{where}: expected a tensor of torch.{want} "
                            f"({expected}), got torch.{dtype}")
        if not value.is_cuda:
            raise ValueError(f"{where}: expected a CUDA tensor, got one on "
                             f"{value.device}")
        if not value.is_contiguous():
            raise ValueError(f"{where}: the tensor must be contiguous "
                             "(row-major); call .contiguous()")
        if value.data_ptr() % 16:
            raise ValueError(f"{where}: the tensor's data must be 16-byte "
                             "aligned (docs/ABI.md)")
        kind = "torch"
    elif _is_numpy_array(value):
        dtype = value.dtype.name
        want = _NUMPY_DTYPES.get(spec.element_type)
        if dtype != want:
            raise TypeError(f"{where}: expected an array of {want} "
                            f"({expected}), got {dtype}")
        kind = "numpy"
    else:
        raise TypeError(f"{where}: expected a NumPy array or a torch CUDA "
                        f"tensor ({expected}), got {type(value).__name__}")
    shape = tuple(value.shape)
    if len(shape) != len(spec.shape) or any(
            want is not None and want != got
            for want, got in zip(spec.shape, shape)):
        raise ValueError(f"{where}: expected shape {_shape_text(spec.shape)}, "
                         f"got {_shape_text(shape)}")
    return _Prepared(spec, value, kind)


def _check_scalar(spec, value, position, function):
    where = f"{function}: argument {position}"
    fmt = _SCALAR_FORMATS.get(spec.element_type)
    if fmt is None:
        raise TypeError(f"{where}: scalars of type {spec.element_type} are "
                        "not supported")
    if hasattr(value, "item"):
        value = value.item()
    if spec.element_type.startswith("f"):
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise TypeError(f"{where}: expected a number ({spec.element_type}),"
                            f" got {type(value).__name__}")
        value = float(value)
    elif not isinstance(value, (int, bool)):
        raise TypeError(f"{where}: expected an integer ({spec.element_type}), "
                        f"got {type(value).__name__}")
    try:
        packed = struct.pack(fmt, value)
    except struct.error as error:
        raise ValueError(f"{where}: {value} does not fit "
                         f"{spec.element_type}: {error}") from None
    bits = int.from_bytes(packed.ljust(8, b"\0"), "little")
    return _Prepared(spec, value, "scalar", bits)


def check_arguments(kernel_abi, args):
    """Checks `args` (one per argument of the host function) against the
    ABI; returns the prepared arguments. Raises TypeError or ValueError with
    what is wrong."""
    specs = kernel_abi.function_arguments()
    function = kernel_abi.function
    if len(args) != len(specs):
        expected = ", ".join(s.describe() if s else "unused" for s in specs)
        outputs = [r.function_argument for r in kernel_abi.results]
        note = (f"; its output(s) {', '.join(map(str, outputs))} may be left "
                "out of a Kernel call, which allocates and returns them"
                if outputs else "")
        raise TypeError(f"{function} takes {len(specs)} argument(s) "
                        f"({expected}), got {len(args)}{note}")
    prepared = []
    for position, (spec, value) in enumerate(zip(specs, args)):
        if spec is None:
            prepared.append(_Prepared(None, value, "unused"))
        elif spec.is_buffer:
            prepared.append(_check_memref(spec, value, position, function))
        else:
            prepared.append(_check_scalar(spec, value, position, function))
    return prepared


def _numpy_dtype(element_type):
    import numpy
    name = _NUMPY_DTYPES.get(element_type)
    if name is None:
        raise TypeError(f"no NumPy type for {element_type}")
    try:
        return numpy.dtype(name)
    except TypeError:
        import ml_dtypes  # bfloat16, the 8-bit floats
        return numpy.dtype(getattr(ml_dtypes, name))


def allocate_outputs(kernel_abi, args):
    """`args` completed with the outputs a call left out: the trailing
    function arguments that the ABI's `result` lines name (tensors the
    source function returned), allocated with the shapes the ABI gives from
    the other arguments' (zero-filled NumPy arrays, or torch tensors on the
    device of the first torch argument). Returns (arguments, outputs); the
    outputs are empty when `args` are all the function's arguments."""
    specs = kernel_abi.function_arguments()
    if len(args) >= len(specs):
        return tuple(args), ()
    results = {r.function_argument: r for r in kernel_abi.results}
    missing = range(len(args), len(specs))
    function = kernel_abi.function
    if not all(position in results for position in missing):
        return tuple(args), ()  # check_arguments reports the count
    shapes = [tuple(a.shape) if hasattr(a, "shape") else None for a in args]
    torch_device = next((a.device for a in args if _is_torch_tensor(a)),
                        None)
    outputs = []
    for position in missing:
        spec, result = specs[position], results[position]
        shape = result.shape(shapes)
        if shape is None:
            raise TypeError(
                f"{function}: output argument {position} ({spec.describe()})"
                f" has a size only the caller knows ({result}); pass it")
        if torch_device is not None:
            import torch
            outputs.append(torch.zeros(
                shape, dtype=getattr(torch, _TORCH_DTYPES[spec.element_type]),
                device=torch_device))
        else:
            import numpy
            outputs.append(numpy.zeros(shape, _numpy_dtype(spec.element_type)))
    return tuple(args) + tuple(outputs), tuple(outputs)


# ===------------------------------------------------------------------------===#
# Kernel
# ===------------------------------------------------------------------------===#


class Kernel:
    """A compiled kernel loaded on the GPU.

        kernel = gpucg.Kernel("out/matmul_kernel.abi")   # binary beside it
        kernel(a, b, c)          # NumPy: copied in, launched, copied back
        kernel(ta, tb, tc)       # torch CUDA tensors: launched in place

    Arguments are the host function's, in its order (not the kernel's
    parameter order, which the ABI maps).
    """

    def __init__(self, abi_path, device=0):
        self.abi_path = str(abi_path)
        self.abi = abi_module.read(self.abi_path)
        self.device = device
        self._handle = None
        library = runtime()
        _check(library.gpucg_init(device))
        handle = c_void_p()
        _check(library.gpucg_kernel_load(self.abi_path.encode(),
                                         ctypes.byref(handle)))
        self._handle = handle

    @classmethod
    def from_compiled(cls, compiled, directory=None, device=0):
        """Loads a CompiledKernel (or the only kernel of a CompileResult),
        saved into `directory` (a temporary one by default)."""
        kernels = getattr(compiled, "kernels", None)
        if kernels is not None:
            if len(kernels) != 1:
                raise ValueError(f"the result has {len(kernels)} kernels; "
                                 "pass one of result.kernels")
            compiled = kernels[0]
        if directory is None:
            directory = tempfile.mkdtemp(prefix="gpucg-kernel-")
        return cls(compiled.save(directory), device=device)

    def close(self):
        if self._handle is not None:
            runtime().gpucg_kernel_unload(self._handle)
            self._handle = None

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    def attributes(self):
        """Registers, shared and local memory the driver reports."""
        attributes = _KernelAttributes()
        _check(runtime().gpucg_kernel_get_attributes(
            self._handle, ctypes.byref(attributes)))
        return {name: getattr(attributes, name)
                for name, _ in attributes._fields_}

    def check(self, *args):
        """Checks arguments without launching (see check_arguments)."""
        return check_arguments(self.abi, args)

    def _arguments(self, prepared, device_buffers, keep):
        """The runtime's arguments for `prepared`, uploading NumPy arrays
        (recorded in `device_buffers`); returns (arguments, torch device or
        None)."""
        c_args = (_Argument * max(len(prepared), 1))()
        torch_device = None
        for i, arg in enumerate(prepared):
            c_arg = c_args[i]
            if arg.kind == "scalar":
                c_arg.scalar_bits = arg.scalar_bits
                continue
            if arg.kind == "unused":
                continue
            sizes = (ctypes.c_int64 * max(len(arg.shape), 1))(*arg.shape)
            keep.append(sizes)
            c_arg.rank = len(arg.shape)
            c_arg.sizes = sizes
            if arg.kind == "torch":
                c_arg.device_pointer = arg.value.data_ptr()
                torch_device = arg.value.device
            else:
                c_arg.device_pointer = self._upload(arg, device_buffers)
        return c_args, torch_device

    @staticmethod
    def _stream(stream, torch_device):
        if stream is None and torch_device is not None:
            import torch
            stream = torch.cuda.current_stream(torch_device).cuda_stream
        return c_void_p(stream) if stream else None

    def __call__(self, *args, stream=None, synchronize=True):
        """Launches on `args`; returns the grid, or, when `args` leave out
        the outputs of a function that returned new tensors (the ABI's
        `result` arguments, last in its signature), those outputs,
        allocated here: the one array, or a tuple. NumPy arrays are copied
        to the device and back (every memref argument is written back);
        torch tensors are used in place on `stream` (default: torch's
        current stream), asynchronously unless `synchronize`."""
        args, outputs = allocate_outputs(self.abi, args)
        prepared = check_arguments(self.abi, args)
        library = runtime()
        device_buffers, keep = [], []
        try:
            c_args, torch_device = self._arguments(prepared, device_buffers,
                                                   keep)
            grid = (c_uint * 3)()
            _check(library.gpucg_kernel_launch(
                self._handle, c_args, len(prepared),
                self._stream(stream, torch_device), grid))
            if device_buffers or synchronize:
                _check(library.gpucg_synchronize())
            for arg, pointer, host in device_buffers:
                _check(library.gpucg_copy_to_host(
                    host.ctypes.data, pointer, host.nbytes))
                if host is not arg.value:
                    arg.value[...] = host
            if outputs:
                return outputs[0] if len(outputs) == 1 else outputs
            return tuple(grid)
        finally:
            for _, pointer, _ in device_buffers:
                library.gpucg_free(pointer)

    def benchmark(self, *args, repeat=20, warmup=3):
        """Mean milliseconds per launch on `args` (uploaded once; nothing is
        copied back), timed on the host around `repeat` launches and one
        synchronization."""
        import time
        args, _ = allocate_outputs(self.abi, args)
        prepared = check_arguments(self.abi, args)
        library = runtime()
        device_buffers, keep = [], []
        try:
            c_args, torch_device = self._arguments(prepared, device_buffers,
                                                   keep)
            stream = self._stream(None, torch_device)
            for _ in range(warmup):
                _check(library.gpucg_kernel_launch(
                    self._handle, c_args, len(prepared), stream, None))
            _check(library.gpucg_synchronize())
            start = time.perf_counter()
            for _ in range(repeat):
                _check(library.gpucg_kernel_launch(
                    self._handle, c_args, len(prepared), stream, None))
            _check(library.gpucg_synchronize())
            return (time.perf_counter() - start) * 1000.0 / max(repeat, 1)
        finally:
            for _, pointer, _ in device_buffers:
                library.gpucg_free(pointer)

    @staticmethod
    def _upload(arg, device_buffers):
        import numpy
        host = numpy.ascontiguousarray(arg.value)
        pointer = c_uint64(0)
        _check(runtime().gpucg_malloc(ctypes.byref(pointer),
                                      max(host.nbytes, 1)))
        device_buffers.append((arg, pointer.value, host))
        _check(runtime().gpucg_copy_to_device(pointer.value, host.ctypes.data,
                                              host.nbytes))
        return pointer.value

