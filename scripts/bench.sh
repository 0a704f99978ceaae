#!/usr/bin/env bash
# Runs every benchmark in Benchmarks/ on the current build and writes one table of figures
# (each with its peer, its target, the date and the commit it was measured at) into
# BENCHMARKS.md and the README's benchmark table, between <!-- bench:begin --> and
# <!-- bench:end -->. No figure there is typed by hand.
#
#   scripts/bench.sh                  every benchmark as BENCHMARKS.md describes (about an hour)
#   scripts/bench.sh --quick          smaller inputs and fewer rounds: a few minutes
#   scripts/bench.sh --only render    only these benchmarks (probe import upload render many; clone
#                                     shaped with --root); the other rows keep what they said
#   sudo scripts/bench.sh --root      also the benchmarks that need root: clone (an XFS loop
#                                     mount), shaped (a network namespace with a slow link) and
#                                     many's shaped rows (without --root: its loopback rows only)
#   scripts/bench.sh --no-write       print the table, write nothing
#   scripts/bench.sh --settle S       wait at most S seconds for the machine to go idle before each
#                                     timed run (60; 3 with --quick): on a machine shared with other
#                                     work it never does, and each run would wait the whole time
#
# Each run's output and figures stay in .build/bench/DATE/. A figure measured on a tree
# with uncommitted changes names its commit with a "+".
set -euo pipefail
cd "$(dirname "$0")/.."

mode=full
settle=""
root=0
write=1
only=()
while (($#)); do
  case "$1" in
    --quick) mode=quick ;;
    --root) root=1 ;;
    --no-write) write=0 ;;
    --settle)
      settle=${2:?--settle takes seconds}
      shift
      ;;
    --only)
      shift
      while (($#)) && [[ "$1" != --* ]]; do
        only+=("$1")
        shift
      done
      continue
      ;;
    -h | --help)
      sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "bench.sh: unknown argument $1 (see --help)" >&2
      exit 64
      ;;
  esac
  shift
done
if ((root)) && [ "$(id -u)" -ne 0 ]; then
  echo "bench.sh: --root needs root (sudo scripts/bench.sh --root)" >&2
  exit 64
fi

if [ -z "$settle" ]; then
  settle=60
  if [ "$mode" = quick ]; then settle=3; fi
fi
export BENCH_SETTLE_SECONDS=$settle

scripts/setup.sh
echo "bench.sh: building pickup and pickup-render (release)" >&2
swift build -c release --product pickup-render >/dev/null
swift build -c release --product pickup >/dev/null

commit=$(git rev-parse --short HEAD)
if [ -n "$(git status --porcelain -- Sources Package.swift Benchmarks)" ]; then
  commit="$commit+"
  echo "bench.sh: uncommitted changes in Sources, Package.swift or Benchmarks: figures say $commit" >&2
fi
run=".build/bench/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$run"
printf '{"date": "%s", "commit": "%s", "mode": "%s", "settle": %s}\n' "$(date -u +%Y-%m-%d)" "$commit" "$mode" \
  "$settle" >"$run/run.json"

# name, then the arguments in full mode, then in quick mode ("|" between them).
benchmarks=(
  "probe|--copies 60|--copies 5 --ffprobe-sample 20"
  "import||--large 3 --large-mb 64 --small 200 --rounds 3"
  "upload|--megabytes 256 --rounds 5|--megabytes 64 --rounds 3"
  "render|--rounds 3 --media .build/bench/render-media|--photos 4 --rounds 3 --media .build/bench/render-media"
  "clone|--mb 2048 --rounds 3|--mb 256 --rounds 1"
  "shaped_upload|--rounds 3|--megabytes 8 --rtt-ms 40"
  "many_files|--rounds 5|--rounds 1 --files 20 --loop-files 40"
)
needs_root=(clone shaped_upload)

wanted() {
  local name=$1 item
  if ((${#only[@]})); then
    for item in "${only[@]}"; do
      [[ "$item" == "$name" || "${item}_upload" == "$name" || "${item}_files" == "$name" ]] && return 0
    done
    return 1
  fi
  return 0
}

failed=()
for entry in "${benchmarks[@]}"; do
  IFS='|' read -r name full quick <<<"$entry"
  wanted "$name" || continue
  if [[ " ${needs_root[*]} " == *" $name "* ]] && ((!root)); then
    echo "bench.sh: $name skipped (needs root: sudo scripts/bench.sh --root)" >&2
    continue
  fi
  arguments=$full
  [ "$mode" = quick ] && arguments=$quick
  # The many-files benchmark's shaped links need root; without --root, its loopback rows only.
  if [ "$name" = many_files ] && ((!root)); then arguments="$arguments --no-shaped"; fi
  echo "bench.sh: Benchmarks/${name}_benchmark.py $arguments" >&2
  started=$(date +%s)
  # shellcheck disable=SC2086  # the arguments are words
  if python3 "Benchmarks/${name}_benchmark.py" $arguments --json "$run/$name.json" 2>&1 | tee "$run/$name.txt"; then
    echo "bench.sh: $name took $(($(date +%s) - started)) s" >&2
  else
    echo "bench.sh: $name failed (its output: $run/$name.txt)" >&2
    failed+=("$name")
    rm -f "$run/$name.json"
  fi
done

echo
markdown=()
((write)) && markdown=(BENCHMARKS.md README.md)
python3 Benchmarks/figures.py table --runs "$run" --markdown "${markdown[@]}" --details BENCHMARKS.md --brief README.md
if ((write)); then
  size=$(wc -c <README.md)
  ((size < 8192)) || echo "bench.sh: README.md is $size bytes, over 8 KB" >&2
fi
if ((${#failed[@]})); then
  echo "bench.sh: failed: ${failed[*]}" >&2
  exit 1
fi
