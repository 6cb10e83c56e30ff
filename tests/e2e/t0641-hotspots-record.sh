#!/bin/sh
# tdperf record --hotspots: what perf record is asked for on several CPUs
# (dry runs: a leader-sampled group of the table's Top-Down events), and a
# real recording here without a PMU (cpu-clock samples into the run).
. "$(dirname "$0")/test-lib.sh"
. "$TD_SRCDIR/tests/e2e/perfdata-lib.sh"
. "$TD_SRCDIR/tests/e2e/hotspots-lib.sh"


# hot_cmd CPU [OPTIONS]: the perf record line of a dry run
hot_cmd() {
	cpu=$1; shift
	"$TDPERF" record -n --cpu "$cpu" --hotspots "$@" -- ./prog >"dry-$cpu" &&
	grep "perf record -q -o hotspots.data" "dry-$cpu"
}

test_expect_success 'Skylake: cycles-led group of the Level 1 events, leader-sampled' '
	hot_cmd skylake -g -F 999 >cmd &&
	test_grep -q -- "-g -F999 -e .{cpu/event=0x3c,umask=0x0,any=1,name=CPU_CLK_UNHALTED.THREAD_ANY/," cmd &&
	for e in IDQ_UOPS_NOT_DELIVERED.CORE UOPS_ISSUED.ANY UOPS_RETIRED.RETIRE_SLOTS INT_MISC.RECOVERY_CYCLES_ANY; do
		test_grep -q "name=$e/" cmd || return 1
	done &&
	test_grep -q "}:S. -- ./prog\$" cmd &&
	test_grep -q "^--hotspots: Level 2 needs more counters than one group has: sampling Level 1" dry-skylake
'
test_expect_success 'Sapphire Rapids: the slots-led topdown group with Level 2 metrics' '
	hot_cmd sapphirerapids >cmd &&
	test_grep -q -- "-e .{cpu/event=0x0,umask=0x4,name=TOPDOWN.SLOTS/," cmd &&
	for e in fe-bound bad-spec retiring be-bound fetch-lat br-mispredict mem-bound heavy-ops; do
		test_grep -q "cpu/topdown-$e/" cmd || return 1
	done &&
	test_grep -q "}:S. --" cmd
'
test_expect_success 'Zen 4: led by the cycles event of the table' '
	hot_cmd zen4 -l 1 >cmd &&
	test_grep -q -- "-e .{cpu/event=0x76,umask=0x0,name=ls_not_halted_cyc/," cmd &&
	test_grep -q "name=ex_ret_ops/" cmd && test_grep -q "}:S. --" cmd
'
test_expect_success 'hardware: the sampling run is apart from the counting run' '
	"$TDPERF" record -n --cpu skylake --hotspots -- ./prog >dry &&
	test_grep -q "^run 1: perf stat" dry && test_grep -q "^run 2: perf record" dry &&
	test_grep -q "runs: 2" dry
'
test_expect_success '--locate: a third run samples the precise events of LocateWith' '
	"$TDPERF" record -n --cpu icelake --hotspots --locate -- ./prog >dry &&
	test_grep -q "^run 3: perf record -q -o locate.data -e .*cpu/event=0xc5,umask=0x0/pp" dry
'
test_expect_success '--locate on a table without LocateWith says so' '
	"$TDPERF" record -n --cpu zen4 --hotspots --locate -- ./prog >dry &&
	test_grep -q "^--locate: table zen4 names no events to locate its nodes with" dry &&
	! grep -q locate.data dry
'
test_expect_success '-g, -F and --locate without --hotspots: usage error' '
	test_exit_code 2 "$TDPERF" record -n --cpu skylake -g -- ./prog 2>err &&
	test_grep -q "go with --hotspots" err
'

require_cpu_clock_record 'record --hotspots here'

"$TDPERF" record --hotspots -g -o run -- "$W/tw-hot" 1 "$W/libtwhot.so" >rec.out 2>rec.err
rec=$?
test_expect_success 'record --hotspots -g: cpu-clock call-chain samples in the run' '
	test $rec = 0 &&
	jq -e ".files[] | select(.role == \"hotspots\") | .name == \"hotspots.data\" and .format == \"perf.data\"" run/meta.json &&
	jq -e ".files[] | select(.role == \"hotspots\") | .perf_command | index(\"-g\") and index(\"cpu-clock\")" run/meta.json
'
test_expect_success 'report --hotspots RUN: the hot functions of tw-hot' '
	"$TDPERF" report --hotspots --format csv run >hot.csv &&
	sed -n 2p hot.csv | test_grep -q "^tw_hot_a," &&
	sed -n 3p hot.csv | test_grep -q "^tw_hot_b," &&
	"$TDPERF" report --hotspots run >hot.txt &&
	test_grep -q "Top-Down per function needs hardware counters" hot.txt &&
	test_grep -q "with call chains" hot.txt
'
test_expect_success 'the counting part of the run still reports' '
	"$TDPERF" report run >report.txt && test_grep -q "task-clock" report.txt
'
test_done
