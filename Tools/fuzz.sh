#!/usr/bin/env bash
# Runs the libFuzzer targets (the format readers; play: load, play, draw; the other files users hand
# in), built with address sanitizer. Targets, mutator, ten million executions: Docs/Fuzzing.md.
#   Tools/fuzz.sh TARGET SECONDS [extra libFuzzer args]
#   TARGET: atlas | json | binary | play | request | scenario | png | all
#   e.g. Tools/fuzz.sh json 3600 -runs=10000000             (stops at whichever limit comes first)
# Seeds: the example exports in ../shared/spine-examples, the corpus kept in the repository
# (Tools/Fuzz/corpus/TARGET) and the named regression inputs (Tools/Fuzz/regressions/TARGET). New
# inputs accumulate in .build/fuzz/work-TARGET across runs; at the end the kept corpus is
# re-minimised (libFuzzer merge, files of at most 2 KB) and replayed by
# Tests/BoneworkFormatTests/FuzzCorpusReplayTests.swift on every test run. The merge may drop any
# corpus file, so an input a test names lives in regressions/, which this script never rewrites.
# Any crash, sanitizer report, timeout or single allocation over 4 MB (inputs are at most 4 KB)
# stops the run with a non-zero status and leaves the input in .build/fuzz/artifacts-TARGET.
# `play` loads a skeleton (JSON or binary) against an atlas made for it, plays it through the
# World's systems on one and two threads and draws it (Tools/Fuzz/Fuzz-play.swift,
# Tools/Fuzz/Play): its inputs are whole exports (up to 128 KB), edited by a structure-aware
# mutator (Tools/Fuzz/Mutator, built without instrumentation), each must finish within 1 s, and
# single allocations up to 64 MB (a world's columns) are allowed.
# `request`, `scenario` and `png` (1 s per input, as play) fuzz the other files users hand in: render requests
# (RenderRequest, seeds from ../shared/golden/renders), scenario scripts (Scenario, seeds from
# ../shared/golden) and PNG pages (PNG.decode capped at 2^20 pixels, seeds from the examples).
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?target: atlas, json, binary, play, request, scenario, png or all}
seconds=${2:-60}
shift 2 || true
if [ "$target" = all ]; then
    # Every target is built first, one after the other (the builds share .build/fuzz), then run
    # FUZZ_JOBS at a time (default: one per core; each libFuzzer process uses one), each into its
    # own log, printed when it ends. Each target's directories are its own.
    all=(atlas json binary play request scenario png)
    for t in "${all[@]}"; do FUZZ_STEP=build "$0" "$t" "$seconds"; done
    jobs=${FUZZ_JOBS:-$(nproc)}
    logs=.build/fuzz/logs
    mkdir -p "$logs"
    declare -A running=()
    failed=()
    finish() {
        local pid status=0
        wait -n -p pid "${!running[@]}" || status=$?
        cat "$logs/${running[$pid]}.log"
        [ "$status" -eq 0 ] || failed+=("${running[$pid]}")
        unset "running[$pid]"
    }
    for t in "${all[@]}"; do
        while [ ${#running[@]} -ge "$jobs" ]; do finish; done
        FUZZ_STEP=run "$0" "$t" "$seconds" "$@" >"$logs/$t.log" 2>&1 &
        running[$!]=$t
    done
    while [ ${#running[@]} -gt 0 ]; do finish; done
    if [ ${#failed[@]} -gt 0 ]; then echo "fuzz: failed: ${failed[*]}"; exit 1; fi
    echo "fuzz: ${#all[@]} targets clean, $jobs at a time"
    exit 0
fi
module=BoneworkFormat
builds=(BoneworkFormat BoneworkImage)
link=()
seed_dir=../shared/spine-examples
max_len=${FUZZ_MAX_LEN:-4096}
seed_size=-24k
limits=(-timeout=10 -malloc_limit_mb=4)
also=
case $target in
    atlas) pattern='*.atlas'; dict=Tools/Fuzz/atlas.dict ;;
    json) pattern='*.json'; dict=Tools/Fuzz/json.dict ;;
    binary) pattern='*.skel'; dict= ;;
    play)
        pattern='*.skel'; also='*.json'; dict=Tools/Fuzz/json.dict; module=BoneworkFuzzPlay
        builds+=(BoneworkWorld BoneworkRender BoneworkFuzzPlay)
        link=(-I Sources/CGL -I Sources/CEGL -I Sources/CGLFW -lGL -lEGL -lglfw)
        max_len=${FUZZ_MAX_LEN:-131072}; seed_size=-128k; limits=(-timeout=1 -malloc_limit_mb=64)
        ;;
    request)
        pattern='*.request.json'; seed_dir=../shared/golden/renders; dict=Tools/Fuzz/json.dict
        module=BoneworkRender; builds+=(BoneworkWorld BoneworkRender)
        link=(-I Sources/CGL -I Sources/CEGL -I Sources/CGLFW -lGL -lEGL -lglfw)
        limits=(-timeout=1 -malloc_limit_mb=4)
        ;;
    scenario)
        pattern='*.scenario.json'; seed_dir=../shared/golden; dict=Tools/Fuzz/json.dict
        module=BoneworkConformance; builds+=(BoneworkWorld BoneworkConformance)
        limits=(-timeout=1 -malloc_limit_mb=4)
        ;;
    png) pattern='*.png'; dict=; module=BoneworkImage; builds=(BoneworkImage); limits=(-timeout=1 -malloc_limit_mb=16) ;;
    *) echo "unknown target $target (atlas, json, binary, play, request, scenario, png, all)" >&2; exit 2 ;;
esac
scratch=.build/fuzz
# Corpora, work directories and artifacts live in $scratch; the objects in $objdir.
objdir=$scratch
instrument=(-Xswiftc -sanitize=fuzzer,address)
if [ "$target" = play ]; then
    # play's modules are built without the comparison tracing that -sanitize=fuzzer adds: its
    # mutator edits the structure, not bytes, and the tracing took half of each execution's time
    # (Docs/Fuzzing.md, "Ten million executions"). Its own directory, so the other targets keep theirs.
    objdir=.build/fuzz-play
    instrument=(-Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table)
fi
mkdir -p "$scratch"
binary="$objdir/fuzz-$target"
# FUZZ_STEP=build only builds the target, FUZZ_STEP=run runs the one built (what `all` does).
step=${FUZZ_STEP:-both}
if [ "$step" != run ]; then
    swift build -c release --target "$module" --scratch-path "$objdir" \
        "${instrument[@]}" -Xswiftc -enable-testing >"$scratch/build-$target.log" 2>&1 \
        || { cat "$scratch/build-$target.log" >&2; exit 1; }
    objects=$(for b in "${builds[@]}"; do find "$objdir/release/$b.build" -name '*.o'; done)
    if [ "$target" = play ]; then
        # The mutator runs between executions: no coverage or sanitizer instrumentation, its own module.
        mutator=$objdir/mutator
        mkdir -p "$mutator"
        swiftc -O -wmo -parse-as-library -module-name BoneworkFuzzMutator -I "$objdir/release/Modules" -I Sources/CPNG \
            -emit-module-path "$mutator/BoneworkFuzzMutator.swiftmodule" -emit-object -o "$mutator/BoneworkFuzzMutator.o" \
            Tools/Fuzz/Mutator/*.swift
        link+=(-I "$mutator" "$mutator/BoneworkFuzzMutator.o")
    fi
    swiftc -O -sanitize=fuzzer,address -parse-as-library "Tools/Fuzz/Fuzz-$target.swift" \
        -I "$objdir/release/Modules" -I Sources/CPNG $objects "${link[@]}" -lpng -o "$binary" 2>&1 \
        | { grep -v "Cannot export local symbol" || true; }
fi
[ "$step" = build ] && exit 0
corpus=Tools/Fuzz/corpus/$target
# Whole exports are too large to keep in the repository: play's corpus stays in .build.
[ "$target" = play ] && corpus=$scratch/corpus-play
regressions=Tools/Fuzz/regressions/$target
seeds=$scratch/seeds-$target
work=$scratch/work-$target
artifacts=$scratch/artifacts-$target/
mkdir -p "$corpus" "$seeds" "$work" "$artifacts"
find "$seed_dir" \( -name "$pattern" ${also:+-o -name "$also"} \) -size "$seed_size" -exec cp {} "$seeds/" \;
if [ -d "$regressions" ]; then cp "$regressions"/* "$seeds/"; fi
echo "== fuzz $target for ${seconds}s $*"
# A Swift trap goes to libFuzzer's crash handler: Swift's own backtracer would read the process's
# memory through instrumented copies, which AddressSanitizer reports instead of the trap.
export SWIFT_BACKTRACE=enable=no
# play: AddressSanitizer without the allocation stack in its reports and with a 16 MB quarantine of
# freed blocks (the default is 256 MB, which keeps every input's blocks fresh memory): about a
# third more executions per second (Docs/Fuzzing.md). Replay a finding with ASAN_OPTIONS= for the
# full report. An ASAN_OPTIONS set by the caller is kept.
if [ "$target" = play ] && [ -z "${ASAN_OPTIONS:-}" ]; then
    export ASAN_OPTIONS=malloc_context_size=0:quarantine_size_mb=16
fi
status=0
"$binary" "$work" "$corpus" "$seeds" -max_total_time="$seconds" -max_len="$max_len" "${limits[@]}" \
    -rss_limit_mb=2048 -artifact_prefix="$artifacts" -print_final_stats=1 \
    ${dict:+-dict=$dict} "$@" || status=$?
# Keep a minimal set of small inputs that still covers what the whole work corpus covers.
minimal=$scratch/minimal-$target
rm -rf "$minimal" && mkdir -p "$minimal"
"$binary" -merge=1 "$minimal" "$corpus" "$work" >/dev/null 2>&1 || true
if [ -n "$(ls -A "$minimal")" ]; then
    find "$corpus" -type f -delete
    if [ "$target" = play ]; then cp "$minimal"/* "$corpus/"; else find "$minimal" -type f -size -2049c -exec cp {} "$corpus/" \;; fi
fi
echo "kept corpus: $(ls "$corpus" | wc -l) files, $(du -sk "$corpus" | cut -f1) KB"
exit $status
