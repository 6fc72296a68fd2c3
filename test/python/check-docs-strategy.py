# RUN: %gpucg_python %s
"""scripts/check-docs.py's check 8: a pipeline option of the name of one of
gpucg-select-lowering-strategy's has its default, and its description or one
that names the strategy pass; on made-up entries, each way it can fail."""

import importlib.util
import pathlib
import tempfile
import unittest

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / \
    "check-docs.py"
spec = importlib.util.spec_from_file_location("check_docs", SCRIPT)
check_docs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_docs)


class Option:
    def __init__(self, name, default, description):
        self.name, self.default, self.description = name, default, description


class Entry:
    def __init__(self, name, kind, options):
        self.name, self.kind, self.options = name, kind, options


STRATEGY = Entry("gpucg-select-lowering-strategy", "pass", [
    Option("workgroup-group-size", "0", "Start the tiles in groups"),
    Option("deterministic-reductions", "false", "Never split a row"),
])


def problems(pipeline_options):
    entries = [STRATEGY, Entry("gpucg-compile", "pipeline", pipeline_options)]
    with tempfile.TemporaryDirectory() as root:
        report = check_docs.Report(root, root)
        check_docs.check_strategy_inputs(
            report, entries, {e.name: e for e in entries})
        return report.problems


class StrategyInputsTest(unittest.TestCase):

    def test_agreeing(self):
        self.assertEqual(problems([
            Option("workgroup-group-size", "0", "Start the tiles in groups"),
            Option("deterministic-reductions", "false",
                   "Never split (gpucg-select-lowering-strategy)"),
            Option("chip", "", "Target chip"),
        ]), [])

    def test_other_default(self):
        (problem,) = problems([
            Option("workgroup-group-size", "8", "Start the tiles in groups")])
        self.assertIn("gpucg-compile's option 'workgroup-group-size' "
                      "defaults to '8', gpucg-select-lowering-strategy's to "
                      "'0'", problem)

    def test_other_description(self):
        (problem,) = problems([
            Option("workgroup-group-size", "0", "Group the tiles")])
        self.assertIn("gpucg-compile's option 'workgroup-group-size' says "
                      "'Group the tiles'", problem)


if __name__ == "__main__":
    unittest.main()
