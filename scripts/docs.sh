#!/usr/bin/env bash
# Builds the DocC documentation of every module an app or a server imports —
# Pickup, PickupImport, PickupUpload, PickupFFmpeg (swift-docc-plugin) and
# PickupUI — as one static site in .build/docs, with warnings treated as errors
# and every public symbol documented (a missing abstract fails the build).
#
#   scripts/docs.sh            build and check; then open the site with
#                              python3 -m http.server -d .build/docs 8000
#                              and http://127.0.0.1:8000/
#   scripts/docs.sh --serve    build, check, then serve it on 127.0.0.1:8000
#   scripts/docs.sh --screenshots
#                              build, check, then photograph the front page, a
#                              module's landing page and an article with headless
#                              Chromium into .build/docs-screenshots (to look at
#                              the site as a browser draws it)
#
# PickupUI is SwiftUI, UIKit and Photos: on Linux its module is empty, so its
# symbols come from the real-SDK check (scripts/check-ios.sh, which writes
# PickupUI's symbol graph for arm64-apple-ios16.0) and `docc convert` builds
# its pages. Without an iPhoneOS SDK its pages are not built, said in one line.
# On a Mac, `swift package generate-documentation --target PickupUI` builds
# them for macOS as well.
#
# It also writes pickup's man page, .build/man/pickup.1, with swift-argument-parser's
# generate-manual plugin: `install -Dm644 .build/man/pickup.1 /usr/local/share/man/man1/`.
#
# Snippets (Snippets/*.swift) are compiled by `swift build` (SwiftPM builds each
# as a small executable); the SwiftUI ones sit behind `#if canImport(SwiftUI)`
# and are compiled against the real SDK by scripts/check-ios.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

site=.build/docs
rm -rf "$site"
mkdir -p "$site"
failed=0

# coverage ARCHIVE MODULE: fails when a public symbol of MODULE has no abstract.
coverage() {
  python3 - "$1/documentation-coverage.json" "$2" <<'EOF'
import json, sys
path, module = sys.argv[1], sys.argv[2]
entries = json.load(open(path))
symbols = [e for e in entries if e["kind"]["isSymbol"]]
missing = [e for e in symbols if not e["hasAbstract"]]
print(f"docs: {module}: {len(symbols) - len(missing)} of {len(symbols)} public symbols documented")
for entry in missing[:40]:
    print("  no abstract:", entry["kind"]["name"], entry["referencePath"].split("/documentation/", 1)[-1])
sys.exit(1 if missing else 0)
EOF
  local status=$?
  rm -f "$1/documentation-coverage.json"
  return "$status"
}

# The README's Swift example is a snippet too: the README must show exactly its code.
python3 - <<'EOF2' || failed=1
import re, sys
readme = open("README.md").read()
blocks = re.findall(r"```swift\n(.*?)```", readme, re.S)
snippet = open("Snippets/ReadmePickScreen.swift").read()
if not blocks or blocks[0] not in snippet:
    sys.exit("docs: README.md's first Swift example differs from Snippets/ReadmePickScreen.swift (which the real-SDK check compiles); make them one")
EOF2

for module in Pickup PickupImport PickupUpload PickupFFmpeg; do
  log=.build/docs-$module.txt
  if ! swift package --allow-writing-to-directory "$site" generate-documentation --target "$module" \
    --output-path "$site/$module" --transform-for-static-hosting --hosting-base-path "$module" \
    --warnings-as-errors --experimental-skip-synthesized-symbols --enable-inherited-docs \
    --experimental-documentation-coverage --coverage-summary-level none >"$log" 2>&1; then
    echo "docs: $module: the build failed (warnings are errors):" >&2
    grep -E "(warning|error):" "$log" | sort -u | head -40 >&2
    failed=1
    continue
  fi
  coverage "$site/$module" "$module" || failed=1
done

# PickupUI, from the iOS symbol graph of the real-SDK check.
# The newest SDK's graph (26.2), else 17.4's.
find_graphs() {
  for name in 26.2 17.4; do
    if [ -f ".build/ios-check/$name/symbol-graphs/PickupUI.symbols.json" ]; then
      echo ".build/ios-check/$name/symbol-graphs"
      return
    fi
  done
  echo .build/ios-check/none
}
graphs=$(find_graphs)
if [ ! -f "$graphs/PickupUI.symbols.json" ]; then
  scripts/check-ios.sh >/dev/null || true
  graphs=$(find_graphs)
fi
if [ -f "$graphs/PickupUI.symbols.json" ]; then
  snippets=.build/docs-snippets
  rm -rf "$snippets"
  mkdir -p "$snippets"
  # Not PickupUI@AVFoundation: that graph holds Apple's iOS 18 declarations the check adds.
  cp "$graphs/PickupUI.symbols.json" "$snippets/"
  [ -f "$graphs/PickupUI@Pickup.symbols.json" ] && cp "$graphs/PickupUI@Pickup.symbols.json" "$snippets/"
  extract=$(find .build -path '*/debug/snippet-extract-tool' -type f | head -1)
  if [ -z "$extract" ]; then
    swift build --product snippet-extract >/dev/null
    extract=$(find .build -path '*/debug/snippet-extract-tool' -type f | head -1)
  fi
  "$extract" --output "$snippets/Pickup-snippets.symbols.json" --module-name Pickup Snippets/*.swift
  log=.build/docs-PickupUI.txt
  if ! docc convert Sources/PickupUI/PickupUI.docc --additional-symbol-graph-dir "$snippets" \
    --fallback-display-name PickupUI --fallback-bundle-identifier PickupUI \
    --output-path "$site/PickupUI" --transform-for-static-hosting --hosting-base-path PickupUI \
    --warnings-as-errors --enable-inherited-docs --experimental-documentation-coverage --coverage-summary-level none >"$log" 2>&1; then
    echo "docs: PickupUI: the build failed (warnings are errors):" >&2
    grep -E "(warning|error):" "$log" | sort -u | head -40 >&2
    failed=1
  else
    coverage "$site/PickupUI" PickupUI || failed=1
  fi
else
  echo "docs: PickupUI: NOT BUILT: no iPhoneOS SDK (see scripts/check-ios.sh); its symbols exist only for iOS"
fi

# The site's front page: one link per module.
{
  echo '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pickup documentation</title>'
  echo '<meta name="viewport" content="width=device-width, initial-scale=1">'
  echo '<style>body{font:17px/1.5 -apple-system,system-ui,sans-serif;max-width:40em;margin:3em auto;padding:0 1em}'
  echo 'li{margin:.6em 0}a{color:#0066cc;text-decoration:none}a:hover{text-decoration:underline}</style></head><body>'
  echo '<h1>Pickup</h1><p>Pick photos, videos and Live Photos, make them ready, and upload them reliably.</p><ul>'
  for module in Pickup PickupImport PickupUpload PickupUI PickupFFmpeg; do
    lower=$(tr '[:upper:]' '[:lower:]' <<<"$module")
    [ -d "$site/$module" ] && echo "<li><a href=\"$module/documentation/$lower/\">$module</a></li>"
  done
  echo '</ul></body></html>'
} >"$site/index.html"

# pickup's man page, from the same help texts (swift-argument-parser's generate-manual plugin;
# it runs the debug build's `pickup --experimental-dump-help`). pickup-render's page is the
# helper's own and is not installed.
man=.build/man
mkdir -p "$man"
if swift package --disable-sandbox plugin generate-manual --configuration debug -o "$man" >.build/docs-man.txt 2>&1 &&
  grep -q '^\.Nm pickup$' "$man/pickup.1"; then
  echo "docs: man page in $man/pickup.1 (install -Dm644 $man/pickup.1 /usr/local/share/man/man1/pickup.1)"
else
  cat .build/docs-man.txt >&2
  echo "docs: the man page was not made (see above)" >&2
  failed=1
fi

if [ "$failed" -ne 0 ]; then
  echo "docs: FAILED (see above)" >&2
  exit 1
fi
echo "docs: built into $site (python3 -m http.server -d $site 8000, then http://127.0.0.1:8000/)"
if [ "${1:-}" = "--serve" ]; then
  exec python3 -m http.server -b 127.0.0.1 -d "$site" 8000
fi
if [ "${1:-}" = "--screenshots" ]; then
  browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
  [ -n "$browser" ] || { echo "docs: no Chromium to take screenshots with (apt-get install chromium)" >&2; exit 1; }
  shots=.build/docs-screenshots
  mkdir -p "$shots"
  python3 -m http.server -b 127.0.0.1 -d "$site" 8765 >/dev/null 2>&1 &
  server=$!
  trap 'kill $server 2>/dev/null' EXIT
  sleep 1
  for page in index:/ pickup:/Pickup/documentation/pickup/ \
    getting-started:/PickupUI/documentation/pickupui/gettingstarted \
    uploads:/PickupUpload/documentation/pickupupload/uploadsthatsurvive; do
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1800 \
      --virtual-time-budget=8000 --screenshot="$shots/${page%%:*}.png" "http://127.0.0.1:8765${page#*:}" >/dev/null 2>&1
  done
  echo "docs: screenshots in $shots"
fi
