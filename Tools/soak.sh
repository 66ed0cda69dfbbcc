#!/usr/bin/env bash
# Soak test (not run by CI): a headless crowd with spawn/despawn churn and trigger-driven animation
# changes for MINUTES (default 10), its resident memory sampled every second. Prints the memory
# slope after WARMUP seconds (least squares, KB per minute) and the crowd's entity balance.
#   Tools/soak.sh [MINUTES] [WARMUP_SECONDS] [--mixed] [extra crowd options]
# --mixed: the default character with spineboy, celestial-circus (physics) and mix-and-match
# wearing 16 composed outfits that change at run time, from ../shared/spine-examples.
# Writes out/soak-rss.csv (second, rss_kb) and out/soak.log; fails when the slope exceeds 1 KB/min,
# an entity was lost or a bone's world values are not finite after the run.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-10}
warmup=${2:-120}
# With one argument `shift 2` would fail and leave the minutes among the crowd options.
shift $(($# < 2 ? $# : 2))
if [ "${1:-}" = "--mixed" ]; then
    shift
    examples=../shared/spine-examples
    set -- --skeleton "$examples/spineboy/spineboy-pro.skel" --atlas "$examples/spineboy/spineboy.atlas" \
        --skeleton "$examples/celestial-circus/celestial-circus-pro.skel" \
        --atlas "$examples/celestial-circus/celestial-circus.atlas" \
        --skeleton "$examples/mix-and-match/mix-and-match-pro.skel" \
        --atlas "$examples/mix-and-match/mix-and-match.atlas" --outfits 16 "$@"
fi
Tools/install-system-packages.sh
[ -n "${SOAK_NO_BUILD:-}" ] || swift build -c release --product bonework
mkdir -p out
seconds=$((minutes * 60))
.build/release/bonework crowd --headless --count 2000 --churn 100 --seconds "$seconds" --frames 100000000 "$@" \
    >out/soak.log 2>/dev/null &
pid=$!
echo "second,rss_kb" >out/soak-rss.csv
t=0
while kill -0 "$pid" 2>/dev/null; do
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
    [ -n "$rss" ] && echo "$t,$rss" >>out/soak-rss.csv
    sleep 1
    t=$((t + 1))
done
wait "$pid" && status=0 || status=$?
tail -n 25 out/soak.log
slope=$(awk -F, -v w="$warmup" 'NR > 1 && $1 >= w { n++; sx += $1; sy += $2; sxx += $1 * $1; sxy += $1 * $2 }
    END { if (n < 2) { print "nan"; exit } d = n * sxx - sx * sx; printf "%.3f", d == 0 ? 0 : 60 * (n * sxy - sx * sy) / d }' \
    out/soak-rss.csv)
first=$(awk -F, -v w="$warmup" 'NR > 1 && $1 >= w { print $2; exit }' out/soak-rss.csv)
last=$(tail -n 1 out/soak-rss.csv | cut -d, -f2)
echo "soak: ${minutes} min, crowd exit status $status; RSS after ${warmup}s warm-up: ${first} KB -> ${last} KB; slope ${slope} KB/min"
[ "$status" -eq 0 ] || { echo "soak: the crowd failed"; exit 1; }
awk -v s="$slope" 'BEGIN { exit !(s != "nan" && s <= 1.0) }' || { echo "soak: memory grows faster than 1 KB/min"; exit 1; }
grep -E "^(entities|non-finite|outfits):" out/soak.log || true
echo "soak: memory flat, no entity lost, every bone finite"
