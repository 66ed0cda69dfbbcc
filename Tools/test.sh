#!/usr/bin/env bash
# The README's test command: installs missing system packages, then runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/install-system-packages.sh
swift build --build-tests
swift test --skip-build "$@"
