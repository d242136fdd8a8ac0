#!/usr/bin/env bash
# bisectgoal.sh measures `benchy bisect` on the synthetic repositories of
# scripts/bisectrepo (docs/bisect.md): 64 commits after GOOD, Work's leaf
# made slower at the step commits, every other commit a change of a string
# the test binary holds (another program, measured) or, with TOUCH=comment,
# of a comment alone (the same program, placed without measuring).
#
#   scripts/bisectgoal.sh CASE N [extra bisect flags...]
#
# CASE is one of
#   step    +3% at commit 40     (goal: commit 40 exactly in 9 of 10,
#                                 at most 8 commits measured each)
#   flat    no step              (goal: no commit accused in 10 of 10)
#   two     +1.5% at 20 and 40   (goal: both named, or a range holding both)
# PCT=30 makes the step larger (step only); KEEP=DIR keeps each report there. It prints one line per bisection (wall time, load, exit code, answer,
# commits measured, interleaved runs), then the counts. Run it from the
# repository root; `benchy` is built first. The default flags are those of
# the measurements: --threshold 1% --samples 24 --processes 8
# --sample-time 50ms.
set -eu
case=${1:?usage: bisectgoal.sh step|flat|two N [flags...]}
n=${2:-10}
shift 2 || true
case $case in
step) steps=40 pct=${PCT:-3} want=40 ;;
flat) steps= pct=3 want= ;;
two) steps=20,40 pct=1.5 want=20,40 ;;
*) echo "bisectgoal.sh: unknown case $case (step, flat, two)" >&2; exit 2 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/benchy" ./cmd/benchy
go run ./scripts/bisectrepo -steps "$steps" -pct "$pct" -touch "${TOUCH:-code}" "$tmp/repo" >/dev/null
good=$(git -C "$tmp/repo" rev-list --max-parents=0 HEAD)
flags=(--threshold 1% --samples 24 --processes 8 --sample-time 50ms "$@")
exact=0 holds=0 wrong=0 accused=0
for i in $(seq 1 "$n"); do
  load=$(cut -d' ' -f1 /proc/loadavg)
  start=$(date +%s)
  code=0
  (cd "$tmp/repo" && "$tmp/benchy" bisect "$good" HEAD --bench Work --format json "${flags[@]}") >"$tmp/out.json" 2>/dev/null || code=$?
  wall=$(($(date +%s) - start))
  if [ -n "${KEEP:-}" ]; then
    mkdir -p "$KEEP" && cp "$tmp/out.json" "$KEEP/$case-$i.json"
  fi
  # Commit k of the repository is index k-1 of the report's commits.
  line=$(jq -r '
    .benchmarks[0] as $b | $b.answer as $a |
    "\($a.verdict) \(if $a.verdict == "found" then "\($a.from + 1)..\($a.to + 1) named \([$a.first, $a.last] | map(select(. >= 0) + 1) | unique | join(","))" else "-" end)  measured \([$b.steps[] | select(.attempts > 0)] | length) (runs \(.runs))"' "$tmp/out.json" 2>/dev/null || echo "no report")
  printf 'run %2d  %4ds  load %5s  exit %d  %s\n' "$i" "$wall" "$load" "$code" "$line"
  from=$(jq -r '.benchmarks[0].answer | if .verdict == "found" then .from + 1 else "" end' "$tmp/out.json" 2>/dev/null || true)
  to=$(jq -r '.benchmarks[0].answer | if .verdict == "found" then .to + 1 else "" end' "$tmp/out.json" 2>/dev/null || true)
  [ -n "$from" ] && accused=$((accused + 1))
  if [ -n "$want" ] && [ -n "$from" ]; then
    lo=${want%%,*} hi=${want##*,}
    if [ "$from" -le "$lo" ] && [ "$to" -ge "$hi" ]; then
      holds=$((holds + 1))
      [ "$from" = "$to" ] && exact=$((exact + 1))
    else
      named=$(jq -r '.benchmarks[0].answer | [.first, .last] | map(select(. >= 0) + 1) | join(",")' "$tmp/out.json")
      [ "$named" = "$want" ] && holds=$((holds + 1)) || wrong=$((wrong + 1))
    fi
  fi
done
case $case in
step) echo "+$pct% at 40: exactly 40 in $exact of $n, a range holding it in $((holds - exact)), wrong in $wrong" ;;
flat) echo "no step: a commit accused in $accused of $n" ;;
two) echo "two +1.5% steps: both named or held in $holds of $n, wrong in $wrong" ;;
esac
