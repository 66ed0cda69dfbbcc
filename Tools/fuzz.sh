#!/usr/bin/env bash
# Runs the libFuzzer targets for the format readers, built with address sanitizer.
#   Tools/fuzz.sh TARGET SECONDS [extra libFuzzer args]     TARGET: atlas | json | binary | all
#   e.g. Tools/fuzz.sh json 3600 -runs=10000000             (stops at whichever limit comes first)
# Seeds: the example exports in ../shared/spine-examples, the corpus kept in the repository
# (Tools/Fuzz/corpus/TARGET) and the named regression inputs (Tools/Fuzz/regressions/TARGET). New
# inputs accumulate in .build/fuzz/work-TARGET across runs; at the end the kept corpus is
# re-minimised (libFuzzer merge, files of at most 2 KB) and replayed by
# Tests/BoneworkFormatTests/FuzzCorpusReplayTests.swift on every test run. The merge may drop any
# corpus file, so an input a test names lives in regressions/, which this script never rewrites.
# Any crash, sanitizer report, timeout or single allocation over 4 MB (inputs are at most 4 KB)
# stops the run with a non-zero status and leaves the input in .build/fuzz/artifacts-TARGET.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?target: atlas, json, binary or all}
seconds=${2:-60}
shift 2 || true
if [ "$target" = all ]; then
    for t in atlas json binary; do "$0" "$t" "$seconds" "$@"; done
    exit 0
fi
case $target in
    atlas) pattern='*.atlas'; dict=Tools/Fuzz/atlas.dict ;;
    json) pattern='*.json'; dict=Tools/Fuzz/json.dict ;;
    binary) pattern='*.skel'; dict= ;;
    *) echo "unknown target $target (atlas, json, binary, all)" >&2; exit 2 ;;
esac
scratch=.build/fuzz
swift build -c release --target BoneworkFormat --scratch-path "$scratch" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing >/dev/null
objects=$(find "$scratch/release/BoneworkFormat.build" "$scratch/release/BoneworkImage.build" -name '*.o')
binary="$scratch/fuzz-$target"
swiftc -O -sanitize=fuzzer,address -parse-as-library "Tools/Fuzz/Fuzz-$target.swift" \
    -I "$scratch/release/Modules" -I Sources/CPNG $objects -lpng -o "$binary" 2>&1 \
    | { grep -v "Cannot export local symbol" || true; }
corpus=Tools/Fuzz/corpus/$target
regressions=Tools/Fuzz/regressions/$target
seeds=$scratch/seeds-$target
work=$scratch/work-$target
artifacts=$scratch/artifacts-$target/
mkdir -p "$corpus" "$seeds" "$work" "$artifacts"
find ../shared/spine-examples -name "$pattern" -size -24k -exec cp {} "$seeds/" \;
if [ -d "$regressions" ]; then cp "$regressions"/* "$seeds/"; fi
echo "== fuzz $target for ${seconds}s $*"
status=0
"$binary" "$work" "$corpus" "$seeds" -max_total_time="$seconds" -max_len="${FUZZ_MAX_LEN:-4096}" -timeout=10 \
    -rss_limit_mb=2048 -malloc_limit_mb=4 -artifact_prefix="$artifacts" -print_final_stats=1 \
    ${dict:+-dict=$dict} "$@" || status=$?
# Keep a minimal set of small inputs that still covers what the whole work corpus covers.
minimal=$scratch/minimal-$target
rm -rf "$minimal" && mkdir -p "$minimal"
"$binary" -merge=1 "$minimal" "$corpus" "$work" >/dev/null 2>&1 || true
if [ -n "$(ls -A "$minimal")" ]; then
    find "$corpus" -type f -delete
    find "$minimal" -type f -size -2049c -exec cp {} "$corpus/" \;
fi
echo "kept corpus: $(ls "$corpus" | wc -l) files, $(du -sk "$corpus" | cut -f1) KB"
exit $status
