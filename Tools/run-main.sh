#!/usr/bin/env bash
# The README's main job: installs missing system packages, builds in release mode and runs
# Bonework on its embedded default character.
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/install-system-packages.sh
swift build -c release --product bonework
exec .build/release/bonework inspect --default "$@"
