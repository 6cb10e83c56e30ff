#!/bin/sh
# seed-rundir.sh DIR: seeds for fuzz-rundir, each "meta.json NUL input":
# a minimal meta.json of an imported run (docs/run-format.md) with each
# published perf stat output, and variants whose files[] name the canary
# outside the run or carry a wrong version type.
set -eu
dir=$1
fixtures="$(dirname "$0")/../fixtures/perf-stat-published"
mkdir -p "$dir"
meta() {
	printf '{"format":"tdperf-run","version":%s,"kind":"import","files":[{"name":"%s","role":"input","format":"text"},{"name":"meta.json","role":"meta"}]}' "$1" "$2"
}
for f in "$fixtures"/case-*.txt; do
	name=$(basename "$f" .txt)
	{ meta 1 input/in.txt; printf '\000'; cat "$f"; } >"$dir/$name"
done
f=$fixtures/case-23-cml-multidim-topdownL1-L2-L3.txt
{ meta 1 ../../canary.txt; printf '\000'; cat "$f"; } >"$dir/escape"
{ meta '"1"' input/in.txt; printf '\000'; cat "$f"; } >"$dir/version-string"
{ meta 1e308 input/in.txt; printf '\000'; cat "$f"; } >"$dir/version-huge"
