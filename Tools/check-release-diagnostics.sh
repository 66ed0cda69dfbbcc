#!/usr/bin/env bash
# Trigger diagnostics (conflicts, leaks, refusals) exist only in debug builds: checks that the
# release `bonework` carries none of their code (no TriggerDiagnostic / TriggerDiagnostics type
# symbols) while the debug one does, and that each build's crowd says so.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product bonework >/dev/null
# The debug build is the tests' (Tools/test-targets.sh): debug configuration, optimised.
source Tools/test-targets.sh
swift build "${test_build[@]}" --product bonework >/dev/null
debug_bin=$(swift build "${test_build[@]}" --show-bin-path)
pattern='17TriggerDiagnosticV|18TriggerDiagnosticsV'
release=$(nm .build/release/bonework | grep -cE "$pattern" || true)
debug=$(nm "$debug_bin/bonework" | grep -cE "$pattern" || true)
echo "trigger diagnostics symbols: release $release, debug $debug"
[ "$release" -eq 0 ] || { echo "release build carries trigger diagnostics"; exit 1; }
[ "$debug" -gt 0 ] || { echo "debug build lacks trigger diagnostics"; exit 1; }
.build/release/bonework crowd --headless --count 20 --frames 10 --diagnostics 2>/dev/null \
    | grep -q "trigger diagnostics: not compiled into release builds"
"$debug_bin/bonework" crowd --headless --count 20 --frames 10 --diagnostics 2>/dev/null \
    | grep -qE "trigger diagnostics: [0-9]+ conflicts"
echo "trigger diagnostics: present in debug, absent in release"
