#!/bin/sh
# Fault injection, in the spirit of SQLite's: every published fixture cut
# at every line and inside every line, read under a memory limit; record
# killed with SIGINT, SIGTERM and SIGKILL at several moments; concurrent
# records of one run directory.  Asserted: no crash (no exit above 2, no
# signal), a failure is exit 2 with one line, memory stays under ulimit -v,
# no perf process outlives its tdperf, no temporary directory stays behind
# once the next record of the same name ran.  (Full disks, read-only disks
# and /dev/full: t1504; special files as outputs: t1503; FIFOs, /dev/zero
# and sparse inputs: t1505.)
. "$(dirname "$0")/test-lib.sh"

LIMIT_KB=400000

# run_bounded CMD...: CMD under ulimit -v and a timeout; prints its status
run_bounded() {
	(td_sanitized || ulimit -v $LIMIT_KB; exec timeout 30 "$@")
}

# check_run STATUS ERRFILE WHAT: no crash, and a failure says one line
check_run() {
	if [ "$1" -gt 2 ]; then
		echo "crash or hang (status $1): $3"; return 1
	fi
	if [ "$1" = 2 ] && [ "$(grep -vc "^tdperf: \(warning\|note\): " "$2")" != 1 ]; then
		echo "failure without exactly one error line: $3"; cat "$2"; return 1
	fi
	return 0
}

# Each line boundary of each fixture once: after odd lines the file ends at
# the line's end, after even lines 9 bytes into the next line (both
# everywhere would double a minute of runs for little more coverage).
test_expect_success 'every fixture cut at every line, at its end or inside it: no crash, one line' '
	runs=0 &&
	for f in "$FIXTURES"/perf-stat-published/case-*.txt; do
		lines=$(wc -l <"$f") && n=1 &&
		while [ $n -le "$lines" ]; do
			off=$(head -n $n "$f" | wc -c) &&
			if [ $((n % 2)) = 1 ]; then
				head -n $n "$f" >cut && what="cut after line $n" && fmt=text
			else
				head -c $((off + 9)) "$f" >cut && what="cut inside line $((n + 1))" && fmt=json
			fi &&
			st=0 && { run_bounded "$TDPERF" report --format $fmt cut >/dev/null 2>err || st=$?; } &&
			check_run $st err "$(basename "$f") $what" || exit 1
			runs=$((runs + 1)) && n=$((n + 1))
		done
	done &&
	echo "$runs runs" && test $runs -gt 500
'

if ! have_prog perf || ! perf stat -e task-clock -o probe.txt true 2>/dev/null; then
	test_skip 'record faults' 'perf cannot count task-clock here'
	test_done
fi

# perf_of TMPDIR: pids of perf processes writing into TMPDIR (none once tdperf is gone)
perf_of() {
	ps -eo pid=,args= | grep "perf .*-o $1/" | grep -v grep || true
}

for sig in INT TERM KILL; do
	for at in 0.3 1.5; do
		test_expect_success "record -a killed with SIG$sig after ${at}s: no perf left, no temporary directory kept" '
			rm -rf rec rec.* &&
			{ ASAN_OPTIONS=detect_leaks=0 "$TDPERF" record -a -o rec -- sleep 5 >/dev/null 2>err & } &&
			pid=$! && sleep '$at' &&
			kill -'$sig' $pid && st=0 && { wait $pid || st=$?; } &&
			n=0 && while [ -n "$(perf_of "rec.tmp-$pid")" ] && [ $n -lt 20 ]; do sleep 0.25; n=$((n + 1)); done &&
			test -z "$(perf_of "rec.tmp-$pid")" &&
			if [ '$sig' = KILL ]; then
				# the next record of the same name removes the dead one'"'"'s directory
				"$TDPERF" record -o rec -- true >/dev/null 2>&1 &&
				test ! -e "rec.tmp-$pid" && test -d rec
			else
				# interrupted: the partial run is kept as a run or removed, never as .tmp
				test ! -e "rec.tmp-$pid" && test $st -le 2 -o $st = 130 -o $st = 143
			fi
		'
	done
done

test_expect_success 'three concurrent records of one -o: one run, the others fail clearly' '
	rm -rf same same.* st.* &&
	for i in 1 2 3; do
		{ st=0; "$TDPERF" record -o same -- sleep 1 >/dev/null 2>err.$i || st=$?; echo $st >st.$i; } &
	done && wait &&
	test "$(cat st.1 st.2 st.3 | sort | tr "\n" " ")" = "0 2 2 " &&
	test "$(cat err.1 err.2 err.3 | grep -c "another tdperf is writing this run now")" = 2 &&
	"$TDPERF" report same >/dev/null && ! ls -d same.tmp-* 2>/dev/null
'

test_done
