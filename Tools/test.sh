#!/usr/bin/env bash
# The README's test command: installs missing system packages, builds the tests once (optimised,
# in .build/test: Tools/test-targets.sh), then runs
# each test target in its own process (the GL tests of different targets each own an EGL context;
# separate processes keep them apart). Inside a target, tests run in parallel.
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/install-system-packages.sh
source Tools/test-targets.sh
# Optimised debug configuration in .build/test (Tools/test-targets.sh says why).
swift build "${test_build[@]}" --build-tests
# The crowd's allocation tests measure the release build, as users run it.
swift build -c release --product bonework
targets=("${test_targets[@]}")
failed=()
for target in "${targets[@]}"; do
    echo "== $target"
    if ! swift test "${test_build[@]}" --skip-build --filter "^$target\\." "$@"; then
        failed+=("$target")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "failed targets: ${failed[*]}"
    exit 1
fi
echo "all ${#targets[@]} test targets passed"
