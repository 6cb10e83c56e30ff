#!/bin/sh
# The hardware-counter path of tdperf record end to end, through
# tests/replay-perf: a perf test double (chosen with TDPERF_PERF) that
# answers with the counts of a published real perf stat output.  It checks
# the perf command tdperf builds, the run directory, and the report that
# reads it, against the Top-Down values perf itself printed.
. "$(dirname "$0")/test-lib.sh"

REPLAY=$TD_BUILDDIR/tests/replay-perf
PUB=$FIXTURES/perf-stat-published
if ! test -x "$REPLAY" || ! have_prog jq; then
	test_skip 'record through the replay perf' 'tests/replay-perf not built or jq missing'
	test_done
fi
TDPERF_PERF=$REPLAY
TDPERF_REPLAY_LOG=$TEST_DIR/replay.log
export TDPERF_PERF TDPERF_REPLAY_LOG

# Skylake, SMT on, TopdownL1 (perf printed 14.2 % retiring, 41.1 % frontend
# bound, 36.2 % backend bound, 8.4 % bad speculation).
skl() {
	TDPERF_REPLAY_FIXTURE=$PUB/case-05-skl-irogers-topdownL1-systemwide.txt \
		"$TDPERF" record --cpu skylake --assume-pmu --smt on "$@"
}

test_expect_success 'the replay perf says it is a replay' '
	"$REPLAY" --version >out &&
	test_grep "replay" out
'

test_expect_success 'record attaches one perf stat with the Level-1 group, enabled before the workload' '
	skl -l 1 -o l1.data -- sh -c "exit 0" 2>err &&
	grep " stat " replay.log >stat-cmds && test_line_count = 1 stat-cmds &&
	test_grep -- "-x, --no-big-num -o .*perf-stat-1.csv" stat-cmds &&
	test_grep -- "-e task-clock,context-switches,cpu-migrations,page-faults,{" stat-cmds &&
	test_grep -- " -p [0-9][0-9]* --control fd:[0-9]*,[0-9]* -D -1$" stat-cmds &&
	for ev in CPU_CLK_UNHALTED.THREAD_ANY IDQ_UOPS_NOT_DELIVERED.CORE UOPS_ISSUED.ANY \
		  UOPS_RETIRED.RETIRE_SLOTS INT_MISC.RECOVERY_CYCLES_ANY; do
		test_grep "name=$ev/" stat-cmds >/dev/null || exit 1
	done
'

test_expect_success 'the run directory holds the raw output, the table and the schedule' '
	test_grep "^# tdperf replay-perf: counts replayed from" l1.data/perf-stat-1.csv &&
	test_grep "^2402640337,,CPU_CLK_UNHALTED.THREAD_ANY," l1.data/perf-stat-1.csv &&
	cmp l1.data/table.json "$(TDPERF_PERF= "$TDPERF" tables path skylake)" &&
	jq -e ".mode == \"hardware\" and .hardware_pmu == true and .table.name == \"skylake\"" l1.data/meta.json &&
	jq -e ".smt.on == true and .smt.source == \"--smt\" and .cpu.source == \"--cpu\"" l1.data/meta.json &&
	jq -e "(.groups | length) == 1 and (.groups[0].metrics | length) == 4" l1.data/meta.json &&
	jq -e ".analyses.topdown.status == \"ok\" and .multiplexed == false" l1.data/meta.json
'

if "$TDPERF" report --help >/dev/null 2>&1 && ! "$TDPERF" report l1.data 2>&1 | grep -q "not built"; then
	test_expect_success 'the report of the recorded run shows the values perf printed' '
		"$TDPERF" report l1.data >report.txt &&
		for pair in "Frontend Bound:41.1" "Bad Speculation:8.4" "Backend Bound:36.2" "Retiring:14.2"; do
			node=${pair%%:*} want=${pair##*:}
			got=$(sed -n "s/^ *[>!~ ]*$node  *\\([0-9.]*\\) %.*/\\1/p" report.txt | head -1) &&
			test -n "$got" && approx_eq "$got" "$want" 0.051 || { echo "$node: $got, perf $want"; exit 1; }
		done
	'
else
	test_skip 'the report of the recorded run shows the values perf printed' 'tdperf report is not built yet'
fi

test_expect_success 'the workload runs once and its exit status is forwarded' '
	: >replay.log &&
	test_exit_code 5 skl -l 1 -o five.data -- sh -c "echo ran >>ran.txt; exit 5" 2>err &&
	test_line_count = 1 ran.txt &&
	jq -e ".exit_status == 5" five.data/meta.json
'

test_expect_success '--no-multiplex: one run per group, each with instructions, compared' '
	: >replay.log && rm -f ran.txt &&
	TDPERF_REPLAY_FIXTURE=$PUB/case-23-cml-multidim-topdownL1-L2-L3.txt TDPERF_REPLAY_SESSION=2 \
		"$TDPERF" record --cpu skylake --assume-pmu --smt on -l 2 --no-multiplex --tolerance 90 -o nm.data \
		-- sh -c "echo ran >>ran.txt; sleep 0.2" 2>err &&
	g=$(jq ".groups | length" nm.data/meta.json) && test "$g" -gt 1 &&
	test_line_count = "$g" ran.txt &&
	test "$(grep -c " stat " replay.log)" = "$g" &&
	test "$(jq ".runs | length" nm.data/meta.json)" = "$g" &&
	jq -e "[.runs[].instructions] | unique == [49512005695]" nm.data/meta.json &&
	jq -e ".runs[0].comparable == true" nm.data/meta.json &&
	for i in $(seq 1 $g); do test -f nm.data/perf-stat-$i.csv || exit 1; done
'

test_expect_success 'runs that differ are reported as not comparable' '
	TDPERF_REPLAY_FIXTURE=$PUB/case-23-cml-multidim-topdownL1-L2-L3.txt TDPERF_REPLAY_SESSION=2 \
		"$TDPERF" record --cpu skylake --assume-pmu --smt on -l 2 --no-multiplex -o nc.data \
		-- sh -c "if test -e slow; then sleep 2; else touch slow; sleep 0.1; fi" 2>err &&
	test_grep "runs not comparable" err &&
	jq -e ".runs[0].comparable == false" nc.data/meta.json
'

# Alder Lake hybrid, TopdownL1 on both PMUs (case 17, session 1: perf
# printed cpu_core 19.7 / 10.4 / 35.7 / 34.1 % and cpu_atom 34.2 / 15.1 /
# 38.4 / 12.2 % for frontend / bad speculation / backend / retiring).
test_expect_success 'hybrid: both PMUs recorded, both tables kept, perf'"'"'s values on both' '
	TDPERF_REPLAY_FIXTURE=$PUB/case-17-adl-hybrid-irogers-topdownL1-4runs.txt \
		"$TDPERF" record --cpu alderlake --assume-pmu --smt on -l 1 -o hyb.data -- true 2>err &&
	jq -e ".table.file == \"table.json\" and .table.cpu_atom.name == \"alderlake_atom\"" hyb.data/meta.json &&
	test -f hyb.data/table-cpu_atom.json &&
	jq -e "[.groups[].pmu] == [\"cpu_core\", \"cpu_atom\"] and .multiplexed == false" hyb.data/meta.json &&
	test_grep "^[0-9]*,,cpu_atom.TOPDOWN_RETIRING.ALL," hyb.data/perf-stat-1.csv &&
	"$TDPERF" report --format json hyb.data >hyb.json &&
	jq -e ".sessions[0].hybrid == true and ([.scopes[].pmu] | sort) == [\"cpu_atom\", \"cpu_core\"]" hyb.json &&
	for want in cpu_core:frontend_bound:0.197 cpu_core:bad_speculation:0.104 cpu_core:backend_bound:0.357 \
		    cpu_core:retiring:0.341 cpu_atom:frontend_bound:0.342 cpu_atom:bad_speculation:0.151 \
		    cpu_atom:backend_bound:0.384 cpu_atom:retiring:0.122; do
		pmu=${want%%:*} rest=${want#*:} id=${rest%%:*} v=${rest#*:}
		jq -e --arg p $pmu --arg id $id --argjson v $v \
			".scopes[] | select(.pmu == \$p) | .nodes[] | select(.id == \$id) | (.value - \$v | fabs) < 0.0006" \
			hyb.json >/dev/null || { echo "$pmu $id: not $v"; exit 1; }
	done
'

test_expect_success 'SIGINT during a hardware recording keeps a complete run' '
	TDPERF_REPLAY_FIXTURE=$PUB/case-05-skl-irogers-topdownL1-systemwide.txt \
		"$TDPERF" record --cpu skylake --assume-pmu --smt on -l 1 -o int.data -- sleep 30 2>int.err &
	pid=$! n=0
	until grep -q "Events enabled" int.data.tmp-*/perf-stderr-1.txt 2>/dev/null; do
		n=$((n + 1)); test $n -lt 100 || exit 1; sleep 0.1
	done
	kill -INT $pid
	set +e; wait $pid; rc=$?; set -e
	test $rc = 130 &&
	jq -e ".interrupted == true and .signal == \"SIGINT\"" int.data/meta.json &&
	test_grep "CPU_CLK_UNHALTED.THREAD_ANY" int.data/perf-stat-1.csv
'

test_done
