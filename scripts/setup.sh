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
DEBIAN_PACKAGES=(ffmpeg libimage-exiftool-perl mediainfo libheif-examples time libsqlite3-dev libssl-dev pkg-config)

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

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: Swift 6.3 is not on PATH; install it first (https://www.swift.org/install/linux/)." >&2
  exit 1
fi
