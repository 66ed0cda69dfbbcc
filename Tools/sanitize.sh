#!/usr/bin/env bash
# Runs tests under a sanitizer, in a build folder of its own (.build/sanitize-MODE).
#   Tools/sanitize.sh address   every test target under AddressSanitizer (and LeakSanitizer)
#   Tools/sanitize.sh thread    the parallel systems' tests under ThreadSanitizer
#   Tools/sanitize.sh MODE FILTER...   only the given test filters (e.g. 'BoneworkTests\.')
# SANITIZE_BOX_SECONDS=S stops each test group after S seconds; a group stopped there without a
# report counts as clean for the part that ran (CI uses it to stay within its time budget; run
# without it for the whole suite).
# SANITIZE_DEADLINE=T (seconds since the epoch) shrinks each group's box so that the groups left
# share the time left until T, at least SANITIZE_MIN_BOX_SECONDS (60) each: CI sets it so that its
# whole run stays within its budget on a slower machine, where the sanitizers absorb the slack.
# Like Tools/test.sh, each test target runs in its own process. Any report fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:?mode: address or thread}
scratch=.build/sanitize-$mode
case $mode in
    address)
        source Tools/test-targets.sh
        # The long groups last, so that under a deadline they share what the short ones leave.
        targets=()
        for t in "${test_targets[@]}"; do
            case $t in BoneworkWorldTests | BoneworkRenderTests) ;; *) targets+=("$t") ;; esac
        done
        targets+=(BoneworkWorldTests BoneworkRenderTests)
        filters=("${targets[@]/%/\\.}")
        # Leaks inside the system's GL driver (Mesa, LLVM) and libdispatch's per-thread caches are
        # not Bonework's; Tools/lsan.supp lists them by library.
        export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1:abort_on_error=0}
        export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/Tools/lsan.supp:print_suppressions=0}
        # The golden replays with several instances per trace (in SIMD lanes, on two threads) run
        # the same code as the one-instance conformance replay, which does run here, about 20
        # times over: with them, this target alone ran over an hour under AddressSanitizer in a
        # debug build on the 2-core CI machine and CI ran out of its 90 minutes. They run in full
        # in Tools/test.sh, and the two-thread ones under ThreadSanitizer.
        # CrowdAllocationTests count the release build's allocations with the tool's own malloc (a
        # sanitizer replaces malloc): they measure no sanitized code and run in Tools/test.sh.
        skip=(--skip 'tracesInLanes|ParallelTraceTests|CrowdAllocationTests')
        echo "address sanitizer: the multi-instance golden replays (tracesInLanes, ParallelTraceTests) and the release build's allocation counts (CrowdAllocationTests) run in Tools/test.sh, not here"
        ;;
    thread)
        # The tests that run systems on several threads: the worker pool, the scheduler, every golden
        # pose replayed on two threads, physics determinism, the profiler, triggers, the shared
        # SkeletonData pool, the GPU path's culling and packing on worker threads (with columns read in place).
        # The long group (the World's) last, so that under a deadline it has what the others leave.
        filters=("BoneworkWorldTests\\.WorkerPoolTests" "BoneworkFormatTests\\.SkeletonDataPoolTests"
            "BoneworkRenderTests\\.GPUThreadingTests" "BoneworkRenderTests\\.(GPUColumnThreadingTests|GPUInPlaceColumnTests)"
            "BoneworkWorldTests\\.(ParallelTests|ParallelTraceTests|PhysicsDeterminismTests|ProfilerTests|WorldTests|TriggerTests|UpdateRateTests|RestingRowTests)")
        export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
        # The heap-allocation check forks a measuring child, which can deadlock on the thread
        # sanitizer's own locks while other tests run; it is not a threading test and runs in the
        # normal and AddressSanitizer suites.
        skip=(--skip 'framesDoNotAllocate')
        ;;
    *) echo "unknown mode $mode (address, thread)" >&2; exit 2 ;;
esac
shift
[ $# -gt 0 ] && filters=("$@")
Tools/install-system-packages.sh
swift build --build-tests --sanitize="$mode" --scratch-path "$scratch"
failed=()
boxed=()
started=0
for filter in "${filters[@]}"; do
    echo "== $mode: $filter"
    options=${ASAN_OPTIONS:-}
    if [ "$mode" = address ] && [ "$filter" = 'BoneworkPlatformTests\.' ]; then
        # These tests load and unload the system's GL driver (GLFW, EGL); what the driver keeps
        # until exit is reported from an unloaded library that no suppression can name. Memory
        # errors are still checked; leak checking covers every other target.
        options="$options:detect_leaks=0"
    fi
    box=()
    seconds=${SANITIZE_BOX_SECONDS:-}
    if [ -n "${SANITIZE_DEADLINE:-}" ]; then
        share=$(( (SANITIZE_DEADLINE - $(date +%s)) / (${#filters[@]} - started) ))
        min_box=${SANITIZE_MIN_BOX_SECONDS:-60}
        share=$(( share > min_box ? share : min_box ))
        seconds=$(( ${seconds:-$share} < share ? ${seconds:-$share} : share ))
        echo "$mode sanitizer: $filter boxed at ${seconds}s (the groups left share the time to the deadline)"
    fi
    [ -n "$seconds" ] && box=(timeout --kill-after=30 "$seconds")
    status=0
    ASAN_OPTIONS=$options ${box[@]+"${box[@]}"} swift test --skip-build --sanitize="$mode" --scratch-path "$scratch" \
        --filter "^$filter" ${skip[@]+"${skip[@]}"} || status=$?
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        # The box stops `swift test`, not the test runner it started in a process group of its
        # own: that one would go on using the cores through the steps after it (seen: a boxed
        # ThreadSanitizer group still running 10 minutes later).
        pkill -KILL -f "$PWD/$scratch/" || true
        # A time box (CI sets one so that the whole run fits its budget): the tests that ran
        # until then reported nothing; a report would have failed the group.
        echo "$mode sanitizer: $filter stopped at its time box of ${seconds}s with no report"
        boxed+=("$filter")
    elif [ "$status" -ne 0 ]; then
        failed+=("$filter")
    fi
    started=$((started + 1))
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "$mode sanitizer: failed: ${failed[*]}"
    exit 1
fi
echo "$mode sanitizer: ${#filters[@]} test groups clean${boxed[*]:+ (stopped at the time box: ${boxed[*]})}"
