#!/usr/bin/env bash
# The real-SDK check: compiles every Apple-capable target against Apple's own
# iPhoneOS SDK, for arm64-apple-ios16.0, with no error and no warning allowed.
#
#   On Linux:  scripts/check-ios.sh  (or PICKUP_IOS_SDKS="17.4=DIR 26.2=DIR")
#     compiles against Apple's iPhoneOS 17.4 SDK (the oldest a user may build with) and
#     26.2 (what developers build with today), each laid out by ../shared/ios-sdk/prepare.py
#     into .build/ios-sdk-NAME from its fetched mirror; an SDK whose mirror is absent is skipped.
#   On a Mac:  scripts/check-ios.sh   (Xcode's SDK; builds for real with xcodebuild)
#
# What is compiled, and how (Linux), each as a full module (-emit-module with
# bodies, so the Swift 6 isolation and "sending" diagnostics run):
#   Pickup, PickupStore, PickupImport, PickupUpload, PickupUI
#   Examples/PickupDemo       at its own deployment target, iOS 17
#   Snippets/ (the SwiftUI ones) the documentation's examples, iOS 17
#   the DocC tutorial's code (PickupUI.docc/Resources/*.swift), each section's app as its own module, iOS 17
#   Against 17.4, PickupUI also gets Apple's iOS 18 declarations of the AVAssetExportSession
#   members that 17.4 lacks (../shared/ios-sdk/AVFoundation-iOS18.swift).
# Exit status 0 only when every step printed no error and no warning. Exit 2
# (and one line saying so) when no SDK is there.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(uname)" = Darwin ] && [ -z "${PICKUP_IOS_SDK:-}" ]; then
  sdk=$(xcrun --sdk iphoneos --show-sdk-path)
  echo "check-ios: Xcode's SDK at $sdk"
  xcodebuild -quiet -scheme Pickup-Package -destination generic/platform=iOS \
    SWIFT_TREAT_WARNINGS_AS_ERRORS=YES build
  echo "check-ios: every library product builds for iOS with Xcode's SDK"
  exit 0
fi

# Which SDKs: PICKUP_IOS_SDKS, a list of NAME=DIR (DIR as prepare.py made it); by default
# every SDK whose fetched mirror is on this machine, laid out into .build/ios-sdk-NAME:
#   17.4  github:danpashin/sdks          (PICKUP_IOS_SDK_MIRROR_17, default /work/.mirror/danpashin+sdks/repo)
#   26.2  github:seayou2468-web/maciOS   (PICKUP_IOS_SDK_MIRROR_26, default /work/.mirror/seayou2468-web+maciOS/repo)
# PICKUP_IOS_SDK=DIR alone still checks one SDK, taken as 17.4.
prepare=../shared/ios-sdk/prepare.py
sdks=()
if [ -n "${PICKUP_IOS_SDKS:-}" ]; then
  read -r -a sdks <<<"$PICKUP_IOS_SDKS"
elif [ -n "${PICKUP_IOS_SDK:-}" ]; then
  sdks=("17.4=$PICKUP_IOS_SDK")
else
  for pair in "17.4=${PICKUP_IOS_SDK_MIRROR_17:-/work/.mirror/danpashin+sdks/repo}" \
    "26.2=${PICKUP_IOS_SDK_MIRROR_26:-/work/.mirror/seayou2468-web+maciOS/repo}"; do
    name=${pair%%=*} mirror=${pair#*=}
    if [ -d "$mirror" ] && [ -f "$prepare" ]; then
      if [ ! -d ".build/ios-sdk-$name/sdk/System" ]; then
        python3 "$prepare" "$mirror" "$PWD/.build/ios-sdk-$name" >/dev/null
      fi
      sdks+=("$name=$PWD/.build/ios-sdk-$name")
    fi
  done
fi
if ((${#sdks[@]} == 0)); then
  echo "check-ios: NOT RUN: no iPhoneOS SDK (fetch github:danpashin/sdks and github:seayou2468-web/maciOS, or set PICKUP_IOS_SDKS); the Apple code was checked only against the stand-ins"
  exit 2
fi

swiftc_ios() {
  local target=$1
  shift
  # One package name for every module, as SwiftPM gives them: `package` declarations are shared.
  swiftc -swift-version 6 -target "$target" -sdk "$sdk" -resource-dir "$resdir" -package-name pickup \
    -Xfrontend -enable-cross-import-overlays -parse-as-library -I "$out/stdlib" -I "$out/modules" \
    -module-cache-path "$out/module-cache" \
    -Xcc "-fmodule-map-file=$out/CPickupSystem/module.modulemap" "$@"
}

failed=0
# step NAME COMMAND...: runs a compile, keeps its diagnostics, counts errors and warnings.
step() {
  local name="$1 [iOS SDK $sdk_name]"
  shift
  local text status=0
  text=$("$@" 2>&1) || status=$?
  local errors warnings
  errors=$(grep -cE '(^|: )error: ' <<<"$text" || true)
  warnings=$(grep -cE '(^|: )warning: ' <<<"$text" || true)
  printf '== %s\n%s\n' "$name" "$text" >>"$log"
  if [ "$status" -ne 0 ] || [ "$errors" -ne 0 ] || [ "$warnings" -ne 0 ]; then
    echo "check-ios: $name: $errors errors, $warnings warnings (status $status)"
    grep -E '(^|: )(error|warning): ' <<<"$text" | sort -u | head -40
    failed=1
  else
    echo "check-ios: $name: clean"
  fi
}

module() {  # module NAME TARGET SOURCES...: a full module, bodies and SIL diagnostics included
  local name=$1 target=$2
  shift 2
  step "$name ($target)" swiftc_ios "$target" -emit-module -module-name "$name" \
    -emit-module-path "$out/modules/$name.swiftmodule" "$@"
}


# check_sdk NAME DIR: every step below against one SDK.
check_sdk() {
local name=$1
sdk=$2/sdk
resdir=$2/resdir
[ -d "$sdk/System" ] || { echo "check-ios: $sdk is not an SDK laid out by prepare.py" >&2; return 1; }
out=.build/ios-check/$name
rm -rf "$out"
mkdir -p "$out/modules" "$out/CPickupSystem" "$out/symbol-graphs"
log=$out/diagnostics.txt
: >"$log"
extra=()
if [ ! -f "$sdk/usr/lib/swift/Swift.swiftmodule/arm64e-apple-ios.swiftinterface" ] ||
  ! grep -q '_willThrowTyped' "$sdk/usr/lib/swift/Swift.swiftmodule/"*.swiftinterface; then
  # The 17.4 standard library (Swift 5.10) lacks `_willThrowTyped`, the debugger hook that Swift 6
  # code generation calls at every typed `throw`: without it SILGen crashes (signal 11) on any
  # `throws(E)` body. A copy of its interface with that hook, as a no-op (what the real hook does
  # before iOS 18), is found before the SDK's; nothing else in it changes. So every module is
  # compiled whole, with its SIL diagnostics (Swift 6 isolation, "sending").
  mkdir -p "$out/stdlib/Swift.swiftmodule"
  for file in "$sdk"/usr/lib/swift/Swift.swiftmodule/*; do ln -s "$(realpath "$file")" "$out/stdlib/Swift.swiftmodule/"; done
  rm "$out/stdlib/Swift.swiftmodule/arm64-apple-ios.swiftinterface"
  {
    cat "$sdk/usr/lib/swift/Swift.swiftmodule/arm64-apple-ios.swiftinterface"
    echo '@_alwaysEmitIntoClient public func _willThrowTyped<E>(_ error: E) where E : Swift.Error {}'
  } >"$out/stdlib/Swift.swiftmodule/arm64-apple-ios.swiftinterface"
  # Apple's iOS 18 declarations of the AVAssetExportSession members that 17.4 lacks.
  shim=${PICKUP_IOS18_SHIM:-../shared/ios-sdk/AVFoundation-iOS18.swift}
  [ -f "$shim" ] || { echo "check-ios: $shim (Apple's iOS 18 declarations) is missing" >&2; return 1; }
  extra=("$shim")
fi
# CPickupSystem's header, as a module the iOS compile can import.
printf 'module CPickupSystem {\n  header "%s"\n  export *\n}\n' \
  "$PWD/Sources/CPickupSystem/include/pickup_system.h" >"$out/CPickupSystem/module.modulemap"
ios16=arm64-apple-ios16.0
module Pickup $ios16 $(find Sources/Pickup -name '*.swift' | sort)
module PickupStore $ios16 $(find Sources/PickupStore -name '*.swift' | sort)
module PickupImport $ios16 $(find Sources/PickupImport -name '*.swift' | sort)
module PickupUpload $ios16 $(find Sources/PickupUpload -name '*.swift' | sort)
# PickupUI's resource bundle, as SwiftPM generates its accessor (Bundle.module) for a target with resources.
printf 'import Foundation\nextension Foundation.Bundle {\n  static let module: Bundle = Bundle.main\n}\n' \
  >"$out/PickupUI-resource-accessor.swift"
# PickupUI also leaves its symbol graph, from which scripts/docs.sh builds its DocC pages.
module PickupUI $ios16 $(find Sources/PickupUI -name '*.swift' -not -path '*.docc/*' | sort) "$out/PickupUI-resource-accessor.swift" "${extra[@]}" \
  -emit-symbol-graph -emit-symbol-graph-dir "$out/symbol-graphs" -symbol-graph-skip-synthesized-members
# PickupUI as an app extension compiles it (a share extension that uploads): every declaration that
# reaches an API extensions may not use (UIApplication.shared) says so, with
# @available(iOSApplicationExtension, unavailable); the rest is there for extensions.
step "PickupUI for app extensions ($ios16)" swiftc_ios $ios16 -typecheck -application-extension -module-name PickupUI \
  $(find Sources/PickupUI -name '*.swift' -not -path '*.docc/*' | sort) "$out/PickupUI-resource-accessor.swift" "${extra[@]}"
module PickupDemo arm64-apple-ios17.0 Examples/PickupDemo/*.swift
# The documentation's SwiftUI snippets (on Linux, `swift build` compiles them empty).
mapfile -t ui_snippets < <(grep -l '^import PickupUI' Snippets/*.swift | sort)
if ((${#ui_snippets[@]})); then
  module PickupSnippets arm64-apple-ios17.0 "${ui_snippets[@]}"
fi
# The DocC tutorial's code: pick-and-upload-<section>-<File>.swift is File.swift as that
# section leaves it. Each section's app (every file at its newest version up to that
# section) is a module of its own.
tutorial=Sources/PickupUI/PickupUI.docc/Resources
mapfile -t sections < <(ls "$tutorial" | sed -n 's/^pick-and-upload-\([0-9]*\)-.*\.swift$/\1/p' | sort -un)
for section in "${sections[@]}"; do
  declare -A newest=()
  for file in "$tutorial"/pick-and-upload-*-*.swift; do
    name=$(basename "$file" .swift)
    step=${name#pick-and-upload-}
    step=${step%%-*}
    ((step <= section)) && newest[${name#pick-and-upload-*-}]=$file
  done
  module "Tutorial_section_$section" arm64-apple-ios17.0 "${newest[@]}"
  unset newest
done

# The check must be able to fail: an API that Apple does not have is refused.
printf 'import PhotosUI\nlet f: PHPickerFilter = .any(of: [.images], limit: 3)\n' >"$out/must-fail.swift"
if swiftc_ios $ios16 -typecheck "$out/must-fail.swift" >/dev/null 2>&1; then
  echo "check-ios: the SDK accepted an API Apple does not have; the check is broken" >&2
  return 1
fi

}

for pair in "${sdks[@]}"; do
  sdk_name=${pair%%=*}
  check_sdk "$sdk_name" "${pair#*=}" || failed=1
done
if [ "$failed" -ne 0 ]; then
  echo "check-ios: FAILED against a real iPhoneOS SDK; every diagnostic is in .build/ios-check/*/diagnostics.txt" >&2
  exit 1
fi
echo "check-ios: every Apple-capable target compiles against the real iPhoneOS SDKs (${sdks[*]%%=*}) with no error and no warning"
