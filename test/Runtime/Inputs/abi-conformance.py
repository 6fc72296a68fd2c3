"""The two .abi readers against each other: the C runtime's
(runtime/cuda/Abi.c, through `gpucg-runtime-tests abi FILE`) and Python's
(python/gpucg/abi.py). Each seed file and a fixed set of variants of it
(every prefix of its lines; each line with its last word replaced by -1, 0,
2^31, 2^32 + 1, 10^20 or a word, repeated, removed, with a word added or a
tab; the whole file with CRLF line ends, a NUL byte, an over-long name, a
line of 17 fields) must be accepted by both or refused by both, and an
accepted one must give the same facts: Python's KernelAbi printed as the C
tool prints its gpucg_abi. The one difference in form, `ceildiv argN.dimD
1` against `argN.dimD`, is the same extent and is compared as such.

    abi-conformance.py GPUCG_RUNTIME_TESTS SEED.abi...

Prints one line per disagreement and a summary; exit status 1 on any.
"""

import os
import re
import subprocess
import sys
import tempfile

from gpucg import abi


def c_reader(tool, path):
    run = subprocess.run([tool, "abi", path], capture_output=True, text=True,
                         errors="replace")
    # A grid line's first size, `ceildiv of function argument N dim D by S`,
    # in the words extent() gives Python's Extent, which does not keep a
    # divisor of 1 apart (the further sizes of a product print alike).
    text = re.sub(r"(grid_[xyz]) ceildiv (of function argument \d+ dim \d+)"
                  r"(?: by 1(?= times|\n))?", r"\1 size \2", run.stdout)
    return run.returncode == 0, text


def extent(value):
    if value.function_argument is None:
        return f"constant {value.value}"
    times = "".join(
        f" times size of function argument {argument} dim {dim}"
        if divisor == 1 else
        f" times ceildiv of function argument {argument} dim {dim} by "
        f"{divisor}" for argument, dim, divisor in value.size_factors)
    times += "" if value.factor == 1 else f" times {value.factor}"
    if value.value == 1:
        return (f"size of function argument {value.function_argument} dim "
                f"{value.dim}{times}")
    return (f"size of function argument {value.function_argument} dim "
            f"{value.dim} by {value.value}{times}")


def python_facts(kernel):
    """`kernel` as gpucg-runtime-tests prints a gpucg_abi."""
    lines = [f"version {kernel.version}", f"function {kernel.function}",
             f"kernel {kernel.kernel}", f"binary {kernel.binary}",
             f"format {kernel.format}", f"chip {kernel.chip}",
             "calling_convention "
             + kernel.calling_convention.replace("_", " ")]
    for axis, value in zip("xyz", kernel.grid):
        lines.append(f"grid_{axis} {extent(value)}")
    lines.append("block {} {} {}".format(*kernel.block))
    lines.append(f"dynamic_shared_memory {kernel.dynamic_shared_memory}")
    lines.append(f"arguments {len(kernel.arguments)}")
    results = {r.function_argument: r for r in kernel.results}
    for i, argument in enumerate(kernel.arguments):
        line = (f"argument {i}: function argument "
                f"{argument.function_argument}, {argument.kind} "
                f"{argument.element_type} ({argument.element_bits} bits)")
        if argument.kind != "scalar":
            line += (f", rank {len(argument.shape)}, shape ["
                     + ", ".join("?" if d is None else str(d)
                                 for d in argument.shape) + "]")
        if argument.kind == "tensor_map":
            line += (", box [" + ", ".join(map(str, argument.box))
                     + f"], swizzle {argument.swizzle_bytes} bytes")
        result = results.get(argument.function_argument)
        if argument.kind == "memref" and result is not None:
            line += (", result of shape ["
                     + ", ".join("?" if s is None else str(s)
                                 for s in result.sizes) + "]")
        lines.append(line)
    return "\n".join(lines) + "\n"


def variants(text):
    lines = text.splitlines(keepends=True)
    yield "as it is", text
    for n in range(len(lines)):
        yield f"its first {n} lines", "".join(lines[:n])
    for i, line in enumerate(lines):
        if line.startswith("#") or not line.strip():
            continue
        before, after = "".join(lines[:i]), "".join(lines[i + 1:])
        words = line.split()
        for label, word in (("-1", "-1"), ("0", "0"), ("2^31", "2147483648"),
                            ("2^32+1", "4294967297"),
                            ("10^20", "100000000000000000000"),
                            ("a word", "x7")):
            if len(words) > 1:
                yield (f"line {i + 1} ending in {label}",
                       before + " ".join(words[:-1] + [word]) + "\n" + after)
        yield f"line {i + 1} twice", before + line + line + after
        yield f"line {i + 1} removed", before + after
        yield (f"line {i + 1} with a word more",
               before + line.rstrip("\n") + " extra\n" + after)
        if len(words) > 1:
            yield (f"line {i + 1} with a tab",
                   before + words[0] + "\t" + " ".join(words[1:]) + "\n"
                   + after)
    yield "CRLF line ends", text.replace("\n", "\r\n")
    yield "a NUL byte", text.replace("\n", "\n\0", 1)
    yield "a name of 300 characters", text.replace(
        "\nkernel ", "\nkernel " + "k" * 300, 1)
    yield "a line of 17 fields", text + "result 0" + " 1" * 15 + "\n"


def main():
    tool, seeds = sys.argv[1], sys.argv[2:]
    total = disagreements = accepted = 0
    with tempfile.TemporaryDirectory() as folder:
        for seed in seeds:
            text = open(seed, encoding="utf-8").read()
            for label, variant in variants(text):
                total += 1
                path = os.path.join(folder, "variant.abi")
                with open(path, "w", encoding="utf-8", newline="") as handle:
                    handle.write(variant)
                c_ok, c_text = c_reader(tool, path)
                try:
                    py_text, py_ok = python_facts(abi.read(path)), True
                except abi.AbiError as error:
                    py_text, py_ok = str(error), False
                accepted += c_ok and py_ok
                if c_ok == py_ok and (not c_ok or c_text == py_text):
                    continue
                disagreements += 1
                verdict = (f"C {'accepts' if c_ok else 'refuses'}, Python "
                           f"{'accepts' if py_ok else 'refuses'}")
                if c_ok and py_ok:
                    verdict += ": the facts differ"
                print(f"{os.path.basename(seed)}, {label}: {verdict}\n"
                      f"  C: {c_text.strip()[:300]}\n"
                      f"  Python: {py_text.strip()[:300]}")
    print(f"abi-conformance: {total} files ({len(seeds)} seeds and their "
          f"variants), {accepted} accepted by both, "
          f"{total - accepted - disagreements} refused by both, "
          f"{disagreements} disagreements")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
