#!/bin/sh
# bench/job-merge-bench.sh [RANKS [RANKS_PER_NODE [JOB]]]: time and memory of
# 'tdperf report' merging a job directory of RANKS ranks (default 1024, 16
# per node).  The ranks are replicas of the real rank directories of JOB
# (default: a 4-rank job recorded now with mpirun and the MPI test program),
# each renamed rank-N.nodeK with its rank, host and node rewritten in its
# meta.json and summary.json.  Prints seconds (three runs) and peak memory (kB) per
# output format, with the ranks' summaries (what 'record' writes) and, on
# the first 128 ranks, without them (every rank analysed from its perf.data).
# Needs mpirun (unless JOB is given), jq and /usr/bin/time (Debian: time).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-1024}
per=${2:-16}
tdperf=${TDPERF:-$top/tdperf}
work=$(mktemp -d "${TMPDIR:-/tmp}/tdperf-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
src=${3:-}
if [ -z "$src" ]; then
	src=$work/real
	(cd "$work" && mpirun --allow-run-as-root --oversubscribe -np 4 "$tdperf" record --threads -o real \
		-- "$top/tests/workloads/mpi-imbalance" 1 2>/dev/null)
fi
set -- "$src"/rank-*
nr_src=$#
mkdir "$work/job"
cp "$src/meta.json" "$work/job/meta.json"
jq --argjson n "$n" '.ranks = $n' "$src/meta.json" >"$work/job/meta.json"
i=0
while [ $i -lt "$n" ]; do
	from=$(eval echo "\${$((i % nr_src + 1))}")
	node=$((i / per))
	host=$(printf 'node%04d' $node)
	d=$work/job/$(printf 'rank-%05d.%s' $i "$host")
	mkdir "$d"
	cp "$from"/* "$d"/
	jq --argjson r $i --argjson k $node --arg h "$host" \
		'.job.rank = $r | .job.node = $k | .job.host = $h' "$from/meta.json" >"$d/meta.json"
	jq --argjson r $i --argjson k $node --arg h "$host" \
		'.rank = $r | .node = $k | .host = $h' "$from/summary.json" >"$d/summary.json"
	i=$((i + 1))
done
echo "job: $n ranks on $(( (n + per - 1) / per )) nodes, replicas of $nr_src real ranks ($(du -sh "$work/job" | cut -f1))"
# measure LABEL COMMAND...: three runs (the machine may be shared): each one's seconds, the peak memory
measure() {
	label=$1; shift
	times=
	for k in 1 2 3; do
		/usr/bin/time -f "%e %M" -o "$work/t" "$@" >"$work/out" 2>/dev/null
		times="$times $(cut -d' ' -f1 "$work/t")"
	done
	echo "$label: s$times; peak $(cut -d' ' -f2 "$work/t") kB, output $(wc -c <"$work/out") bytes"
}
for fmt in text json csv; do
	measure "report --format $fmt" "$tdperf" report --format "$fmt" "$work/job"
done
measure "report --html" "$tdperf" report --format json --html "$work/job.html" "$work/job"
echo "HTML: $(wc -c <"$work/job.html") bytes, heat map rows $(grep -c '^<tr><th>' "$work/job.html")"
# the same merge without the ranks' summaries, on at most 128 ranks
mkdir "$work/nosum"
cp "$work/job/meta.json" "$work/nosum/"
for d in $(ls -d "$work"/job/rank-* | head -n 128); do
	cp -r "$d" "$work/nosum/" && rm "$work/nosum/$(basename "$d")/summary.json"
done
measure "report --format json, 128 ranks without summaries" "$tdperf" report --format json "$work/nosum"
