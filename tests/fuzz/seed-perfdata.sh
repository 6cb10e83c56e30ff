#!/bin/sh
# seed-perfdata.sh DIR: seed corpus for fuzz-perfdata, recorded with perf
# here (small files: tracepoints with and without -g, group reads, -z,
# pipe mode, perf stat record with and without -I).  Prints nothing and
# leaves DIR empty when perf cannot record.
dir=$1
mkdir -p "$dir" || exit 1
cd "$dir" || exit 1
rm -f ./*.data ./*.old
perf=${TDPERF_PERF:-perf}
command -v "$perf" >/dev/null 2>&1 || exit 0
w="sleep 0.01"
"$perf" record -q -e sched:sched_switch -o sw.data -- $w >/dev/null 2>&1
"$perf" record -q -e sched:sched_switch -e sched:sched_wakeup -g -o swg.data -- $w >/dev/null 2>&1
"$perf" record -q -e '{cpu-clock,task-clock}:S' --running-time -o group.data -- $w >/dev/null 2>&1
"$perf" record -q -z -e sched:sched_switch -o z.data -- $w >/dev/null 2>&1
"$perf" record -q -e sched:sched_switch -o - -- $w >pipe.data 2>/dev/null
"$perf" stat record -o stat.data -- $w >/dev/null 2>&1
"$perf" stat record -I 10 -o stat-i.data -- sleep 0.03 >/dev/null 2>&1
rm -f *.old
# keep seeds small: libFuzzer's default max_len is derived from them
for f in *; do [ -s "$f" ] || rm -f "$f"; done
exit 0
