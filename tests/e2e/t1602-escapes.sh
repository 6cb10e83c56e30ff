#!/bin/sh
# Text from the input never reaches the terminal as control bytes, and no
# CSV cell is a spreadsheet formula.  A thread names itself, a binary names
# its functions, a JIT names its code in /tmp/perf-PID.map, a rank directory
# carries its host's name, a perf.data file holds host names, commands and
# event names: any of them may hold ESC ] 0 ; ... BEL (retitles the
# terminal) or ESC [ 2 J (clears it).  Text output (report, report
# --hotspots, report JOB, diff, the live view, dump) shows each control
# byte as \xNN, as the messages do.  CSV text cells starting with = + - @
# are quoted with a ' put first (OWASP's rule); number columns stay numbers.
. "$(dirname "$0")/test-lib.sh"
. "$TD_SRCDIR/tests/e2e/perfdata-lib.sh"

TMPDIR=$TEST_DIR; export TMPDIR
HOME=$TEST_DIR/home; export HOME         # perf's build-id cache
mkdir -p "$HOME"
W=$TD_BUILDDIR/tests/workloads
PUB=$FIXTURES/perf-stat-published
SYNTH=$TD_BUILDDIR/tests/tools/perfdata-synth
REPLAY=$TD_BUILDDIR/tests/replay-perf
TITLE=$(printf '\033]0;PWN\007')         # ESC ] 0 ; PWN BEL: retitles the terminal
CLEAR=$(printf '\033[2J')                # ESC [ 2 J: clears the screen
SHOWN_TITLE='\x1b]0;PWN\x07'             # how text output shows them
SHOWN_CLEAR='\x1b[2J'
export TITLE CLEAR SHOWN_TITLE SHOWN_CLEAR

# no_raw FILE...: not one ESC or BEL byte in the files
no_raw() {
	for f in "$@"; do
		n=$(LC_ALL=C tr -cd '\033\007' <"$f" | wc -c)
		test "$n" -eq 0 || { echo "$f: $n raw ESC/BEL bytes"; return 1; }
	done
}

# shows TEXT FILE: FILE holds TEXT (fixed string)
shows() {
	LC_ALL=C grep -qF -- "$1" "$2" || { echo "$2 does not show $1:"; head -n 20 "$2"; return 1; }
}

# perf_records_cpu_clock: perf can sample cpu-clock here
perf_records_cpu_clock() {
	have_prog "$PERF" && "$PERF" record -q -e cpu-clock -o probe.data -- true >/dev/null 2>&1
}

# csv_threads NAME: the published interval CSV as three intervals of thread NAME
csv_threads() {
	awk -F, -v OFS=, -v n="$1" '/^[0-9]+\.[0-9]+,/ { l[++k] = $0 }
		END { for (t = 1; t <= 3; t++) for (i = 1; i <= k; i++) {
			$0 = l[i]; $1 = t ".000103288," n; print } }' \
		"$PUB/case-27-iclclass-irogers-csv-interval-topdownL1.txt"
}

test_expect_success 'report: a thread named with ESC and BEL is shown escaped (text, all scopes, CSV)' '
	csv_threads "w${TITLE}x-4242" >threads.csv &&
	"$TDPERF" report threads.csv >r.txt &&
	"$TDPERF" report --scopes all threads.csv >all.txt &&
	"$TDPERF" report --format csv threads.csv >r.csv &&
	no_raw r.txt all.txt r.csv &&
	shows "w${SHOWN_TITLE}x-4242 @1.000s" r.txt &&
	shows "-- thread w${SHOWN_TITLE}x-4242, interval ending at 1.000 s --" all.txt &&
	shows ",thread,w${SHOWN_TITLE}x-4242," r.csv
'

test_expect_success 'report and the live view: an event name with ESC and BEL is shown escaped' '
	printf "#           time             counts unit events\n" >sw.txt &&
	for t in 0.100269448 0.200704724; do
		printf "     %s      0.72 msec task-clock\n     %s      1      sched:x%s\n" $t $t "$TITLE"
	done >>sw.txt &&
	"$TDPERF" report --live sw.txt >live.txt &&
	"$TDPERF" report sw.txt >sw.out &&
	no_raw live.txt sw.out &&
	shows "sched:x$SHOWN_TITLE 1" live.txt &&
	shows "sched:x$SHOWN_TITLE" sw.out
'

test_expect_success 'diff: an input named with ESC and BEL is shown escaped' '
	cp threads.csv "a${TITLE}.csv" &&
	"$TDPERF" diff "a${TITLE}.csv" threads.csv >d.txt &&
	no_raw d.txt &&
	shows "A: a${SHOWN_TITLE}.csv" d.txt
'

test_expect_success 'dump: comm, host name, file name and event name of a perf.data are shown escaped' '
	"$SYNTH" --little-endian plain.data &&
	LC_ALL=C sed -e "s/synth-comm/${TITLE}$(printf "\033c")/" -e "s/synth-host/${TITLE}$(printf "\033c")/" \
		-e "s|/usr/bin/synth|/usr/bin/${CLEAR}$(printf "\007")|" \
		-e "s/task-clock:u/task$(printf "\033]0;X\007"):u/" plain.data >hostile.data &&
	test $(cmp -l plain.data hostile.data | wc -l) -gt 20 &&
	"$TDPERF" dump hostile.data >dump.txt &&
	no_raw dump.txt &&
	shows "comm=${SHOWN_TITLE}\x1bc exec" dump.txt &&
	shows "feature HOSTNAME: ${SHOWN_TITLE}\x1bc" dump.txt &&
	shows "filename=/usr/bin/${SHOWN_CLEAR}\x07" dump.txt &&
	shows "event 1: name=task\x1b]0;X\x07:u type=1" dump.txt &&
	shows "[task\x1b]0;X\x07:u value=999000" dump.txt &&
	"$TDPERF" dump plain.data >plain.txt &&
	shows "comm=synth-comm exec" plain.txt
'

if have_prog perf && perf record -q -e sched:sched_switch -o probe.data -- true 2>/dev/null; then
	test_expect_success 'record --threads of a workload named with ESC and BEL: its thread is shown escaped' '
		ln -s "$W/tw-barrier" "w$TITLE" &&
		ASAN_OPTIONS=detect_leaks=0 "$TDPERF" record --threads -o rec.data -- "./w$TITLE" 2 \
			>/dev/null 2>err &&
		"$TDPERF" report rec.data >rec.txt &&
		no_raw rec.txt &&
		shows "w$SHOWN_TITLE (" rec.txt
	'
else
	test_skip 'record --threads of a workload named with ESC and BEL' 'perf cannot record sched tracepoints here'
fi

if perf_records_cpu_clock && have_prog cc && have_prog objcopy; then
	test_expect_success 'report --hotspots: ELF symbols named with ESC, =, @ and - (text, CSV, diff)' '
		cat >hot.c <<-\EOF &&
		volatile unsigned long sink;
		#define SPIN(f) __attribute__((noinline)) void f(void) \
			{ unsigned long i; for (i = 0; i < 100000000UL; i++) sink += i; }
		SPIN(hot_esc) SPIN(hot_eq) SPIN(hot_at) SPIN(hot_minus)
		int main(void) { hot_esc(); hot_eq(); hot_at(); hot_minus(); return 0; }
		EOF
		cc -O1 -o hot hot.c &&
		objcopy --redefine-sym "hot_esc=x$TITLE$CLEAR" --redefine-sym "hot_eq==cmd|'"'"' /C calc'"'"'!A0" \
			--redefine-sym "hot_at=@SUM(1)" --redefine-sym "hot_minus=-1+2" hot hostile-hot &&
		"$PERF" record -q -e cpu-clock -o hot.data -- ./hostile-hot >/dev/null 2>&1 &&
		"$TDPERF" report --hotspots hot.data >hot.txt &&
		"$TDPERF" report --hotspots --format csv hot.data >hot.csv &&
		"$TDPERF" diff --hotspots hot.data hot.data >hotdiff.txt &&
		no_raw hot.txt hot.csv hotdiff.txt &&
		shows "  x$SHOWN_TITLE$SHOWN_CLEAR  (" hot.txt &&
		shows "  x$SHOWN_TITLE$SHOWN_CLEAR (hostile-hot)" hotdiff.txt &&
		shows "x$SHOWN_TITLE$SHOWN_CLEAR," hot.csv &&
		test_grep -q "^\"'"'"'=cmd|'"'"' /C calc'"'"'!A0\",.*/hostile-hot,,[0-9]*,[0-9.]*," hot.csv &&
		test_grep -q "^\"'"'"'@SUM(1)\",.*/hostile-hot," hot.csv &&
		test_grep -q "^\"'"'"'-1+2\",.*/hostile-hot," hot.csv &&
		! grep -q "^[=@+-]" hot.csv
	'

	test_expect_success 'report --hotspots: a JIT map name with ESC, BEL and @ (text, CSV)' '
		TW_JIT_NAME="@jit$TITLE" "$PERF" record -q -e cpu-clock -o jit.data -- "$W/tw-hot" 1 \
			>/dev/null 2>&1 &&
		"$TDPERF" report --hotspots --top 0 jit.data >jit.txt &&
		"$TDPERF" report --hotspots --format csv jit.data >jit.csv &&
		pid=$("$TDPERF" dump jit.data | sed -n "s/.* COMM .* pid=\([0-9]*\) .*comm=tw-hot.*/\1/p" | head -n 1) &&
		rm -f "/tmp/perf-$pid.map" &&
		no_raw jit.txt jit.csv &&
		shows "  @jit$SHOWN_TITLE  (/tmp/perf-" jit.txt &&
		test_grep -q "^\"'"'"'@jit\\\\x1b\]0;PWN\\\\x07\",/tmp/perf-[0-9]*\.map,,[1-9]" jit.csv
	'
else
	test_skip 'report --hotspots: ELF symbol and JIT map names' 'perf cannot sample cpu-clock here, or cc/objcopy missing'
fi

test_expect_success 'report JOB: host names with ESC and BEL shown escaped; a host =HYPERLINK(...) is no formula in CSV' '
	for r in 0 1; do
		OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=2 TDPERF_PERF=$REPLAY \
		TDPERF_REPLAY_FIXTURE=$PUB/case-05-skl-irogers-topdownL1-systemwide.txt \
			"$TDPERF" record --cpu skylake --assume-pmu --smt on -l 1 -o JOB -- true 2>/dev/null || exit 1
	done &&
	r0=$(ls -d JOB/rank-00000.*) && r1=$(ls -d JOB/rank-00001.*) &&
	mv "$r0" "JOB/rank-00000.n$TITLE$CLEAR" && mv "$r1" "JOB/rank-00001.=HYPERLINK(\"x\",\"y\")" &&
	sed "s/\"host\": \"[^\"]*\"/\"host\": \"n\\\\u001b]0;PWN\\\\u0007\\\\u001b[2J\"/" \
		"JOB/rank-00000.n$TITLE$CLEAR/summary.json" >s && mv s "JOB/rank-00000.n$TITLE$CLEAR/summary.json" &&
	sed "s/\"host\": \"[^\"]*\"/\"host\": \"=HYPERLINK(\\\\\"x\\\\\",\\\\\"y\\\\\")\"/" \
		"JOB/rank-00001.=HYPERLINK(\"x\",\"y\")/summary.json" >s &&
	mv s "JOB/rank-00001.=HYPERLINK(\"x\",\"y\")/summary.json" &&
	"$TDPERF" report JOB >job.txt &&
	"$TDPERF" report --format csv JOB >job.csv &&
	no_raw job.txt job.csv &&
	shows "rank 0     n$SHOWN_TITLE$SHOWN_CLEAR     0" job.txt &&
	shows "rank 1     =HYPERLINK(\"x\",\"y\")     1" job.txt &&
	test_grep -q "^rank,0,n\\\\x1b\]0;PWN\\\\x07\\\\x1b\[2J,0,elapsed_s,0\.[0-9]*$" job.csv &&
	test_grep -q "^rank,1,\"'"'"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\",1,elapsed_s,0\.[0-9]*$" job.csv &&
	test_grep -q "^max_over_mean,,,,elapsed_s,1\.[0-9]*$" job.csv
'

test_expect_success 'CSV: a negative value stays a number, not a quoted text cell' '
	cat >neg.txt <<-\EOF &&
	 Performance counter stats for '"'"'system wide'"'"':

	      500,145,019      INST_RETIRED.ANY
	    2,402,640,337      CPU_CLK_UNHALTED.THREAD_ANY
	    1,976,769,761      IDQ_UOPS_NOT_DELIVERED.CORE
	      114,069,133      INT_MISC.RECOVERY_CYCLES_ANY
	      684,605,487      UOPS_RETIRED.RETIRE_SLOTS
	       49,695,823      UOPS_RETIRED.MACRO_FUSED
	              100      UOPS_ISSUED.ANY

	      1.014011174 seconds time elapsed
	EOF
	"$TDPERF" report --cpu skylake --format csv neg.txt >neg.csv &&
	test_grep -q "^s1/total,1,total,,,,bad_speculation,Bad Speculation,,1,-0\.0949[0-9]*,slots," neg.csv
'

test_done
