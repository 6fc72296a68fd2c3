#!/usr/bin/env python3
"""Checks, without a GPU, that compiled gpucg-bench kernels run the
tensor-core main loop: what issue 34 asks of every case of
bench/shapes/unaligned.txt, and what any shapes file's cases can be held to.

    bench/compile_kernels.py --shapes bench/shapes/unaligned.txt \\
        --out kernels --format isa
    bench/check_plans.py --kernels kernels \\
        [--neighbours aligned-kernels] [--max-extra-registers N] \\
        [--ptxas PATH] [--sass-mix 'python3 scripts/sass-mix.py']

For every case of DIR/manifest.txt compiled to PTX (`--format isa`) it
checks:
  plan     the PTX has tensor-core MMAs (mma.sync or wmma.mma; printed
           `mma N`) or warpgroup MMAs (wgmma.mma_async, sm_90a; `wgmma N`);
  scalar   and no scalar f32 arithmetic or widening of f16/bf16 to f32
           (cvt.f32.f16, cvt.f32.bf16, fma/mul/add.rn.f32): the partial
           tiles and K tails run the MMA loop, not a scalar path (a
           split-K kernel, one with __gpucg_split_k_partials_ in its
           module, adds its parts' sums with add.rn.f32: allowed there);
  ptxas    (with --ptxas) the kernel assembles with no spills and no stack;
           with --neighbours, a directory compiled the same way from the
           aligned neighbours (the case with each size rounded to the
           nearest multiple of 64: 1000^3 -> 1024^3, 4095x4097x4099 ->
           4096^3, 37x33x17 -> 64^3), its registers
           are printed beside the neighbour's and, with
           --max-extra-registers, may exceed them by at most N;
  sass     (with --ptxas and --sass-mix) the SASS has HMMA, and LDGSTS
           (cp.async) when an operand's rows are 4-byte aligned (a row pitch
           of 2 bytes modulo 4, an odd number of 16-bit elements, has no
           async copy: LDG then); a wgmma kernel HGMMA (QGMMA for 8-bit
           floats) and UTMALDG (its operands come by TMA);
  wave     (with --min-workgroups N) its grid (DIR/KERNEL.abi: grid_x x
           grid_y x grid_z) has at least N workgroups, one full wave on a
           chip of N SMs (printed `workgroups N`).

Prints one line per kernel and one per problem; exits 1 if any check
failed, 2 on bad usage.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

SCALAR = re.compile(r"\b(cvt\.f32\.f16|cvt\.f32\.bf16|fma\.rn\.f32|"
                    r"mul\.rn\.f32|add\.rn\.f32)\b")
MMA = re.compile(r"\b(mma\.sync\.aligned|wmma\.mma\.sync)\b")
WGMMA = re.compile(r"\bwgmma\.mma_async\b")
BYTES = {"f16": 2, "bf16": 2, "f32": 4, "i8": 1, "f8E4M3FN": 1,
         "f8E5M2": 1}
KEY = re.compile(r"(\w+?)_(\w+?)_(nn|nt|tn|tt)_(\d+)x(\d+)x(\d+)$")


def fail(message):
    sys.stderr.write("check_plans.py: error: " + message + "\n")
    sys.exit(2)


def read_manifest(directory):
    """{case key: [kernel names]} of the cases compiled to PTX."""
    path = os.path.join(directory, "manifest.txt")
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as error:
        fail("cannot read %s: %s" % (path, error.strerror))
    if "format ptx" not in lines:
        fail("%s was not compiled with --format isa (PTX)" % directory)
    cases, failed = {}, []
    for line in lines:
        fields = line.split()
        if len(fields) >= 3 and fields[0] == "case":
            if fields[2] == "ok":
                cases[fields[1]] = [name[:-len(".abi")] for name in fields[3:]]
            else:
                failed.append(fields[1])
    return cases, failed


def row_pitches(key):
    """Bytes per row of A and B, as stored, for a case key: A's rows are K
    elements (M for `tn` and `tt`), B's N (K for `nt` and `tt`)."""
    match = KEY.match(key)
    if not match:
        return None
    in_type, _, layout, m, n, k = match.groups()
    width = BYTES.get(in_type, 2)
    a_pitch = (int(m) if layout[0] == "t" else int(k)) * width
    b_pitch = (int(k) if layout[1] == "t" else int(n)) * width
    return a_pitch, b_pitch


def neighbour_key(key, multiple):
    """The case with each size rounded to the nearest multiple of
    `multiple` (at least `multiple`): 1000 -> 1024, 4097 -> 4096."""
    match = KEY.match(key)
    in_type, acc, layout, m, n, k = match.groups()
    near = [max(multiple, (int(v) + multiple // 2) // multiple * multiple)
            for v in (m, n, k)]
    return "%s_%s_%s_%dx%dx%d" % (in_type, acc, layout, *near)


def read_workgroups(abi_path):
    """grid_x * grid_y * grid_z of a kernel's ABI file, or None."""
    grid = {}
    try:
        for line in open(abi_path, encoding="utf-8"):
            fields = line.split()
            if len(fields) == 2 and fields[0] in ("grid_x", "grid_y",
                                                  "grid_z"):
                grid[fields[0]] = int(fields[1])
    except (OSError, ValueError):
        return None
    if len(grid) != 3:
        return None
    return grid["grid_x"] * grid["grid_y"] * grid["grid_z"]


def run_tool(command, path):
    process = subprocess.run(command + [path], capture_output=True,
                             text=True)
    if process.returncode != 0:
        return None, process.stderr.strip() or process.stdout.strip()
    return process.stdout, None


def parse_mix(text):
    values = {}
    for line in text.splitlines():
        fields = line.split()
        if len(fields) == 2 and fields[1].isdigit():
            values[fields[0]] = int(fields[1])
    return values


def assemble(ptxas, sass_mix, ptx, chip, scratch):
    """(ptxas resources, SASS mix or None, error) of one PTX file."""
    cubin = os.path.join(scratch, os.path.basename(ptx) + ".cubin")
    process = subprocess.run([ptxas, "-arch=" + chip, "-v", ptx, "-o", cubin],
                             capture_output=True, text=True)
    if process.returncode != 0:
        return None, None, "ptxas failed: " + process.stderr.strip()
    resources = {}
    for name, pattern in (("registers", r"Used (\d+) registers"),
                          ("spill_stores", r"(\d+) bytes spill stores"),
                          ("spill_loads", r"(\d+) bytes spill loads"),
                          ("stack_frame", r"(\d+) bytes stack frame")):
        match = re.search(pattern, process.stderr)
        if not match:
            return None, None, "ptxas -v printed no '%s'" % name
        resources[name] = int(match.group(1))
    if not sass_mix:
        return resources, None, None
    text, error = run_tool(sass_mix, cubin)
    if error:
        return None, None, "sass-mix failed: " + error
    return resources, parse_mix(text), None


def read_chip(directory):
    for line in open(os.path.join(directory, "manifest.txt"),
                     encoding="utf-8"):
        if line.startswith("chip "):
            return line.split()[1]
    return "sm_90"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernels", required=True, metavar="DIR")
    parser.add_argument("--neighbours", metavar="DIR",
                        help="the aligned neighbours, compiled alike")
    parser.add_argument("--neighbour-multiple", type=int, default=64,
                        help="round each size to the nearest multiple of "
                        "this to name a case's neighbour (default 64)")
    parser.add_argument("--max-extra-registers", type=int,
                        help="registers a case may use beyond its "
                        "neighbour's")
    parser.add_argument("--ptxas", help="ptxas to assemble with")
    parser.add_argument("--sass-mix", help="scripts/sass-mix.py command")
    parser.add_argument("--min-workgroups", type=int, metavar="N",
                        help="workgroups each kernel's grid must have at "
                        "least (one wave on N SMs)")
    args = parser.parse_args()

    cases, failed = read_manifest(args.kernels)
    neighbours = read_manifest(args.neighbours)[0] if args.neighbours else {}
    chip = read_chip(args.kernels)
    sass_mix = shlex.split(args.sass_mix) if args.sass_mix else None
    problems = ["%s: not compiled (see its log)" % key for key in failed]
    with tempfile.TemporaryDirectory() as scratch:
        neighbour_registers = {}
        if args.ptxas:
            for key, kernels in sorted(neighbours.items()):
                for kernel in kernels:
                    ptx = os.path.join(args.neighbours, kernel + ".ptx")
                    resources, _, error = assemble(args.ptxas, None, ptx,
                                                   chip, scratch)
                    if resources:
                        neighbour_registers[key] = resources["registers"]
        for key, kernels in sorted(cases.items()):
            for kernel in kernels:
                ptx_path = os.path.join(args.kernels, kernel + ".ptx")
                try:
                    ptx = open(ptx_path, encoding="utf-8").read()
                except OSError as error:
                    problems.append("%s: cannot read %s: %s" %
                                    (key, ptx_path, error.strerror))
                    continue
                line = [kernel]
                mmas = len(MMA.findall(ptx))
                wgmmas = len(WGMMA.findall(ptx))
                line.append("wgmma %d" % wgmmas if wgmmas else "mma %d" % mmas)
                if not mmas and not wgmmas:
                    problems.append("%s: no tensor-core MMA in its PTX" % key)
                scalar = set(SCALAR.findall(ptx))
                # The last workgroup of a split-K tile adds the parts' sums.
                if "__gpucg_split_k_partials_" in ptx:
                    scalar.discard("add.rn.f32")
                scalar = sorted(scalar)
                if scalar:
                    problems.append("%s: scalar arithmetic in its PTX: %s" %
                                    (key, ", ".join(scalar)))
                if args.min_workgroups is not None:
                    workgroups = read_workgroups(
                        os.path.join(args.kernels, kernel + ".abi"))
                    if workgroups is None:
                        problems.append("%s: no grid in %s.abi" %
                                        (key, kernel))
                    else:
                        line.append("workgroups %d" % workgroups)
                        if workgroups < args.min_workgroups:
                            problems.append(
                                "%s: %d workgroups, fewer than %d (one "
                                "wave)" % (key, workgroups,
                                           args.min_workgroups))
                if args.ptxas:
                    resources, mix, error = assemble(args.ptxas, sass_mix,
                                                     ptx_path, chip, scratch)
                    if error:
                        problems.append("%s: %s" % (key, error))
                        print(" ".join(line))
                        continue
                    line.append("registers %d" % resources["registers"])
                    neighbour = neighbour_key(key, args.neighbour_multiple)
                    if neighbour in neighbour_registers:
                        extra = (resources["registers"] -
                                 neighbour_registers[neighbour])
                        line.append("(%s: %d, %+d)" % (
                            neighbour, neighbour_registers[neighbour], extra))
                        if (args.max_extra_registers is not None and
                                extra > args.max_extra_registers):
                            problems.append(
                                "%s: %d registers, %d more than %s's (at "
                                "most %d more)" % (
                                    key, resources["registers"], extra,
                                    neighbour, args.max_extra_registers))
                    elif args.neighbours:
                        problems.append("%s: no neighbour %s in %s" %
                                        (key, neighbour, args.neighbours))
                    spilled = (resources["spill_stores"] +
                               resources["spill_loads"] +
                               resources["stack_frame"])
                    if spilled:
                        problems.append("%s: %d bytes of spills and stack" %
                                        (key, spilled))
                    if mix is not None and wgmmas:
                        gmmas = mix.get("HGMMA", 0) + mix.get("QGMMA", 0)
                        line.append("GMMA %d UTMALDG %d" % (
                            gmmas, mix.get("UTMALDG", 0)))
                        if not gmmas:
                            problems.append("%s: no HGMMA or QGMMA in its "
                                            "SASS" % key)
                        if not mix.get("UTMALDG"):
                            problems.append("%s: no UTMALDG in its SASS" % key)
                    elif mix is not None:
                        line.append("HMMA %d LDGSTS %d LDG %d" % (
                            mix.get("HMMA", 0), mix.get("LDGSTS", 0),
                            mix.get("LDG", 0)))
                        if not mix.get("HMMA"):
                            problems.append("%s: no HMMA in its SASS" % key)
                        pitches = row_pitches(key)
                        async_possible = pitches and any(
                            pitch % 4 == 0 for pitch in pitches)
                        if async_possible and not mix.get("LDGSTS"):
                            problems.append(
                                "%s: no LDGSTS although rows of %s bytes "
                                "allow cp.async" % (key, " and ".join(
                                    str(p) for p in pitches)))
                        if not async_possible and not mix.get("LDG"):
                            problems.append("%s: neither LDGSTS nor LDG" %
                                            key)
                print(" ".join(line))
    for problem in problems:
        print("FAIL " + problem)
    print("check_plans.py: %d cases, %d problems" % (len(cases) + len(failed),
                                                      len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
