#!/usr/bin/env bash
# Builds and runs Examples/HelloBonework, a package that depends on this checkout by path and
# imports Bonework alone, as a game prototype's package would; checks the PNG it renders.
#   Tools/sample-package.sh     (writes out/sample/hello.png; needs ../shared/spine-examples)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
mkdir -p out/sample
cd Examples/HelloBonework
echo "== building the sample package against $root"
time swift build
echo "== running it"
"$(swift build --show-bin-path)/HelloBonework" "$root/../shared/spine-examples" "$root/out/sample/hello.png"
cd "$root"
# The PNG must decode and show something, not one flat background.
python3 Tools/png-is-drawn.py out/sample/hello.png
