#!/usr/bin/env bash
# Builds the DocC documentation of every module an app or a server imports —
# Pickup, PickupImport, PickupUpload, PickupFFmpeg and PickupUI — as ONE site in
# .build/docs: one archive (`docc merge`), one navigator, one search, with links
# between the modules. Warnings are errors, and the build fails when:
#   - a public symbol has no abstract (DocC's coverage, every module);
#   - a public type or function is not curated in its module's Topics;
#   - an article names a public symbol of another module in plain code voice
#     (`Uploader`) instead of a symbol link (``PickupUpload/Uploader``);
#   - the README's first Swift example is not Snippets/ReadmePickScreen.swift's code;
#   - a README link into the site (http://127.0.0.1:8000/documentation/...) names a
#     page the site does not have.
#
#   scripts/docs.sh            build and check; then open the site with
#                              python3 -m http.server -d .build/docs 8000
#                              and http://127.0.0.1:8000/
#   scripts/docs.sh --serve    build, check, then serve it on 127.0.0.1:8000 (the
#                              address the README's links use)
#   scripts/docs.sh --screenshots
#                              build, check, then photograph a few pages at a laptop's
#                              and a phone's width with headless Chromium into
#                              .build/docs-screenshots
#
# How: `swift package dump-symbol-graph` gives the Linux modules' symbol graphs; PickupUI
# is SwiftUI, UIKit and Photos, empty on Linux, so its graph comes from the real-SDK
# check (scripts/check-ios.sh, which writes it for arm64-apple-ios16.0). The snippets
# (Snippets/*.swift) become one snippet graph through swift-docc-plugin's extractor.
# Each module is converted twice: a first pass gives every archive its link
# information (--enable-experimental-external-link-support), and the second converts
# each module with the others as --dependency archives, so that any article may link
# any module's symbols and articles. `docc merge` then makes the one archive. Without an
# iPhoneOS SDK, PickupUI's pages are left out, said in one line, and links to them are
# not checked.
#
# Snippets are compiled by `swift build` (SwiftPM builds each as a small executable);
# the SwiftUI ones sit behind `#if canImport(SwiftUI)` and are compiled against the
# real SDK by scripts/check-ios.sh.
#
# It also writes pickup's man page, .build/man/pickup.1, with swift-argument-parser's
# generate-manual plugin: `install -Dm644 .build/man/pickup.1 /usr/local/share/man/man1/`.
set -euo pipefail
cd "$(dirname "$0")/.."

site=.build/docs
work=.build/docs-work
rm -rf "$site" "$work"
mkdir -p "$work/graphs" "$work/pass1" "$work/pass2"
failed=0

# The README's Swift example is a snippet too: the README must show exactly its code.
python3 - <<'EOF' || failed=1
import re, sys
readme = open("README.md").read()
blocks = re.findall(r"```swift\n(.*?)```", readme, re.S)
snippet = open("Snippets/ReadmePickScreen.swift").read()
if not blocks or blocks[0] not in snippet:
    sys.exit("docs: README.md's first Swift example differs from Snippets/ReadmePickScreen.swift (which the real-SDK check compiles); make them one")
EOF

# Symbol graphs of the Linux modules.
linux_modules=(Pickup PickupImport PickupUpload PickupFFmpeg)
if ! swift package dump-symbol-graph --skip-synthesized-members --minimum-access-level public \
  --emit-extension-block-symbols >"$work/dump.txt" 2>&1; then
  echo "docs: swift package dump-symbol-graph failed:" >&2
  tail -20 "$work/dump.txt" >&2
  exit 1
fi
dumped=$(grep -oE '/[^ ]*symbolgraph' "$work/dump.txt" | tail -1)
[ -d "$dumped" ] || { echo "docs: no symbol graphs in the dump's output:" >&2; tail -5 "$work/dump.txt" >&2; exit 1; }
for module in "${linux_modules[@]}"; do
  mkdir -p "$work/graphs/$module"
  cp "$dumped/$module.symbols.json" "$work/graphs/$module/"
  for extension in "$dumped/$module@"*.symbols.json; do
    [ -f "$extension" ] && cp "$extension" "$work/graphs/$module/"
  done
done

# PickupUI's graph, from the real-SDK check: the newest SDK's (26.2), else 17.4's.
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
modules=("${linux_modules[@]}")
if [ -f "$graphs/PickupUI.symbols.json" ]; then
  mkdir -p "$work/graphs/PickupUI"
  # Not PickupUI@AVFoundation: that graph holds Apple's iOS 18 declarations the check adds.
  cp "$graphs/PickupUI.symbols.json" "$work/graphs/PickupUI/"
  [ -f "$graphs/PickupUI@Pickup.symbols.json" ] && cp "$graphs/PickupUI@Pickup.symbols.json" "$work/graphs/PickupUI/"
  modules+=(PickupUI)
else
  echo "docs: PickupUI: NOT BUILT: no iPhoneOS SDK (see scripts/check-ios.sh); its symbols exist only for iOS"
fi

# The snippets' graph, given to every module (their paths are Pickup/Snippets/NAME).
swift build --product snippet-extract >"$work/snippet-extract.txt" 2>&1 || {
  echo "docs: swift-docc-plugin's snippet-extract did not build:" >&2
  tail -20 "$work/snippet-extract.txt" >&2
  exit 1
}
extract=$(swift build --show-bin-path)/snippet-extract
"$extract" --output "$work/snippets.symbols.json" --module-name Pickup Snippets/*.swift
for module in "${modules[@]}"; do
  cp "$work/snippets.symbols.json" "$work/graphs/$module/Pickup-snippets.symbols.json"
done

# convert MODULE PASS [OPTIONS...]: one module's archive into $work/PASS/MODULE.doccarchive.
convert() {
  local module=$1 pass=$2
  shift 2
  docc convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$work/graphs/$module" \
    --fallback-display-name "$module" --fallback-bundle-identifier "$module" \
    --output-path "$work/$pass/$module.doccarchive" --transform-for-static-hosting \
    --enable-experimental-external-link-support --enable-inherited-docs "$@"
}

# Pass 1: each archive's link information, warnings not yet counted (links to the
# other modules cannot resolve before their archives exist).
for module in "${modules[@]}"; do
  convert "$module" pass1 >"$work/pass1-$module.txt" 2>&1 || {
    echo "docs: $module: the first pass failed:" >&2
    grep -E "(warning|error):" "$work/pass1-$module.txt" | sort -u | head -20 >&2
    failed=1
  }
done
[ "$failed" -eq 0 ] || { echo "docs: FAILED (see above)" >&2; exit 1; }

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

# Pass 2: each module with every other as a dependency, warnings as errors.
archives=()
for module in "${modules[@]}"; do
  dependencies=()
  for other in "${modules[@]}"; do
    [ "$other" = "$module" ] || dependencies+=(--dependency "$work/pass1/$other.doccarchive")
  done
  log=$work/pass2-$module.txt
  if ! convert "$module" pass2 "${dependencies[@]}" --warnings-as-errors \
    --experimental-documentation-coverage --coverage-summary-level none >"$log" 2>&1; then
    echo "docs: $module: the build failed (warnings are errors):" >&2
    grep -E "(warning|error):" "$log" | sort -u | head -40 >&2
    failed=1
    continue
  fi
  coverage "$work/pass2/$module.doccarchive" "$module" || failed=1
  archives+=("$work/pass2/$module.doccarchive")
done
[ "$failed" -eq 0 ] || { echo "docs: FAILED (see above)" >&2; exit 1; }

# Curation: every public type and function is in a topic group of its module's page, not in
# one DocC makes up ("Structures", "Functions"); extended modules are DocC's own group.
python3 - "$work/pass2" "${modules[@]}" <<'EOF' || failed=1
import json, sys
archives, modules = sys.argv[1], sys.argv[2:]
loose = []
for module in modules:
    page = json.load(open(f"{archives}/{module}.doccarchive/data/documentation/{module.lower()}.json"))
    for section in page.get("topicSections", []):
        if section.get("generated") and section.get("title") != "Extended Modules":
            loose += [f"{module}: {section['title']}: {i.rsplit('/', 1)[-1]}" for i in section["identifiers"]]
for entry in loose:
    print("docs: not curated in its module's Topics:", entry, file=sys.stderr)
sys.exit(1 if loose else 0)
EOF

# Plain-text mentions: `Name` (or `Name.member`, `Name()`) in an article's prose, where
# Name is a public type of another module and the article could link it.
python3 - "$work/graphs" "${modules[@]}" <<'EOF' || failed=1
import glob, json, os, re, sys
graphs, modules = sys.argv[1], sys.argv[2:]
names = {}
for module in modules:
    own = set()
    for path in glob.glob(f"{graphs}/{module}/{module}*.symbols.json"):
        if "snippets" in path:
            continue
        for symbol in json.load(open(path))["symbols"]:
            components = symbol["pathComponents"]
            if len(components) == 1 and not symbol["kind"]["identifier"].endswith("extension"):
                own.add(components[0])
    names[module] = own
# CommandLineTool.md is being rewritten on another branch (its one mention, `S3URLSigner`,
# goes with that rewrite); every other article is checked.
skipped = {"Sources/Pickup/Pickup.docc/CommandLineTool.md"}
problems = []
for module in modules:
    for article in sorted(glob.glob(f"Sources/{module}/{module}.docc/**/*.md", recursive=True)
                          + glob.glob(f"Sources/{module}/{module}.docc/**/*.tutorial", recursive=True)):
        if article in skipped:
            continue
        text = re.sub(r"```.*?```", lambda m: "\n" * m.group(0).count("\n"), open(article).read(), flags=re.S)
        for number, line in enumerate(text.split("\n"), 1):
            for span in re.findall(r"(?<!`)`([^`\n]+)`(?!`)", line):
                head = re.match(r"([A-Za-z_][A-Za-z0-9_]*)", span)
                if not head or not re.fullmatch(r"[A-Za-z_][\w]*(\.[\w]+(\([\w:]*\))?)*(\(\))?", span):
                    continue
                first = head.group(1)
                if first in names[module]:
                    continue
                owners = [other for other in modules if other != module and first in names[other]]
                if owners:
                    problems.append(f"{article}:{number}: `{span}` is {owners[0]}'s: write ``/{owners[0]}/{span.replace('.', '/')}``")
for problem in problems:
    print("docs: plain-text mention:", problem, file=sys.stderr)
sys.exit(1 if problems else 0)
EOF

# The one site.
docc merge "${archives[@]}" --output-path "$work/Pickup.doccarchive" \
  --synthesized-landing-page-name Pickup --synthesized-landing-page-kind Package >"$work/merge.txt" 2>&1 || {
  echo "docs: docc merge failed:" >&2
  tail -20 "$work/merge.txt" >&2
  exit 1
}
mv "$work/Pickup.doccarchive" "$site"
# The front page: the merged archive's own landing page, /documentation/ (every module,
# the tutorial, one search); / sends there.
if [ ! -f "$site/data/documentation.json" ] || [ ! -f "$site/index/index.json" ]; then
  echo "docs: the merged archive has no landing page or no search index" >&2
  failed=1
fi
cat >"$site/index.html" <<'EOF'
<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pickup documentation</title>
<meta http-equiv="refresh" content="0; url=documentation/"></head>
<body><a href="documentation/">Pickup documentation</a></body></html>
EOF

# The README's links into the site must name pages it has.
python3 - "$site" "${modules[@]}" <<'EOF' || failed=1
import os, re, sys
site, modules = sys.argv[1], sys.argv[2:]
built = {m.lower() for m in modules}
bad = []
for link in re.findall(r"\]\(http://127\.0\.0\.1:8000/((?:documentation|tutorials)/[^)#]*)\)", open("README.md").read()):
    path = link.strip("/").lower()
    module = path.split("/")[1]
    if module not in built:
        continue
    if not os.path.exists(os.path.join(site, "data", path + ".json")):
        bad.append(link)
for link in bad:
    print(f"docs: README.md links to {link}, a page the site does not have", file=sys.stderr)
sys.exit(1 if bad else 0)
EOF

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
echo "docs: built into $site: ${modules[*]} (python3 -m http.server -d $site 8000, then http://127.0.0.1:8000/documentation/)"
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
  for page in landing:/documentation/ pickupui:/documentation/pickupui \
    background:/documentation/pickupui/uploadinginthebackground \
    storage:/documentation/pickupui/storageonthedevice \
    uploads:/documentation/pickupupload/uploadsthatsurvive; do
    for size in 1280,1800 390,1600; do
      "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=$size \
        --virtual-time-budget=8000 --screenshot="$shots/${page%%:*}-${size%%,*}.png" \
        "http://127.0.0.1:8765${page#*:}" >/dev/null 2>&1
    done
  done
  echo "docs: screenshots in $shots"
fi
