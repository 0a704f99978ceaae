#!/usr/bin/env bash
# Type-checks PickupUI (Sources/PickupUI) and the demo app (Examples/PickupDemo)
# on Linux, where SwiftUI, PhotosUI, Photos, UIKit, AVFoundation, AVKit,
# CoreTransferable and UniformTypeIdentifiers do not exist: it compiles the
# test-only stand-ins of Tests/AppleStandIns as modules of those names, then
# type-checks the Apple-only sources against them in Swift 6 mode.
# Run after `swift build` (scripts/test.sh does).
set -euo pipefail
cd "$(dirname "$0")/.."

bin=$(swift build --show-bin-path)
modules="$bin/Modules"
[ -d "$modules" ] || modules="$bin"
out=.build/apple-standins
rm -rf "$out"
mkdir -p "$out"

# The C modules under the package's Swift modules.
clang_maps=()
for map in Sources/CSQLite/module.modulemap Sources/CLibcrypto/module.modulemap Sources/CFFmpeg/module.modulemap \
  Sources/CHeif/module.modulemap; do
  clang_maps+=(-Xcc "-fmodule-map-file=$map")
done
clang_maps+=(-Xcc "-fmodule-map-file=$bin/CPickupSystem.build/module.modulemap")
for flags in $(pkg-config --cflags-only-I libavformat libheif 2>/dev/null); do clang_maps+=(-Xcc "$flags"); done

standin() {
  local name=$1
  swiftc -swift-version 6 -parse-as-library -emit-module -module-name "$name" \
    -emit-module-path "$out/$name.swiftmodule" -I "$out" "Tests/AppleStandIns/$name.swift"
}
for name in CoreGraphics UniformTypeIdentifiers CoreTransferable Photos UIKit AVFoundation SwiftUI AVKit PhotosUI; do
  standin "$name"
done

# PickupUI as a module, against the stand-ins and the package's own modules.
swiftc -swift-version 6 -warnings-as-errors -parse-as-library -emit-module -module-name PickupUI \
  -emit-module-path "$out/PickupUI.swiftmodule" -I "$out" -I "$modules" "${clang_maps[@]}" Sources/PickupUI/*.swift
# The demo app, against PickupUI.
swiftc -swift-version 6 -warnings-as-errors -parse-as-library -typecheck -module-name PickupDemo -I "$out" -I "$modules" "${clang_maps[@]}" \
  Examples/PickupDemo/*.swift
# The stand-ins' own claims, written as code; scripts/check-ios.sh compiles the same file against
# Apple's real SDK, so the stand-ins cannot drift from Apple's declarations unseen.
swiftc -swift-version 6 -warnings-as-errors -parse-as-library -emit-module -module-name StandInProbe \
  -emit-module-path "$out/StandInProbe.swiftmodule" -I "$out" Tests/AppleStandIns/RealSDKProbe.swift
# The check must be able to fail: a call the stand-ins do not declare is refused.
probe="$out/must-fail.swift"
printf 'import PhotosUI\nlet f: PHPickerFilter = .any(of: [.images], limit: 3)\n' > "$probe"
if swiftc -swift-version 6 -parse-as-library -typecheck -I "$out" "$probe" 2>/dev/null; then
  echo "check-apple-ui: the stand-ins accepted an API Apple does not have; the check is broken" >&2
  exit 1
fi
count=$(cat Sources/PickupUI/*.swift Examples/PickupDemo/*.swift | wc -l)
echo "check-apple-ui: Sources/PickupUI and Examples/PickupDemo ($count lines) type-check against the Apple stand-ins"
