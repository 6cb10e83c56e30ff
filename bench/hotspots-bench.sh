#!/bin/sh
# bench/hotspots-bench.sh [MB...]: tdperf report --hotspots against perf
# report on the same perf.data with call chains, side by side: seconds and
# peak memory (max RSS), for each file size given (default 250 1000), so
# that memory can be seen to stay flat as the file grows.
#
# Each file is a system-wide (HBENCH_SCOPE=system, the default) or
# per-process (HBENCH_SCOPE=process) 'perf record -e cpu-clock -g -F 40000' while
# 'perf bench sched pipe' runs (user and kernel call chains of many
# processes), recorded until it holds at least MB megabytes; it is written
# to $TMPDIR and deleted at the end.  Compared, one run each:
#   perf report --stdio                      (perf's default: children, call graph)
#   perf report --stdio --no-children -g none --sort sym   (the cheapest perf report)
#   tdperf report --hotspots --format csv    (self, children, call-path tree)
# Run from the build directory.
set -eu
perf=${TDPERF_PERF:-perf}
top=$(cd "$(dirname "$0")/.." && pwd)
tdperf=${TDPERF:-$top/tdperf}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tdperf-hbench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
data=$tmp/perf.data
[ $# -gt 0 ] || set -- 250 1000
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (GNU time)" >&2; exit 2; }

# HBENCH_SCOPE=process records the benchmark's own processes only (no -a):
# fewer distinct call paths per megabyte, so the fixed costs weigh more.
case ${HBENCH_SCOPE:-system} in
system) scope=-a ;;
process) scope= ;;
*) echo "HBENCH_SCOPE is system or process" >&2; exit 2 ;;
esac

record() {
	# shellcheck disable=SC2086
	"$perf" record -q -e cpu-clock -F 40000 -g $scope -o "$data" -- \
		"$perf" bench sched pipe -l "$1" >/dev/null 2>&1
}

# run NAME CMD...: time one run; print seconds and max RSS
run() {
	name=$1; shift
	/usr/bin/time -f '%e %M' -o "$tmp/time" "$@" >"$tmp/$name.out" 2>"$tmp/err" || {
		echo "$name failed:"; tail -n 5 "$tmp/err"; return 1; }
	read -r secs rss <"$tmp/time"
	awk -v n="$name" -v s="$secs" -v r="$rss" \
		'BEGIN { printf "  %-44s %8.2f s %9.1f MB peak RSS\n", n, s, r / 1024 }'
	echo "$secs" >"$tmp/$name.secs"
}

for mb in "$@"; do
	record 20000
	per=$(( $(stat -c %s "$data") / 20000 ))
	[ "$per" -gt 0 ] || per=1
	loops=$(( mb * 1100000 / per ))
	while :; do
		record "$loops"
		size=$(stat -c %s "$data")
		[ "$size" -ge $((mb * 1000000)) ] && break
		loops=$(( loops * (mb * 1100000) / size + 1000 ))
	done
	echo "file: $(awk -v s="$size" 'BEGIN { printf "%.1f", s / 1e6 }') MB, $("$tdperf" dump --summary "$data" |
		sed -n 's/^summary: event cpu-clock SAMPLE //p') samples with call chains"
	cat "$data" >/dev/null   # the same page cache state for everyone
	run perf-report "$perf" report -i "$data" --stdio
	run perf-report-no-children "$perf" report -i "$data" --stdio --no-children -g none --sort sym
	run tdperf-hotspots "$tdperf" report --hotspots --format csv "$data"
	awk -v p="$(cat "$tmp/perf-report.secs")" -v q="$(cat "$tmp/perf-report-no-children.secs")" \
		-v t="$(cat "$tmp/tdperf-hotspots.secs")" 'BEGIN {
		if (t <= 0) t = 0.01
		printf "  tdperf is %.1fx faster than perf report, %.1fx than perf report --no-children -g none\n", p / t, q / t
	}'
	echo "  functions: tdperf $(($(wc -l <"$tmp/tdperf-hotspots.out") - 1)), call paths: $("$tdperf" report --hotspots --format json "$data" | jq '.profile.callpaths | length')"
done
