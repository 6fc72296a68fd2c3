#!/usr/bin/env bash
#===- run-tests.sh - Run every gpucg test and summarise --------------------===#
#
# Runs the lit suite (and, as they arrive, the C and Python tests, which lit
# drives too), then prints one line "N passed, M failed, K skipped". Exits
# non-zero when any test failed.
#
#===----------------------------------------------------------------------===#
set -uo pipefail

BUILD_DIR=${1:-build}
SOURCE_DIR=$(cd "$(dirname "$0")/.." && pwd)
RESULTS_DIR="$BUILD_DIR/test-results"
mkdir -p "$RESULTS_DIR"
rm -f "$RESULTS_DIR"/*.xml

/usr/lib/llvm-22/bin/lit -sv --xunit-xml-output="$RESULTS_DIR/lit.xml" \
  "$BUILD_DIR/test"
lit_status=$?

python3 "$SOURCE_DIR/scripts/test-summary.py" "$RESULTS_DIR"/*.xml
summary_status=$?

if [[ $lit_status -ne 0 || $summary_status -ne 0 ]]; then
  exit 1
fi
