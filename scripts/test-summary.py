#!/usr/bin/env python3
"""Prints 'N passed, M failed, K skipped' for JUnit XML test reports.

Exits 1 when a test failed or errored, or when no test ran at all.
"""

import sys
import xml.etree.ElementTree as ET


def main(paths):
    passed = failed = skipped = 0
    for path in paths:
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
