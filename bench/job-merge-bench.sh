#!/bin/sh
# bench/job-merge-bench.sh [RANKS [RANKS_PER_NODE [JOB]]]: time and memory of
# 'tdperf report' merging a job directory of RANKS ranks (default 1024, 16
# per node; 100000 1 is the job of one rank per node whose merge was
# quadratic in hosts).  The ranks are replicas of the real rank directories
# of JOB (default: a 4-rank job recorded now with mpirun and the MPI test
# program), each renamed rank-N.nodeK with its rank, size, host and node
# rewritten in its meta.json and summary.json (its perf outputs are hard
# links to the original's).  Prints seconds (RUNS runs, default 3) and peak
# memory (kB) per output format (FORMATS, default "text json csv html"),
# with the ranks' summaries (what 'record' writes) and, on the first 128
# ranks, without them (every rank analysed from its perf.data).
# OLD_TDPERF=/path/to/an/older/tdperf times that binary right after this one
# on each format, so that both figures come from one run.
# Needs mpirun (unless JOB is given), jq and /usr/bin/time (Debian: time).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-1024}
per=${2:-16}
tdperf=${TDPERF:-$top/tdperf}
old=${OLD_TDPERF:-}
runs=${RUNS:-3}
formats=${FORMATS:-text json csv html}
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
jq --argjson n "$n" '.ranks = $n' "$src/meta.json" >"$work/job/meta.json"
# one template per real rank: its meta.json and summary.json on one line each,
# with placeholders that awk replaces for every replica (a jq per rank would
# take longer than the merge of 100,000 ranks)
k=0
for from; do
	jq -c '.job.rank = "@R@" | .job.node = "@K@" | .job.host = "@H@" | .job.size = "@N@"' \
		"$from/meta.json" >"$work/meta.$k"
	jq -c '.rank = "@R@" | .node = "@K@" | .host = "@H@" | .size = "@N@"' \
		"$from/summary.json" >"$work/summary.$k"
	k=$((k + 1))
done
awk -v n="$n" -v per="$per" -v d="$work/job" \
	'BEGIN { for (i = 0; i < n; i++) printf "%s/rank-%05d.node%04d\n", d, i, int(i / per) }' | xargs mkdir
k=0
for from; do
	# the perf outputs: hard links (no copy per replica)
	for f in "$from"/*; do
		case ${f##*/} in meta.json|summary.json) continue ;; esac
		awk -v n="$n" -v per="$per" -v k=$k -v m="$nr_src" -v d="$work/job" -v f="${f##*/}" \
			'BEGIN { for (i = k; i < n; i += m) printf "%s/rank-%05d.node%04d/%s\n", d, i, int(i / per), f }' |
			SRC=$f perl -ne 'chomp; link($ENV{SRC}, $_) or die "$_: $!\n"'
	done
	k=$((k + 1))
done
awk -v n="$n" -v per="$per" -v m="$nr_src" -v d="$work/job" -v t="$work" '
	# a template cut at its placeholders once; each replica is then joined
	# without a regular expression (gsub per replica took minutes)
	function cut(line, key,   j) {
		for (j = 0; match(line, /"@[RKHN]@"/); j++) {
			piece[key, j] = substr(line, 1, RSTART - 1)
			slot[key, j] = substr(line, RSTART + 2, 1)
			line = substr(line, RSTART + RLENGTH)
		}
		nr[key] = j
		rest[key] = line
	}
	function fill(key, i,   j, s, c) {
		s = ""
		for (j = 0; j < nr[key]; j++) {
			c = slot[key, j]
			s = s piece[key, j] (c == "R" ? i : c == "K" ? int(i / per) : c == "N" ? n \
					     : sprintf("\"node%04d\"", int(i / per)))
		}
		return s rest[key]
	}
	BEGIN {
		for (k = 0; k < m; k++) {
			getline line <(t "/meta." k); cut(line, "m" k)
			getline line <(t "/summary." k); cut(line, "s" k)
		}
		for (i = 0; i < n; i++) {
			dir = sprintf("%s/rank-%05d.node%04d", d, i, int(i / per))
			print fill("m" (i % m), i) >(dir "/meta.json"); close(dir "/meta.json")
			print fill("s" (i % m), i) >(dir "/summary.json"); close(dir "/summary.json")
		}
	}'
echo "job: $n ranks on $(( (n + per - 1) / per )) nodes, replicas of $nr_src real ranks ($(du -sh "$work/job" | cut -f1))"
# measure LABEL COMMAND...: RUNS runs (the machine may be shared): each one's
# seconds, the peak memory; with OLD_TDPERF, the same for it right after
measure() {
	label=$1; shift
	for bin in "$tdperf" $old; do
		times=
		k=0
		while [ $k -lt "$runs" ]; do
			/usr/bin/time -f "%e %U %S %M" -o "$work/t" "$bin" "$@" >"$work/out" 2>/dev/null
			times="$times $(cut -d' ' -f1 "$work/t")"
			k=$((k + 1))
		done
		echo "$label$(test "$bin" = "$tdperf" || echo ' (OLD_TDPERF)'): s$times;" \
			"last run user $(cut -d' ' -f2 "$work/t") s, system $(cut -d' ' -f3 "$work/t") s," \
			"peak $(cut -d' ' -f4 "$work/t") kB, output $(wc -c <"$work/out") bytes"
	done
}
for fmt in $formats; do
	if [ "$fmt" = html ]; then
		measure "report --html" report --format json --html "$work/job.html" "$work/job"
		echo "HTML: $(wc -c <"$work/job.html") bytes, heat map rows $(grep -c '^<tr><th>' "$work/job.html")"
	else
		measure "report --format $fmt" report --format "$fmt" "$work/job"
	fi
done
[ -n "${NO_ANALYSIS:-}" ] && exit 0
# the same merge without the ranks' summaries, on at most 128 ranks
mkdir "$work/nosum"
jq '.ranks = ([128, $n] | min)' --argjson n "$n" "$work/job/meta.json" >"$work/nosum/meta.json"
for d in $(ls -d "$work"/job/rank-* | head -n 128); do
	cp -r "$d" "$work/nosum/" && rm "$work/nosum/$(basename "$d")/summary.json"
	jq --argjson s "$(jq .ranks "$work/nosum/meta.json")" '.job.size = $s' "$d/meta.json" \
		>"$work/nosum/$(basename "$d")/meta.json"
done
measure "report --format json, 128 ranks without summaries" report --format json "$work/nosum"
