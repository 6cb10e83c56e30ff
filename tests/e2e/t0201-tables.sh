#!/bin/sh
# The built-in formula tables: every one loads, every formula parses and
# names only events its table lists; CPUs map to tables.
. "$(dirname "$0")/test-lib.sh"

TABLES=$TD_SRCDIR/metrics/tables

test_expect_success 'every built-in table loads and lists every event its formulas use' '
	"$TDPERF" tables check "$TABLES"/*.json >out &&
	test_line_count = "$(ls "$TABLES"/*.json | wc -l)" out
'

test_expect_success 'the tables asked for are all there' '
	for t in sandybridge ivybridge haswell haswellx broadwell broadwellx skylake skylakex cascadelakex icelake \
		 icelakex tigerlake rocketlake alderlake alderlake_atom sapphirerapids \
		 emeraldrapids graniterapids meteorlake meteorlake_atom arrowlake arrowlake_atom \
		 lunarlake lunarlake_atom sierraforest zen1 zen2 zen3 zen4 zen5; do
		test -f "$TABLES/$t.json" || { echo "missing $t"; exit 1; }
	done
'

# Levels 1-2 carry the same ids on every vendor, so diffs and stacks line
# up across generations.  Intel P-cores and AMD Zen 4/5 have the whole
# Level 1-2 tree (AMD's own metric names are mapped to these ids); the
# hybrid E-cores and Sierra Forest have no Level-2 light/heavy split and
# Zen 1-3 no dispatch-slot events (the table says so in "missing").
test_expect_success 'Level 1-2 nodes have the canonical ids on every full-tree table' '
	for t in skylake skylakex icelake sapphirerapids graniterapids alderlake arrowlake zen4 zen5; do
		for id in frontend_bound bad_speculation backend_bound retiring fetch_latency fetch_bandwidth \
			  branch_mispredicts machine_clears memory_bound core_bound light_operations heavy_operations; do
			jq -e --arg id $id "any(.metrics[]; .id == \$id and .level >= 1)" "$TABLES/$t.json" >/dev/null ||
				{ echo "$t: no Level 1-2 node $id"; exit 1; }
		done
	done &&
	for t in zen4 zen5; do
		jq -e "any(.metrics[]; .id == \"smt_contention\" and .level == 1)" "$TABLES/$t.json" >/dev/null || exit 1
	done &&
	for id in core_bound memory_bound store_bound l1_bound; do
		jq -e --arg id $id "any(.metrics[]; .id == \$id and .level >= 2)" "$TABLES/alderlake_atom.json" >/dev/null ||
			{ echo "alderlake_atom: no backend node $id"; exit 1; }
	done &&
	jq -e "[.metrics[] | select(.level == 1) | .id] | sort == [\"backend_bound\", \"bad_speculation\", \"frontend_bound\", \"retiring\"]" \
		"$TABLES/alderlake_atom.json" >/dev/null &&
	jq -e "any(.metrics[]; .id == \"mem_scheduler\" and .level == 0 and .area == \"Info.Aux_View\")" \
		"$TABLES/alderlake_atom.json" >/dev/null &&
	for t in zen1 zen2 zen3; do
		jq -e "([.metrics[] | select(.level >= 1)] | length) == 0 and (.missing | test(\"dispatch-slot\"))" \
			"$TABLES/$t.json" >/dev/null || { echo "$t: should say why it has no tree"; exit 1; }
	done
'

while read -r cpuid table; do
	test_expect_success "CPUID $cpuid maps to $table" "
		\"\$TDPERF\" tables path $cpuid >out &&
		test_grep '/$table.json\$' out
	"
done <<'LIST'
GenuineIntel-6-55-4 skylakex
GenuineIntel-6-3A-9 ivybridge
GenuineIntel-6-2A sandybridge
GenuineIntel-6-55-7 cascadelakex
GenuineIntel-6-A5 skylake
GenuineIntel-6-A5-0 skylake
GenuineIntel-6-8F-8 sapphirerapids
GenuineIntel-6-97-2 alderlake
GenuineIntel-6-AA-4 meteorlake
GenuineIntel-6-C6-2 arrowlake
GenuineIntel-6-BD-1 lunarlake
GenuineIntel-6-7E-5 icelake
AuthenticAMD-25-61-2 zen4
AuthenticAMD-25-21 zen3
AuthenticAMD-23-71 zen2
AuthenticAMD-26-44 zen5
skylakex skylakex
amdzen4 zen4
spr sapphirerapids
LIST

test_expect_success 'a hybrid part: the E-core table by PMU name' '
	"$TDPERF" tables path alderlake/cpu_atom >out &&
	test_grep "/alderlake_atom.json$" out &&
	for t in meteorlake arrowlake lunarlake; do
		"$TDPERF" tables path $t/cpu_atom >out && test_grep "/${t}_atom.json$" out || return 1
	done
'

# Crestmont (Meteor Lake) and Skymont (Arrow, Lunar Lake) E-core trees come
# from Intel's E-core TMA spreadsheet: the column of each core, its issue
# width, Level 2 under the canonical ids and perf's names reachable.
test_expect_success 'the Crestmont and Skymont E-core trees: width, Level 1-3, perf names' '
	for tw in meteorlake_atom:CMT:6 arrowlake_atom:ARL-SKT:8 lunarlake_atom:LNL-SKT:8; do
		t=${tw%%:*} && rest=${tw#*:} && col=${rest%%:*} && w=${rest#*:} &&
		jq -e --arg col "column $col" --argjson w $w \
			"(.source | contains(\$col)) and .slots_per_cycle == \$w and .core_type == \"atom\" and .pmu == \"cpu_atom\"" \
			"$TABLES/$t.json" >/dev/null &&
		jq -e "[.metrics[] | select(.level == 1) | .id] | sort == [\"backend_bound\", \"bad_speculation\", \"frontend_bound\", \"retiring\"]" \
			"$TABLES/$t.json" >/dev/null &&
		jq -e "[.metrics[] | select(.level == 2) | .id] | sort == [\"branch_mispredicts\", \"core_bound\", \"fetch_bandwidth\", \"fetch_latency\", \"machine_clears\", \"resource_bound\"]" \
			"$TABLES/$t.json" >/dev/null &&
		jq -e "any(.metrics[]; .id == \"icache_misses\" and .level == 3 and .parent == \"fetch_latency\")" \
			"$TABLES/$t.json" >/dev/null &&
		"$TDPERF" explain tma_ifetch_latency --cpu $t >out && test_grep "Fetch Latency" out ||
		{ echo "$t"; return 1; }
	done &&
	jq -e ".metrics[] | select(.id == \"frontend_bound\") | .formula == \"TOPDOWN_FE_BOUND.ALL_P / aux_slots\"" \
		"$TABLES/meteorlake_atom.json" >/dev/null
'

test_expect_success 'an unknown model names the closest table of its vendor and family' '
	test_exit_code 2 "$TDPERF" tables path GenuineIntel-6-56 2>err &&
	test_grep "closest known table is" err &&
	test_grep "force it with --cpu" err
'

test_expect_success 'a malformed table is rejected with file and line' '
	printf "{\"tdperf_table\": 1,\n \"name\": \"x\",\n \"metrics\": [ }\n" >bad.json &&
	test_exit_code 2 "$TDPERF" tables check bad.json 2>err &&
	test_grep "bad.json:3:" err
'

test_expect_success 'a table with a bad formula names the metric' '
	cat >bad2.json <<-JSON &&
	{"tdperf_table": 1, "name": "x", "metrics": [
	  {"id": "a", "level": 1, "formula": "1 +"}]}
	JSON
	test_exit_code 2 "$TDPERF" tables check bad2.json 2>err &&
	test_grep "metric .a.: formula" err
'

test_expect_success 'a reference cycle is rejected' '
	cat >cyc.json <<-JSON &&
	{"tdperf_table": 1, "name": "x", "metrics": [
	  {"id": "a", "level": 0, "formula": "b + 1"},
	  {"id": "b", "level": 0, "formula": "a * 2"}]}
	JSON
	test_exit_code 2 "$TDPERF" tables check cyc.json 2>err &&
	test_grep "refers to itself" err
'

test_expect_success 'every metric of every built-in table has a real description' '
	for f in "$TABLES"/*.json; do
		jq -r --arg f "$(basename "$f")" ".metrics[] |
			select((.description // \"\") == \"\" or
			       (.description | test(\"generated from|has no description\"))) |
			\"\\(\$f) \\(.id): \\(.description)\"" "$f"
	done >undescribed &&
	test_line_count = 0 undescribed
'

# A tiny perf pmu-events input for "tables import" (AMD-style pipeline
# metrics: one Level 1 node, two info metrics).
cat >pipe.json <<'JSON'
[
 {"EventName": "ls_not_halted_cyc", "EventCode": "0x76"},
 {"EventName": "ex_ret_instr", "EventCode": "0xc0"},
 {"EventName": "de_no_dispatch_per_slot.no_ops_from_frontend", "EventCode": "0x1a0", "UMask": "0x01"},
 {"MetricName": "total_dispatch_slots", "MetricExpr": "6 * ls_not_halted_cyc", "MetricGroup": "Helper"},
 {"MetricName": "frontend_bound", "MetricGroup": "PipelineL1", "ScaleUnit": "100%",
  "MetricExpr": "d_ratio(de_no_dispatch_per_slot.no_ops_from_frontend, total_dispatch_slots)"},
 {"MetricName": "retired_per_cycle", "MetricExpr": "ex_ret_instr / ls_not_halted_cyc"}
]
JSON
import_pipe() {
	out=$1
	shift
	"$TDPERF" tables import -o "$out" --name t --vendor AuthenticAMD --perf-metrics pipe.json \
		--slots 6 --counters 6,6,0 "$@"
}
desc_of() { jq -r --arg id "$2" ".metrics[] | select(.id == \$id) | .description" "$1"; }

test_expect_success 'tables import applies an extra file'"'"'s descriptions' '
	cat >words.json <<-JSON &&
	{"descriptions": {
	   "retired_per_cycle": "Instructions retired per cycle (test words).",
	   "frontend_bound": "Frontend Bound (test words).",
	   "total_dispatch_slots": "Loses to the metric entry below.",
	   "no_such_metric": "Ignored: the table has no such id."},
	 "metrics": [{"id": "total_dispatch_slots", "description": "From the metric entry."}]}
	JSON
	import_pipe with.json --extra words.json &&
	test "$(desc_of with.json retired_per_cycle)" = "Instructions retired per cycle (test words)." &&
	test "$(desc_of with.json frontend_bound)" = "Frontend Bound (test words)." &&
	test "$(desc_of with.json total_dispatch_slots)" = "From the metric entry." &&
	test -z "$(desc_of with.json no_such_metric)"
'

test_expect_success 'without descriptions, tdperf'"'"'s own words or an honest stand-in' '
	import_pipe plain.json &&
	desc_of plain.json frontend_bound >fe &&
	test_grep "frontend delivered no uop" fe &&
	desc_of plain.json retired_per_cycle >ipc &&
	test_grep "tdperf has no description of it" ipc
'

test_expect_success 'malformed descriptions are rejected naming the file' '
	echo "{\"descriptions\": [\"x\"]}" >bad-words.json &&
	test_exit_code 2 import_pipe b.json --extra bad-words.json 2>err &&
	test_grep "bad-words.json: .descriptions. is not an object" err &&
	echo "{\"descriptions\": {\"x\": 1}}" >bad-words2.json &&
	test_exit_code 2 import_pipe b.json --extra bad-words2.json 2>err &&
	test_grep "bad-words2.json: description of .x." err
'

# Zen 5: formulas and encodings from the amdzen5 files (8 dispatch slots,
# cmask=0x8, bp_redirects.resync = event 0x9f umask 0x1 in branch-prediction.json);
# the table says where each comes from.
test_expect_success 'zen5 table: amdzen5 formulas and encodings, provenance stated' '
	"$TDPERF" explain machine_clears --cpu zen5 >z.txt &&
	grep -q "bp_redirects.resync" z.txt &&
	"$TDPERF" explain fetch_latency --cpu zen5 >z.txt &&
	grep -q "cmask\\\\=0x8" z.txt &&
	jq -e ".slots_per_cycle == 8" $TD_SRCDIR/metrics/tables/zen5.json &&
	jq -e "[.events[] | select(.name == \"bp_redirects.resync\") | [.event, .umask]] == [[159, 1]]" $TD_SRCDIR/metrics/tables/zen5.json &&
	jq -e ".source | test(\"execution.json not available\")" $TD_SRCDIR/metrics/tables/zen5.json
'

test_done
