#!/bin/sh
# gen-report-doc.sh: write a SYNTHETIC tdperf report document (schema v1,
# docs/report-schema.md) for the t06xx tests of the renderers, built from
# the documented layout with the values given on the command line:
#
#   gen-report-doc.sh UARCH SLOTS_PER_CYCLE CYCLES INSTRUCTIONS RUNNING_PCT \
#                     FE BS BE RET  [FL FB BM MC MB CB LO HO]  > doc.json
#
# Level-1 fractions (and optionally the eight Level-2 ones), one "total"
# scope with the cycles and instructions events (multiplexed when
# RUNNING_PCT < 100), a thread scope whose name needs HTML escaping, and a
# per-thread copy of the Level-1 values.  Tests that can use documents
# tdperf builds from the real fixtures do so; this generator covers what
# the fixtures lack and what must not depend on the importer.
set -eu
uarch=$1 width=$2 cycles=$3 insns=$4 running=$5
fe=$6 bs=$7 be=$8 ret=$9
shift 9
node() { # id name parent level value
	flagged=$(awk -v v="$5" 'BEGIN { print (v > 0.15) ? "true" : "false" }')
	printf '{"id":"%s","name":"%s","parent":%s,"level":%s,"value":%s,"unit":"slots","threshold":"%s > 0.15","flagged":%s,"bottleneck":false,"approximate":false,"reason":null,"perf_value":null,"description":"%s: synthetic test value","formula":"%s = X / SLOTS"}' \
		"$1" "$2" "$3" "$4" "$5" "$1" "$flagged" "$2" "$1"
}
level1() {
	node frontend_bound "Frontend Bound" null 1 "$fe"; printf ,
	node bad_speculation "Bad Speculation" null 1 "$bs"; printf ,
	node backend_bound "Backend Bound" null 1 "$be"; printf ,
	node retiring "Retiring" null 1 "$ret"
}
level2() {
	[ $# -eq 8 ] || return 0
	printf ,; node fetch_latency "Fetch Latency" '"frontend_bound"' 2 "$1"
	printf ,; node fetch_bandwidth "Fetch Bandwidth" '"frontend_bound"' 2 "$2"
	printf ,; node branch_mispredicts "Branch Mispredicts" '"bad_speculation"' 2 "$3"
	printf ,; node machine_clears "Machine Clears" '"bad_speculation"' 2 "$4"
	printf ,; node memory_bound "Memory Bound" '"backend_bound"' 2 "$5"
	printf ,; node core_bound "Core Bound" '"backend_bound"' 2 "$6"
	printf ,; node light_operations "Light Operations" '"retiring"' 2 "$7"
	printf ,; node heavy_operations "Heavy Operations" '"retiring"' 2 "$8"
}
scaled=$(awk -v r="$running" 'BEGIN { print (r < 100) ? "true" : "false" }')
printf '{"schema":"tdperf-report","version":1,'
printf '"run":{"format":"tdperf-run","version":1,"kind":"import","command_line":["tdperf","report","synthetic-%s.txt"],"workload":["./app","<synthetic>"],' "$uarch"
printf '"cpu":{"name":"Synthetic %s CPU","microarchitecture":"%s","source":"--cpu","confidence":"certain"},"smt":{"on":true,"source":"--smt"}},' "$uarch" "$uarch"
printf '"table":{"name":"%s","display":"Synthetic %s","slots_per_cycle":%s,"source":"test generator"},' "$uarch" "$uarch" "$width"
printf '"scopes":[{"id":"total","kind":"total","label":null,"pmu":null,"time":null,"nodes":['
level1; level2 "$@"
printf '],"bottleneck":{"path":["backend_bound"],"ambiguous":false,"sentence":"Backend Bound: synthetic."},'
printf '"metrics":[],"events":['
printf '{"name":"cycles","pmu":null,"value":%s,"status":"ok","enabled_ns":null,"running_ns":null,"running_pct":%s,"scaled":%s,"variance_pct":null},' "$cycles" "$running" "$scaled"
printf '{"name":"instructions","pmu":null,"value":%s,"status":"ok","enabled_ns":null,"running_ns":null,"running_pct":100,"scaled":false,"variance_pct":null}' "$insns"
printf '],"stacks":{},"warnings":[]},'
printf '{"id":"t1","kind":"thread","label":"<b>worker</b> & co","pmu":null,"time":null,"nodes":['
level1
printf '],"bottleneck":null,"metrics":[],"events":[],"stacks":{},"warnings":[]}],'
printf '"threads":null,"roofline":null,"warnings":[{"severity":"warning","text":"synthetic document from tests/e2e/gen-report-doc.sh"}]}\n'
