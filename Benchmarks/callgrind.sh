#!/usr/bin/env bash
# Instructions per skeleton-frame of `bonework bench`, as the difference of two callgrind runs:
# F frames and 0 frames (which loads and spawns only), divided by N * F. Single thread, no
# warm-up frames in the counted run.
#   Benchmarks/callgrind.sh [N] [F] [bench options...]
#   e.g. Benchmarks/callgrind.sh 100 60 --skeleton ../shared/spine-examples/spineboy/spineboy-pro.skel \
#        --atlas ../shared/spine-examples/spineboy/spineboy.atlas --animations walk,run
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100}
f=${2:-60}
shift 2 || true
extra=("$@")
swift build -c release --product bonework >/dev/null
out=$(mktemp -d)
# Valgrind 3.19's debug-info reader gives up on this toolchain's DWARF ("Possibly corrupted
# debuginfo file") and counts nothing: it runs a copy without debug info (symbols kept, so the
# per-function profile still names functions).
bin=$out/bonework
strip -g .build/release/bonework -o "$bin"
count() {
    valgrind --tool=callgrind --callgrind-out-file="$out/cg.$1" "$bin" bench --count "$n" --frames "$1" \
        --warmup 0 --threads 1 "${extra[@]}" >/dev/null 2>"$out/log.$1"
    grep -o 'Collected : [0-9]*' "$out/log.$1" | grep -o '[0-9]*'
}
frames=$f
base=$(count 0)
full=$(count "$frames")
per=$(( (full - base) / (n * frames) ))
echo "N=$n F=$frames: $full - $base instructions = $per per skeleton-frame"
echo "(per-function profile of the counted run: callgrind_annotate $out/cg.$frames)"
