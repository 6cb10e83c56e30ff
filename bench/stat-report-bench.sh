#!/bin/sh
# bench/stat-report-bench.sh [INTERVALS]: time 'tdperf report' on a long
# interval-mode perf stat CSV.  The input repeats the one real interval of
# the published case-27 output (Ice Lake class, -M topdownl1 -x, -I 1000)
# INTERVALS times (default 1000) with increasing times: the layout is
# perf's, the repetition is synthetic.  Prints seconds and output sizes.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-1000}
tdperf=${TDPERF:-$top/tdperf}
work=$(mktemp -d "${TMPDIR:-/tmp}/tdperf-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
grep '^1\.000103288,' "$top"/tests/fixtures/perf-stat-published/case-27-*.txt >"$work/one"
awk -v n="$n" 'NR == FNR { row[++k] = $0; next }
	END { for (i = 0; i < n; i++) for (j = 1; j <= k; j++) {
		r = row[j]; sub(/^[^,]*/, sprintf("%.9f", 1.000103288 + i), r); print r } }' \
	"$work/one" /dev/null >"$work/in.csv"
echo "input: $n intervals, $(wc -l <"$work/in.csv") lines, $(wc -c <"$work/in.csv") bytes"
for fmt in json text csv; do
	start=$(date +%s.%N)
	"$tdperf" report --format "$fmt" "$work/in.csv" >"$work/out.$fmt"
	end=$(date +%s.%N)
	echo "report --format $fmt: $(awk -v a="$start" -v b="$end" "BEGIN { printf \"%.3f\", b - a }") s, $(wc -c <"$work/out.$fmt") bytes"
done
