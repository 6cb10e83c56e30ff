#!/bin/sh
# Messages and numbers that were wrong: usage errors are one line pointing
# to the help; --plot-format is refused before any output; expr does not
# print inf, a silent 0 for 1e-400 or -0; a perf that prints nothing, a
# pid that does not exist and a perf usage error are named in one line;
# check does not call /bin/false a working perf.
. "$(dirname "$0")/test-lib.sh"

IN=$FIXTURES/perf-stat-published/case-23-cml-multidim-topdownL1-L2-L3.txt

test_expect_success 'usage errors: one line naming the help' '
	test_exit_code 2 "$TDPERF" report --bogus "$IN" >out 2>err &&
	test_line_count = 1 err && grep -q "^tdperf: report: unknown option .--bogus.; see .tdperf help report.$" err &&
	test_exit_code 2 "$TDPERF" diff "$IN" 2>err &&
	test_line_count = 1 err && grep -q "see .tdperf help diff." err
'

# Every command words its usage errors alike: "tdperf: CMD: what; see
# 'tdperf help CMD'", naming the option that is unknown or lacks its value.
test_expect_success 'usage errors of every command: one form, naming the option' '
	for cmd in record report diff import list explain check expr dump tables calibrate; do
		test_exit_code 2 "$TDPERF" $cmd --bogus=1 x >out 2>err &&
		test_line_count = 1 err &&
		grep -q "^tdperf: $cmd: unknown option .--bogus.; see .tdperf help $cmd.$" err ||
		{ echo "$cmd:" && cat err && return 1; }
	done &&
	for c in "report --level" "diff -o" "record -I" "list --cpu" "calibrate -o" "import -o"; do
		cmd=${c%% *} && opt=${c#* } &&
		test_exit_code 2 "$TDPERF" $c 2>err &&
		test_line_count = 1 err &&
		grep -q "^tdperf: $cmd: option .$opt. needs a value; see .tdperf help $cmd.$" err ||
		{ echo "$c:" && cat err && return 1; }
	done
'

test_expect_success 'record -p of no process and -C of no CPU are named before perf starts' '
	test_exit_code 2 "$TDPERF" record -p 999999 -o r 2>err &&
	test_line_count = 1 err && grep -q "^tdperf: record: -p 999999: no such process$" err &&
	test_exit_code 2 "$TDPERF" record -C -- true 2>err &&
	test_line_count = 1 err &&
	grep -q "^tdperf: record: -C takes a CPU list such as 0-3,8, not .--.; see .tdperf help record.$" err &&
	test_exit_code 2 "$TDPERF" record -C 0-4095 -o r -- true 2>err &&
	test_line_count = 1 err && grep -q "^tdperf: record: -C 0-4095: CPU [0-9]* is not online (the online CPUs are [0-9,-]*)$" err &&
	test ! -e r
'

test_expect_success '--plot-format gif is refused before the report prints' '
	test_exit_code 2 "$TDPERF" report --plot-format gif --plot c "$IN" >out 2>err &&
	test ! -s out && test_line_count = 1 err && grep -q "svg or png, not .gif." err && test ! -e c
'

test_expect_success 'expr: out-of-range literals refused, overflow said, no -0' '
	test_exit_code 2 "$TDPERF" expr 1e999 2>err && grep -q "out of the range of a double" err &&
	test_exit_code 2 "$TDPERF" expr 1e-400 2>err && grep -q "out of the range of a double" err &&
	test "$("$TDPERF" expr "0*-1")" = 0 &&
	test_exit_code 1 "$TDPERF" expr "1e300*1e300" >out && grep -q "^not computable: the result overflows" out &&
	test "$("$TDPERF" expr 1e-300)" = 1e-300
'

test_expect_success 'TDPERF_PERF=/bin/false: check says NO, record says how perf ended' '
	TDPERF_PERF=/bin/false "$TDPERF" check >out 2>&1 || true &&
	grep -q "^  NO   perf .*/bin/false does not run as perf" out &&
	test_exit_code 2 env TDPERF_PERF=/bin/false "$TDPERF" record -o r -- true 2>err &&
	grep -q "^tdperf: perf failed: /bin/false did not start: it exited with status 1 without a message$" err &&
	test ! -e r
'

test_expect_success 'a file name with a newline and an escape sequence is printed escaped, on one line' '
	bad=$(printf "in\nput\033[31m.txt") &&
	test_exit_code 2 "$TDPERF" report "$bad" 2>err &&
	test_line_count = 1 err &&
	grep -q "^tdperf: in\\\\x0aput\\\\x1b\[31m.txt: no such run or file$" err &&
	! grep -q "$(printf "\033")" err
'

# Bytes that are not UTF-8, and the C1 control CSI (U+009B, which 8-bit
# terminals obey like ESC [), are escaped too; UTF-8 text is kept.
test_expect_success 'a file name with bytes that are not UTF-8 or a C1 control is printed escaped' '
	bad=$(printf "a\377\302\233[31mb\303\251") &&
	test_exit_code 2 "$TDPERF" report "$bad" 2>err &&
	test_line_count = 1 err &&
	grep -q "^tdperf: a\\\\xff\\\\xc2\\\\x9b\\[31mb$(printf "\303\251"): no such run or file$" err
'

test_done
