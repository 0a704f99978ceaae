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
if [ "$target" = answers ]; then
  mkdir -p "$build" "$work/crashes" "$work/corpus-answers" "$work/seeds-answers"
  binary=$build/pickup-answer-fuzz
  sources="Sources/PickupUpload/S3/XMLText.swift Sources/PickupUpload/UploadError.swift Fuzz/AnswerFuzzer.swift"
  if [ ! -x "$binary" ] || [ -n "$(find $sources -newer "$binary" | head -1)" ]; then
    echo "fuzz.sh: building $binary" >&2
    swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name PickupUpload $sources -o "$binary" 2>&1 \
      | grep -v "ld.gold: warning" >&2 || true
  fi
  [ -x "$binary" ] || { echo "fuzz.sh: $binary did not build" >&2; exit 1; }
  # Seeds: the S3 answers Pickup reads, and hostile ones.
  printf '<ListPartsResult><IsTruncated>true</IsTruncated><NextPartNumberMarker>2</NextPartNumberMarker><Part><PartNumber>1</PartNumber><ETag>"e&amp;1"</ETag><Size>5242880</Size></Part></ListPartsResult>' >"$work/seeds-answers/list"
  printf '<Error><Code>AccessDenied</Code><Message>Authorization: AWS4-HMAC-SHA256 Credential=AKIA/x</Message></Error>' >"$work/seeds-answers/error"
  printf '<InitiateMultipartUploadResult><UploadId>u1</UploadId></InitiateMultipartUploadResult>' >"$work/seeds-answers/start"
  printf 'https://user:pw@example.com/files/1?token=abc#frag' >"$work/seeds-answers/url"
  echo "fuzz.sh: fuzzing server answers for ${seconds}s" >&2
  set +e
  "$binary" "$work/corpus-answers" "$work/seeds-answers" -max_total_time="$seconds" -timeout=5 \
    -rss_limit_mb=2048 -max_len=1048576 -artifact_prefix="$work/crashes/" -print_final_stats=1 2>"$work/last-answers.log"
  status=$?
  set -e
  grep -E "^(stat::|#[0-9]+ +DONE)|SUMMARY|ERROR" "$work/last-answers.log" | tail -12 >&2 || true
  if [ "$status" -ne 0 ]; then
    echo "fuzz.sh: the answer fuzzer found a problem (status $status); see $work/last-answers.log" >&2
    exit 1
  fi
  echo "fuzz.sh: no crash, hang or leak in ${seconds}s of server answers" >&2
  exit 0
fi
mkdir -p "$build" "$work/crashes" "$work/corpus-$format"
binary=$build/pickup-fuzz
sources=$(find Sources/Pickup -name '*.swift' | sort)
if [ ! -x "$binary" ] || [ -n "$(find Sources/Pickup Fuzz/ProbeFuzzer.swift -newer "$binary" -name '*.swift' | head -1)" ]; then
  echo "fuzz.sh: building $binary" >&2
  swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name Pickup \
    $sources Fuzz/ProbeFuzzer.swift -o "$binary" 2>&1 | grep -v "ld.gold: warning" >&2 || true
fi

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
set +e
"$binary" "$work/corpus-$format" "$seed_dir" \
  -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -malloc_limit_mb=512 -max_len=262144 \
  -artifact_prefix="$work/crashes/" -print_final_stats=1 2> "$work/last-run.log"
status=$?
set -e
grep -E "^(stat::|#[0-9]+ +DONE)|SUMMARY|ERROR" "$work/last-run.log" | tail -12 >&2 || true
if [ "$status" -ne 0 ]; then
  echo "fuzz.sh: the fuzzer found a problem (status $status); see $work/last-run.log and $work/crashes" >&2
  exit 1
fi
echo "fuzz.sh: no crash, hang or leak in ${seconds}s" >&2
