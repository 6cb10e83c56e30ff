#!/bin/sh
# bench/perfdata-bench.sh [MB]: how fast tdperf reads perf.data, against
# perf script producing the same fields from the same file.
#
# Records sched:sched_switch with -g system-wide while 'perf bench sched
# pipe' switches tasks, until the file holds at least MB megabytes
# (default 500); then, one run each, with peak memory (max RSS):
#   perf script -F comm,tid,cpu,time,event,trace,ip  (callchains as addresses)
#   tdperf dump --time-order                          (the same fields and more, as text)
#   bench/perfdata-decode                             (reader API: fields by handle, no text)
# and prints MB/s.  The recording goes to $TMPDIR and is deleted at the end.
# Run from the build directory after 'make bench'.
set -eu
mb=${1:-500}
perf=${TDPERF_PERF:-perf}
top=$(cd "$(dirname "$0")/.." && pwd)
tdperf=${TDPERF:-$top/tdperf}
decode=$top/bench/perfdata-decode
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tdperf-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
data=$tmp/perf.data

[ -x "$decode" ] || { echo "build it first: make bench" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (GNU time)" >&2; exit 2; }

record() {
	"$perf" record -q -e sched:sched_switch -g -a -o "$data" -- \
		"$perf" bench sched pipe -l "$1" >/dev/null 2>&1
}
# calibrate: bytes per pipe round trip
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
size_mb=$(awk -v s="$size" 'BEGIN { printf "%.1f", s / 1e6 }')
echo "file: $size_mb MB, $("$tdperf" dump --summary "$data" | sed -n 's/^summary: event sched:sched_switch SAMPLE //p') sched_switch samples"

# run NAME CMD...: time one run, print seconds, MB/s and max RSS
run() {
	name=$1; shift
	sync
	/usr/bin/time -f '%e %M' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || {
		echo "$name failed:"; tail -n 5 "$tmp/err"; return 1; }
	read -r secs rss <"$tmp/time"
	awk -v n="$name" -v s="$secs" -v r="$rss" -v mb="$size_mb" \
		'BEGIN { printf "%-34s %8.2f s %9.1f MB/s %8.1f MB peak RSS\n", n, s, mb / (s > 0 ? s : 0.01), r / 1024 }'
	echo "$secs" >"$tmp/$name.secs"
}
cat "$data" >/dev/null   # same page cache state for everyone
run perf-script "$perf" script -i "$data" -F comm,tid,cpu,time,event,trace,ip
run tdperf-dump "$tdperf" dump --time-order "$data"
run tdperf-api "$decode" "$data"
awk -v p="$(cat "$tmp/perf-script.secs")" -v d="$(cat "$tmp/tdperf-dump.secs")" \
	-v a="$(cat "$tmp/tdperf-api.secs")" 'BEGIN {
	printf "speedup vs perf script: dump %.1fx, API %.1fx\n", p / (d > 0 ? d : 0.01), p / (a > 0 ? a : 0.01) }'
