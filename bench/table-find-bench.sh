#!/bin/sh
# bench/table-find-bench.sh: CPU time of the commands that pick a built-in
# formula table (record --dry-run --cpu X, report of published perf stat
# outputs without --cpu, list, explain, lookups that fail with the closest
# table), and, with OLD_TDPERF set, whether an older binary gives the same
# stdout, stderr and exit status on each (about 70 commands).  Prints one
# line per command: CPU ms (user + system, this binary's process tree;
# 'record --dry-run' also runs perf once), then the older binary's, then
# "same" or "DIFFERS".  Exit 1 when some output differs.
# TDPERF picks the binary (default ./tdperf); REPEAT (default 3) runs each
# command that many times and keeps the least CPU time.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
tdperf=${TDPERF:-$top/tdperf}
old=${OLD_TDPERF:-}
repeat=${REPEAT:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/tdperf-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$top" || exit 2
fix=tests/fixtures/perf-stat-published

# cpu_ms OUTPREFIX BINARY ARGS...: run it REPEAT times; least CPU ms on stdout
cpu_ms() {
	pre=$1 bin=$2
	shift 2
	best=
	i=0
	while [ $i -lt "$repeat" ]; do
		/usr/bin/time -f '%U %S' -o "$pre.time" "$bin" "$@" >"$pre.out" 2>"$pre.err"
		echo $? >"$pre.rc"
		ms=$(awk 'END { printf "%d", ($1 + $2) * 1000 }' "$pre.time")
		if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
		i=$((i + 1))
	done
	echo "$best"
}

differs=0
total_new=0
total_old=0
# one ARGS...: time the command with both binaries, compare outputs
one() {
	new_ms=$(cpu_ms "$work/new" "$tdperf" "$@")
	total_new=$((total_new + new_ms))
	line=$(printf '%6s ms' "$new_ms")
	if [ -n "$old" ]; then
		old_ms=$(cpu_ms "$work/old" "$old" "$@")
		total_old=$((total_old + old_ms))
		# the binary's path appears in some messages: compare without it
		verdict=same
		for f in out err rc; do
			sed "s|$tdperf|TDPERF|g" "$work/new.$f" >"$work/n"
			sed "s|$old|TDPERF|g" "$work/old.$f" >"$work/o"
			cmp -s "$work/n" "$work/o" || verdict=DIFFERS
		done
		[ $verdict = same ] || differs=1
		line="$line $(printf '%6s ms  %s' "$old_ms" "$verdict")"
	fi
	echo "$line  $*"
}

dry() {
	one record --dry-run --cpu "$1" -l 3 -- true
}

for cpu in zen1 zen2 zen3 zen4 zen5 amdzen4 skylake skylakex skx cascadelakex icelake \
	icelakex sapphirerapids spr graniterapids sierraforest haswell broadwellx sandybridge \
	alderlake alderlake/cpu_atom alderlake/atom adl raptorlake meteorlake meteorlake/cpu_atom \
	lunarlake arrowlake/cpu_atom neoverse-n1 neoverse-v2 graviton3 grace neoverse-n2-v2 hip08 \
	GenuineIntel-6-55-4 GenuineIntel-6-55-7 GenuineIntel-6-55 GenuineIntel-6-8F-8 \
	GenuineIntel-6-97-2 GenuineIntel-6-97-2/atom AuthenticAMD-25-61-2 AuthenticAMD-23-31-0 \
	AuthenticAMD-26-44-0 0x00000000410fd0c0 0x00000000410fd4f1 \
	skylak zen9 cpu_atom icelake/cpu_atom GenuineIntel-6-FF-1 GenuineIntel-6-56 \
	AuthenticAMD-29-1-0 0x00000000410fd999 0x00000000ff0fd999 ""; do
	dry "$cpu"
done
for f in "$fix"/*.txt; do
	one report "$f"
done
one report --cpu GenuineIntel-6-7E-5 "$fix"/case-10-icl-tgl-ffmpeg-aac-4runs.txt
one list
one list --cpu meteorlake/cpu_atom --events
one list --cpu GenuineIntel-6-9A
one list --cpu skylakee
one explain --cpu zen4 frontend_bound
one explain --cpu alderlake/cpu_atom retiring
one explain --cpu icl ipc
one explain memory_bound "$fix"/case-23-cml-multidim-topdownL1-L2-L3.txt
echo "total CPU: $total_new ms${old:+ (older binary: $total_old ms)}"
[ $differs = 0 ] || { echo "some outputs differ"; exit 1; }
