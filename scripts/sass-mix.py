#!/usr/bin/env python3
#===- sass-mix.py - Instruction mix and ptxas resources of GPU kernels ----===#
#
# Prints a stable, FileCheck-able summary of each kernel of a cubin, sorted
# by kernel name, for lit tests (`%sass_mix`) and for people reading what a
# pipeline produced.
#
#   sass-mix.py [--cuobjdump PATH] [--kernel NAME] FILE|-
#       FILE: a cubin, fatbin or executable (disassembled with `cuobjdump
#       -sass`), or the text that `cuobjdump -sass` printed. `-` reads stdin.
#       cuobjdump: --cuobjdump, else $GPUCG_CUOBJDUMP, else PATH, else the
#       repository's .venv/bin/cuobjdump (scripts/install-deps.sh).
#
#   sass-mix.py --ptxas-info [--kernel NAME] FILE|-
#       FILE: what `ptxas -v` (or `nvcc -Xptxas -v`) printed on stderr.
#
# SASS mode prints, per kernel (one `arch sm_XY` line first when the input
# holds SASS for more than one architecture):
#
#   kernel NAME
#   HMMA N          tensor-core MMAs (HMMA.*: mma.sync, wmma.mma)
#   LDSM N          ldmatrix (LDSM.*)
#   LDGSTS N        cp.async, global to shared (LDGSTS.*)
#   LDGDEPBAR N     cp.async.commit_group
#   DEPBAR N        waits on cp.async groups and other scoreboards (DEPBAR.*)
#   LDG N           global loads, every width (LDG.*)
#   LDG.E.128 N     128-bit global loads (LDG with a .128 modifier)
#   STG N           global stores, every width (STG.*)
#   STG.E.128 N     128-bit global stores (STG with a .128 modifier)
#   LDS N           shared loads other than ldmatrix (LDS.*)
#   STS N           shared stores (STS.*)
#   LDL N           local-memory loads: spills and stack arrays (LDL.*)
#   STL N           local-memory stores (STL.*)
#   BAR N           barriers (BAR.*: bar.sync, __syncthreads, bar.arrive, ...)
#   HGMMA N         warpgroup MMAs of 16-bit operands (HGMMA.*: wgmma.mma_async,
#                   sm_90a)
#   QGMMA N         warpgroup MMAs of 8-bit floats (QGMMA.*: wgmma.mma_async
#                   .e4m3/.e5m2)
#   UTMALDG N       TMA tensor loads (UTMALDG.*: cp.async.bulk.tensor)
#   UTMASTG N       TMA tensor stores (UTMASTG.*)
#   SYNCS N         mbarrier operations (SYNCS.*: init, arrive, expect_tx,
#                   try_wait)
#   instructions N  every instruction but padding
#
# An instruction is classified by its opcode, predicate aside. Padding is
# neither counted in a category nor in `instructions`: NOPs and instructions
# predicated on !PT (never executed; ptxas's alignment filler).
#
# ptxas mode prints, per entry function:
#
#   kernel NAME
#   registers N      registers per thread
#   spill_stores N   bytes of spill stores
#   spill_loads N    bytes of spill loads
#   stack_frame N    bytes of stack frame per thread
#   shared_memory N  bytes of static shared memory (smem)
#
# Exit status: 0, or 1 with a message on stderr (no kernel found, cuobjdump
# missing or failing, unreadable input, --kernel naming no kernel).
#
#===----------------------------------------------------------------------===#
"""Instruction mix (cuobjdump -sass) and ptxas -v resources of GPU kernels."""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

SASS_CATEGORIES = [
    "HMMA", "LDSM", "LDGSTS", "LDGDEPBAR", "DEPBAR", "LDG", "LDG.E.128", "STG",
    "STG.E.128", "LDS", "STS", "LDL", "STL", "BAR", "HGMMA", "QGMMA",
    "UTMALDG", "UTMASTG", "SYNCS",
]
PTXAS_FIELDS = ["registers", "spill_stores", "spill_loads", "stack_frame",
                "shared_memory"]

# `/*0a30*/   @!P0 LDG.E.128 R4, [R2.64] ;` -> predicate, opcode.
INSTRUCTION = re.compile(
    r"^\s*/\*[0-9a-f]+\*/\s+(?:(@!?U?P(?:T|\d+))\s+)?([A-Z][A-Z0-9_.]*)")
FUNCTION = re.compile(r"^\s*Function\s*:\s*(\S+)")
ARCH = re.compile(r"^\s*code for (sm_\w+)")
ELF_MAGIC = b"\x7fELF"
FATBIN_MAGIC = b"\x50\xed\x55\xba"


def fail(message):
    print("sass-mix: " + message, file=sys.stderr)
    sys.exit(1)


def read_input(path):
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        fail("cannot read %s: %s" % (path, e.strerror))


def find_cuobjdump(option):
    """The cuobjdump to run: the option, $GPUCG_CUOBJDUMP, PATH, .venv/bin."""
    if option:
        return option
    if os.environ.get("GPUCG_CUOBJDUMP"):
        return os.environ["GPUCG_CUOBJDUMP"]
    found = shutil.which("cuobjdump")
    if found:
        return found
    venv = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        ".venv", "bin", "cuobjdump")
    if os.access(venv, os.X_OK):
        return venv
    fail("no cuobjdump: give --cuobjdump or GPUCG_CUOBJDUMP, put it on PATH, "
         "or run scripts/install-deps.sh")


def disassemble(data, cuobjdump):
    """`cuobjdump -sass` of a binary, through a temporary file."""
    with tempfile.NamedTemporaryFile(suffix=".cubin") as binary:
        binary.write(data)
        binary.flush()
        try:
            result = subprocess.run([cuobjdump, "-sass", binary.name],
                                    capture_output=True, text=True)
        except OSError as e:
            fail("cannot run %s: %s" % (cuobjdump, e.strerror))
    if result.returncode != 0:
        fail("%s -sass failed (exit %d): %s" %
             (cuobjdump, result.returncode, result.stderr.strip()))
    return result.stdout


def category_of(opcode):
    """The categories (SASS_CATEGORIES) an opcode counts in."""
    parts = opcode.split(".")
    base, modifiers = parts[0], parts[1:]
    categories = []
    if base in ("HMMA", "LDSM", "LDGSTS", "LDGDEPBAR", "DEPBAR", "LDG", "STG",
                "LDS", "STS", "LDL", "STL", "BAR", "HGMMA", "QGMMA",
                "UTMALDG", "UTMASTG", "SYNCS"):
        categories.append(base)
    if base in ("LDG", "STG") and "128" in modifiers:
        categories.append(base + ".E.128")
    return categories


def sass_mix(text):
    """{(arch, kernel): {category: count}} from `cuobjdump -sass` text."""
    kernels = {}
    arch, counts = "", None
    for line in text.splitlines():
        m = ARCH.match(line)
        if m:
            arch, counts = m.group(1), None
            continue
        m = FUNCTION.match(line)
        if m:
            counts = kernels.setdefault((arch, m.group(1)),
                                        dict.fromkeys(SASS_CATEGORIES + ["instructions"], 0))
            continue
        m = INSTRUCTION.match(line)
        if not m or counts is None:
            continue
        predicate, opcode = m.groups()
        if opcode == "NOP" or predicate == "@!PT":
            continue
        counts["instructions"] += 1
        for category in category_of(opcode):
            counts[category] += 1
    return kernels


def print_sass(kernels, only):
    archs = sorted({arch for arch, _ in kernels})
    for arch in archs:
        if len(archs) > 1:
            print("arch " + arch)
        for (a, name), counts in sorted(kernels.items()):
            if a != arch or (only and name != only):
                continue
            print("kernel " + name)
            for category in SASS_CATEGORIES + ["instructions"]:
                print("%s %d" % (category, counts[category]))


def ptxas_info(text):
    """{kernel: {field: value}} from `ptxas -v` output."""
    kernels = {}
    properties = {}   # function name -> (stack frame, spill stores, spill loads)
    current = None
    pending = None    # the function whose properties the next line gives
    for line in text.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            current = m.group(1)
            kernels.setdefault(current, dict.fromkeys(PTXAS_FIELDS, 0))
            continue
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            pending = m.group(1)
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, "
                      r"(\d+) bytes spill loads", line)
        if m and pending:
            properties[pending] = tuple(int(g) for g in m.groups())
            pending = None
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m and current:
            kernels[current]["registers"] = int(m.group(1))
            smem = re.search(r"(\d+) bytes smem", line)
            if smem:
                kernels[current]["shared_memory"] = int(smem.group(1))
    for name, fields in kernels.items():
        if name in properties:
            (fields["stack_frame"], fields["spill_stores"],
             fields["spill_loads"]) = properties[name]
    return kernels


def print_ptxas(kernels, only):
    for name in sorted(kernels):
        if only and name != only:
            continue
        print("kernel " + name)
        for field in PTXAS_FIELDS:
            print("%s %d" % (field, kernels[name][field]))


def main():
    parser = argparse.ArgumentParser(
        description="Per-kernel SASS instruction mix of a cubin, or the "
                    "resources that `ptxas -v` reports (see the file's header).")
    parser.add_argument("input", help="cubin, cuobjdump -sass text, or "
                        "(--ptxas-info) ptxas -v output; - for stdin")
    parser.add_argument("--ptxas-info", action="store_true",
                        help="parse ptxas -v output instead of SASS")
    parser.add_argument("--cuobjdump", help="cuobjdump to run "
                        "(default: $GPUCG_CUOBJDUMP, PATH, .venv/bin)")
    parser.add_argument("--kernel", help="print this kernel only")
    args = parser.parse_args()

    data = read_input(args.input)
    if args.ptxas_info:
        kernels = ptxas_info(data.decode("utf-8", "replace"))
        names = set(kernels)
    else:
        if data.startswith(ELF_MAGIC) or data.startswith(FATBIN_MAGIC):
            text = disassemble(data, find_cuobjdump(args.cuobjdump))
        else:
            text = data.decode("utf-8", "replace")
        kernels = sass_mix(text)
        names = {name for _, name in kernels}
    if not names:
        fail("no kernel found in " + ("stdin" if args.input == "-" else args.input))
    if args.kernel and args.kernel not in names:
        fail("no kernel named %s (kernels: %s)" % (args.kernel, ", ".join(sorted(names))))
    if args.ptxas_info:
        print_ptxas(kernels, args.kernel)
    else:
        print_sass(kernels, args.kernel)


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:  # e.g. `| head`: the reader has all it wanted.
        sys.stderr.close()
