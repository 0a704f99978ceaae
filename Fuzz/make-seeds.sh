#!/usr/bin/env bash
# Small seed files for the fuzzer, one or more per format, each under 64 KB.
set -euo pipefail
out=${1:?usage: make-seeds.sh OUTDIR}
[ -f "$out/.complete" ] && exit 0
mkdir -p "$out"
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
src="-f lavfi -i testsrc2=size=64x48:rate=10:duration=0.3"
ff $src -c:v libx264 -preset ultrafast -pix_fmt yuv420p -metadata:s:v:0 rotate=90 -metadata location=+12.3456-065.4321/ "$out/tiny.mp4"
ff $src -c:v libx264 -preset ultrafast -pix_fmt yuv420p -movflags +faststart -f mov \
   -movflags use_metadata_tags -metadata com.apple.quicktime.content.identifier=ABCD \
   -metadata com.apple.quicktime.location.ISO6709=+01.0000+002.0000+003.000/ "$out/tiny.mov"
ff $src -c:v libx264 -preset ultrafast -pix_fmt yuv420p -movflags frag_keyframe+empty_moov -g 2 "$out/fragmented.mp4"
ff $src -c:v libx265 -x265-params log-level=error -preset ultrafast -pix_fmt yuv420p10le -tag:v hvc1 \
   -color_trc arib-std-b67 -f mov "$out/hdr.mov"
ff -f lavfi -i sine=duration=0.2 -c:a aac "$out/audio.m4a"
ff $src -c:v libvpx-vp9 -deadline realtime -cpu-used 8 "$out/tiny.webm"
ff $src -c:v libx264 -preset ultrafast -f matroska "$out/tiny.mkv"
ff $src -f 3gp -c:v libx264 -preset ultrafast -pix_fmt yuv420p "$out/tiny.3gp"
ff -f lavfi -i testsrc2=size=64x48 -frames:v 1 "$out/tiny.png"
ff -f lavfi -i testsrc2=size=64x48 -frames:v 1 "$out/tiny.jpg"
exiftool -q -overwrite_original -Make=Pickup -Orientation#=8 -GPSLatitude=1 -GPSLatitudeRef=S \
  -GPSLongitude=2 -GPSLongitudeRef=W "-DateTimeOriginal=2020:01:02 03:04:05" -OffsetTimeOriginal=+01:00 "$out/tiny.jpg"
ff -f lavfi -i testsrc2=size=64x48 -frames:v 1 "$out/exif.png"
exiftool -q -overwrite_original -Make=Pickup -Orientation#=3 "$out/exif.png"
ff $src "$out/tiny.gif"
ff -f lavfi -i testsrc2=size=64x48 -frames:v 1 -c:v libwebp "$out/lossy.webp"
ff -f lavfi -i testsrc2=size=64x48 -frames:v 1 -c:v libwebp -lossless 1 "$out/lossless.webp"
ff $src -c:v libwebp_anim -loop 0 "$out/animated.webp"
ff -f lavfi -i testsrc2=size=64x48 -frames:v 1 "$out/_tmp.png"
heif-enc -q 30 -o "$out/tiny.heic" "$out/_tmp.png" >/dev/null
exiftool -q -overwrite_original -Make=Apple "-DateTimeOriginal=2020:01:02 03:04:05" "$out/tiny.heic"
cp "$out/tiny.heic" "$out/gps.heic"  # EXIF and XMP with a place, for HEIFPrivacy
exiftool -q -overwrite_original -GPSLatitude=48.8 -GPSLatitudeRef=N -GPSLongitude=2.3 -GPSLongitudeRef=E \
  -XMP:GPSLatitude=48.8 -XMP-photoshop:City=Paris "$out/gps.heic"
heif-enc --avif -q 30 -o "$out/tiny.avif" "$out/_tmp.png" >/dev/null
ff -f lavfi -i testsrc2=size=64x48 -frames:v 1 "$out/tiny.tif"
exiftool -q -overwrite_original -Make=Pickup -Orientation#=6 "-DateTimeOriginal=2020:01:02 03:04:05" "$out/tiny.tif"
exiftool -q -o "$out/tiny.dng" -IFD0:DNGVersion=1.6.0.0 "$out/tiny.tif"
rm -f "$out/_tmp.png"
# The TIFF block of the JPEG, for the EXIF reader alone.
exiftool -b -Exif "$out/tiny.jpg" > "$out/exif.tiff" || true
touch "$out/.complete"
