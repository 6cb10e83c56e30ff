#!/bin/sh
# The perf stat parser on real outputs: the published fixtures (text in
# two locales, mail quoting, wrapped lines, CSV, JSON, hybrid, groups) and
# outputs perf writes here with software events in every mode.
. "$(dirname "$0")/test-lib.sh"

DUMP=$TD_BUILDDIR/tests/tools/stat-dump
PUB=$FIXTURES/perf-stat-published

test_expect_success 'case-01: two sessions, counts with :u, metrics kept' '
	"$DUMP" $PUB/case-01-*.txt >out &&
	test $(grep -c "^session" out) = 2 &&
	test_grep "count TOPDOWN.SLOTS pmu=- key=slots .*value=3245820 mods=:u" out &&
	test_grep "metric .tma_frontend_bound. .*value=41.4 unit=%" out &&
	test_grep "metric .tma_memory_bound. .*value=6.1" out
'

test_expect_success 'case-05: wrapped metric names and multiplexing on the next line' '
	"$DUMP" $PUB/case-05-*.txt >out &&
	test_grep "count CPU_CLK_UNHALTED.THREAD_ANY .*value=2402640337 pct=85.63" out &&
	test_grep "count IDQ_UOPS_NOT_DELIVERED.CORE .*pct=85.81" out &&
	test_grep "metric .tma_bad_speculation. .*value=8.4" out &&
	test_grep "metric .tma_retiring. .*value=14.2" out &&
	test_grep "target=system wide" out
'

test_expect_success 'case-10: pt_BR digits (1.088 page-faults, 129,06 msec), legacy topdown' '
	"$DUMP" $PUB/case-10-*.txt >out &&
	test $(grep -c "^session" out) = 4 &&
	test $(grep -c "legacy=1" out) = 4 &&
	test_grep "count page-faults .*value=1088 " out &&
	test_grep "count task-clock .*value=129.06 unit=msec" out &&
	test_grep "elapsed=0.127164454" out &&
	test_grep "metric .retiring. .*value=56.1 unit=%" out &&
	test_grep "metric .bad speculation. .*value=10.4" out
'

test_expect_success 'case-11: a repeated event starts a new group' '
	"$DUMP" $PUB/case-11-*.txt >out &&
	test $(grep -c "^session" out) = 2 &&
	test $(grep -c "count ls_not_halted_cyc .*group=2" out) = 1 &&
	test_grep "count de_no_dispatch_per_slot.backend_stalls .*group=1" out &&
	test_grep "key=de_no_dispatch_per_slot.no_ops_from_frontend,cmask=6 group=0" out &&
	test_grep "count ex_ret_ucode_ops .*pct=50 " out
'

test_expect_success 'case-17: mail quoting, hybrid PMUs, groups per PMU, perf version' '
	"$DUMP" $PUB/case-17-*.txt >out &&
	test $(grep -c "^session.*hybrid=1" out) = 4 &&
	test_grep "count slots pmu=cpu_core key=slots group=1 .*value=1795034847" out &&
	test_grep "count TOPDOWN_RETIRING.ALL pmu=cpu_atom .*group=0 .*value=90849750" out &&
	test_grep "metric .tma_retiring. pmu=cpu_core value=14.4 unit=% group=1" out &&
	test_grep "perf=6.16.12" out
'

test_expect_success 'case-23: blocks without header, elisions' '
	"$DUMP" $PUB/case-23-*.txt >out &&
	test $(grep -c "^session" out) = 3 &&
	test_grep "count UOPS_ISSUED.ANY .*value=45936574074 " out &&
	test_grep "count INST_RETIRED.ANY .*pct=29.19" out &&
	test_grep "elided=1" out
'

test_expect_success 'case-26: JSON with the trailing ", }" of perf 6.1+, thresholds' '
	"$DUMP" $PUB/case-26-*.txt >out &&
	test_grep "format=json" out &&
	test_grep "count topdown-bad-spec .*value=1418181 pct=100 run_ns=5552708" out &&
	test_grep "metric .tma_retiring. .*value=20.422759 .*threshold=good" out
'

test_expect_success 'case-27: CSV interval, an event holding the separator' '
	"$DUMP" $PUB/case-27-*.txt >out &&
	test $(grep -c "^session" out) = 1 &&
	test_grep "format=csv .*interval=1" out &&
	test_grep "scope total .*time=1.000103288" out &&
	test_grep "key=uops_decoded.dec0,cmask=1 .*value=26472844" out &&
	test_grep "metric .tma_frontend_bound. .*value=51 .*threshold=bad" out
'

# ---- outputs perf writes here (software events) ----
E=task-clock,context-switches,page-faults
if ! have_prog perf || ! perf stat -e task-clock true >/dev/null 2>&1; then
	test_skip 'perf outputs in every mode' 'perf is not installed or cannot count here'
	test_done
fi

# gen NAME PERF-STAT-ARGS...: write perf's output to NAME
gen() {
	name=$1; shift
	perf stat -o "$name" "$@" >/dev/null 2>&1
}

# perf 6.1 --per-thread -a fails now and then ("failed to parse CPUs map")
# when a thread exits while it reads /proc: try a few times.
gen_retry() {
	for try in 1 2 3 4; do
		gen "$@" && return 0
	done
	return 1
}

check_counts() {
	# every software event was read in every scope
	for e in task-clock context-switches page-faults; do
		test_grep "count $e " "$1" >/dev/null || return 1
	done
}

for mode in "text:" "csv:-x," "csvsemi:-x;" "json:-j"; do
	name=${mode%%:*}; opt=${mode#*:}
	test_expect_success "perf stat $opt: one session, three counts" "
		gen out.$name \$opt -e $E true &&
		\"\$DUMP\" out.$name >d &&
		test \$(grep -c '^session' d) = 1 &&
		test \$(grep -c '^  count' d) = 3 &&
		check_counts d
	"
	test_expect_success "perf stat $opt -r 3: variance kept" "
		gen out.$name \$opt -r 3 -e $E true &&
		\"\$DUMP\" out.$name >d &&
		test_grep 'variance=1' d &&
		test_grep 'count task-clock .*var=' d
	"
	test_expect_success "perf stat $opt -I 100: one scope per interval" "
		gen out.$name \$opt -I 100 -e $E sleep 0.35 &&
		\"\$DUMP\" out.$name >d &&
		test \$(grep -c '^session.*interval=1' d) = 1 &&
		n=\$(grep -c '^ scope total .*time=' d) &&
		test \$n -ge 3 &&
		test \$(grep -c '^  count task-clock' d) = \$n
	"
	if perf stat -a -e task-clock true >/dev/null 2>&1; then
		test_expect_success "perf stat $opt -A -a: one scope per CPU" "
			gen out.$name \$opt -A -a -e $E sleep 0.1 &&
			\"\$DUMP\" out.$name >d &&
			test \$(grep -c '^ scope cpu label=CPU' d) = \$(getconf _NPROCESSORS_ONLN) &&
			check_counts d
		"
		test_expect_success "perf stat $opt --per-core -a: core labels and CPU counts" "
			gen out.$name \$opt --per-core -a -e $E sleep 0.1 &&
			\"\$DUMP\" out.$name >d &&
			test_grep '^ scope core label=S[0-9]*-D[0-9]*-C[0-9]* cpus=[1-9]' d
		"
		test_expect_success "perf stat $opt --per-socket -a" "
			gen out.$name \$opt --per-socket -a -e $E sleep 0.1 &&
			\"\$DUMP\" out.$name >d &&
			test_grep '^ scope socket label=S0 cpus=' d
		"
	else
		test_skip "perf stat $opt -A / --per-core / --per-socket" 'system-wide counting not allowed here'
	fi
done

if perf stat -a -e task-clock true >/dev/null 2>&1; then
	test_expect_success 'perf stat --per-thread -a: one scope per thread' '
		gen_retry out.thr --per-thread -a -e $E sleep 0.1 &&
		"$DUMP" out.thr >d &&
		test_grep "^ scope thread label=.*-[0-9][0-9]* " d &&
		test $(grep -c "^ scope thread" d) -ge 2
	'
	test_expect_success 'perf stat --per-core -I 100 -a: interval and core together' '
		gen out.ci --per-core -I 100 -a -e $E sleep 0.25 &&
		"$DUMP" out.ci >d &&
		test_grep "^ scope core label=S0-D0-C0 cpus=1 groups=1 time=" d
	'
else
	test_skip 'perf stat -a outputs written here (--per-thread and the like)' 'perf stat -a cannot count task-clock here (root or perf_event_paranoid <= 0 is needed)'
fi
test_expect_success 'perf stat --per-thread -p PID (CSV)' '
	sleep 2 & pid=$! &&
	gen out.pt --per-thread -x, -p $pid -e $E sleep 0.2 ; kill $pid 2>/dev/null;
	"$DUMP" out.pt >d &&
	test_grep "^ scope thread label=sleep-$pid" d
'
test_expect_success 'hardware events <not supported> here' '
	gen out.ns -e cycles,instructions true &&
	"$DUMP" out.ns >d &&
	test_grep "count cycles .*status=2" d
'

test_done
