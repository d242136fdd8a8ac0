#!/usr/bin/env bash
# tailgoal.sh measures what `run --compare A,B --latency` claims of a tail on
# real code: the calls of examples/mine/tail, whose p99 differs by 20% with
# the median the same (tail/p99-100 against tail/p99-120), and the same call
# against itself (A/A). The goal: the 20% change of p99 claimed (slower) in at
# least 8 of 10 runs, and nothing claimed in 20 A/A runs. The runs are
# interleaved (an A/A run, then an A/B one while A/B runs remain), so a
# stretch of load falls on both. It prints one line per run (wall time, load,
# the ratio of the p50s, the ratio of the p99s with its interval, the tail's
# verdict and reason), then the counts.
#
#   scripts/tailgoal.sh [N] [extra run flags...]     # default N=10: 10 A/B, 20 A/A
#
# Run it from the repository root; a run takes about 10 s. Where the machine
# interfered with a run, its tail is never claimed (inconclusive), by design.
set -eu
n=${1:-10}
shift || true
bin=$(mktemp -d)/tail
(cd examples/mine && go build -o "$bin" ./tail)

# compare A B: one run, one line: p50 ratio, p99 ratio [interval], verdict: reason.
compare() {
  "$bin" run --compare "$1,$2" --latency --format json "${extra[@]}" 2>/dev/null |
    jq -r '
      def r: . * 1000 | round / 1000;
      (.experiments | map(.latency.percentiles[0].ns)) as $p50 |
      .comparison[0].tail |
      "p50 x\($p50[1] / $p50[0] | r)  \(.percentile) x\(.ratio | r) [\(.ci_low | r), \(.ci_high | r)]  \(.verdict)\(if .reason then ": " + .reason else "" end)"' ||
    echo "failed"
}

extra=("$@")
ab=0 abin=0 aa=0
for i in $(seq 1 $((2 * n))); do
  for pair in "A/A tail/p99-100" "A/B tail/p99-120"; do
    name=${pair% *} cand=${pair#* }
    if [ "$name" = A/B ] && [ "$i" -gt "$n" ]; then
      continue
    fi
    load=$(cut -d' ' -f1 /proc/loadavg)
    start=$(date +%s.%N)
    line=$(compare tail/p99-100 "$cand")
    wall=$(echo "$(date +%s.%N) - $start" | bc)
    printf '%s run %2d  wall %5.1fs  load %5s  %s\n' "$name" "$i" "$wall" "$load" "$line"
    case "$name $line" in
    "A/A"*slower* | "A/A"*faster*) aa=$((aa + 1)) ;;
    "A/B"*" slower"*) ab=$((ab + 1)) ;;
    "A/B"*inconclusive*) abin=$((abin + 1)) ;;
    esac
  done
done
echo "A/B (p99 +20%, p50 the same): claimed slower in $ab of $n, inconclusive in $abin"
echo "A/A: a change claimed in $aa of $((2 * n))"
