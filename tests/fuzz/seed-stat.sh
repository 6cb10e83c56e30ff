#!/bin/sh
# Seeds for fuzz-stat, copied into the directory run-brief names as $1:
# the published real perf stat outputs, and tests/fuzz/stat-inputs/ (perf
# outputs written on a machine without a hardware PMU, in every mode:
# -x CSV with -r, -I intervals in text/CSV/JSON, -A, --per-core, --per-thread).
set -eu
here=$(dirname "$0")
mkdir -p "$1"
cp "$here/../fixtures/perf-stat-published/"case-*.txt "$here/stat-inputs/"*.txt "$1"/
