#!/usr/bin/env bash
# Pickup's main job on sample media it makes itself: builds the tool, makes a
# folder of phone-like photos and videos with ffmpeg and exiftool, probes it,
# imports it into a library (twice: the second run copies nothing), and lists
# the library.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
swift build -c release --product pickup >/dev/null
pickup=.build/release/pickup
media=.build/demo-media
library=.build/demo-library
scripts/make-sample-media.sh "$media"
rm -rf "$library"

echo "== pickup probe $media"
"$pickup" probe "$media" || true
echo
echo "== pickup probe --json $media/portrait.mov"
"$pickup" probe --json "$media/portrait.mov"
echo
echo "== pickup import $media --into $library --order newest"
"$pickup" import "$media" --into "$library" --order newest || true
echo
echo "== pickup import $media --into $library (again: nothing is copied twice)"
"$pickup" import "$media" --into "$library" 2>/dev/null | tail -1 || true
echo
echo "== pickup library $library list"
"$pickup" library "$library" list
