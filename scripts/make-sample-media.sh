#!/usr/bin/env bash
# Makes a small folder of phone-like media: a portrait iPhone-style HEVC movie
# with location and a Live Photo identifier, its still, a rotated JPEG with GPS,
# an Android MP4, a WebM, an animated GIF, a PNG screenshot, and a broken file.
set -euo pipefail
out=${1:?usage: make-sample-media.sh OUTDIR}
mkdir -p "$out"
[ -f "$out/.complete" ] && exit 0
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
id="5A1F3E2C-7B9D-4E61-8C0A-2F4D6B8E1A37"

ff -f lavfi -i testsrc2=size=1280x720:rate=30:duration=3 -f lavfi -i sine=frequency=440:duration=3 \
   -c:v libx265 -x265-params log-level=error -preset ultrafast -tag:v hvc1 -c:a aac -shortest "$out/_tmp.mov"
ff -i "$out/_tmp.mov" -c copy -metadata:s:v:0 rotate=270 -movflags use_metadata_tags \
   -metadata "com.apple.quicktime.content.identifier=$id" \
   -metadata "com.apple.quicktime.location.ISO6709=+48.8584+002.2945+035.000/" \
   -metadata "com.apple.quicktime.creationdate=2026-06-21T19:42:05+0200" \
   -metadata "com.apple.quicktime.make=Apple" -metadata "com.apple.quicktime.model=iPhone 16 Pro" \
   -f mov "$out/portrait.mov"
rm -f "$out/_tmp.mov"

ff -f lavfi -i testsrc2=size=1280x720 -frames:v 1 "$out/_still.png"
heif-enc -q 60 -o "$out/portrait.heic" "$out/_still.png" >/dev/null
ff -i "$out/_still.png" "$out/rotated.jpg"
exiftool -q -overwrite_original -Make=Apple "-Model=iPhone 16 Pro" -Orientation#=6 \
  "-DateTimeOriginal=2026:06:21 19:42:05" -OffsetTimeOriginal=+02:00 \
  -GPSLatitude=48.8584 -GPSLatitudeRef=N -GPSLongitude=2.2945 -GPSLongitudeRef=E "$out/rotated.jpg"
rm -f "$out/_still.png"

ff -f lavfi -i testsrc2=size=720x1280:rate=30:duration=2 -f lavfi -i sine=duration=2 -c:v libx264 -preset ultrafast \
   -pix_fmt yuv420p -c:a aac -shortest -metadata location=+37.7749-122.4194/ \
   -metadata creation_time=2026-05-01T08:00:00Z "$out/android.mp4"
ff -f lavfi -i testsrc2=size=640x360:rate=30:duration=2 -c:v libvpx-vp9 -deadline realtime -cpu-used 8 "$out/clip.webm"
ff -f lavfi -i testsrc2=size=160x120:rate=10:duration=1 "$out/animation.gif"
ff -f lavfi -i testsrc2=size=1170x2532 -frames:v 1 -pix_fmt rgba "$out/screenshot.png"
head -c 4096 "$out/android.mp4" > "$out/cut-short.mp4"
touch "$out/.complete"
