#!/usr/bin/env bash
# Pickup's main job on sample media it makes itself: builds the tool, makes a
# folder of phone-like photos and videos with ffmpeg and exiftool, probes it,
# imports it into a library (twice: the second run copies nothing), lists
# the library, and uploads it to a tus server it starts on 127.0.0.1, checking
# that every byte arrived.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
swift build -c release --product pickup >/dev/null
swift build -c release --product pickup-render >/dev/null
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
echo "== pickup import $media --into $library --order newest --thumbnails 256x256"
"$pickup" import "$media" --into "$library" --order newest --thumbnails 256x256 || true
echo
echo "== pickup import $media --into $library (again: nothing is copied twice)"
"$pickup" import "$media" --into "$library" 2>/dev/null | tail -1 || true
echo
echo "== pickup library $library list"
"$pickup" library "$library" list

echo "== pickup thumb $media/portrait.mov (a portrait video stored sideways: the thumbnail stands upright)"
"$pickup" thumb "$media/portrait.mov" --size 180x320 --fit -o .build/demo-portrait.jpg

echo "== pickup export $media/portrait.mov --preset 640x480 --strip-location"
"$pickup" export "$media/portrait.mov" --preset 640x480 --strip-location -o .build/demo-export.mp4 2>/dev/null
"$pickup" probe .build/demo-export.mp4

echo
echo "== pickup upload $library/* --to a tus server on 127.0.0.1 (started here)"
port=$(.build/python/bin/python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
received=.build/demo-received
rm -rf "$received" && mkdir -p "$received"
.build/python/bin/python Tests/Servers/tus_server.py --port "$port" --dir "$received" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/health" && break; sleep 0.1; done
"$pickup" upload "$library"/*.* --to "tus+http://127.0.0.1:$port/files" --journal .build/demo-uploads.sqlite --json \
  > .build/demo-uploads.jsonl
echo "== what arrived (SHA-256 of each source and of the bytes the server stored)"
.build/python/bin/python - .build/demo-uploads.jsonl "$received" <<'PY'
import hashlib, json, sys
def sha(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
ok = True
for line in open(sys.argv[1]):
    record = json.loads(line)
    stored = sys.argv[2] + "/" + record["remote"].rsplit("/", 1)[-1]
    same = record["state"] == "done" and sha(record["path"]) == sha(stored)
    ok = ok and same
    print(f"{'intact' if same else 'DIFFERENT'}  {sha(record['path'])[:16]}  {record['path']}")
print("every file arrived intact" if ok else "some files did not arrive intact")
sys.exit(0 if ok else 1)
PY
