#!/bin/sh
# tdperf record --sweep end to end with the real perf (software counts
# are enough): one recording per value with {PARAM} replaced, the sweep's
# sweep.json and meta.json, what each value's recording was given, and
# what is published when a value fails.  And the options a rank of a job
# records with (the same parsing takes -o and --gather out).
. "$(dirname "$0")/test-lib.sh"

if ! have_prog perf || ! have_prog jq; then
	test_skip 'tdperf record --sweep' 'perf or jq is not installed'
	test_done
fi
if ! perf stat -x, -e task-clock -- true >/dev/null 2>&1; then
	test_skip 'tdperf record --sweep' 'perf stat cannot count task-clock here'
	test_done
fi
unset OMP_NUM_THREADS

test_expect_success 'one recording per value, {threads} replaced and OMP_NUM_THREADS set' '
	"$TDPERF" record -l 1 --sweep threads=1,2 -o sw -- sh -c "echo \$OMP_NUM_THREADS >omp-{threads}" 2>err &&
	test "$(cat omp-1)" = 1 && test "$(cat omp-2)" = 2 &&
	test -f sw/threads-1/meta.json && test -f sw/threads-2/meta.json && ! ls -d sw.tmp-* 2>/dev/null &&
	jq -e ".format == \"tdperf-sweep\" and .parameter == \"threads\"" sw/sweep.json &&
	jq -e "[.runs[] | .value, .dir, .workload[2], .exit_status] ==
		[1, \"threads-1\", \"echo \$OMP_NUM_THREADS >omp-1\", 0, 2, \"threads-2\", \"echo \$OMP_NUM_THREADS >omp-2\", 0]" sw/sweep.json &&
	jq -e ".kind == \"sweep\" and .command_line[0:7] == [\"tdperf\", \"record\", \"-l\", \"1\", \"--sweep\", \"threads=1,2\", \"-o\"]" sw/meta.json &&
	jq -e ".workload == [\"sh\", \"-c\", \"echo \$OMP_NUM_THREADS >omp-{threads}\"]" sw/meta.json &&
	jq -e "[.files[].name] == [\"sweep.json\", \"threads-1\", \"threads-2\"]" sw/meta.json &&
	test_grep "^tdperf: note: sweep: threads=2$" err
'

test_expect_success 'each value is recorded with the options typed, less --sweep and -o, and --sched' '
	jq -e ".command_line[0:5] == [\"tdperf\", \"record\", \"-l\", \"1\", \"--sched\"] and .command_line[5] == \"-o\"" sw/threads-2/meta.json &&
	jq -e ".command_line[6] == \"sw/threads-2\"" sw/threads-2/meta.json &&
	jq -e ".command_line[7:] == [\"--\", \"sh\", \"-c\", \"echo \$OMP_NUM_THREADS >omp-2\"]" sw/threads-2/meta.json
'

test_expect_success 'another parameter: no OMP_NUM_THREADS; the options may be abbreviated and bundled' '
	"$TDPERF" record --swe=size=10,20 -vo sw2 sh -c "echo x\$OMP_NUM_THREADS >size-{size}" 2>err &&
	test "$(cat size-10)" = x && test "$(cat size-20)" = x &&
	jq -e "[.runs[].dir] == [\"size-10\", \"size-20\"]" sw2/sweep.json &&
	jq -e ".command_line[0:4] == [\"tdperf\", \"record\", \"-v\", \"--sched\"]" sw2/size-20/meta.json
'

test_expect_success 'the workload failing is forwarded; the sweep is kept' '
	test_exit_code 3 "$TDPERF" record --sweep threads=1,2 -o sw3 -- sh -c "exit 3" 2>err &&
	jq -e "[.runs[].exit_status] == [3, 3]" sw3/sweep.json
'

test_expect_success 'a value that cannot be recorded abandons the sweep: nothing is published' '
	printf "#!/bin/sh\nexit 0\n" >app-1 && chmod +x app-1 &&
	test_exit_code 2 "$TDPERF" record --sweep n=1,2 -o sw4 -- ./app-{n} 2>err &&
	test_grep "^tdperf: sweep: n=2 was not recorded (exit status 127): the sweep is abandoned$" err &&
	! test -e sw4 && ! ls -d sw4.tmp-* 2>/dev/null
'

test_expect_success 'usage errors: one line, nothing written' '
	for c in "threads=2,2.0 -- true|--sweep .threads=2,2.0.: 2.0 is given twice" \
		 "a-b=1 -- true|--sweep .a-b=1.: the parameter name may only hold letters, digits and _" \
		 "threads=1 -a|--sweep runs a command once per value: it cannot be used with -a" \
		 "threads=1 -p $$|--sweep runs a command once per value: it cannot be used with -p" \
		 "threads=1|--sweep needs a command to run"; do
		test_exit_code 2 "$TDPERF" record -o bad --sweep ${c%%|*} 2>err &&
		test_line_count = 1 err &&
		grep -q "^tdperf: record: ${c#*|}; see .tdperf help record.$" err || { cat err; exit 1; }
	done &&
	! ls -d bad* 2>/dev/null
'

rank() { # rank N LOCAL_RANK COMMAND...: as rank N of a 2-rank Open MPI job
	r=$1 l=$2 && shift 2 &&
	env OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_LOCAL_RANK=$l "$@"
}

test_expect_success 'a rank records with the options typed, less -o and --gather; -a only at local rank 0' '
	rank 1 1 "$TDPERF" record -avo J --gath=G -l1 -- true 2>err &&
	d=$(echo J/rank-00001.*) && test -d "$d" && test -d "G/${d#J/}" &&
	jq -e ".command_line == [\"tdperf\", \"record\", \"-v\", \"-l1\", \"-o\", \"$d\", \"--\", \"true\"]" "$d/meta.json" &&
	jq -e ".job.scope == \"process\" and .target == null" "$d/meta.json"
'

test_expect_success 'a rank refuses --sweep' '
	test_exit_code 2 rank 0 0 "$TDPERF" record --sweep threads=1 -o J2 -- true 2>err &&
	test_grep "^tdperf: --sweep under a launcher (rank 0) is not supported: sweep the launcher instead$" err &&
	! test -e J2
'

test_done
