# RUN: %gpucg_python %s
"""scripts/check-docs.py's check 9: a usage string shown as printed in the
docs (`# NAME{...}`) is the one that pass or pipeline prints; on made-up
entries and pages, each way it can fail."""

import importlib.util
import pathlib
import tempfile
import unittest

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / \
    "check-docs.py"
spec = importlib.util.spec_from_file_location("check_docs", SCRIPT)
check_docs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_docs)


class Entry:
    def __init__(self, name, usage):
        self.name, self._usage = name, usage

    def usage(self):
        return self._usage


COMPILE = Entry("gpucg-compile", "gpucg-compile{chip= split-k=0}")


def problems(page):
    with tempfile.TemporaryDirectory() as root:
        root = pathlib.Path(root)
        (root / "README.md").write_text("# gpucg\n")
        (root / "docs").mkdir()
        (root / "docs" / "Python.md").write_text(page)
        report = check_docs.Report(str(root), str(root))
        check_docs.check_usage_lines(report, {COMPILE.name: COMPILE})
        return report.problems


class UsageLinesTest(unittest.TestCase):

    def test_agreeing(self):
        self.assertEqual(problems(
            "```python\nprint(p.usage())\n# gpucg-compile{chip= split-k=0}\n"
            "```\n"), [])

    def test_not_a_usage_line(self):
        # Prose and options written in a sentence are not usage lines.
        self.assertEqual(problems(
            "`gpucg-compile{chip=sm_90a}` compiles.\n# Heading\n"), [])

    def test_stale(self):
        (problem,) = problems("text\n# gpucg-compile{chip=}\n")
        self.assertIn("docs/Python.md:2: gpucg-compile's usage is "
                      "gpucg-compile{chip= split-k=0}", problem)

    def test_unknown(self):
        (problem,) = problems("# gpucg-nothing{a=1}\n")
        self.assertIn("usage of an unknown pass or pipeline 'gpucg-nothing'",
                      problem)


if __name__ == "__main__":
    unittest.main()
