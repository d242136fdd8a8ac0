#!/usr/bin/env bash
# run.sh: measure, keep the result in the history, and check the history.
#
# Keep this script beside your experiments and run it after every commit
# (or in CI). It builds benchy, runs the chosen experiments pinned to one
# CPU, stores the result in the history (a SQLite file, at the commit of
# benchy's source, BENCHY_SRC), writes the text report to
# results/<date>-<host>.txt, and then checks the history: it fails when an
# experiment got slower by a step that still holds, naming the commits:
#
#   examples/run.sh                       # all experiments
#   BENCHY_BENCH='^sum/' examples/run.sh  # only some
#   examples/run.sh --samples 51          # extra flags go to benchy run
#
# Settings (environment):
#   BENCHY_BENCH           experiments to run, a Go regexp (default: all)
#   BENCHY_CPU             CPU to pin to (default: benchy chooses a quiet one)
#   BENCHY_RESULTS         directory of the reports and of the history
#                          (default: results/ at the top of the project
#                          this script is in)
#   BENCHY_STORE           the history: a SQLite file or postgres://...
#                          (default: history.db in BENCHY_RESULTS)
#   BENCHY_MAX_REGRESSION  fail when an experiment got slower by a step of
#                          more than this (default 5%)
#   BENCHY_SMOKE=1         quick check that everything still works (3 samples
#                          of ~1 ms): the result goes into smoke.db in
#                          BENCHY_RESULTS, never into the history, and its
#                          check is printed but does not gate, since smoke
#                          numbers are noise
#   BENCHY_SRC             benchy's source to build (default: this project)
#
# A result of a tree with uncommitted changes is stored but kept out of the
# series: commit first. Two runs of one commit count as one point.
#
# Exit status: 0 ok, 1 a step slower that still holds, a failed run or a
# result that could not be stored, 2 bad input (e.g. a store that cannot
# be opened), 3 a result not believable under --strict, 4 the history
# cannot judge yet (fewer than 6 commits of an experiment); a failed build
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
store="${BENCHY_STORE:-$results/history.db}"
if [[ -n "$smoke" ]]; then
	store="$results/smoke.db"
fi

# results/<date>-<host>.txt; two runs in the same second wait for the next.
host="$(uname -n | tr -c 'A-Za-z0-9._\n-' '_')"
host="${host%%.*}"
while :; do
	report="$results/$(date -u +%Y%m%dT%H%M%SZ)-$host.txt"
	[[ -e "$report" ]] || break
	sleep 1
done

out="$tmp/result.json"
args=(run --bench "$bench" --format json --out "$out")
if [[ -n "${BENCHY_CPU:-}" ]]; then
	args+=(--cpu "$BENCHY_CPU")
fi
if [[ -n "$smoke" ]]; then
	args+=(--smoke)
fi
"$bin" "${args[@]}" "$@"
"$bin" report --format text "$out" >"$report"
# Stored at the commit of benchy's source, which the experiments are part
# of (HEAD there, marked dirty when the tree has changes).
(cd "$src" && "$bin" history import --store "$store" "$out")
echo "run.sh: report $report, history $store" >&2

check=(history check --store "$store" --threshold "$max_regression")
if [[ "$bench" != "." ]]; then
	check+=("$bench")
fi
status=0
"$bin" "${check[@]}" || status=$?
if [[ -n "$smoke" ]]; then
	echo "run.sh: smoke run: the history check does not gate (smoke numbers are noise; it exited $status)" >&2
	exit 0
fi
exit "$status"
