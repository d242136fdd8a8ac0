#!/usr/bin/env bash
# aa.sh measures how often benchy claims a change where there is none: the
# same code compared with itself (an A/A test) through each way benchy
# compares, N times each, at default settings:
#
#   interleaved  run --compare small/sum-100,small/sum-100b (examples/mine:
#                two names, the same machine code)
#   files        two separate default runs of sum/sink, fold/opaque and
#                sort/ints-8000 (the experiments of a reported false claim),
#                then `benchy compare`
#   against      `benchy gotest --against HEAD` in a throwaway repository
#                whose two benchmarks (a sum, a sort) are unchanged
#
# It prints one line per run (load, and every row's verdict) and a count of
# claims per path; the files of a run that claimed a change are kept in
# $AA_KEEP (default ./aa-claims) to be read. Run it from the repository root; start CPU hogs first to
# measure a loaded machine (e.g. `taskset -c 0 sh -c 'while :; do :; done' &`).
#
#   scripts/aa.sh [N] [paths...]        # default 20, all three paths
set -eu
n=${1:-20}
shift || true
paths=${*:-interleaved files against}
keep=${AA_KEEP:-aa-claims}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/benchy" ./cmd/benchy
(cd examples/mine && go build -o "$work/small" ./small)

mkdir -p "$work/mod"
cat >"$work/mod/go.mod" <<'EOF'
module example.com/aa

go 1.24
EOF
cat >"$work/mod/aa_test.go" <<'EOF'
package aa

import (
	"slices"
	"testing"
)

var sink int

func BenchmarkSum(b *testing.B) {
	xs := make([]int, 4000)
	for i := range xs {
		xs[i] = i
	}
	for b.Loop() {
		s := 0
		for _, x := range xs {
			s += x
		}
		sink = s
	}
}

func BenchmarkSort(b *testing.B) {
	src := make([]int, 2000)
	for i := range src {
		src[i] = (i * 7919) % 2000
	}
	xs := make([]int, len(src))
	for b.Loop() {
		copy(xs, src)
		slices.Sort(xs)
	}
}
EOF
(cd "$work/mod" && git init -q && git add . &&
  git -c user.name=aa -c user.email=aa@example.com commit -qm aa)

# verdicts prints "name:verdict(change)" for each row of a comparison's JSON.
verdicts() {
  jq -r '[(.comparison // .experiments // [])[] |
    "\(.name // .candidate):\(.verdict)(\(.ratio // "-"))"] | join(" ")'
}

for path in $paths; do
  claims=0
  for i in $(seq 1 "$n"); do
    load=$(cut -d' ' -f1 /proc/loadavg)
    case $path in
    interleaved)
      out=$("$work/small" run --compare small/sum-100,small/sum-100b \
        --format json 2>/dev/null || true) ;;
    files)
      for side in a b; do
        "$work/benchy" run --bench '^(sum/sink|fold/opaque|sort/ints-8000)$' \
          -o "$work/$side.json" >/dev/null 2>&1 || true
      done
      out=$("$work/benchy" compare "$work/a.json" "$work/b.json" \
        --format json 2>/dev/null || true) ;;
    against)
      out=$(cd "$work/mod" && "$work/benchy" gotest . --against HEAD \
        --format json 2>/dev/null || true) ;;
    esac
    line=$(echo "$out" | verdicts)
    printf '%-11s run %2d  load %5s  %s\n' "$path" "$i" "$load" "$line"
    case $line in *slower* | *faster*)
      claims=$((claims + 1))
      mkdir -p "$keep/$path-$i"
      echo "$out" >"$keep/$path-$i/comparison.json"
      if [ "$path" = files ]; then cp "$work/a.json" "$work/b.json" "$keep/$path-$i/"; fi ;;
    esac
  done
  printf '%-11s claimed a change in %d of %d runs\n' "$path" "$claims" "$n"
done
