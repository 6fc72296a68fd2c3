# ===- abi.py - The kernel ABI file (docs/ABI.md) ---------------------------===#
#
# Part of the gpucg project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===------------------------------------------------------------------------===#
"""Reads the `.abi` text that gpucg-export-kernels writes (docs/ABI.md), so
that Python can check a call's arguments before it reaches the runtime.
Needs no library."""

import dataclasses
import re
from typing import List, Optional, Tuple

ABI_VERSION = 1

# Bits of the element types the ABI names (MLIR spelling); element_bits
# also takes any iN, siN, uiN and the 8-, 6- and 4-bit floats, as the C
# runtime's gpucg_abi_type_bits does.
ELEMENT_BITS = {
    "i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "index": 64,
    "f16": 16, "bf16": 16, "f32": 32, "f64": 64, "tf32": 32,
}
_INTEGER_TYPE = re.compile(r"(?:i|si|ui)([1-9][0-9]*)")
_SMALL_FLOAT_TYPE = re.compile(r"f([864])E[0-9A-Za-z]+")


def element_bits(element_type):
    """Bits of an element of `element_type` (MLIR spelling); 0 if unknown."""
    if element_type in ELEMENT_BITS:
        return ELEMENT_BITS[element_type]
    match = _INTEGER_TYPE.fullmatch(element_type)
    if match and int(match.group(1)) <= 64:
        return int(match.group(1))
    match = _SMALL_FLOAT_TYPE.fullmatch(element_type)
    if match:
        return int(match.group(1))
    return 0


class AbiError(ValueError):
    """An .abi text is malformed or of an unknown version."""


@dataclasses.dataclass(frozen=True)
class Extent:
    """One grid dimension: a constant, or a product of up to
    MAX_GRID_TERMS run-time sizes, each `argN.dimD` or `ceildiv argN.dimD
    S`, times a constant `C` where `* C` ends the line. The fields describe
    the first size; `size_factors` the others."""
    value: int  # the constant, or the divisor S (1 for argN.dimD)
    function_argument: Optional[int] = None
    dim: Optional[int] = None
    factor: int = 1  # C of `* C`
    # The further sizes, as (function argument, dim, divisor) each.
    size_factors: Tuple[Tuple[int, int, int], ...] = ()

    def terms(self):
        """Every size of the product as (function argument, dim, divisor);
        none for a constant."""
        if self.function_argument is None:
            return ()
        return ((self.function_argument, self.dim, self.value),
                *self.size_factors)

    def evaluate(self, shapes):
        """The extent for `shapes` (one shape per function argument)."""
        if self.function_argument is None:
            return self.value
        product = self.factor
        for argument, dim, divisor in self.terms():
            product *= (shapes[argument][dim] + divisor - 1) // divisor
        return product

    def __str__(self):
        if self.function_argument is None:
            return str(self.value)
        words = []
        for argument, dim, divisor in self.terms():
            size = f"arg{argument}.dim{dim}"
            words.append(size if divisor == 1
                         else f"ceildiv {size} {divisor}")
        if self.factor != 1:
            words.append(str(self.factor))
        return " * ".join(words)


@dataclasses.dataclass(frozen=True)
class Argument:
    """One `argument I function_argument J TYPE` line."""
    index: int
    function_argument: int
    kind: str  # "memref", "scalar" or "tensor_map"
    element_type: str
    shape: Optional[Tuple[Optional[int], ...]]  # buffers; None for `?`
    # Tensor maps: the box (outermost first; fewer sizes than the shape:
    # the map is of the tensor with its leading dimensions collapsed into
    # one) and the swizzle in bytes (0: none); the function argument is the
    # memref the map is built on.
    box: Optional[Tuple[int, ...]] = None
    swizzle_bytes: int = 0

    @property
    def element_bits(self):
        return element_bits(self.element_type)

    @property
    def is_buffer(self):
        """Whether the function argument is a memref (passed as one, or as
        a TMA tensor map the launcher builds on it)."""
        return self.kind in ("memref", "tensor_map")

    def describe(self):
        """The function argument's type: `memref ELT SHAPE` (a tensor map's
        too) or `scalar T`."""
        if self.kind == "scalar":
            return f"scalar {self.element_type}"
        dims = "x".join("?" if d is None else str(d) for d in self.shape)
        return f"memref {self.element_type} {dims or 'scalar'}"


@dataclasses.dataclass(frozen=True)
class Result:
    """One `result J D0 D1 ...` line: function argument J is an output (a
    tensor the source function returned); each size is a constant (an int),
    a size of an input (an Extent `argN.dimD`), or None (`?`: only the
    caller knows)."""
    function_argument: int
    sizes: Tuple[object, ...]

    def shape(self, shapes):
        """The output's shape for the inputs' `shapes` (one per function
        argument, None where not given); None when a size is unknown."""
        result = []
        for size in self.sizes:
            if isinstance(size, Extent):
                given = shapes[size.function_argument] \
                    if size.function_argument < len(shapes) else None
                if given is None:
                    return None
                result.append(size.evaluate(shapes))
            elif size is None:
                return None
            else:
                result.append(size)
        return tuple(result)

    def __str__(self):
        return " ".join(["result", str(self.function_argument)] + [
            "?" if size is None else str(size) for size in self.sizes])


@dataclasses.dataclass(frozen=True)
class KernelAbi:
    """The launch facts of one kernel."""
    version: int
    function: str
    kernel: str
    binary: str
    format: str
    chip: str
    calling_convention: str
    grid: Tuple[Extent, Extent, Extent]
    block: Tuple[int, int, int]
    dynamic_shared_memory: int
    arguments: Tuple[Argument, ...]
    # Outputs of a function that returned new tensors (docs/ABI.md).
    results: Tuple[Result, ...] = ()

    @property
    def num_function_arguments(self):
        """How many arguments the host function has, as far as the kernel
        uses them (the highest `function_argument` + 1)."""
        return 1 + max((a.function_argument for a in self.arguments),
                       default=-1)

    def function_arguments(self):
        """The ABI's argument for each function argument (None for one the
        kernel does not take), in the function's order."""
        result = [None] * self.num_function_arguments
        for argument in self.arguments:
            result[argument.function_argument] = argument
        return result


# The limits of the C reader (runtime/cuda/Abi.c, gpucg_runtime.h), which
# this one follows rule for rule: test/Runtime/abi-conformance.test runs
# both over the same files, valid, truncated and mutated, and requires the
# same verdict and the same facts.
MAX_FIELDS = 16
MAX_GRID_TERMS = 3
MAX_RANK = 8
MAX_NAME = 256  # function, kernel and binary names, with the C NUL
MAX_CHIP = 32
MAX_TYPE = 32
MAX_ARGUMENTS = 4096
MAX_FUNCTION_ARGUMENT = 65535
INT32_MAX = 2**31 - 1
INT64_MAX = 2**63 - 1
TENSOR_MAP_MAX_RANK = 5
TENSOR_MAP_MAX_BOX = 256
FORMATS = ("cubin", "ptx", "fatbin", "bc")
CALLING_CONVENTIONS = ("bare_pointers", "memref_descriptors")
SWIZZLES = {"none": 0, "32b": 32, "64b": 64, "128b": 128}
_DIGITS = re.compile(r"[0-9]+")
_CHIP = re.compile(r"sm_[0-9][0-9]")


def _count(text):
    """Digits only, fitting in int64_t; else None."""
    if not _DIGITS.fullmatch(text):
        return None
    value = int(text)
    return value if value <= INT64_MAX else None


def _dim_reference(text):
    """`argN.dimD` as (N, D), or None."""
    if not text.startswith("arg") or ".dim" not in text:
        return None
    number, dim = text[3:].split(".dim", 1)
    if not number or len(number) >= 32:
        return None
    argument, dim = _count(number), _count(dim)
    if (argument is None or dim is None or argument > MAX_FUNCTION_ARGUMENT
            or dim >= MAX_RANK):
        return None
    return argument, dim


class _Reader:
    """The file as lines of fields, as the C reader splits them: blank lines
    and lines that start with `#` skipped, fields separated by single
    spaces, at most MAX_FIELDS."""

    def __init__(self, text):
        self.lines = text.split("\n")
        if self.lines and self.lines[-1] == "":
            self.lines.pop()  # the newline that ends the last line
        self.position = 0
        self.line = 0
        self.fields = []

    def error(self, what):
        return AbiError(f"line {self.line}: {what}")

    def next(self):
        """The next line's fields; [] at the end of the file."""
        while self.position < len(self.lines):
            line = self.lines[self.position]
            self.position += 1
            self.line += 1
            if line.endswith("\r"):
                line = line[:-1]
            if not line or line.startswith("#"):
                continue
            fields = line.split(" ")
            if len(fields) > MAX_FIELDS:
                raise self.error(f"more than {MAX_FIELDS} fields")
            if "" in fields:
                raise self.error("fields are separated by single spaces")
            self.fields = fields
            return fields
        self.line += 1  # errors at the end name the line after the last
        self.fields = []
        return []

    def keyed(self, key, spelling):
        """The next line's fields, which must start with `key`."""
        fields = self.next()
        if not fields:
            raise self.error(f"unexpected end of file, expected '{key} "
                             f"{spelling}'")
        if fields[0] != key:
            raise self.error(f"expected '{key} {spelling}', found "
                             f"'{fields[0]}'")
        return fields

    def expect(self, key, values, spelling):
        fields = self.keyed(key, spelling)
        if len(fields) - 1 != values:
            raise self.error(f"'{key}' takes {values} value"
                             f"{'' if values == 1 else 's'} ({spelling}), "
                             f"found {len(fields) - 1}")
        return fields[1:]

    def bounded(self, text, what, minimum, maximum):
        value = _count(text)
        if value is None:
            raise self.error(f"{what} '{text}' is not a number")
        if not minimum <= value <= maximum:
            raise self.error(f"{what} {text} is not in [{minimum}, "
                             f"{maximum}]")
        return value

    def element_type(self, index, text):
        if len(text.encode("utf-8")) >= MAX_TYPE:
            raise self.error(f"argument {index}: type '{text}' is longer "
                             f"than {MAX_TYPE - 1} characters")
        return text

    def name(self, key, value, capacity):
        if len(value.encode("utf-8")) >= capacity:
            raise self.error(f"'{key}' value is longer than {capacity - 1} "
                             "characters")
        return value


def _parse_grid(reader, key):
    spelling = (f"N, or up to {MAX_GRID_TERMS} sizes argN.dimD or ceildiv "
                "argN.dimD S joined by *, optionally * C last")
    fields = reader.keyed(key, spelling)
    values = len(fields) - 1
    if values == 0:
        raise reader.error(f"'{key}' takes {spelling}, found no value")
    if values == 1:
        reference = _dim_reference(fields[1])
        if reference:
            return Extent(1, *reference)
        value = _count(fields[1])
        if value is None:
            raise reader.error(f"{key} '{fields[1]}' is not a number, "
                               "argN.dimD or ceildiv argN.dimD S")
        if not 1 <= value <= INT32_MAX:
            raise reader.error(f"{key} {fields[1]} is not in [1, "
                               f"{INT32_MAX}]")
        return Extent(value)
    # Size terms (argN.dimD or ceildiv argN.dimD S) joined by `*`, then
    # optionally `* C`.
    terms = []
    factor = 1
    field = 1
    while True:
        ceildiv = fields[field] == "ceildiv"
        width = 3 if ceildiv else 1
        if field + width > len(fields):
            raise reader.error(f"'{key}' takes {spelling}, found {values} "
                               "values")
        size = fields[field + 1 if ceildiv else field]
        reference = _dim_reference(size)
        if not reference:
            raise reader.error(f"{key}: ceildiv of '{size}', not of argN.dimD"
                               if ceildiv else
                               f"{key}: '{size}' before '*' is not argN.dimD")
        if len(terms) == MAX_GRID_TERMS:
            raise reader.error(f"{key}: more than {MAX_GRID_TERMS} run-time "
                               "sizes")
        divisor = (reader.bounded(fields[field + 2], "ceildiv divisor", 1,
                                  INT32_MAX) if ceildiv else 1)
        terms.append((*reference, divisor))
        field += width
        if field == len(fields):
            break
        if fields[field] != "*":
            raise reader.error(f"{key}: '{fields[field]}' after the size, "
                               "not '*'")
        field += 1
        if field == len(fields):
            raise reader.error(f"'{key}' takes {spelling}, found {values} "
                               "values")
        # The last value, not a size: the constant factor.
        if (field + 1 == len(fields) and fields[field] != "ceildiv"
                and not _dim_reference(fields[field])):
            factor = reader.bounded(fields[field], "grid factor", 1,
                                    INT32_MAX)
            break
    (argument, dim, divisor), rest = terms[0], tuple(terms[1:])
    return Extent(divisor, argument, dim, factor, rest)


def _parse_shape(text):
    """Sizes joined by `x` (None for `?`), () for `scalar`; None when
    malformed, -1 when over MAX_RANK dimensions."""
    if text == "scalar":
        return ()
    sizes = []
    for part in text.split("x"):
        if not part or len(part) >= 32:
            return None
        if len(sizes) == MAX_RANK:
            return -1
        if part == "?":
            sizes.append(None)
            continue
        value = _count(part)
        if value is None:
            return None
        sizes.append(value)
    return tuple(sizes)


def _parse_tensor_map(reader, index, function_argument, fields):
    if len(fields) != 11 or fields[7] != "box" or fields[9] != "swizzle":
        raise reader.error(f"argument {index}: expected 'tensor_map ELT "
                           "SHAPE box BOX swizzle S'")
    element_type = reader.element_type(index, fields[5])
    bits = element_bits(element_type)
    if bits == 0 or bits % 8:
        raise reader.error(f"argument {index}: tensor map of "
                           f"'{element_type}' elements; TMA moves elements "
                           "of whole bytes")
    shape = _parse_shape(fields[6])
    if (not isinstance(shape, tuple) or not 1 <= len(shape)
            <= TENSOR_MAP_MAX_RANK):
        raise reader.error(f"argument {index}: tensor map shape "
                           f"'{fields[6]}' is not 1 to {TENSOR_MAP_MAX_RANK} "
                           "sizes joined by 'x'")
    # A `?` in a tensor map's shape reads as -1, as in the C reader.
    shape = tuple(-1 if d is None else d for d in shape)
    # A box of fewer sizes than the shape is one of the tensor with its
    # leading dimensions collapsed into one (a batch's matrices stacked).
    box = _parse_shape(fields[8])
    if not isinstance(box, tuple) or not 1 <= len(box) <= len(shape):
        raise reader.error(f"argument {index}: box '{fields[8]}' is not "
                           f"1 to {len(shape)} sizes joined by 'x'")
    for d, size in enumerate(box):
        if size is None or not 1 <= size <= TENSOR_MAP_MAX_BOX:
            raise reader.error(
                f"argument {index}: box size {d} is "
                f"{-1 if size is None else size}; TMA boxes are 1 to "
                f"{TENSOR_MAP_MAX_BOX} elements")
    if fields[10] not in SWIZZLES:
        raise reader.error(f"argument {index}: swizzle '{fields[10]}' "
                           "(none, 32b, 64b or 128b)")
    swizzle = SWIZZLES[fields[10]]
    row_bytes = box[-1] * (bits // 8)
    if row_bytes % 16:
        raise reader.error(f"argument {index}: the box's innermost "
                           f"{row_bytes} bytes are not a multiple of 16")
    if swizzle and row_bytes > swizzle:
        raise reader.error(f"argument {index}: the box's innermost "
                           f"{row_bytes} bytes are more than the swizzle's "
                           f"{swizzle}")
    return Argument(index, function_argument, "tensor_map", element_type,
                    shape, box, swizzle)


def _parse_argument(reader, index, count, convention):
    fields = reader.next()
    if not fields:
        raise reader.error(f"unexpected end of file, expected 'argument "
                           f"{index} function_argument J TYPE' of "
                           f"'arguments {count}'")
    if fields[0] != "argument":
        raise reader.error(f"expected 'argument {index} function_argument J "
                           f"TYPE', found '{fields[0]}'")
    if len(fields) < 2 or _count(fields[1]) != index:
        raise reader.error(f"expected 'argument {index}', found 'argument "
                           f"{fields[1] if len(fields) > 1 else ''}'")
    if len(fields) < 6 or fields[2] != "function_argument":
        raise reader.error(f"argument {index}: expected 'function_argument "
                           "J' and 'memref ELT SHAPE' or 'scalar T'")
    function_argument = reader.bounded(fields[3], "function_argument", 0,
                                       MAX_FUNCTION_ARGUMENT)
    kind = fields[4]
    if kind == "tensor_map":
        return _parse_tensor_map(reader, index, function_argument, fields)
    if kind not in ("memref", "scalar"):
        raise reader.error(f"argument {index}: unknown type '{kind}' "
                           "(memref ELT SHAPE, scalar T or tensor_map ELT "
                           "SHAPE box BOX swizzle S)")
    wanted = 7 if kind == "memref" else 6
    if len(fields) != wanted:
        raise reader.error(f"argument {index}: '{kind}' takes "
                           f"{'ELT SHAPE' if kind == 'memref' else 'T'}, "
                           f"found {len(fields) - 5} values")
    element_type = reader.element_type(index, fields[5])
    if kind == "scalar":
        if element_bits(element_type) == 0:
            raise reader.error(f"argument {index}: scalar of type "
                               f"'{element_type}', whose size the runtime "
                               "does not know")
        return Argument(index, function_argument, kind, element_type, None)
    shape = _parse_shape(fields[6])
    if shape == -1:
        raise reader.error(f"argument {index}: shape '{fields[6]}' has more "
                           f"than {MAX_RANK} dimensions")
    if shape is None:
        raise reader.error(f"argument {index}: shape '{fields[6]}' is not "
                           "sizes joined by 'x' ('?' when dynamic) or "
                           "'scalar'")
    if convention == "bare_pointers" and None in shape:
        raise reader.error(f"argument {index}: memref {element_type} "
                           f"{fields[6]} has a dynamic size, which "
                           "calling_convention bare_pointers cannot pass")
    return Argument(index, function_argument, kind, element_type, shape)


def _parse_result(reader, fields, arguments, results):
    if len(fields) < 2:
        raise reader.error("'result' takes J D0 D1 ..., found no value")
    number = reader.bounded(fields[1], "result function argument", 0,
                            MAX_FUNCTION_ARGUMENT)
    memrefs = [a for a in arguments
               if a.function_argument == number and a.kind == "memref"]
    if not memrefs:
        raise reader.error(f"result {number} is not a memref argument of the "
                           "kernel")
    argument = memrefs[-1]
    if any(r.function_argument == number for r in results):
        raise reader.error(f"result {number} is named twice")
    if len(fields) - 2 != len(argument.shape):
        raise reader.error(f"result {number} has {len(fields) - 2} size(s), "
                           f"its memref rank {len(argument.shape)}")
    sizes = []
    for dim, text in enumerate(fields[2:]):
        reference = _dim_reference(text)
        if text == "?":
            sizes.append(None)
        elif reference:
            sources = [a for a in arguments
                       if a.function_argument == reference[0]
                       and a.kind != "scalar"]
            if not sources or reference[1] >= len(sources[-1].shape):
                raise reader.error(f"result {number}: size {text} is not a "
                                   "dimension of a memref argument of the "
                                   "kernel")
            sizes.append(Extent(1, *reference))
        elif _count(text) is not None:
            value = _count(text)
            if argument.shape[dim] is not None and argument.shape[dim] != value:
                raise reader.error(f"result {number}: size {text} of "
                                   f"dimension {dim}, but the memref's is "
                                   f"{argument.shape[dim]}")
            sizes.append(value)
        else:
            raise reader.error(f"result {number}: size '{text}' is not a "
                               "number, argN.dimD or ?")
    return Result(number, tuple(sizes))


def _check_grid_references(grid, grid_lines, arguments):
    for axis, extent in zip("xyz", grid):
        for number, dim, _ in extent.terms():
            for argument in arguments:
                if argument.function_argument != number:
                    continue
                where = f"line {grid_lines[axis]}"
                size = f"arg{number}.dim{dim}"
                if argument.kind == "scalar":
                    raise AbiError(f"{where}: grid_{axis} names {size}, but "
                                   f"function argument {number} is scalar "
                                   f"{argument.element_type}")
                if dim >= len(argument.shape):
                    raise AbiError(f"{where}: grid_{axis} names {size}, but "
                                   f"function argument {number} has rank "
                                   f"{len(argument.shape)}")


def parse(text) -> KernelAbi:
    """Parses the text of an .abi file as the C runtime's reader does
    (docs/ABI.md); raises AbiError on a malformed one."""
    if "\0" in text:
        raise AbiError("a text file has no NUL bytes")
    reader = _Reader(text)
    version = reader.bounded(reader.expect("abi", 1, "VERSION")[0],
                             "abi version", 0, 2**31 - 1)
    if version != ABI_VERSION:
        raise reader.error(f"unsupported ABI version {version} (this reader "
                           f"reads version {ABI_VERSION})")
    names = {}
    for key, spelling in (("function", "NAME"), ("kernel", "NAME"),
                          ("binary", "FILE")):
        names[key] = reader.name(key, reader.expect(key, 1, spelling)[0],
                                 MAX_NAME)
    if "/" in names["binary"]:
        raise reader.error(f"binary '{names['binary']}' is not a file name "
                           "in the .abi's directory")
    file_format = reader.expect("format", 1, "cubin|ptx|fatbin|bc")[0]
    if file_format not in FORMATS:
        raise reader.error(f"unknown format '{file_format}' (cubin, ptx, "
                           "fatbin, bc)")
    chip = reader.name("chip", reader.expect("chip", 1, "sm_XY")[0], MAX_CHIP)
    if not _CHIP.match(chip):
        raise reader.error(f"chip '{chip}' is not sm_XY")
    convention = reader.expect("calling_convention", 1,
                               "bare_pointers|memref_descriptors")[0]
    if convention not in CALLING_CONVENTIONS:
        raise reader.error(f"unknown calling convention '{convention}' "
                           "(bare_pointers, memref_descriptors)")
    grid, grid_lines = [], {}
    for axis in "xyz":
        grid.append(_parse_grid(reader, f"grid_{axis}"))
        grid_lines[axis] = reader.line
    block = tuple(reader.bounded(reader.expect(f"block_{axis}", 1, "N")[0],
                                 f"block_{axis}", 1, 1024) for axis in "xyz")
    shared = reader.bounded(
        reader.expect("dynamic_shared_memory", 1, "BYTES")[0],
        "dynamic_shared_memory", 0, INT32_MAX)
    count = reader.bounded(reader.expect("arguments", 1, "N")[0],
                           "arguments", 0, MAX_ARGUMENTS)
    arguments = [_parse_argument(reader, index, count, convention)
                 for index in range(count)]
    results: List[Result] = []
    while True:
        fields = reader.next()
        if not fields:
            break
        if fields[0] != "result":
            raise reader.error(f"'{fields[0]}' after the last argument of "
                               f"'arguments {count}' (only 'result' lines "
                               "follow them)")
        results.append(_parse_result(reader, fields, arguments, results))
    _check_grid_references(grid, grid_lines, arguments)
    return KernelAbi(
        version=version, function=names["function"], kernel=names["kernel"],
        binary=names["binary"], format=file_format, chip=chip,
        calling_convention=convention, grid=tuple(grid), block=block,
        dynamic_shared_memory=shared, arguments=tuple(arguments),
        results=tuple(results))


def read(path) -> KernelAbi:
    """Parses the .abi file at `path`."""
    with open(path, encoding="utf-8") as file:
        try:
            return parse(file.read())
        except AbiError as error:
            raise AbiError(f"{path}: {error}") from None
