#!/usr/bin/env bash
#===- run-tests.sh - Run every gpucg test and summarise --------------------===#
#
#   scripts/run-tests.sh BUILD_DIR [--checked CHECKED_BUILD_DIR]
#
# Runs the lit suite (the C, Python and fuzz tests included: lit drives them)
# in BUILD_DIR. With --checked, then builds the checked configuration
# (assertions, ASan, UBSan; docs/Building.md) in CHECKED_BUILD_DIR and runs the
# whole suite there too. Prints one line per run, then ends with one line
# "N passed, M failed, K skipped" over all runs. Exits non-zero when any test
# (or the checked build) failed.
#
#===----------------------------------------------------------------------===#
set -uo pipefail

BUILD_DIR=${1:-build}
CHECKED_BUILD_DIR=
if [[ ${2:-} == --checked ]]; then
  CHECKED_BUILD_DIR=${3:-}
fi
SOURCE_DIR=$(cd "$(dirname "$0")/.." && pwd)
LIT=/usr/lib/llvm-22/bin/lit

status=0
reports=()
summary_args=()

# run_lit DIR: runs the suite built in DIR, leaving DIR/test-results/lit.xml.
run_lit() {
  local dir=$1 results="$1/test-results"
  mkdir -p "$results"
  rm -f "$results"/*.xml
  echo "gpucg: running the lit suite in $dir"
  "$LIT" -sv --xunit-xml-output="$results/lit.xml" "$dir/test" || status=1
  if [[ -f "$results/lit.xml" ]]; then
    reports+=("$results/lit.xml")
    summary_args+=("$results/lit.xml")
  fi
}

run_lit "$BUILD_DIR"

if [[ -n "$CHECKED_BUILD_DIR" ]]; then
  echo "gpucg: building the checked configuration (assertions, ASan, UBSan) in $CHECKED_BUILD_DIR"
  if "$SOURCE_DIR/scripts/build.sh" --checked "$CHECKED_BUILD_DIR"; then
    run_lit "$CHECKED_BUILD_DIR"
  else
    echo "gpucg: the checked build in $CHECKED_BUILD_DIR failed" >&2
    status=1
    summary_args+=(--failed-build "$CHECKED_BUILD_DIR")
  fi
fi

if ((${#reports[@]} > 1)); then
  for report in "${reports[@]}"; do
    printf '%s: ' "${report%/test-results/lit.xml}"
    python3 "$SOURCE_DIR/scripts/test-summary.py" "$report" || true
  done
fi
python3 "$SOURCE_DIR/scripts/test-summary.py" "${summary_args[@]}" || status=1

exit $status
