#!/bin/sh
# seed-report-render.sh DIR: seed documents for fuzz-report-render, made by
# the synthetic document generator of the t06xx tests (Level 1 only,
# Level 1+2, a multiplexed and a different-CPU variant).
set -eu
dir=$1
gen="$(dirname "$0")/../e2e/gen-report-doc.sh"
mkdir -p "$dir"
sh "$gen" skylake 4 3e9 2e9 60 0.10 0.05 0.50 0.35 0.06 0.04 0.04 0.01 0.30 0.20 0.30 0.05 >"$dir/l2.json"
sh "$gen" icelake 5 1e9 1e9 100 0.10 0.15 0.30 0.45 >"$dir/l1.json"
sh "$gen" zen4 6 2e9 3e9 100 0.20 0.10 0.40 0.30 0.12 0.08 0.07 0.03 0.25 0.15 0.28 0.02 >"$dir/zen4.json"
