#!/usr/bin/env bash
# Sets up, builds and runs every test: the format check, unit and conformance
# tests and the end-to-end tests of the built tool (swift test), the compile of
# the Apple-only sources against Apple's real iPhoneOS SDKs, 17.4 and 26.2, when
# they are there (scripts/check-ios.sh), the DocC documentation
# (scripts/docs.sh: warnings as errors, every public symbol documented, every
# snippet compiled), then a one-minute fuzzing smoke run.
#   FUZZ_SECONDS=0 scripts/test.sh    skips the fuzzing smoke run
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
swift format lint --strict -r Sources Tests Fuzz Examples Snippets Package.swift
swift build --build-tests
# The real-SDK check (Apple's iPhoneOS SDK); exit 2 means no SDK is on this machine, said in one line.
ios_status=0
scripts/check-ios.sh || ios_status=$?
if [ "$ios_status" -ne 0 ] && [ "$ios_status" -ne 2 ]; then
  echo "test.sh: the real-SDK check failed (status $ios_status)" >&2
  exit "$ios_status"
fi
mkdir -p .build
# The scale suites (catalogs and journals of 10,000 items) run on their own afterwards: they keep
# both cores of the Swift concurrency pool busy for a minute, and the suites that time a network
# fault (a cut noticed at once, a server that never answers) would measure that instead.
scale='CatalogScaleTests|JournalScaleTests'
set +e
swift test --skip-build --parallel --num-workers 2 --skip "$scale" 2>&1 | tee .build/test-output.txt
status=${PIPESTATUS[0]}
if [ "$status" -eq 0 ]; then
  swift test --skip-build --filter "$scale" 2>&1 | tee .build/test-output-scale.txt
  status=${PIPESTATUS[0]}
fi
set -e
if [ "$status" -ne 0 ]; then
  echo "test.sh: swift test failed (status $status)" >&2
  exit "$status"
fi
# The DocC documentation: every catalog built, warnings as errors, every public symbol documented.
scripts/docs.sh
count=0
for output in .build/test-output.txt .build/test-output-scale.txt; do
  ran=$(sed -nE 's/.*Test run with ([0-9]+) tests? .* passed.*/\1/p' "$output" | tail -1)
  count=$((count + ${ran:-0}))
done

seconds=${FUZZ_SECONDS:-60}
if [ "$seconds" -gt 0 ]; then
  scripts/fuzz.sh --seconds "$seconds" --smoke
fi
echo "swift-test: ${count:-0} passed, 0 failed"
