#!/usr/bin/env bash
# Pickup's main job on sample media it makes itself: builds the tool, makes a
# folder of phone-like photos and videos with ffmpeg and exiftool, and probes it.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
swift build -c release --product pickup >/dev/null
pickup=.build/release/pickup
media=.build/demo-media
scripts/make-sample-media.sh "$media"

echo "== pickup probe $media"
"$pickup" probe "$media" || true
echo
echo "== pickup probe --json $media/portrait.mov"
"$pickup" probe --json "$media/portrait.mov"
