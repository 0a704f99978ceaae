#!/usr/bin/env bash
# Fuzzes Pickup's probe with libFuzzer and AddressSanitizer.
#
#   scripts/fuzz.sh --seconds 600              fuzz for ten minutes over every seed
#   scripts/fuzz.sh --seconds 300 --format jpeg  only JPEG seeds to start from
#   scripts/fuzz.sh --seconds 60 --smoke       CI's one-minute run
#   scripts/fuzz.sh --target answers --seconds 1800   what servers answer (S3 XML,
#                                              errors): Fuzz/AnswerFuzzer.swift
#
# Seeds: small media made with ffmpeg/exiftool (Fuzz/make-seeds.sh), the
# fuzzing regressions in Tests/Fixtures/fuzz-regressions, and the shared
# corpus's files under 256 KB when ../shared/corpus is present.
# Crashes land in Fuzz/work/crashes; copy each into
# Tests/Fixtures/fuzz-regressions once fixed, so that the tests keep it.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
format=all
smoke=0
target=probe
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --target) target=$2; shift 2 ;;
    --format) format=$2; shift 2 ;;
    --smoke) smoke=1; shift ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "fuzz.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

build=Fuzz/build
work=Fuzz/work
mkdir -p "$build" "$work/crashes"

# build_fuzzer BINARY MODULE SOURCES...: (re)builds a libFuzzer binary when a source is newer.
build_fuzzer() {
  local binary=$1 module=$2
  shift 2
  if [ ! -x "$binary" ] || [ -n "$(find "$@" -newer "$binary" | head -1)" ]; then
    echo "fuzz.sh: building $binary" >&2
    swiftc -sanitize=fuzzer,address -parse-as-library -O -g -package-name pickup -module-name "$module" "$@" -o "$binary" 2>&1 \
      | grep -v "ld.gold: warning" >&2 || true
  fi
  [ -x "$binary" ] || { echo "fuzz.sh: $binary did not build" >&2; exit 1; }
}

# run_fuzzer BINARY CORPUS SEEDS LOG WHAT FLAGS...: fuzzes for $seconds, then says how it ended.
run_fuzzer() {
  local binary=$1 corpus=$2 seed_dir=$3 log=$4 what=$5
  shift 5
  mkdir -p "$corpus"
  set +e
  "$binary" "$corpus" "$seed_dir" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 "$@" \
    -artifact_prefix="$work/crashes/" -print_final_stats=1 2>"$log"
  local status=$?
  set -e
  grep -E "^(stat::|#[0-9]+ +DONE)|SUMMARY|ERROR" "$log" | tail -12 >&2 || true
  if [ "$status" -ne 0 ]; then
    echo "fuzz.sh: the fuzzer found a problem in $what (status $status); see $log and $work/crashes" >&2
    exit 1
  fi
  echo "fuzz.sh: no crash, hang or leak in ${seconds}s of $what" >&2
}

if [ "$target" = answers ]; then
  binary=$build/pickup-answer-fuzz
  build_fuzzer "$binary" PickupUpload Sources/PickupUpload/S3/XMLText.swift Sources/PickupUpload/UploadError.swift \
    Fuzz/AnswerFuzzer.swift
  # Seeds: the S3 answers Pickup reads, and hostile ones.
  seed_dir=$work/seeds-answers
  mkdir -p "$seed_dir"
  printf '<ListPartsResult><IsTruncated>true</IsTruncated><NextPartNumberMarker>2</NextPartNumberMarker><Part><PartNumber>1</PartNumber><ETag>"e&amp;1"</ETag><Size>5242880</Size></Part></ListPartsResult>' >"$seed_dir/list"
  printf '<Error><Code>AccessDenied</Code><Message>Authorization: AWS4-HMAC-SHA256 Credential=AKIA/x</Message></Error>' >"$seed_dir/error"
  printf '<InitiateMultipartUploadResult><UploadId>u1</UploadId></InitiateMultipartUploadResult>' >"$seed_dir/start"
  printf 'https://user:pw@example.com/files/1?token=abc#frag' >"$seed_dir/url"
  echo "fuzz.sh: fuzzing server answers for ${seconds}s" >&2
  run_fuzzer "$binary" "$work/corpus-answers" "$seed_dir" "$work/last-answers.log" "server answers" \
    -max_len=1048576
  exit 0
fi
binary=$build/pickup-fuzz
build_fuzzer "$binary" Pickup $(find Sources/Pickup -name '*.swift' | sort) Fuzz/ProbeFuzzer.swift

seeds=$work/seeds
Fuzz/make-seeds.sh "$seeds"
pick() {
  case "$format" in
    all) cat ;;
    mp4) grep -iE '\.(mp4|mov|m4a|3gp|heic|avif)$' ;;
    jpeg) grep -iE '\.(jpe?g)$' ;;
    *) grep -iE "\.$format\$" ;;
  esac
}
seed_dir=$work/seeds-$format
rm -rf "$seed_dir"; mkdir -p "$seed_dir"
{
  find "$seeds" -type f
  find Tests/Fixtures/fuzz-regressions -type f 2>/dev/null || true
  if [ -d ../shared/corpus ]; then find ../shared/corpus -type f -size -256k; fi
} | pick | while read -r f; do cp "$f" "$seed_dir/$(echo "$f" | sed 's|^\.\./||' | tr '/' '_')"; done

echo "fuzz.sh: fuzzing $format for ${seconds}s ($(ls "$seed_dir" | wc -l) seeds)" >&2
run_fuzzer "$binary" "$work/corpus-$format" "$seed_dir" "$work/last-run.log" "$format" \
  -malloc_limit_mb=512 -max_len=262144
