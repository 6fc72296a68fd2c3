#!/usr/bin/env python3
"""Prints 'N passed, M failed, K skipped' for JUnit XML test reports.

    test-summary.py [--failed-build NAME]... REPORT.xml...

Sums every report given (e.g. lit's reports of the normal and of the checked
build). Each --failed-build NAME counts as one more failure: a configuration
that did not build, so its tests could not run.

Exits 1 when a test failed or errored, a build failed, or no test ran at all.
"""

import argparse
import sys
import xml.etree.ElementTree as ET


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reports", nargs="*", metavar="REPORT.xml")
    parser.add_argument("--failed-build", action="append", default=[],
                        metavar="NAME", help="a build that failed")
    args = parser.parse_args(argv)

    passed = skipped = 0
    failed = len(args.failed_build)
    for path in args.reports:
        for case in ET.parse(path).getroot().iter("testcase"):
            if case.find("failure") is not None or case.find("error") is not None:
                failed += 1
            elif case.find("skipped") is not None:
                skipped += 1
            else:
                passed += 1
    line = f"{passed} passed, {failed} failed"
    if skipped:
        line += f", {skipped} skipped"
    print(line)
    return 1 if failed or passed + failed == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
