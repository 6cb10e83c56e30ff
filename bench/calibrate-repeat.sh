#!/bin/sh
# bench/calibrate-repeat.sh [N] [calibrate options]: run 'tdperf calibrate'
# N times (default 3, into a scratch cache) and print, per figure, the
# value of each run and the spread between runs, (max - min) / median.
# This is the repeatability figure quoted for calibrate (not a test).
set -eu
n=${1:-3}
[ $# -gt 0 ] && shift
tdperf=${TDPERF:-$(dirname "$0")/../tdperf}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for i in $(seq "$n"); do
	"$tdperf" calibrate --no-save --format json "$@" >"$dir/run$i.json"
done
uptime
for i in $(seq "$n"); do
	jq -r '.entries[0] | ("clock_ghz " + (.clock_ghz.value | tostring)),
		(.flops[] | "\(.precision)_\(.width)_gflops \(.gflops.value)"),
		(.memory[] | "\(.level)_load_gbs \(.load_gbs.value)", "\(.level)_store_gbs \(.store_gbs.value)",
			     "\(.level)_latency_ns \(.latency_ns.value)")' "$dir/run$i.json"
done | awk '{ v[$1] = v[$1] " " $2; n[$1]++; if (!($1 in order)) { order[$1] = ++k; name[k] = $1 } }
END {
	printf "%-22s %s\n", "figure", "runs ... | spread (max-min)/median"
	for (i = 1; i <= k; i++) {
		f = name[i]; c = split(substr(v[f], 2), a, " ")
		for (x = 1; x <= c; x++) for (y = x + 1; y <= c; y++) if (a[y] < a[x]) { t = a[x]; a[x] = a[y]; a[y] = t }
		med = c % 2 ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
		printf "%-22s %s | %.1f%%\n", f, v[f], (med > 0 ? 100 * (a[c] - a[1]) / med : 0)
	}
}'
