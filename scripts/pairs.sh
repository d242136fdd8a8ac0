#!/usr/bin/env bash
# pairs.sh measures what an interleaved comparison claims at default settings
# on real code: the kernels of examples/mine/small, whose variants run the same
# machine code and do 0%, 1% or 2% more work. For each pair it runs
# `run --compare` N times and prints one line per run (wall time, rounds,
# basis, ratio, interval, verdict, load), then a summary per pair.
#
#   scripts/pairs.sh [N] [extra run flags...]     # default N=10
#
# Run it from the repository root; on a quiet machine it takes about
# 3 pairs x N x 5 s.
set -eu
n=${1:-10}
shift || true
bin=$(mktemp -d)/small
(cd examples/mine && go build -o "$bin" ./small)
for pair in sum-100,sum-100b sum-100,sum-101 sum-100,sum-102; do
  a=small/${pair%,*} b=small/${pair#*,}
  claims=0 walls=""
  for i in $(seq 1 "$n"); do
    load=$(cut -d' ' -f1 /proc/loadavg)
    start=$(date +%s.%N)
    out=$("$bin" run --compare "$a,$b" --format json "$@" 2>/dev/null || true)
    wall=$(echo "$(date +%s.%N) - $start" | bc)
    line=$(echo "$out" | jq -r '.comparison[0] | "\(.n) \(.basis // "wall") \(.ratio) \(.ci_low) \(.ci_high) \(.threshold) \(.verdict) \(.stop // "-")"')
    printf '%-20s run %2d  wall %5.1fs  load %5s  %s\n' "$pair" "$i" "$wall" "$load" "$line"
    case $line in *slower* | *faster*) claims=$((claims + 1)) ;; esac
    walls="$walls $wall"
  done
  printf '%-20s claimed %d/%d  wall %s\n' "$pair" "$claims" "$n" \
    "$(echo $walls | tr ' ' '\n' | sort -n | sed -n '1p;$p' | tr '\n' ' ')"
done
