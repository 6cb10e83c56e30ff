#!/bin/sh
# tdperf record end to end with the real perf of this machine: the run
# directory, exit status forwarding, signals, failing and missing
# workloads.  On a machine without a hardware PMU this is the software
# path (task-clock, context switches, migrations, page faults, sched
# tracepoints); the expectations follow what perf itself says here.
. "$(dirname "$0")/test-lib.sh"

if ! have_prog perf || ! have_prog jq; then
	test_skip 'tdperf record with real perf' 'perf or jq is not installed'
	test_done
fi
if ! perf stat -x, -e task-clock -- true >/dev/null 2>&1; then
	test_skip 'tdperf record with real perf' 'perf stat cannot count task-clock here'
	test_done
fi
if perf stat -x, -e cycles -- true 2>&1 | grep -q "not supported"; then
	pmu=no
else
	pmu=yes
fi

# A busy loop of a known size (a shell loop: no compiler needed).
busy='i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done'

csv_value() { # csv_value FILE EVENT: the count perf printed
	awk -F, -v e="$2" '$3 == e { print $1; exit }' "$1"
}

test_expect_success 'record writes a complete run directory' '
	"$TDPERF" record -- sh -c "$busy" >out 2>err &&
	test_grep "^tdperf: note: wrote tdperf.data (1 run); see it with: tdperf report$" err &&
	test -d tdperf.data && ! ls -d tdperf.data.tmp-* 2>/dev/null &&
	jq -e ".format == \"tdperf-run\" and .version == 1 and .kind == \"record\"" tdperf.data/meta.json &&
	jq -e ".exit_status == 0 and .signal == null" tdperf.data/meta.json &&
	jq -e ".workload == [\"sh\", \"-c\", \"$busy\"]" tdperf.data/meta.json &&
	for f in $(jq -r ".files[].name" tdperf.data/meta.json); do
		test -f "tdperf.data/$f" || { echo "listed but missing: $f"; exit 1; }
	done &&
	for f in $(cd tdperf.data && ls); do
		test "$f" = meta.json || jq -e --arg f "$f" "any(.files[]; .name == \$f)" tdperf.data/meta.json >/dev/null ||
			{ echo "not listed in meta.json: $f"; exit 1; }
	done
'

test_expect_success 'record again: says that the previous run is kept as .old' '
	"$TDPERF" record -o again.data -- true 2>err1 &&
	test_grep "^tdperf: note: wrote again.data (1 run); see it with: tdperf report again.data$" err1 &&
	cp again.data/meta.json first-meta.json &&
	"$TDPERF" record -o again.data -- true 2>err2 &&
	test_grep "^tdperf: note: wrote again.data (1 run); the previous run is kept as again.data.old;" err2 &&
	cmp first-meta.json again.data.old/meta.json
'

test_expect_success 'perf stat counted the software events of the workload' '
	csv=tdperf.data/perf-stat-1.csv &&
	for e in task-clock context-switches cpu-migrations page-faults; do
		v=$(csv_value $csv $e) && test -n "$v" || { echo "no $e in $csv"; exit 1; }
	done &&
	tc=$(csv_value $csv task-clock) &&
	awk -v t="$tc" "BEGIN { exit !(t > 1) }" &&
	pf=$(csv_value $csv page-faults) && test "$pf" -gt 10 &&
	jq -e ".files[] | select(.name == \"perf-stat-1.csv\") | .perf_command[0:4] == [\"perf\", \"stat\", \"-x,\", \"--no-big-num\"]" tdperf.data/meta.json
'

test_expect_success 'task-clock is CPU time: a sleeping workload uses little of its wall time' '
	"$TDPERF" record -o sleep.data -- sleep 0.3 2>err &&
	tc=$(csv_value sleep.data/perf-stat-1.csv task-clock) &&
	secs=$(jq .runs[0].seconds sleep.data/meta.json) &&
	awk -v t="$tc" -v s="$secs" "BEGIN { exit !(t < 100 && s >= 0.3 && s < 5) }" &&
	cs=$(csv_value sleep.data/perf-stat-1.csv context-switches) && test "$cs" -ge 1
'

if test $pmu = no; then
	test_expect_success 'without a PMU meta.json says which analyses are impossible and why' '
		jq -e ".hardware_pmu == false and .mode == \"software\" and .table == null" tdperf.data/meta.json &&
		for a in topdown cpi_stacks flops frontend roofline; do
			jq -e --arg a $a ".analyses[\$a].status == \"impossible\" and (.analyses[\$a].reason | test(\"PMU\"))" \
				tdperf.data/meta.json || exit 1
		done &&
		jq -e ".analyses.software_counts.status == \"ok\"" tdperf.data/meta.json &&
		test_grep "no hardware PMU" err
	'
fi

if test $pmu = no; then
	test_expect_success 'the report of a no-PMU run: Top-Down not measured, in one line, never a tree of zeros' '
		"$TDPERF" report >rep.txt 2>rep.err &&
		test_grep "Top-Down not measured: no hardware counts" rep.txt &&
		test_grep "when recorded: no hardware PMU" rep.txt &&
		! grep -q "Frontend Bound" rep.txt &&
		"$TDPERF" report --format json >rep.json &&
		jq -e ".scopes[0].hardware_counts == false" rep.json &&
		jq -e ".scopes[0].bottleneck.sentence | startswith(\"Top-Down not measured: no hardware counts\")" rep.json &&
		# The same run read with a table that has a tree, whatever this
		# machine is (AMD Zen 1-3 tables have none): every node n/a, why.
		"$TDPERF" report --cpu skylakex --format json >tree.json &&
		jq -e "[.scopes[0].nodes[]] | length > 10" tree.json &&
		jq -e "[.scopes[0].nodes[] | select(.value != null or .flagged or .bottleneck)] | length == 0" tree.json &&
		jq -e "[.scopes[0].nodes[] | select(.reason | startswith(\"not measured: no hardware counts\") | not)] | length == 0" tree.json &&
		jq -e "[.scopes[0].metrics[] | select(.value != null)] | length == 0" tree.json &&
		jq -e ".scopes[0].bottleneck.path == [] and .scopes[0].stacks == {}" tree.json &&
		"$TDPERF" report --cpu skylakex --format csv >rep.csv &&
		test_grep "^s1/total,1,total,,,,frontend_bound,Frontend Bound,,1,,slots,0,0,0,0,,\"\?not measured" rep.csv
	'

	test_expect_success 'read with a table that has no Top-Down tree (AMD Zen 3), the one line says that too' '
		"$TDPERF" report --cpu zen3 >zen3.txt &&
		test_grep "Top-Down not measured: no hardware counts.*; and this CPU has no Top-Down tree to measure. The PMU has no dispatch-slot events" zen3.txt &&
		! grep -q "no node above its threshold" zen3.txt &&
		"$TDPERF" report --cpu zen3 --format json >zen3.json &&
		jq -e ".scopes[0].nodes == [] and .scopes[0].hardware_counts == false" zen3.json &&
		jq -e "[.scopes[0].metrics[] | select(.value != null)] | length == 0" zen3.json
	'

	test_expect_success 'the report shows the software counts as perf stat does (CPUs utilized, rates per task second)' '
		csv=tdperf.data/perf-stat-1.csv &&
		tc=$(csv_value $csv task-clock) && cs=$(csv_value $csv context-switches) &&
		pf=$(csv_value $csv page-faults) && secs=$(jq .runs[0].seconds tdperf.data/meta.json) &&
		cpus=$(grep ",task-clock," $csv | cut -d, -f6) &&
		jq -e ".sessions[0].elapsed_source == \"run\" and ((.sessions[0].elapsed_s - $secs) | fabs) < 1e-8" rep.json &&
		jq -e --argjson tc "$tc" --argjson cs "$cs" --argjson pf "$pf" --argjson cpus "$cpus" "
			(.scopes[0].software | map({(.id): .value}) | add) as \$m |
			\$m.cpus_utilized == \$cpus and
			((\$m.context_switches_per_sec - \$cs / (\$tc / 1000)) | fabs) < 1e-6 * \$m.context_switches_per_sec + 1e-9 and
			((\$m.page_faults_per_sec - \$pf / (\$tc / 1000)) | fabs) < 1e-6 * \$m.page_faults_per_sec" rep.json &&
		test_grep "CPUs utilized" rep.txt &&
		test_grep "page faults .* /sec" rep.txt &&
		test_grep "[0-9] *page-faults" rep.txt
	'

	test_expect_success 'the HTML report of a no-PMU run says so and draws no empty chart' '
		"$TDPERF" report --html nopmu.html >/dev/null 2>html.err &&
		test -s nopmu.html &&
		test_grep "class=\"muted nohw\">Top-Down not measured" nopmu.html &&
		test_grep "<div class=\"k\">CPUs utilized</div>" nopmu.html &&
		! grep -q "gnuplot failed" html.err
	'
fi

if test -r /sys/kernel/tracing/events/sched/sched_switch/id && test "$(id -u)" = 0; then
	test_expect_success 'sched tracepoints of the workload are in perf.data' '
		test -f tdperf.data/perf.data &&
		jq -e ".analyses.threads.status == \"ok\"" tdperf.data/meta.json &&
		perf script -i tdperf.data/perf.data -F comm,event 2>/dev/null >script.txt &&
		test_grep "sched:sched_process_exit" script.txt &&
		test_grep "^ *sh " script.txt &&
		! grep -q "^ *perf " script.txt
	'
	test_expect_success '--no-sched records no tracepoints and says so' '
		"$TDPERF" record --no-sched -o nosched.data -- true 2>err &&
		! test -e nosched.data/perf.data &&
		jq -e ".analyses.threads.status == \"not_recorded\"" nosched.data/meta.json
	'
else
	test_skip 'sched tracepoints of the workload are in perf.data' 'tracefs not usable here'
fi

test_expect_success 'the workload exit status is forwarded and recorded' '
	test_exit_code 7 "$TDPERF" record -o exit7.data -- sh -c "exit 7" 2>err &&
	jq -e ".exit_status == 7 and .signal == null" exit7.data/meta.json &&
	test_grep "status 7" err
'

test_expect_success 'a failing workload still gives a complete run directory' '
	test_exit_code 1 "$TDPERF" record -o false.data -- false 2>err &&
	jq -e ".exit_status == 1" false.data/meta.json &&
	test -n "$(csv_value false.data/perf-stat-1.csv task-clock)"
'

test_expect_success 'a workload killed by a signal: 128+N, the signal recorded' '
	test_exit_code 139 "$TDPERF" record -o segv.data -- sh -c "kill -SEGV \$\$" 2>err &&
	jq -e ".exit_status == null and .signal == \"SIGSEGV\"" segv.data/meta.json
'

test_expect_success 'a workload that does not exist: exit 127, nothing written' '
	test_exit_code 127 "$TDPERF" record -o nope.data -- ./no-such-program 2>err &&
	test_grep "no-such-program" err &&
	! test -e nope.data && ! ls -d nope.data* 2>/dev/null
'

test_expect_success 'a workload that is not executable: exit 126, nothing written' '
	echo "echo hi" >notexec.sh && chmod -x notexec.sh &&
	test_exit_code 126 "$TDPERF" record -o notexec.data -- ./notexec.sh 2>err &&
	! ls -d notexec.data* 2>/dev/null
'

# Start a long workload, wait until perf counts, then signal tdperf.
interrupt_test() { # interrupt_test SIGNAL DIR
	"$TDPERF" record -o "$2" -- sleep 30 2>"$2.err" &
	pid=$!
	n=0
	until grep -q "Events enabled" "$2".tmp-*/perf-stderr-1.txt 2>/dev/null; do
		n=$((n + 1)); test $n -lt 100 || { echo "perf never started"; return 1; }
		sleep 0.1
	done
	sleep 0.2
	start=$(date +%s)
	kill -"$1" $pid
	set +e; wait $pid; rc=$?; set -e
	test $(( $(date +%s) - start )) -lt 10 || { echo "took too long to stop"; return 1; }
	echo $rc >"$2.rc"
}

test_expect_success 'SIGINT stops the workload and keeps what was measured' '
	interrupt_test INT int.data &&
	test "$(cat int.data.rc)" = 130 &&
	jq -e ".interrupted == true and .signal == \"SIGINT\"" int.data/meta.json &&
	test -n "$(csv_value int.data/perf-stat-1.csv task-clock)" &&
	! ls -d int.data.tmp-* 2>/dev/null &&
	secs=$(jq .runs[0].seconds int.data/meta.json) &&
	awk -v s="$secs" "BEGIN { exit !(s < 10) }"
'

test_expect_success 'SIGTERM does the same' '
	interrupt_test TERM term.data &&
	test "$(cat term.data.rc)" = 143 &&
	jq -e ".interrupted == true and .signal == \"SIGTERM\"" term.data/meta.json &&
	test -n "$(csv_value term.data/perf-stat-1.csv task-clock)"
'

test_expect_success 'an existing run directory is kept as .old' '
	"$TDPERF" record -o keep.data -- sh -c "exit 0" 2>/dev/null &&
	"$TDPERF" record -o keep.data -- sh -c "exit 3" 2>/dev/null || true
	jq -e ".exit_status == 0" keep.data.old/meta.json &&
	jq -e ".exit_status == 3" keep.data/meta.json
'

test_expect_success '-r 2 runs the workload twice, one CSV per run' '
	"$TDPERF" record -r 2 -o rep.data -- true 2>/dev/null &&
	jq -e ".repeats == 2 and (.runs | length) == 2" rep.data/meta.json &&
	test -n "$(csv_value rep.data/perf-stat-1.csv task-clock)" &&
	test -n "$(csv_value rep.data/perf-stat-2.csv task-clock)"
'

test_expect_success '-p PID attaches to a running process until it exits' '
	sleep 4 &
	sp=$! &&
	"$TDPERF" record --no-sched -p $sp -o pid.data 2>err &&
	jq -e ".target.pid == $sp and .workload == null" pid.data/meta.json &&
	test -n "$(csv_value pid.data/perf-stat-1.csv task-clock)"
'

test_expect_success 'the workload keeps its stdin, stdout and arguments' '
	echo "from stdin" | "$TDPERF" record -o io.data -- sh -c "cat; echo \"\$1\"" sh "a b" >io.out 2>/dev/null &&
	printf "from stdin\na b\n" >expect &&
	cmp expect io.out
'

test_expect_success 'bad usage exits 2 and writes nothing' '
	test_exit_code 2 "$TDPERF" record -o bad.data 2>err &&
	test_exit_code 2 "$TDPERF" record -r 0 -o bad.data -- true 2>err &&
	test_exit_code 2 "$TDPERF" record --level x -o bad.data -- true 2>err &&
	! ls -d bad.data* 2>/dev/null
'

test_done
