#!/usr/bin/env bash
# Fails when a public declaration under Sources/ has no doc comment (see Tools/doc-coverage.py).
#   Tools/doc-coverage.sh [--list]
set -euo pipefail
cd "$(dirname "$0")/.."
# The package's test modules cannot be extracted (the tool says so on stderr and goes on); the
# library modules' graphs are written all the same, and the script below fails when none are.
source Tools/test-targets.sh
swift package "${test_build[@]}" dump-symbol-graph --skip-synthesized-members --skip-inherited-docs >/dev/null 2>&1 || true
dir=$(swift build "${test_build[@]}" --show-bin-path 2>/dev/null)/../symbolgraph
exec python3 Tools/doc-coverage.py "$dir" "$@"
