#!/usr/bin/env bash
# Builds the documentation site of every library module with the toolchain's `docc` into
# out/docs (open out/docs/index.html through a local server: `python3 -m http.server -d out/docs`),
# failing on any unresolved symbol link or topic reference. When a headless Chromium is installed
# (`Tools/install-system-packages.sh docs`) it then opens the site in it and writes screenshots of
# the Bonework landing page and of the World symbol page to out/docs-landing.png and
# out/docs-symbol.png, checking each page's title and that neither image is blank.
#   Tools/docs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
modules=(Bonework BoneworkFormat BoneworkImage BoneworkWorld BoneworkRender BoneworkAssets BoneworkProfiling
    BoneworkTriggers BoneworkConformance)
# The same graphs Tools/doc-coverage.sh reads (the test modules cannot be extracted; the tool says
# so on stderr and goes on).
source Tools/test-targets.sh
swift package "${test_build[@]}" dump-symbol-graph --skip-synthesized-members --skip-inherited-docs >/dev/null 2>&1 || true
graphs=$(swift build "${test_build[@]}" --show-bin-path)/../symbolgraph
rm -rf out/docs out/docs-graphs
mkdir -p out/docs
for m in "${modules[@]}"; do
    # A module's own graph and its extensions of other modules' types (M@Other).
    mkdir -p "out/docs-graphs/$m"
    cp "$graphs/$m.symbols.json" "out/docs-graphs/$m/"
    for extension in "$graphs/$m@"*.symbols.json; do
        [ -e "$extension" ] && cp "$extension" "out/docs-graphs/$m/"
    done
    if ! docc convert "Sources/$m/$m.docc" --additional-symbol-graph-dir "out/docs-graphs/$m" \
        --fallback-display-name "$m" --fallback-bundle-identifier "org.bonework.$m" \
        --output-path "out/docs/$m" --hosting-base-path "$m" --warnings-as-errors >"out/docs-graphs/$m.log" 2>&1; then
        echo "docs: $m has unresolved links or other problems:" >&2
        grep -E "error|warning" -A3 "out/docs-graphs/$m.log" >&2 || cat "out/docs-graphs/$m.log" >&2
        exit 1
    fi
    echo "docs: $m -> out/docs/$m/documentation/$(echo "$m" | tr '[:upper:]' '[:lower:]')/"
done
{
    echo '<!doctype html><html><head><meta charset="utf-8"><title>Bonework documentation</title></head><body>'
    echo '<h1>Bonework documentation</h1><ul>'
    for m in "${modules[@]}"; do
        echo "<li><a href=\"$m/documentation/$(echo "$m" | tr '[:upper:]' '[:lower:]')/\">$m</a></li>"
    done
    echo '</ul></body></html>'
} >out/docs/index.html
echo "docs: out/docs/index.html"

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    echo "docs: no Chromium installed (Tools/install-system-packages.sh docs): no screenshots"
    exit 0
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 -d out/docs >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
python3 -c 'import sys, time, urllib.request
for _ in range(100):
    try:
        urllib.request.urlopen(sys.argv[1]); break
    except OSError:
        time.sleep(0.1)' "http://127.0.0.1:$port/"
# shot NAME URL EXPECTED: a screenshot and the page's DOM after its scripts ran; the title must
# contain EXPECTED.
shot() {
    local flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,900
        --virtual-time-budget=20000)
    "$browser" "${flags[@]}" --screenshot="out/$1.png" "$2" >/dev/null 2>&1
    "$browser" "${flags[@]}" --dump-dom "$2" 2>/dev/null >"out/docs-graphs/$1.html"
    local title
    title=$(python3 -c 'import re, sys; m = re.search(r"<title>(.*?)</title>", open(sys.argv[1]).read(), re.S); print(m.group(1).strip() if m else "")' "out/docs-graphs/$1.html")
    if [[ "$title" != *"$3"* ]]; then
        echo "docs: $2 has the title '$title', expected it to contain '$3'" >&2
        exit 1
    fi
    python3 Tools/png-is-drawn.py "out/$1.png"
    echo "docs: out/$1.png ($title)"
}
shot docs-landing "http://127.0.0.1:$port/Bonework/documentation/bonework/" "Bonework"
shot docs-symbol "http://127.0.0.1:$port/BoneworkWorld/documentation/boneworkworld/world/" "World"
