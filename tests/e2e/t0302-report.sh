#!/bin/sh
# tdperf report: the numbers are perf's numbers on every published output;
# the JSON document's schema; the text and CSV renderings; perf outputs
# written here in every mode.
. "$(dirname "$0")/test-lib.sh"

PUB=$FIXTURES/perf-stat-published

# checked FIXTURE: print "compared mismatches" over the nodes whose value
# perf printed and we computed from measured inputs (not approximate; in
# legacy --topdown sessions every node: perf's own legacy definition is
# what the approximation reproduces; never a node that took perf's value,
# source "perf", which would agree by construction).  Tolerance: 0.06 points.
checked() {
	"$TDPERF" report --format json --scopes all "$1" >doc.json &&
	jq -r '
	  (.sessions | map({key: (.index | tostring), value: .legacy_topdown}) | from_entries) as $legacy |
	  [ .scopes[] | .session as $s | .nodes[]
	    | select(.perf_value != null and .value != null and .source == "counts" and
	             (.approximate == false or $legacy[$s | tostring]))
	    | (.value - .perf_value) | fabs ] as $d |
	  "\($d | length) \([$d[] | select(. > 0.0006)] | length)"' doc.json
}

for c in "01 4" "05 4" "10 16" "11 8" "17 32" "23 12" "26 1" "27 4" "42 16" "43 6" "45 16" "46 12"; do
	set -- $c
	test_expect_success "case-$1: $2 Level-1/2 values perf printed, all within 0.06 points" "
		test \"\$(checked $PUB/case-$1-*.txt)\" = \"$2 0\"
	"
done

test_expect_success 'legacy --topdown (case 10): divided by the sum of the four events' '
	"$TDPERF" report --format json $PUB/case-10-*.txt >d.json &&
	jq -e ".sessions[0].legacy_topdown == true" d.json &&
	ret=$(jq ".scopes[0].nodes[] | select(.id == \"retiring\") | .value" d.json) &&
	approx_eq "$ret" "$(calc "1546523722 / (1546523722 + 287984603 + 192997631 + 731352157)")" 1e-9 &&
	jq -e "[.scopes[0].nodes[] | select(.id == \"frontend_bound\") | .reason | test(\"taken as 0\")] == [true]" d.json
'

# perf <= 6.2 --topdown without a slots count (Ice Lake era perf in interval
# mode printed none): perf divided by the sum of the four topdown events.
# Input: case 40 with its two slots lines taken out (the only edit).
test_expect_success 'legacy --topdown without slots: the sum of the four stands for slots, as perf did' '
	grep -v " slots  " $PUB/case-40-*.txt >noslots.txt &&
	! grep -q " slots " noslots.txt &&
	"$TDPERF" report --format json noslots.txt >d.json &&
	jq -e "[.scopes[0].nodes[] | select(.level == 1) | .value != null] | all" d.json &&
	fe=$(jq ".scopes[0].nodes[] | select(.id == \"frontend_bound\") | .value" d.json) &&
	approx_eq "$fe" "$(calc "8018664899041 / (7377211958188 + 3145247374138 + 8018664899041 + 4167103609622)")" 1e-9 &&
	jq -e "[.scopes[0].nodes[] | select(.id == \"frontend_bound\") | .reason | test(\"sum of the four\")] == [true]" d.json &&
	jq -e ".scopes[0].bottleneck.path == [\"frontend_bound\"]" d.json
'

# The kernel's pre-Ice Lake topdown events (case 44, perf 5.17 era): not an
# Ice Lake; Level 1 as perf computed it from them, absurd values and all.
test_expect_success 'pre-Ice Lake --topdown events: Level 1 as perf computed it, not called Ice Lake' '
	"$TDPERF" report --format json $PUB/case-44-*.txt >d.json &&
	jq -e ".run.cpu.microarchitecture != \"icelake\" and (.run.cpu.name | test(\"^Intel before Ice Lake\"))" d.json &&
	jq -e ".run.cpu.confidence | test(\"pre-Ice Lake topdown events\")" d.json &&
	fe=$(jq ".scopes[0].nodes[] | select(.id == \"frontend_bound\") | .value" d.json) &&
	approx_eq "$fe" "$(calc "2356235 / 194420")" 1e-9 &&
	bs=$(jq ".scopes[0].nodes[] | select(.id == \"bad_speculation\") | .value" d.json) &&
	approx_eq "$bs" "$(calc "(1073595 - 944133 + 226132) / 194420")" 1e-9 &&
	test "$(checked $PUB/case-44-*.txt)" = "2 0" &&
	jq -e "[.scopes[0].nodes[] | select(.level == 1) | .reason | test(\"pre-Ice Lake topdown events\")] | all" d.json
'

# Gracemont (E-core) Level 2 under perf's own ids: tma_base, tma_ms_uops,
# tma_resource_bound (case 45, Alder Lake, LKML 2023).
test_expect_success 'E-core perf ids: tma_base, tma_ms_uops, tma_resource_bound beside ours' '
	"$TDPERF" report --format json $PUB/case-45-*.txt >d.json &&
	jq -e "[.scopes[] | select(.pmu == \"cpu_atom\") | .nodes[] | select(.perf_name == \"tma_base\") | [.id, .perf_value]] == [[\"light_operations\", 0.029]]" d.json &&
	jq -e "[.scopes[] | select(.pmu == \"cpu_atom\") | .nodes[] | select(.perf_name == \"tma_ms_uops\") | [.id, .perf_value]] == [[\"heavy_operations\", 0.025]]" d.json &&
	jq -e "[.scopes[] | select(.pmu == \"cpu_atom\") | .metrics[] | select(.perf_name == \"tma_resource_bound\") | .perf_value] == [37.9]" d.json &&
	rb=$(jq ".scopes[] | select(.pmu == \"cpu_atom\") | .metrics[] | select(.id == \"resource_bound\") | .value" d.json) &&
	approx_eq "$rb" "$(calc "100 * 222579768 / (5 * 117323055)")" 1e-6 &&
	"$TDPERF" explain tma_ms_uops --cpu alderlake_atom >e.txt &&
	grep -q "^heavy_operations: Heavy Operations" e.txt
'

# perf 5.x printed Level 1 as 0..1 ratios (0.96 Backend_Bound) and asked for
# no *_ANY events: its SMT-off formula (case 47).  Was n/a: #smt_on unknown.
test_expect_success 'perf 5.x ratio metrics: SMT inferred from perf, values within its two decimals' '
	"$TDPERF" report --format json $PUB/case-47-*.txt >d.json &&
	jq -e ".run.smt.on == false and (.run.smt.reason | test(\"perf.s printed values\"))" d.json &&
	jq -e "[.scopes[0].nodes[] | select(.level == 1) | .perf_value != null and .value != null] | all" d.json &&
	jq -e "[.scopes[0].nodes[] | select(.perf_value != null) | ((.value - .perf_value) | fabs) <= 0.005] | all" d.json &&
	jq -e "[.scopes[0].nodes[] | select(.id == \"backend_bound\") | .perf_resolution] == [0.01]" d.json &&
	"$TDPERF" report $PUB/case-47-*.txt >t &&
	grep -E "Backend Bound +95\.7 % .* 96\.0 \$" t
'

# perf prints a group's events together and a metric beside its group's
# first event: backend_stalls (with its metric) and the ls_not_halted_cyc
# after it are one group, frontend's no_ops_from_frontend and the cycles
# after it another (analyze/groups.c).
test_expect_success 'case 11 (Zen 4): each node on the group holding its events' '
	"$TDPERF" report --format json $PUB/case-11-*.txt >d.json &&
	jq -e "[.scopes[0].nodes[] | select(.id == \"backend_bound\") | .group] == [2]" d.json &&
	be=$(jq ".scopes[0].nodes[] | select(.id == \"backend_bound\") | .value" d.json) &&
	approx_eq "$be" "$(calc "2266091111 / (6 * 30840562367)")" 1e-9 &&
	fe=$(jq ".scopes[0].nodes[] | select(.id == \"frontend_bound\") | .value" d.json) &&
	approx_eq "$fe" "$(calc "120535278946 / (6 * 30882682226)")" 1e-9
'

test_expect_success 'Zen 4 PipelineL2 (case 43): Level-2 nodes on their own group cycles, as perf printed' '
	"$TDPERF" report --format json $PUB/case-43-*.txt >d.json &&
	mc=$(jq ".scopes[0].nodes[] | select(.id == \"heavy_operations\") | .value" d.json) &&
	approx_eq "$mc" "$(calc "54989538537 / (6 * 30905255222)")" 1e-9 &&
	jq -e "[.scopes[0].nodes[] | select(.id == \"heavy_operations\") | .perf_value] == [0.297]" d.json
'

test_expect_success 'Zen 4 PipelineL2 with --pid (case 42): four groups, ex_ret_ops in two' '
	"$TDPERF" report --format json $PUB/case-42-*.txt >d.json &&
	jq -e "[.scopes[0].nodes[] | select(.perf_value != null) | .group] | unique == [0, 1, 2, 3]" d.json &&
	mb=$(jq ".scopes[1].nodes[] | select(.id == \"memory_bound\") | .value" d.json) &&
	approx_eq "$mb" "$(calc "183033146655 / (6 * 35701299051) * 24476941257 / 28126848218")" 1e-9
'

test_expect_success 'case 17 run C: tma_retiring from the second cpu_core group, as perf did' '
	"$TDPERF" report --format json $PUB/case-17-*.txt >d.json &&
	jq -e "[.scopes[] | select(.id == \"s3/total#cpu_core\") | .nodes[] | select(.id == \"retiring\") | .group] == [1]" d.json &&
	jq -e "[.scopes[] | select(.id == \"s3/total#cpu_core\") | .nodes[] | select(.id == \"frontend_bound\") | .group] == [0]" d.json
'

# ---- the JSON document ----
test_expect_success 'schema: versioned, every scope and node complete and typed' '
	for f in $PUB/case-*.txt; do
		# case 31 has metric values only: no event tells its CPU
		cpu= && case $f in *case-31-*) cpu="--cpu neoverse-v3" ;; esac
		"$TDPERF" report --format json $cpu "$f" >d.json || exit 1
		jq -e "
		  . as \$d |
		  .schema == \"tdperf-report\" and .version == 2 and .run.format == \"tdperf-run\" and
		  (.sessions | length) >= 1 and (.scopes | length) >= 1 and
		  ([.scopes[].id] | length) == ([.scopes[].id] | unique | length) and
		  all(.scopes[]; .kind | IN(\"total\",\"interval\",\"cpu\",\"core\",\"die\",\"socket\",\"node\",\"thread\")) and
		  all(.scopes[] | select(.folded != true);
		      (.nodes | type) == \"array\" and (.events | type) == \"array\" and (.metrics | type) == \"array\" and
		      (.warnings | type) == \"array\" and (.perf_metrics | type) == \"array\") and
		  all(.scopes[] | select(.folded == true);
		      \$d.columns[.columns] as \$c | (\$c | type) == \"object\" and
		      ([\$c.nodes, \$c.events] | map(length) | max) as \$n |
		      all(to_entries[] | select(.value | type == \"array\"); (.value | length) == \$n) and
		      all(.reason, .perf_name, .estimate, .sanity, .status | if type == \"array\" then .[] else . end;
		          . == null or ((type == \"number\") and . >= 0 and . < (\$d.strings | length)))) and
		  all(.scopes[] | select(.folded != true) | .nodes[];
		      (.id | type) == \"string\" and (.name | type) == \"string\" and (.level | type) == \"number\" and
		      (.flagged | type) == \"boolean\" and (.bottleneck | type) == \"boolean\" and
		      (.approximate | type) == \"boolean\" and
		      ((.value | type) == \"number\" or ((.value == null) and (.reason | type) == \"string\")) and
		      ((.perf_value == null) or (.perf_value | type) == \"number\")) and
		  all(.scopes[] | select(.folded != true) | .events[];
		      (.status | IN(\"ok\",\"not counted\",\"not supported\")) and (.scaled | type) == \"boolean\" and
		      ((.value | type) == \"number\" or .status != \"ok\")) and
		  all(.warnings[]; (.severity | type) == \"string\" and (.text | type) == \"string\")
		" d.json >/dev/null || { echo "schema check failed for $f"; exit 1; }
	done
'

test_expect_success 'values are fractions, parents hold their children (within 1 point)' '
	"$TDPERF" report --format json $PUB/case-23-*.txt >d.json &&
	jq -e "all(.scopes[].nodes[] | select(.value != null); .value > -0.05 and .value < 1.05)" d.json &&
	jq -e "[.scopes[1].nodes[] | select(.level == 1 and .value != null) | .value] | add | . > 0.99 and . < 1.01" d.json
'

test_expect_success 'multiplexing is marked on the events and the scope' '
	"$TDPERF" report --format json $PUB/case-05-*.txt >d.json &&
	jq -e ".scopes[0].multiplexed == true" d.json &&
	jq -e "[.scopes[0].events[] | select(.name == \"UOPS_ISSUED.ANY\") | .running_pct, .scaled] == [56.7, true]" d.json
'

# ---- text ----
test_expect_success 'text: tree, bars, flags, bottleneck, perf column, marks legend' '
	"$TDPERF" report $PUB/case-17-*.txt >t &&
	test_grep "^-- total, PMU cpu_core --" t &&
	test_grep "^-- total, PMU cpu_atom --" t &&
	test_grep "^  > Backend Bound  *35.7 %  #* *!  *35.7" t &&
	test_grep "Bottleneck: Backend Bound: 35.7 % of slots" t &&
	test_grep "^Marks: " t
'

test_expect_success 'text: below-threshold nodes hidden unless -v; --level' '
	"$TDPERF" report $PUB/case-23-*.txt >t0 &&
	"$TDPERF" report -v $PUB/case-23-*.txt >t1 &&
	"$TDPERF" report --level 1 $PUB/case-23-*.txt >t2 &&
	test_grep "nodes* below threshold or not computable hidden" t0 &&
	test $(wc -l <t1) -gt $(wc -l <t0) &&
	test_grep "Light Operations" t1 && ! test_grep "Light Operations" t0 >/dev/null &&
	! grep -E "^ +(> )?Memory Bound +([0-9]|n/a)" t2 && test_grep "Backend Bound" t2
'

test_expect_success 'text: approximate and multiplexed marks' '
	"$TDPERF" report $PUB/case-05-*.txt >t &&
	test_grep "Frontend Bound .*!m " t &&
	"$TDPERF" report $PUB/case-26-*.txt >t &&
	test_grep "Backend Bound .*!~ " t
'

test_expect_success 'text: colour only when asked or on a terminal' '
	"$TDPERF" report --color=always $PUB/case-05-*.txt >c &&
	grep -q "$(printf "\033")\\[" c &&
	"$TDPERF" report $PUB/case-05-*.txt >n &&
	! grep -q "$(printf "\033")" n &&
	"$TDPERF" report --color=never $PUB/case-05-*.txt >n2 && cmp n n2
'

test_expect_success 'text: interval scopes folded to one line each; --scopes all unfolds' '
	"$TDPERF" report $PUB/case-27-*.txt >t &&
	test_grep "1 per-interval/CPU/thread scopes, folded" t &&
	test_grep "total (sum of 1 interval scopes)" t &&
	"$TDPERF" report --scopes all $PUB/case-27-*.txt >t2 &&
	test_grep "^-- total, interval ending at 1.000 s --" t2
'

# ---- CSV ----
test_expect_success 'csv: one row per scope and node, same numbers as JSON' '
	"$TDPERF" report --format csv $PUB/case-11-*.txt >c.csv &&
	"$TDPERF" report --format json $PUB/case-11-*.txt >d.json &&
	test_grep "^scope,session,kind,label,pmu,time,node,name,parent,level,value" c.csv &&
	# the node table ends at the first empty line (the guidance section follows)
	test $(($(sed "/^\$/,\$d" c.csv | wc -l) - 1)) = $(jq "[.scopes[].nodes[]] | length" d.json) &&
	v=$(grep "^s2/total,.*,heavy_operations," c.csv | cut -d, -f11) &&
	approx_eq "$v" "$(jq ".scopes[1].nodes[] | select(.id == \"heavy_operations\") | .value" d.json)" 1e-9 &&
	grep "^s2/total,.*,heavy_operations," c.csv | cut -d, -f17 | grep -qx 0.299
'

# ---- run directories ----
test_expect_success 'a run directory reports the same numbers as its file' '
	"$TDPERF" import -q -o run $PUB/case-23-*.txt &&
	"$TDPERF" report --format json run | jq -c "[.scopes[].nodes[].value]" >a &&
	"$TDPERF" report --format json $PUB/case-23-*.txt | jq -c "[.scopes[].nodes[].value]" >b &&
	cmp a b
'

test_expect_success 'the default run is tdperf.data' '
	"$TDPERF" import -q $PUB/case-05-*.txt && test -d tdperf.data &&
	"$TDPERF" report >t && test_grep "Frontend Bound  *41.1 %" t
'

test_expect_success 'a run of a newer format version is refused naming the version' '
	"$TDPERF" import -q -o newer $PUB/case-05-*.txt &&
	jq ".version = 99" newer/meta.json >m && mv m newer/meta.json &&
	test_exit_code 2 "$TDPERF" report newer 2>err && test_grep "version 99" err
'

test_expect_success 'report -o writes the whole report or nothing' '
	"$TDPERF" report -o r.txt $PUB/case-05-*.txt && test_grep "Bottleneck" r.txt &&
	test_exit_code 2 "$TDPERF" report -o r2.txt nothing-here 2>err && ! test -e r2.txt
'

# ---- perf outputs written here ----
E=task-clock,context-switches,page-faults
if ! have_prog perf || ! perf stat -e task-clock true >/dev/null 2>&1; then
	test_skip 'reports of perf outputs written here' 'perf is not installed or cannot count here'
	test_done
fi

test_expect_success 'perf -x, -I 100: per-interval scopes and their sum' '
	perf stat -o i.csv -x, -I 100 -e $E sleep 0.35 2>/dev/null &&
	"$TDPERF" report --format json --scopes all i.csv >d.json &&
	jq -e ".table == null" d.json &&
	n=$(jq "[.scopes[] | select(.time != null)] | length" d.json) && test $n -ge 3 &&
	sum=$(jq "[.scopes[] | select(.time != null) | .events[] | select(.name == \"page-faults\" and .status == \"ok\") | .value] | add" d.json) &&
	tot=$(jq ".scopes[0].events[] | select(.name == \"page-faults\") | .value" d.json) &&
	approx_eq "$sum" "$tot" 0 &&
	"$TDPERF" report i.csv >t && test_grep "no formula table applies: counts only" t &&
	test_grep "per-interval/CPU/thread scopes, folded" t
'

for opt in "" "-x;" "-j" "-r 3"; do
	test_expect_success "perf stat $opt: text, JSON and CSV reports" "
		perf stat -o o.txt \$opt -e $E true 2>/dev/null &&
		\"\$TDPERF\" report o.txt >t && test_grep 'task-clock' t &&
		\"\$TDPERF\" report --format json o.txt | jq -e '.scopes[0].events | length == 3' &&
		\"\$TDPERF\" report --format csv o.txt >c && test \$(wc -l <c) = 4
	"
done

test_expect_success 'perf stat record: the perf.data file goes through the perf.data reader' '
	perf stat record -o sr.data -e $E true >/dev/null 2>&1 &&
	"$TDPERF" import -q -o sr sr.data &&
	jq -e ".files[0].format == \"perf.data\"" sr/meta.json &&
	cmp sr.data sr/input/sr.data &&
	"$TDPERF" report --format json sr | jq -e "[.scopes[0].events[] | select(.name == \"page-faults\") | .status] == [\"ok\"]"
'

if perf stat -a -e task-clock true >/dev/null 2>&1; then
	test_expect_success 'perf -A -a: one folded line per CPU, a summed total' '
		perf stat -o a.txt -A -a -e $E sleep 0.1 2>/dev/null &&
		"$TDPERF" report --format json a.txt >d.json &&
		jq -e ".scopes[0].derived | test(\"sum of [0-9]+ cpu scopes\")" d.json &&
		test $(jq "[.scopes[] | select(.kind == \"cpu\")] | length" d.json) = $(getconf _NPROCESSORS_ONLN)
	'
	test_expect_success 'perf --per-thread -a: thread scopes' '
		for try in 1 2 3 4; do perf stat -o th.txt --per-thread -a -e $E sleep 0.1 2>/dev/null && break; done &&
		"$TDPERF" report --format json th.txt | jq -e "[.scopes[] | select(.kind == \"thread\")] | length > 1"
	'
else
	test_skip 'perf -A -a and --per-thread -a: folded lines per CPU and thread scopes' 'perf stat -a cannot count task-clock here (root or perf_event_paranoid <= 0 is needed)'
fi

test_expect_success 'case 23: the warning that the file holds 3 sessions comes before the first one' '
	"$TDPERF" report $PUB/case-23-*.txt >t3 &&
	w=$(grep -n "^warning: .* holds 3 perf stat sessions" t3 | cut -d: -f1) &&
	s1=$(grep -n "^== session 1: " t3 | cut -d: -f1) &&
	test -n "$w" && test -n "$s1" && test "$w" -lt "$s1"
'

test_done
