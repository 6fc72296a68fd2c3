#!/usr/bin/env python3
# ===- check-docs.py - README.md and docs/ against the build -------------===#
#
#   PYTHONPATH=python GPUCG_LIB_DIR=build/lib scripts/check-docs.py \
#       [--docs-root DIR] [ROOT]
#
# Checks what README.md and docs/ under DIR (default: ROOT, this checkout
# by default) say
# about gpucg's passes and pipelines against the ones the build registers
# (gpucg.passes() and gpucg.pipelines(): names, options, defaults, from the
# C API), and the files and headings they point at:
#
# 1. README.md's pass table has a row for every pass and named pipeline,
#    and its options column names exactly that entry's options.
# 2. A page docs/passes/*.md titled with a pass (# `gpucg-...`) has an
#    options table (| option | default | meaning |) exactly when the pass
#    has options, listing exactly them; a default written in backticks is
#    the pass's default.
# 3. docs/Pipelines.md: the same for the options table under each `## `
#    heading that names pipelines.
# 4. Every path cited in backticks (test/..., lib/..., docs/..., with
#    {a,b} alternatives expanded) exists under ROOT.
# 5. Every relative link [text](path#anchor) reaches a file, and the anchor
#    a heading of that file.
# 6. docs/Python.md's `gpucg.compile(...)` signature is the function's
#    (names, order, defaults).
# 7. Every gpucg-compile option but output-dir (the C API hands binaries to
#    a callback) is a field of include/gpucg-c/Compile.h's
#    MlirGpucgCompileOptions under ROOT, in camelCase, and docs/CAPI.md
#    names it.
# 8. A named pipeline's option of the name of one of
#    gpucg-select-lowering-strategy's (the strategy inputs the pipelines
#    pass on, such as the launch shape, declared once for the pipelines in
#    include/gpucg/Pipelines/Passes.h) has the strategy's default, and its
#    description or one that names gpucg-select-lowering-strategy.
# 9. A usage string shown as printed (a line `# gpucg-...{...}`, the
#    output of a Python example's `usage()`) is the one that pass or
#    pipeline prints.
#
# Prints one line per problem (file:line: what), then a summary line. Exit
# status: 0 no problem, 1 problems, 2 the gpucg package cannot be loaded.
#
# ===---------------------------------------------------------------------===#

import argparse
import itertools
import os
import re
import sys

CITED_ROOTS = ("test", "lib", "include", "scripts", "bench", "runtime",
               "python", "tools", "examples", "docs", "cmake", ".ci")
OPTIONS_HEADER = re.compile(r"^\|\s*option\s*\|\s*default\s*\|")
PASS_NAME = re.compile(r"`(gpucg-[a-z0-9-]+)`")


class Report:
    def __init__(self, root, docs_root):
        self.root = root  # where cited paths are
        self.docs_root = docs_root  # where README.md and docs/ are
        self.problems = []

    def add(self, path, line, message):
        self.problems.append(
            f"{os.path.relpath(path, self.docs_root)}:{line}: {message}")


def split_row(line):
    """The cells of a markdown table row (`\\|` is a `|` inside a cell)."""
    cells = re.split(r"(?<!\\)\|", line.strip())
    return [c.strip() for c in cells[1:-1]]


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")


def option_names_in(cell):
    """Options a cell names: its backticked words outside parentheses,
    each up to an `=` (`mma=auto\\|wmma` names `mma`)."""
    outside = re.sub(r"\([^()]*\)", "", cell)
    return {token.split("=")[0] for token in re.findall(r"`([^`]+)`", outside)}


def compare_options(report, path, line, what, entry, listed):
    names = {o.name for o in entry.options}
    for missing in sorted(names - set(listed)):
        report.add(path, line, f"{what}: {entry.name}'s option '{missing}' "
                   f"is not listed")
    for extra in sorted(set(listed) - names):
        report.add(path, line, f"{what}: lists '{extra}', which "
                   f"{entry.name} does not have (its options: "
                   f"{', '.join(sorted(names)) or 'none'})")


def check_readme(report, entries):
    path = os.path.join(report.docs_root, "README.md")
    lines = read_lines(path)
    rows = {}
    in_table = False
    for number, line in enumerate(lines, 1):
        if line.startswith("| flag |"):
            in_table = True
            continue
        if in_table and not line.startswith("|"):
            in_table = False
        if not in_table or line.startswith("| ---"):
            continue
        cells = split_row(line)
        if len(cells) < 3:
            report.add(path, number, "pass table row of fewer than 3 cells")
            continue
        for name in PASS_NAME.findall(cells[0]):
            rows[name] = (number, cells[2])
    for entry in entries:
        if entry.name not in rows:
            report.add(path, 1, f"the pass table has no row for {entry.kind} "
                       f"{entry.name}")
            continue
        number, cell = rows[entry.name]
        listed = set() if cell in ("—", "-", "") else option_names_in(cell)
        compare_options(report, path, number, "options column", entry, listed)
    known = {e.name for e in entries}
    for name, (number, _) in sorted(rows.items()):
        if name not in known:
            report.add(path, number, f"the pass table lists {name}, which the "
                       f"build does not register")


def options_tables(lines, begin, end):
    """(line number, [(name, default cell)]) of each options table in
    lines[begin:end]."""
    tables = []
    i = begin
    while i < end:
        if OPTIONS_HEADER.match(lines[i]):
            start = i + 1
            rows = []
            i += 2  # the header and its | --- | line
            while i < end and lines[i].startswith("|"):
                cells = split_row(lines[i])
                names = re.findall(r"`([^`]+)`", cells[0]) if cells else []
                default = cells[1] if len(cells) > 1 else ""
                # `a`, `b` | `1`, `2`: one default each.
                defaults = default.split(", ")
                if len(defaults) != len(names):
                    defaults = [default] * len(names)
                rows.extend(zip(names, defaults))
                i += 1
            tables.append((start, rows))
        i += 1
    return tables


def compare_table(report, path, line, what, entry, rows):
    compare_options(report, path, line, what, entry, [n for n, _ in rows])
    defaults = {o.name: o.default for o in entry.options}
    for name, cell in rows:
        match = re.fullmatch(r"`([^`]*)`", cell)
        if not match or name not in defaults:
            continue  # prose, or reported above
        written = "" if match.group(1) == '""' else match.group(1)
        if written != defaults[name]:
            report.add(path, line, f"{what}: '{name}' defaults to "
                       f"'{defaults[name]}', not '{written}'")


def check_pass_pages(report, by_name):
    folder = os.path.join(report.docs_root, "docs", "passes")
    for page in sorted(os.listdir(folder)):
        if not page.endswith(".md"):
            continue
        path = os.path.join(folder, page)
        lines = read_lines(path)
        title = PASS_NAME.search(lines[0]) if lines else None
        if not title or not lines[0].startswith("# "):
            continue
        entry = by_name.get(title.group(1))
        if entry is None:
            report.add(path, 1, f"titled {title.group(1)}, which the build "
                       f"does not register")
            continue
        tables = options_tables(lines, 0, len(lines))
        if not tables:
            if entry.options:
                report.add(path, 1, f"no options table, but {entry.name} has "
                           f"options: "
                           f"{', '.join(o.name for o in entry.options)}")
            continue
        for line, rows in tables:
            compare_table(report, path, line, "options table", entry, rows)


def check_pipelines_page(report, by_name):
    path = os.path.join(report.docs_root, "docs", "Pipelines.md")
    lines = read_lines(path)
    heads = [i for i, l in enumerate(lines) if l.startswith("## ")]
    for k, head in enumerate(heads):
        end = heads[k + 1] if k + 1 < len(heads) else len(lines)
        names = PASS_NAME.findall(lines[head])
        tables = options_tables(lines, head, end)
        for name in names:
            entry = by_name.get(name)
            if entry is None:
                report.add(path, head + 1, f"the heading names {name}, which "
                           f"the build does not register")
                continue
            if not tables and entry.options:
                report.add(path, head + 1, f"no options table for {name}, "
                           f"whose options are "
                           f"{', '.join(o.name for o in entry.options)}")
            for line, rows in tables:
                compare_table(report, path, line, f"options table of {name}",
                              entry, rows)


def markdown_files(root):
    yield os.path.join(root, "README.md")
    for folder, _, files in os.walk(os.path.join(root, "docs")):
        for name in sorted(files):
            if name.endswith(".md"):
                yield os.path.join(folder, name)


def expand_braces(text):
    """`a{,-b}.c` -> a.c, a-b.c (no nesting)."""
    parts = re.split(r"\{([^{}]*)\}", text)
    choices = [[p] if i % 2 == 0 else p.split(",")
               for i, p in enumerate(parts)]
    return ["".join(c) for c in itertools.product(*choices)]


def is_placeholder(path):
    # `bench/results/DATE-GPU/`, `test/<dir>/x`, `lib/*.cpp`, `a/.../b`.
    return bool(re.search(r"[<>*]|\.\.\.|\b[A-Z]{2,}(-[A-Z]+)*\b", path))


def check_cited_paths(report):
    pattern = re.compile(r"`((?:%s)/[^`\s]*)`" % "|".join(
        re.escape(r) for r in CITED_ROOTS))
    count = 0
    for path in markdown_files(report.docs_root):
        for number, line in enumerate(read_lines(path), 1):
            for cited in pattern.findall(line):
                cited = re.sub(r":\d+(-\d+)?$", "", cited)  # file:line
                if is_placeholder(cited):
                    continue
                for candidate in expand_braces(cited):
                    count += 1
                    if not os.path.exists(os.path.join(report.root,
                                                       candidate)):
                        report.add(path, number, f"cites `{candidate}`, "
                                   f"which does not exist")
    return count


def github_anchors(path):
    """The anchors GitHub gives the headings of a markdown file."""
    anchors, seen = set(), {}
    in_code = False
    for line in read_lines(path):
        if line.startswith("```"):
            in_code = not in_code
        if in_code or not re.match(r"#{1,6} ", line):
            continue
        text = line.lstrip("#").strip().lower()
        slug = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        anchors.add(slug if n == 0 else f"{slug}-{n}")
    return anchors


def check_links(report):
    link = re.compile(r"\]\(([^)\s]+)\)")
    count = 0
    cache = {}
    for path in markdown_files(report.docs_root):
        in_code = False
        for number, line in enumerate(read_lines(path), 1):
            if line.startswith("```"):
                in_code = not in_code
            if in_code:
                continue
            for target in link.findall(line):
                if re.match(r"[a-z]+:", target):
                    continue  # https:, mailto:
                count += 1
                file, _, anchor = target.partition("#")
                resolved = (os.path.normpath(os.path.join(
                    os.path.dirname(path), file)) if file else path)
                if not os.path.exists(resolved):
                    report.add(path, number, f"links to {file}, which does "
                               f"not exist")
                    continue
                if not anchor or not resolved.endswith(".md"):
                    continue
                if resolved not in cache:
                    cache[resolved] = github_anchors(resolved)
                if anchor not in cache[resolved]:
                    report.add(path, number, f"links to {target}: "
                               f"{os.path.relpath(resolved, report.docs_root)} "
                               f"has no heading with anchor #{anchor}")
    return count


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def check_python_signature(report):
    import ast
    import inspect
    import gpucg
    path = os.path.join(report.docs_root, "docs", "Python.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    match = re.search(r"`gpucg\.compile\((.*?)\)`", text, re.S)
    if not match:
        report.add(path, 1, "no `gpucg.compile(...)` signature")
        return
    line = line_of(text, match.start())
    try:
        written = ast.parse(f"def f({match.group(1)}): pass").body[0].args
    except SyntaxError as error:
        report.add(path, line, f"the gpucg.compile signature does not parse "
                   f"as Python: {error.msg}")
        return
    positional = written.posonlyargs + written.args
    defaults = [None] * (len(positional) - len(written.defaults)) + list(
        written.defaults)
    documented = list(zip(positional, defaults)) + list(
        zip(written.kwonlyargs, written.kw_defaults))
    documented = [(a.arg, None if d is None else ast.literal_eval(d))
                  for a, d in documented]
    actual = [(p.name, None if p.default is inspect.Parameter.empty else
               p.default)
              for p in inspect.signature(gpucg.compile).parameters.values()]
    if [n for n, _ in documented] != [n for n, _ in actual]:
        report.add(path, line, "the gpucg.compile signature's parameters are "
                   f"{', '.join(n for n, _ in documented)}; the function's: "
                   f"{', '.join(n for n, _ in actual)}")
        return
    for (name, written_default), (_, default) in zip(documented, actual):
        if written_default != default:
            report.add(path, line, f"gpucg.compile's '{name}' defaults to "
                       f"{default!r}, not {written_default!r}")


def check_capi_options(report, by_name):
    header = os.path.join(report.root, "include", "gpucg-c", "Compile.h")
    with open(header, encoding="utf-8") as f:
        text = f.read()
    struct = re.search(
        r"typedef struct MlirGpucgCompileOptions \{(.*?)\} "
        r"MlirGpucgCompileOptions;", text, re.S)
    body = re.sub(r"//[^\n]*", "", struct.group(1)) if struct else ""
    fields = set(re.findall(r"(\w+);", body))
    page = os.path.join(report.docs_root, "docs", "CAPI.md")
    with open(page, encoding="utf-8") as f:
        documented = f.read()
    for option in by_name["gpucg-compile"].options:
        if option.name == "output-dir":
            continue
        field = re.sub(r"-(\w)", lambda m: m.group(1).upper(), option.name)
        if field not in fields:
            report.add(header, line_of(text, struct.start() if struct else 0),
                       f"MlirGpucgCompileOptions has no field '{field}' for "
                       f"gpucg-compile's option '{option.name}'")
        elif f"`{field}`" not in documented:
            report.add(page, 1, f"does not name MlirGpucgCompileOptions's "
                       f"'{field}' (gpucg-compile's '{option.name}')")


def check_strategy_inputs(report, entries, by_name):
    strategy = {o.name: o for o in
                by_name["gpucg-select-lowering-strategy"].options}
    header = os.path.join(report.root, "include", "gpucg", "Pipelines",
                          "Passes.h")
    for entry in entries:
        if entry.kind != "pipeline":
            continue
        for option in entry.options:
            declared = strategy.get(option.name)
            if declared is None:
                continue
            if option.default != declared.default:
                report.add(header, 1, f"{entry.name}'s option '{option.name}' "
                           f"defaults to {option.default!r}, "
                           f"gpucg-select-lowering-strategy's to "
                           f"{declared.default!r}")
            if (option.description != declared.description and
                    "gpucg-select-lowering-strategy" not in
                    option.description):
                report.add(header, 1, f"{entry.name}'s option '{option.name}' "
                           f"says {option.description!r}, "
                           f"gpucg-select-lowering-strategy's "
                           f"{declared.description!r}")


def check_usage_lines(report, by_name):
    """A pass's or pipeline's usage string shown as printed (`# NAME{...}`,
    the output of `usage()` in a Python example) is the one it prints."""
    usage = re.compile(r"^# (gpucg-[a-z0-9-]+)\{.*\}$")
    for path in markdown_files(report.docs_root):
        for number, line in enumerate(read_lines(path), 1):
            match = usage.match(line.rstrip("\n"))
            if not match:
                continue
            entry = by_name.get(match.group(1))
            if entry is None:
                report.add(path, number, f"usage of an unknown pass or "
                           f"pipeline '{match.group(1)}'")
            elif line.rstrip("\n")[2:] != entry.usage():
                report.add(path, number, f"{entry.name}'s usage is "
                           f"{entry.usage()}")


def main():
    parser = argparse.ArgumentParser(
        description="Check README.md and docs/ against the registered "
        "passes and the files they cite.")
    default_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("root", nargs="?", default=default_root,
                        help="the checkout the docs cite (default: this one)")
    parser.add_argument("--docs-root",
                        help="where README.md and docs/ are (default: ROOT)")
    args = parser.parse_args()
    try:
        import gpucg
        entries = gpucg.passes() + gpucg.pipelines()
    except Exception as error:  # the library or package is missing
        print(f"check-docs: cannot load gpucg's passes: {error} (set "
              f"PYTHONPATH=python and GPUCG_LIB_DIR=build/lib)",
              file=sys.stderr)
        return 2
    by_name = {e.name: e for e in entries}
    root = os.path.abspath(args.root)
    report = Report(root, os.path.abspath(args.docs_root or root))
    check_readme(report, entries)
    check_pass_pages(report, by_name)
    check_pipelines_page(report, by_name)
    paths = check_cited_paths(report)
    links = check_links(report)
    check_python_signature(report)
    check_capi_options(report, by_name)
    check_strategy_inputs(report, entries, by_name)
    check_usage_lines(report, by_name)
    for problem in report.problems:
        print(problem)
    options = sum(len(e.options) for e in entries)
    print(f"check-docs: {len(entries)} passes and pipelines ({options} "
          f"options), {paths} cited paths, {links} links: "
          f"{len(report.problems)} problems")
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
