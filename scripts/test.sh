#!/usr/bin/env bash
# Sets up, builds and runs every test: unit and conformance tests and the
# end-to-end tests of the built tool (swift test), then a one-minute fuzzing
# smoke run.
#   FUZZ_SECONDS=0 scripts/test.sh    skips the fuzzing smoke run
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
swift build --build-tests
swift test --skip-build --parallel --num-workers 2

seconds=${FUZZ_SECONDS:-60}
if [ "$seconds" -gt 0 ]; then
  scripts/fuzz.sh --seconds "$seconds" --smoke
fi
