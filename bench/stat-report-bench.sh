#!/bin/sh
# bench/stat-report-bench.sh [INTERVALS [FORMATS]]: time 'tdperf report' on
# a long interval-mode perf stat CSV (FORMAT "live": 'report --live -'
# reading it from a pipe, as from a running perf).  The input repeats the one real
# interval of the published case-27 output (Ice Lake class, -M topdownl1
# -x, -I 1000) INTERVALS times (default 1000) with increasing times: the
# layout is perf's, the repetition is synthetic.  FORMATS (default
# "json text csv") are the --format values to time.  Prints seconds, peak
# resident memory (where /usr/bin/time is installed) and output sizes.
# TDPERF picks the binary; OLD_TDPERF, when set, is timed right after it
# on each format, so both figures come from one run on a shared machine.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-1000}
formats=${2:-json text csv}
tdperf=${TDPERF:-$top/tdperf}
work=$(mktemp -d "${TMPDIR:-/tmp}/tdperf-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
grep '^1\.000103288,' "$top"/tests/fixtures/perf-stat-published/case-27-*.txt >"$work/one"
awk -v n="$n" 'NR == FNR { row[++k] = $0; next }
	END { for (i = 0; i < n; i++) for (j = 1; j <= k; j++) {
		r = row[j]; sub(/^[^,]*/, sprintf("%.9f", 1.000103288 + i), r); print r } }' \
	"$work/one" /dev/null >"$work/in.csv"
echo "input: $n intervals, $(wc -l <"$work/in.csv") lines, $(wc -c <"$work/in.csv") bytes"

# one_run NAME BINARY FORMAT: time one report, print one line
one_run() {
	name=$1 bin=$2
	if [ "$3" = live ]; then
		how="--live -"
	else
		how="--format $3 $work/in.csv"
	fi
	start=$(date +%s.%N)
	if [ -x /usr/bin/time ]; then
		# shellcheck disable=SC2086
		/usr/bin/time -f %M -o "$work/rss" "$bin" report $how <"$work/in.csv" >"$work/out"
		rss="$(cat "$work/rss") KB peak RSS, "
	else
		# shellcheck disable=SC2086
		"$bin" report $how <"$work/in.csv" >"$work/out"
		rss=
	fi
	end=$(date +%s.%N)
	echo "${name:+$name }report ${how%" $work/in.csv"}: $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }') s, ${rss}$(wc -c <"$work/out") bytes"
}

for fmt in $formats; do
	one_run "${OLD_TDPERF:+new}" "$tdperf" "$fmt"
	[ -z "${OLD_TDPERF:-}" ] || one_run old "$OLD_TDPERF" "$fmt"
done
