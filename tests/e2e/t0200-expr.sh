#!/bin/sh
# tdperf expr: the expression language from the command line.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'arithmetic and precedence' '
	"$TDPERF" expr "1 + 2 * 3" >out && test "$(cat out)" = 7 &&
	"$TDPERF" expr "10 - 4 - 3" >out && test "$(cat out)" = 3
'

test_expect_success 'conditional: 1 if 0 else 2' '
	"$TDPERF" expr "1 if 0 else 2" >out && test "$(cat out)" = 2
'

test_expect_success 'd_ratio(1, 0) is 0, plain division by zero is not computable' '
	"$TDPERF" expr "d_ratio(1, 0)" >out && test "$(cat out)" = 0 &&
	test_exit_code 1 "$TDPERF" expr "1 / 0" >out &&
	test_grep "not computable: division by zero" out
'

test_expect_success '--var sets events with escapes and literals' '
	"$TDPERF" expr --var topdown-fe-bound=30 --var "#slots=4" \
		"topdown\\-fe\\-bound / #slots" >out &&
	test "$(cat out)" = 7.5 &&
	"$TDPERF" expr --var "cpu@INST_DECODED.DECODERS,cmask=1@=3" \
		"cpu@INST_DECODED.DECODERS\\,cmask\\=1@ * 2" >out &&
	test "$(cat out)" = 6
'

test_expect_success 'a missing event is named' '
	test_exit_code 1 "$TDPERF" expr "INST_RETIRED.ANY / 2" >out &&
	test_grep "INST_RETIRED.ANY not measured" out
'

test_expect_success 'a malformed expression is a usage error with the offset' '
	test_exit_code 2 "$TDPERF" expr "1 + (2" 2>err &&
	test_grep "offset" err
'

test_expect_success '--events lists what a table metric needs, folding #smt_on' '
	"$TDPERF" expr --cpu skylake --events --var "#smt_on=0" retiring >out &&
	test_grep "^UOPS_RETIRED.RETIRE_SLOTS$" out &&
	test_grep "^CPU_CLK_UNHALTED.THREAD$" out &&
	! grep THREAD_ANY out &&
	"$TDPERF" expr --cpu skylake --events --var "#smt_on=1" retiring >out &&
	test_grep "^CPU_CLK_UNHALTED.THREAD_ANY$" out
'

test_expect_success '--var can override a metric' '
	"$TDPERF" expr --cpu icelake --var info_thread_slots=1000 --var topdown-retiring=1 \
		--var topdown-fe-bound=1 --var topdown-be-bound=1 --var topdown-bad-spec=1 \
		--var INT_MISC.UOP_DROPPING=0 "info_thread_slots * 2" >out &&
	test "$(cat out)" = 2000
'

test_expect_success 'a dropped correction term is reported as approximate' '
	"$TDPERF" expr --cpu icelake --var TOPDOWN.SLOTS=1000 --var topdown-retiring=250 \
		--var topdown-fe-bound=250 --var topdown-be-bound=250 --var topdown-bad-spec=250 \
		frontend_bound >out &&
	test_grep "^0.25  (approximate: correction term INT_MISC.UOP_DROPPING not measured" out
'

test_expect_success 'an unknown CPU names the closest table and --cpu' '
	test_exit_code 2 "$TDPERF" expr --cpu GenuineIntel-6-56 "1" 2>err &&
	test_grep "closest known table" err && test_grep "\-\-cpu" err
'

test_done
