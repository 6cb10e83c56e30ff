#!/bin/sh
# Seeds for fuzz-stat, copied into the directory run-brief names as $1:
# the published real perf stat outputs, and tests/fuzz/stat-inputs/ (perf
# outputs written on a machine without a hardware PMU, in every mode:
# -x CSV with -r, -I intervals in text/CSV/JSON, -A, --per-core, --per-thread),
# and perf 6.1's Top-Down outputs under the emulated PMU (blank CSV values,
# --topdown, --metric-only: tests/fixtures/perf-stat-emu/).
set -eu
here=$(dirname "$0")
mkdir -p "$1"
cp "$here/../fixtures/perf-stat-published/"case-*.txt "$here/stat-inputs/"*.txt "$1"/
for f in "$here/../fixtures/perf-stat-emu/"*.txt "$here/../fixtures/perf-stat-emu/"*.csv \
	 "$here/../fixtures/perf-stat-emu/"*.json; do
	cp "$f" "$1/emu-$(basename "$f")"
done
