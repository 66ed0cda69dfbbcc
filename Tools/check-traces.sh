#!/usr/bin/env bash
# Runs `bonework trace pose` on every reference pose trace and `bonework trace scenario` on every
# reference scenario (AnimationState ones in golden/scenarios, format 2 application ones in
# golden/runtime), and judges each with the shared compare-trace.py. A kind that
# cannot run (no reference files found, the command missing or failing) counts as failed, never as
# skipped.
#   Tools/check-traces.sh [SHARED_DIR]        (default: ../shared beside the checkout)
set -uo pipefail
cd "$(dirname "$0")/.."
shared=${1:-../shared}
swift build -c release --product bonework >/dev/null || exit 1
bin=.build/release/bonework
out=$(mktemp -d)
pass=0
fail=0
while IFS= read -r reference; do
    rel=${reference#"$shared/golden/poses/"}
    actual="$out/$(echo "$rel" | tr '/' '_')"
    if "$bin" trace pose "$reference" --assets "$shared/spine-examples" >"$actual" 2>"$actual.err" \
        && python3 "$shared/tools/compare-trace.py" "$reference" "$actual" >"$actual.cmp" 2>&1; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL pose $rel: $(head -c 300 "$actual.err" "$actual.cmp" 2>/dev/null | tr '\n' ' ')"
    fi
done < <(find "$shared/golden/poses" -type f -name '*.json' | sort)
poses=$pass
[ $((pass + fail)) -gt 0 ] || { echo "FAIL pose: no reference pose traces under $shared/golden/poses"; fail=$((fail + 1)); }
scenarios=0
for scenario in "$shared"/golden/scenarios/*.scenario.json "$shared"/golden/runtime/*.scenario.json; do
    [ -e "$scenario" ] || { echo "FAIL scenario: no reference scenarios at $scenario"; fail=$((fail + 1)); continue; }
    name=$(basename "$scenario" .scenario.json)
    expected="$(dirname "$scenario")/$name.expected.json"
    actual="$out/scenario-$name.json"
    if "$bin" trace scenario "$scenario" --assets "$shared/spine-examples" >"$actual" 2>"$actual.err" \
        && python3 "$shared/tools/compare-trace.py" "$expected" "$actual" >"$actual.cmp" 2>&1; then
        pass=$((pass + 1))
        scenarios=$((scenarios + 1))
    else
        fail=$((fail + 1))
        echo "FAIL scenario $name: $(head -c 300 "$actual.err" "$actual.cmp" 2>/dev/null | tr '\n' ' ')"
    fi
done
rm -rf "$out"
echo "pose traces passed: $poses, scenarios passed: $scenarios"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
