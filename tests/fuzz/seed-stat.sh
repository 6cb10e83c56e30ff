#!/bin/sh
# Seeds for fuzz-stat: the published real perf stat outputs (run-brief
# passes the directory to fill as $1; tests/fuzz/corpus-stat/ holds perf
# outputs written on this machine in every mode).
set -eu
mkdir -p "$1"
cp "$(dirname "$0")/../fixtures/perf-stat-published/"case-*.txt "$1"/
