#!/usr/bin/env bash
# The README's main job: installs missing system packages, builds in release mode and runs the
# crowd stress test headless on the embedded default character: 2,000 characters driven by trigger
# scopes, then the per-system cost table. Extra arguments go to `bonework crowd`.
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/install-system-packages.sh build
swift build -c release --product bonework
mkdir -p out
exec .build/release/bonework crowd --headless --count 2000 --frames 300 --churn 20 \
    --csv out/crowd.csv --trace out/crowd-trace.json --chart out/crowd-chart.png "$@"
