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
    "i1": 8, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "index": 64,
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
    """One grid dimension: a constant, `argN.dimD`, or
    `ceildiv argN.dimD S`."""
    value: int  # the constant, or the divisor S (1 for argN.dimD)
    function_argument: Optional[int] = None
    dim: Optional[int] = None

    def evaluate(self, shapes):
        """The extent for `shapes` (one shape per function argument)."""
        if self.function_argument is None:
            return self.value
        size = shapes[self.function_argument][self.dim]
        return (size + self.value - 1) // self.value

    def __str__(self):
        if self.function_argument is None:
            return str(self.value)
        size = f"arg{self.function_argument}.dim{self.dim}"
        return size if self.value == 1 else f"ceildiv {size} {self.value}"


@dataclasses.dataclass(frozen=True)
class Argument:
    """One `argument I function_argument J TYPE` line."""
    index: int
    function_argument: int
    kind: str  # "memref", "scalar" or "tensor_map"
    element_type: str
    shape: Optional[Tuple[Optional[int], ...]]  # buffers; None for `?`
    # Tensor maps: the box (outermost first) and the swizzle in bytes (0:
    # none); the function argument is the memref the map is built on.
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


_SIZE = re.compile(r"arg(\d+)\.dim(\d+)$")


def _parse_extent(words, line_number):
    if len(words) == 1 and words[0].isdigit():
        return Extent(int(words[0]))
    if len(words) == 1 and _SIZE.match(words[0]):
        match = _SIZE.match(words[0])
        return Extent(1, int(match.group(1)), int(match.group(2)))
    if (len(words) == 3 and words[0] == "ceildiv" and _SIZE.match(words[1])
            and words[2].isdigit() and int(words[2]) > 0):
        match = _SIZE.match(words[1])
        return Extent(int(words[2]), int(match.group(1)), int(match.group(2)))
    raise AbiError(f"line {line_number}: invalid grid extent "
                   f"'{' '.join(words)}'")


def _parse_argument(words, line_number):
    # argument I function_argument J memref ELT SHAPE | scalar T |
    #   tensor_map ELT SHAPE box BOX swizzle S
    if (len(words) < 5 or words[1] != "function_argument"
            or not words[0].isdigit() or not words[2].isdigit()):
        raise AbiError(f"line {line_number}: invalid argument line")
    index, function_argument, kind = int(words[0]), int(words[2]), words[3]
    if kind == "memref" and len(words) == 6:
        if words[5] == "scalar":
            shape = ()
        else:
            shape = tuple(None if d == "?" else int(d)
                          for d in words[5].split("x"))
        return Argument(index, function_argument, kind, words[4], shape)
    if kind == "scalar" and len(words) == 5:
        return Argument(index, function_argument, kind, words[4], None)
    # ... tensor_map ELT SHAPE box BOX swizzle S
    swizzles = {"none": 0, "32b": 32, "64b": 64, "128b": 128}
    if (kind == "tensor_map" and len(words) == 10 and words[6] == "box"
            and words[8] == "swizzle" and words[9] in swizzles):
        try:
            shape = tuple(int(d) for d in words[5].split("x"))
            box = tuple(int(d) for d in words[7].split("x"))
        except ValueError:
            shape = box = ()
        if shape and len(box) == len(shape):
            return Argument(index, function_argument, kind, words[4], shape,
                            box, swizzles[words[9]])
    raise AbiError(f"line {line_number}: invalid argument type "
                   f"'{' '.join(words[3:])}'")


def _parse_result(words, line_number):
    # result J D0 D1 ..., each D a number, argN.dimD or ?
    if not words or not words[0].isdigit():
        raise AbiError(f"line {line_number}: invalid result line")
    sizes = []
    for word in words[1:]:
        if word == "?":
            sizes.append(None)
        elif word.isdigit():
            sizes.append(int(word))
        elif _SIZE.match(word):
            match = _SIZE.match(word)
            sizes.append(Extent(1, int(match.group(1)), int(match.group(2))))
        else:
            raise AbiError(f"line {line_number}: invalid result size "
                           f"'{word}'")
    return Result(int(words[0]), tuple(sizes))


def parse(text) -> KernelAbi:
    """Parses the text of an .abi file; raises AbiError on a malformed one."""
    facts = {}
    arguments: List[Argument] = []
    results: List[Result] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, *words = line.split()
        try:
            if key == "argument":
                arguments.append(_parse_argument(words, number))
            elif key == "result":
                results.append(_parse_result(words, number))
            elif key.startswith("grid_"):
                facts[key] = _parse_extent(words, number)
            elif key in ("abi", "block_x", "block_y", "block_z",
                         "dynamic_shared_memory", "arguments"):
                facts[key] = int(words[0])
            else:
                facts[key] = words[0] if words else ""
        except AbiError:
            raise
        except (ValueError, IndexError):
            raise AbiError(f"line {number}: invalid '{line}'") from None
    if facts.get("abi") != ABI_VERSION:
        raise AbiError(f"unknown ABI version {facts.get('abi')} "
                       f"(this reader knows {ABI_VERSION})")
    required = ["function", "kernel", "binary", "format", "chip",
                "calling_convention", "grid_x", "grid_y", "grid_z",
                "block_x", "block_y", "block_z", "dynamic_shared_memory",
                "arguments"]
    missing = [key for key in required if key not in facts]
    if missing:
        raise AbiError("missing line(s): " + ", ".join(missing))
    if facts["arguments"] != len(arguments):
        raise AbiError(f"'arguments {facts['arguments']}' but "
                       f"{len(arguments)} argument line(s)")
    memrefs = {a.function_argument: a for a in arguments
               if a.kind == "memref"}
    for result in results:
        argument = memrefs.get(result.function_argument)
        if argument is None or len(argument.shape) != len(result.sizes):
            raise AbiError(f"'{result}' does not name a memref argument of "
                           "that rank")
    return KernelAbi(
        version=facts["abi"], function=facts["function"],
        kernel=facts["kernel"], binary=facts["binary"],
        format=facts["format"], chip=facts["chip"],
        calling_convention=facts["calling_convention"],
        grid=(facts["grid_x"], facts["grid_y"], facts["grid_z"]),
        block=(facts["block_x"], facts["block_y"], facts["block_z"]),
        dynamic_shared_memory=facts["dynamic_shared_memory"],
        arguments=tuple(arguments), results=tuple(results))


def read(path) -> KernelAbi:
    """Parses the .abi file at `path`."""
    with open(path, encoding="utf-8") as file:
        try:
            return parse(file.read())
        except AbiError as error:
            raise AbiError(f"{path}: {error}") from None
