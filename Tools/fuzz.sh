#!/usr/bin/env bash
# Runs the libFuzzer targets for the format readers with address sanitizer.
#   Tools/fuzz.sh TARGET SECONDS [extra libFuzzer args]     TARGET: atlas | json | binary | all
# The corpus kept in the repository (Tools/Fuzz/corpus/TARGET) is seeded from ../shared/spine-examples
# and grows with interesting inputs; Tests/BoneworkFormatTests replays it on every test run.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?target: atlas, json, binary or all}
seconds=${2:-60}
shift 2 || true
if [ "$target" = all ]; then
    for t in atlas json binary; do "$0" "$t" "$seconds" "$@"; done
    exit 0
fi
scratch=.build/fuzz
swift build -c release --target BoneworkFormat --scratch-path "$scratch" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing >/dev/null
objects=$(find "$scratch/release/BoneworkFormat.build" "$scratch/release/BoneworkImage.build" -name '*.o')
binary="$scratch/fuzz-$target"
swiftc -O -sanitize=fuzzer,address -parse-as-library "Tools/Fuzz/Fuzz-$target.swift" \
    -I "$scratch/release/Modules" -I Sources/CPNG $objects -lpng -o "$binary" 2>&1 | grep -v "Cannot export local symbol" || true
corpus=Tools/Fuzz/corpus/$target
seeds=$scratch/seeds-$target
mkdir -p "$corpus" "$seeds"
case $target in
    atlas) pattern='*.atlas'; dict=Tools/Fuzz/atlas.dict ;;
    json) pattern='*.json'; dict=Tools/Fuzz/json.dict ;;
    binary) pattern='*.skel'; dict= ;;
esac
find ../shared/spine-examples -name "$pattern" -size -24k -exec cp {} "$seeds/" \;
# New interesting inputs go to a scratch folder; only small ones are kept in the repository.
work=$scratch/work-$target
mkdir -p "$work"
"$binary" "$work" "$corpus" "$seeds" -max_total_time="$seconds" -max_len=${FUZZ_MAX_LEN:-4096} -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 ${dict:+-dict=$dict} "$@"
"$binary" -merge=1 "$corpus" "$work" >/dev/null 2>&1 || true
find "$corpus" -type f -size +8k -delete
