#!/bin/sh
# msr/tsc of a node's own perf group, and on hybrid P-cores (issue 30).
# perf cannot put msr/tsc into a group of core events: it counts it once
# per metric that needs it and prints it among that metric's events.  The
# latency-constant nodes (data_sharing, l3_hit_latency, ...) take the core
# frequency from it, so the count of another metric's group puts them 1e-4
# off perf, which only --json's six decimals show.
# The oracle: the values perf 6.1 printed in tests/fixtures/perf-oracle
# (made under tests/pmu-emu; README there), within perf's print rounding.
. "$(dirname "$0")/test-lib.sh"

ORACLE=$FIXTURES/perf-oracle

# node FILE [PMU]: "ID VALUE-IN-PERCENT" of the latency-constant nodes.
node() {
	"$TDPERF" report --format json "$1" |
	jq -r --arg p "${2:-}" '.scopes[] | select(($p == "" and .pmu == null) or .pmu == $p) | .nodes[] |
		select(.id | test("^(data_sharing|false_sharing|contested_accesses|l3_hit_latency|remote_cache)$")) |
		"\(.id) \(if .value == null then "null" else .value * 100 end)"'
}

# perf's value of each tma_ name in a --json file, as printed.
perf_json() {
	grep -o '"metric-value" : [0-9.]*, "metric-unit" : "%  tma_[a-z_]*"' "$1" |
	sed 's/"metric-value" : \([0-9.]*\), "metric-unit" : "%  tma_\([a-z_]*\)"/\2 \1/'
}

for cpu in skylakex icelakex tigerlake; do
	test_expect_success "$cpu --json: the latency-constant nodes are perf's to its sixth decimal" "
		perf_json $ORACLE/$cpu/all.json | sort -u >perf &&
		node $ORACLE/$cpu/all.json >ours &&
		test -s ours &&
		awk 'FNR == NR { p[\$1] = \$2; next }
			!(\$1 in p) { next }
			{ n++; d = \$2 - p[\$1]; if (d < 0) d = -d
			  if (\$2 == \"null\" || d > 5e-7 + 1e-6 * p[\$1]) { print \"differ:\", \$1, \"perf\", p[\$1], \"tdperf\", \$2; bad = 1 } }
			END { if (n < 3) { print \"only\", n, \"nodes compared\"; bad = 1 }; exit bad }' perf ours
	"
done

# Alder Lake: the cpu_core section finds msr/tsc (a PMU of its own, not
# cpu_core's), so the P-core's latency-constant nodes have values.  perf
# 6.1 printed l3_hit_latency 0.081594 % from the sum of the cpu_core and
# cpu_atom CPU_CLK_UNHALTED.REF_TSC counts (its hybrid error): with the
# P-core's REF_TSC alone the same formula gives perf's value times
# (REF_TSC atom + core) / REF_TSC core, the counts perf printed in that
# metric's group.
test_expect_success 'alderlake: the P-core finds TSC; l3_hit_latency is perf value without the E-core REF_TSC' '
	"$TDPERF" report --format json $ORACLE/alderlake/L4.json >r.json &&
	jq -e "[.scopes[] | select(.pmu == \"cpu_core\") | .nodes[] |
		select(.id == \"data_sharing\" or .id == \"l3_hit_latency\") |
		.value != null and (.reason // \"\" | test(\"TSC not measured\") | not)] | length == 2 and all" r.json &&
	grep -A4 "tma_l3_hit_latency" $ORACLE/alderlake/L4.json | grep -o "\"counter-value\" : \"[0-9.]*\", \"unit\" : \"\", \"event\" : \"cpu_[a-z]*/CPU_CLK_UNHALTED.REF_TSC/" |
		sed "s/\"counter-value\" : \"\([0-9.]*\)\".*\(cpu_[a-z]*\).*/\2 \1/" >ref &&
	test_line_count = 2 ref &&
	want=$(awk "{ r[\$1] = \$2 } END { printf \"%.9f\", 0.081594 * (r[\"cpu_atom\"] + r[\"cpu_core\"]) / r[\"cpu_core\"] }" ref) &&
	got=$(jq ".scopes[] | select(.pmu == \"cpu_core\") | .nodes[] | select(.id == \"l3_hit_latency\") | .value * 100" r.json) &&
	echo "want $want got $got" &&
	approx_eq "$got" "$want" 0.0002
'

test_done
