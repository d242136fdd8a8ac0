#!/usr/bin/env bash
# run.sh: measure, keep the result, and compare it with the last one.
#
# Keep this script beside your experiments and run it after every change
# (or in CI). It builds benchy, runs the chosen experiments pinned to one
# CPU, writes results/<date>-<host>.json with the text report next to it
# (.txt), and compares the new result with the previous one in the same
# directory, failing when an experiment got significantly slower:
#
#   examples/run.sh                       # all experiments
#   BENCHY_BENCH='^sum/' examples/run.sh  # only some
#   examples/run.sh --samples 51          # extra flags go to benchy run
#
# Settings (environment):
#   BENCHY_BENCH           experiments to run, a Go regexp (default: all)
#   BENCHY_CPU             CPU to pin to (default: benchy chooses a quiet one)
#   BENCHY_RESULTS         directory of results (default: results/ at the top
#                          of the project this script is in)
#   BENCHY_MAX_REGRESSION  fail when an experiment is slower by more than
#                          this, with its whole 95% confidence interval
#                          (default 5%)
#   BENCHY_SMOKE=1         quick check that everything still works (3 samples
#                          of ~1 ms): the comparison is printed but does not
#                          gate, since smoke numbers are noise and too few to
#                          tell a difference
#   BENCHY_SRC             benchy's source to build (default: this project)
#
# Exit status: 0 ok (or no previous result), 1 a significant regression or
# a failed run, 2 bad input (e.g. no experiment in common with the previous
# result), 3 a result not believable under --strict, 4 the comparison could
# not judge (too noisy: run again on a quieter machine); a failed build
# exits with go build's status. Read the messages on stderr to tell them
# apart.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
src="${BENCHY_SRC:-$root}"
results="${BENCHY_RESULTS:-$root/results}"
bench="${BENCHY_BENCH:-.}"
max_regression="${BENCHY_MAX_REGRESSION:-5%}"
# Only BENCHY_SMOKE=1 means a smoke run; unset, empty or 0 is a real one.
smoke=""
[[ "${BENCHY_SMOKE:-0}" == "1" ]] && smoke=1

# Build benchy into a temporary directory that goes away at the end.
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
bin="$tmp/benchy"
(cd "$src" && go build -o "$bin" ./cmd/benchy)

mkdir -p "$results"

# The previous result is the newest before this run (names sort by time).
previous=""
for f in "$results"/*.json; do
	[[ -e "$f" ]] && previous="$f"
done

# results/<date>-<host>.json; two runs in the same second wait for the next.
host="$(uname -n | tr -c 'A-Za-z0-9._\n-' '_')"
host="${host%%.*}"
while :; do
	out="$results/$(date -u +%Y%m%dT%H%M%SZ)-$host.json"
	[[ -e "$out" ]] || break
	sleep 1
done

args=(run --bench "$bench" --format json --out "$out")
if [[ -n "${BENCHY_CPU:-}" ]]; then
	args+=(--cpu "$BENCHY_CPU")
fi
if [[ -n "$smoke" ]]; then
	args+=(--smoke)
fi
"$bin" "${args[@]}" "$@"
"$bin" report --format text "$out" >"${out%.json}.txt"
echo "run.sh: result $out, report ${out%.json}.txt" >&2

if [[ -z "$previous" ]]; then
	echo "run.sh: no previous result in $results: nothing to compare" >&2
	exit 0
fi

compare=(compare "$previous" "$out")
if [[ -n "$smoke" ]]; then
	echo "run.sh: smoke run: comparing without a gate (smoke numbers are noise)" >&2
else
	compare+=(--fail-on-regression "$max_regression")
fi
status=0
"$bin" "${compare[@]}" >"${out%.json}.compare.txt" || status=$?
cat "${out%.json}.compare.txt"
exit "$status"
