#!/bin/sh
# bench/perf-oracle.sh [--live] [DIR]: how many of the Top-Down values
# perf 6.1 printed tdperf reproduces, as a CPU x level x format table
# (markdown, for docs/perf-oracle.md).  DIR holds perf outputs made by
# `tests/pmu-emu/perf-oracle capture` (default: tests/fixtures/perf-oracle);
# --live captures them anew first (root, perf; minutes).  Each cell is
# "agree/printed" with the n/a and differing values after it; "perf.*"
# rows are perf's built-in values (default output, --topdown).
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
live=
if test "${1:-}" = --live; then
	live=1
	shift
fi
dir=${1:-$src/tests/fixtures/perf-oracle}
if test -n "$live"; then
	dir=$(mktemp -d "${TMPDIR:-/tmp}/perf-oracle.XXXXXX")
	"$src/tests/pmu-emu/perf-oracle" capture "$dir"
fi
if test -n "${PERF_ORACLE_ROWS:-}"; then
	cat "$PERF_ORACLE_ROWS"    # a compare output made before
else
	TDPERF=${TDPERF:-$src/tdperf} "$src/tests/pmu-emu/perf-oracle" compare "$dir"
fi | awk '
$1 == "row" {
	kind = $3; sub(/\..*/, "", kind)
	fmt = $3; sub(/.*\./, "", fmt)
	what = ($6 ~ /^perf\./) ? kind " (perf built-in)" : kind
	r = $2 "|" what "|L" $4
	if (!(r in seen)) { seen[r] = 1; rows[++n] = r }
	c = r "|" fmt
	pr[c]++
	if ($7 == "agree") ag[c]++; else if ($7 == "n/a") na[c]++; else df[c]++
	# totals by level group, as the issue counts them
	g = ($4 <= 2) ? "L1-2" : "L" $4
	if ($6 ~ /^perf\./) g = g " built-in"
	tp[g]++; if ($7 == "agree") ta[g]++; else if ($7 == "n/a") tn[g]++
	if (!(g in gs)) { gs[g] = 1; groups[++ng] = g }
}
function cell(c) {
	if (!(c in pr)) return "-"
	return sprintf("%d/%d%s%s", ag[c], pr[c], na[c] ? sprintf(", n/a %d", na[c]) : "",
		       df[c] ? sprintf(", differ %d", df[c]) : "")
}
END {
	print "| CPU | output | level | text | -x, | --json |"
	print "|---|---|---|---|---|---|"
	for (i = 1; i <= n; i++) {
		split(rows[i], p, "|")
		printf "| %s | %s | %s | %s | %s | %s |\n", p[1], p[2], p[3],
			cell(rows[i] "|txt"), cell(rows[i] "|csv"), cell(rows[i] "|json") | "sort"
	}
	close("sort")
	print ""
	print "| levels | agree | printed | n/a |"
	print "|---|---|---|---|"
	for (i = 1; i <= ng; i++)
		printf "| %s | %d | %d | %d |\n", groups[i], ta[groups[i]], tp[groups[i]], tn[groups[i]]
}'
