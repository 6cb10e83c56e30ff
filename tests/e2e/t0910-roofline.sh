#!/bin/sh
# The roofline in the report document and its chart: a run and its two
# intervals placed against a calibration, with every expected number worked
# out by hand below.  The report documents here are SYNTHETIC, written from
# the documented layout (docs/report-schema.md: sessions, scopes with
# events) because this machine has no PMU to count FP operations; the
# calibration file is written from docs/calibration.md so that the peaks
# are known exactly.  The last tests use this machine's own calibration.
. "$(dirname "$0")/test-lib.sh"

TOOL=$TD_BUILDDIR/tests/tools/roofline-tool
XDG_CACHE_HOME=$TEST_DIR/cache
export XDG_CACHE_HOME

if ! have_prog jq; then
	test_skip 'roofline checks' 'jq not installed (apt-get install jq)'
	test_done
fi

# The machine: DP scalar 10, DP 512-bit 80, SP 512-bit 160 GFLOP/s;
# load bandwidth L1 200, L2 100, L3 30, DRAM 15 GB/s.
cat >peaks.json <<'EOF'
{ "format": "tdperf-calibration", "version": 1,
  "cpu": { "key": "test", "name": "Test CPU" },
  "entries": [ { "threads": 1, "date": "2026-01-01T00:00:00Z", "mode": "default",
    "clock_ghz": { "value": 2.5, "reps": 5 },
    "flops": [
      { "precision": "dp", "width": "scalar", "gflops": { "value": 10, "spread": 0.01, "reps": 5 } },
      { "precision": "dp", "width": "512", "gflops": { "value": 80, "spread": 0.01, "reps": 5 } },
      { "precision": "sp", "width": "512", "gflops": { "value": 160, "spread": 0.01, "reps": 5 } } ],
    "memory": [
      { "level": "L1", "working_set": 24576, "load_gbs": { "value": 200, "spread": 0.02, "reps": 5 } },
      { "level": "L2", "working_set": 1048576, "load_gbs": { "value": 100, "spread": 0.02, "reps": 5 } },
      { "level": "L3", "working_set": 8388608, "load_gbs": { "value": 30, "spread": 0.02, "reps": 5 } },
      { "level": "DRAM", "working_set": 545259520, "load_gbs": { "value": 15, "spread": 0.02, "reps": 5 } } ] } ] }
EOF

# ev NAME VALUE: one event of a scope
ev() { printf '{"name":"%s","pmu":null,"value":%s,"status":"ok","group":0}' "$1" "$2"; }

# The run: 2 s, FP_ARITH 512B_PACKED_DOUBLE 1e9 (8e9 FLOPs) and
# SCALAR_DOUBLE 2e9 (2e9 FLOPs): W = 1e10, P = 5 GFLOP/s.
#   pi_mix = 1e10 / (8e9/80e9 + 2e9/10e9) = 1e10 / 0.3 = 33.33 GFLOP/s
#   L1D.REPLACEMENT 1e8 -> L2 traffic 6.4e9 B, I = 1.5625, bound 156.25
#   LONGEST_LAT_CACHE.MISS 1e8 -> DRAM 6.4e9 B, I = 1.5625, bound 23.4375
#   binding: DRAM bandwidth, efficiency 5 / 23.4375 = 0.21333
#   cycles 6e9, RESOURCE_STALLS.SB 3e9: stall roof 0.5 * 23.4375 = 11.71875,
#   the tightest roof.
# Interval 1 (0-1 s): 512B_PACKED_DOUBLE 9e8 -> 7.2e9 FLOPs, scalar 0:
#   P = 7.2; pi_mix = 80; LLC misses 1e7 -> 6.4e8 B, I = 11.25, bound 168.75:
#   binding the compute roof (80).
# Interval 2 (1-2 s): 512B_PACKED_DOUBLE 1e8 -> 8e8, scalar 2e9: W = 2.8e9,
#   P = 2.8; pi_mix = 2.8e9 / (8e8/80e9 + 2e9/10e9) = 13.333;
#   LLC misses 9e7 -> 5.76e9 B, I = 0.486111, bound 7.291667: DRAM binds.
scope() { # id kind time dp512 scalar l1repl llc [cycles sb]
	printf '{"id":"%s","session":1,"kind":"%s","label":null,"pmu":null,"time":%s,"events":[' "$1" "$2" "$3"
	ev FP_ARITH_INST_RETIRED.512B_PACKED_DOUBLE "$4"; printf ,
	ev fp_arith_inst_retired.scalar_double "$5"; printf ,
	ev L1D.REPLACEMENT "$6"; printf ,
	ev LONGEST_LAT_CACHE.MISS "$7"
	if [ $# -gt 7 ]; then printf ,; ev cycles "$8"; printf ,; ev RESOURCE_STALLS.SB "$9"; fi
	printf '],"nodes":[],"metrics":[],"warnings":[]}'
}
{
	printf '{"schema":"tdperf-report","version":1,'
	printf '"run":{"cpu":{"vendor":"GenuineIntel","family":6,"model":85,"stepping":4,"name":"Test CPU"}},'
	printf '"sessions":[{"index":1,"elapsed_s":2.0,"interval":true}],"scopes":['
	scope total total null 1e9 2e9 1e8 1e8 6e9 3e9; printf ,
	scope i1 total 1.0 9e8 0 5e7 1e7; printf ,
	scope i2 total 2.0 1e8 2e9 5e7 9e7
	printf '],"threads":null,"roofline":null,"warnings":[]}\n'
} >doc.json

rl() { jq -r "$1" rl.json; }
pt() { jq -r ".points[] | select(.scope == \"$1\") | $2" rl.json; }

test_expect_success 'the run is placed: performance, intensities, binding roof' '
	TDPERF_CALIBRATION=$TEST_DIR/peaks.json "$TOOL" doc.json >rl.json &&
	test "$(rl ".points | length")" = 3 &&
	approx_eq "$(pt total .gflops)" 5 1e-9 &&
	approx_eq "$(pt total .intensity.L2)" 1.5625 1e-9 &&
	approx_eq "$(pt total .intensity.DRAM)" 1.5625 1e-9 &&
	test "$(pt total .intensity.L1)" = null &&
	test "$(pt total .binding.id)" = bw_DRAM &&
	approx_eq "$(pt total .attainable)" 23.4375 1e-9 &&
	approx_eq "$(pt total .efficiency)" 0.213333333 1e-6 &&
	approx_eq "$(pt total "(.bounds[] | select(.id == \"fp_mix\") | .bound)")" 33.3333333 1e-6 &&
	approx_eq "$(pt total "(.bounds[] | select(.id == \"bw_L2\") | .bound)")" 156.25 1e-9
'

test_expect_success 'Cabezas and Püschel stall roof from RESOURCE_STALLS.SB is the tightest' '
	approx_eq "$(pt total "(.bounds[] | select(.id == \"stall_sb\") | .bound)")" 11.71875 1e-9 &&
	test "$(pt total .tightest.id)" = stall_sb &&
	test "$(pt total "(.bounds[] | select(.id == \"stall_sb\") | .kind)")" = stall
'

test_expect_success 'each interval is placed on its own' '
	test "$(pt i1 .interval)" = true &&
	approx_eq "$(pt i1 .gflops)" 7.2 1e-9 &&
	approx_eq "$(pt i1 .seconds)" 1 1e-9 &&
	test "$(pt i1 .binding.id)" = fp_mix &&
	approx_eq "$(pt i1 .attainable)" 80 1e-9 &&
	approx_eq "$(pt i2 .gflops)" 2.8 1e-9 &&
	approx_eq "$(pt i2 .intensity.DRAM)" 0.486111111 1e-8 &&
	test "$(pt i2 .binding.id)" = bw_DRAM &&
	approx_eq "$(pt i2 .attainable)" 7.29166667 1e-7
'

test_expect_success 'approximations are labelled with the formula used' '
	test "$(pt total .approximate)" = true &&
	pt total ".inputs.bytes_dram.formula" | grep -q "LONGEST_LAT_CACHE.MISS" &&
	pt total ".inputs.bytes_dram.note" | grep -q "last-level cache misses" &&
	pt total ".notes[]" | grep -q "FMA peaks" &&
	pt total ".notes[]" | grep -q "not counted for flops_sp_scalar"
'

test_expect_success 'the machine roofs come from the calibration, with their spread' '
	test "$(rl .peaks.source)" = "$TEST_DIR/peaks.json" &&
	test "$(rl ".peaks.roofs[] | select(.id == \"bw_DRAM\") | .value")" = 15 &&
	test "$(rl ".peaks.roofs[] | select(.id == \"fp_dp_512\") | .unit")" = GFLOP/s &&
	approx_eq "$(rl ".peaks.roofs[] | select(.id == \"bw_L1\") | .spread")" 0.02 1e-9
'

test_expect_success 'without a calibration the roofline says how to get one' '
	env -u TDPERF_CALIBRATION "$TOOL" doc.json >rl.json &&
	rl .reason | grep -q "tdperf calibrate" &&
	test "$(rl .peaks)" = null &&
	test "$(pt total .gflops)" = null &&
	pt total .reason | grep -q "calibrated"
'

test_expect_success 'a run without FP counts has no point, and says what to count' '
	jq "del(.scopes[1,2]) | .scopes[0].events |= map(select(.name | test(\"FP_ARITH|fp_arith\") | not))" doc.json >nofp.json &&
	TDPERF_CALIBRATION=$TEST_DIR/peaks.json "$TOOL" nofp.json >rl.json &&
	test "$(rl ".points | length")" = 0 &&
	rl .reason | grep -q "FP_ARITH_INST_RETIRED"
'

if have_prog gnuplot && have_prog xmllint; then
	test_expect_success 'the chart: valid SVG with the roofs, the points and the binding roof' '
		TDPERF_CALIBRATION=$TEST_DIR/peaks.json "$TOOL" doc.json --plot charts svg >/dev/null &&
		test -s charts/roofline.gp &&
		xmllint --noout charts/roofline.svg &&
		for s in "DRAM bandwidth 15 GB/s" "L1 bandwidth 200 GB/s" "DP 512-bit peak 80 GFLOP/s" \
			 "SP 512-bit peak 160 GFLOP/s" "run at each level" "intervals (2)" "stall_sb" \
			 "binding: DRAM bandwidth"; do
			grep -q "$s" charts/roofline.svg || { echo "missing in the SVG: $s"; exit 1; }
		done
	'
	test_expect_success 'the chart script is log-log and draws each level up to the highest peak' '
		TDPERF_CALIBRATION=$TEST_DIR/peaks.json "$TOOL" doc.json --script >gp &&
		test_grep "^set logscale xy" gp &&
		test_grep "(15 \* x < 160 ? 15 \* x : 1/0)" gp &&
		test_grep "^1.5625 5 DRAM 3$" gp
	'
	test_expect_success 'the HTML report inlines the roofline chart and tabulates the points' '
		TDPERF_CALIBRATION=$TEST_DIR/peaks.json "$TOOL" doc.json --html rl.html &&
		test_grep "<figure class=\"chart\" id=\"fig-roofline\"" rl.html &&
		sed -n "/id=\"fig-roofline\"/,/<\/figure>/p" rl.html | grep -q "<svg" &&
		test_grep "<td>DRAM bandwidth</td>" rl.html &&
		test_grep "<tr><td>total <span" rl.html && test_grep "<tr><td>i1 @ 1.000 s" rl.html &&
		test_grep "<tr><td>i2 @ 2.000 s" rl.html &&
		! grep -q "<dt>peaks</dt>" rl.html
	'
else
	test_skip 'the roofline chart' 'gnuplot or xmllint not installed'
fi

test_expect_success 'the HTML report without FP counts says what to count' '
	TDPERF_CALIBRATION=$TEST_DIR/peaks.json "$TOOL" nofp.json --html nofp.html &&
	test_grep "No point to place: no FP operations counted" nofp.html
'

# This machine's own calibration, found by CPU model in the cache.
test_expect_success 'the calibration of this CPU is found from the run metadata' '
	"$TDPERF" calibrate --quick >/dev/null &&
	vendor=$(sed -n "s/^vendor_id[[:space:]]*: //p" /proc/cpuinfo | head -n 1) &&
	family=$(sed -n "s/^cpu family[[:space:]]*: //p" /proc/cpuinfo | head -n 1) &&
	model=$(sed -n "s/^model[[:space:]]*: //p" /proc/cpuinfo | head -n 1) &&
	stepping=$(sed -n "s/^stepping[[:space:]]*: //p" /proc/cpuinfo | head -n 1) &&
	name=$(sed -n "s/^model name[[:space:]]*: //p" /proc/cpuinfo | head -n 1) &&
	jq --arg v "$vendor" --argjson f "$family" --argjson m "$model" --argjson s "$stepping" --arg n "$name" \
		".run.cpu = {vendor: \$v, family: \$f, model: \$m, stepping: \$s, name: \$n}" doc.json >mine.json &&
	env -u TDPERF_CALIBRATION "$TOOL" mine.json >rl.json &&
	rl .peaks.source | grep -q "^$XDG_CACHE_HOME/tdperf/calibration-" &&
	test "$(rl .reason)" = null &&
	approx_eq "$(pt total .gflops)" 5 1e-9 &&
	test "$(pt total .binding.id)" != null
'

test_done
