#!/bin/sh
# Seeds for fuzz-live, copied into the directory run-brief names as $1:
# the perf stat outputs of fuzz-stat (seed-stat.sh), each behind the two
# bytes the harness reads as its options (a terminal or not, the size of
# the pieces it feeds).
set -eu
here=$(dirname "$0")
mkdir -p "$1"
for f in "$here/../fixtures/perf-stat-published/"case-*.txt "$here/stat-inputs/"*.txt; do
	{ printf '\001\021'; cat "$f"; } >"$1/$(basename "$f")"
done
