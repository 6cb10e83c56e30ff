#!/bin/sh
# seed-hotspots.sh DIR: seed corpus for fuzz-hotspots, recorded with perf
# here: cpu-clock samples with and without call chains, a leader-sampled
# software group with call chains, a forking shell (FORK, COMM exec, MMAP2).
# Leaves DIR empty when perf cannot record.
dir=$1
mkdir -p "$dir" || exit 1
cd "$dir" || exit 1
rm -f ./*.data ./*.old
perf=${TDPERF_PERF:-perf}
command -v "$perf" >/dev/null 2>&1 || exit 0
w="sh -c 'i=0; while [ \$i -lt 300 ]; do i=\$((i+1)); done; /bin/true'"
eval "\"$perf\" record -q -e cpu-clock -F 2000 -o clock.data -- $w" >/dev/null 2>&1
eval "\"$perf\" record -q -e cpu-clock -F 2000 -g -o clock-g.data -- $w" >/dev/null 2>&1
eval "\"$perf\" record -q -e '{cpu-clock,task-clock,page-faults}:S' -F 2000 -g -o group.data -- $w" >/dev/null 2>&1
rm -f *.old
for f in *; do [ -s "$f" ] || rm -f "$f"; done
exit 0
