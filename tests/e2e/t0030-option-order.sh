#!/bin/sh
# An option means the same wherever it stands (issue 32, item 10): report,
# diff, explain and check take options after their operands; record ends
# its options at the workload, as perf record does.  report -l is --level,
# and --html FILE works before or after the run.
. "$(dirname "$0")/test-lib.sh"

PUB="$FIXTURES/perf-stat-published"
A="$PUB/case-05-skl-irogers-topdownL1-systemwide.txt"
B="$PUB/case-23-cml-multidim-topdownL1-L2-L3.txt"

test_expect_success 'report RUN --html out.html writes out.html, as --html out.html RUN does' '
	cp "$A" a.txt &&
	"$TDPERF" report a.txt --html after.html >out1 2>err1 &&
	"$TDPERF" report --html before.html a.txt >out2 2>err2 &&
	"$TDPERF" report --html=eq.html a.txt >out3 2>err3 &&
	test -s after.html && test -s before.html && test -s eq.html &&
	test_grep "^tdperf: wrote after.html " err1 && test_grep "^tdperf: wrote before.html " err2 &&
	! test -e tdperf.html &&
	sed "s/after/X/g" err1 >e1 && sed "s/before/X/g" err2 >e2 && cmp e1 e2
'

test_expect_success 'report --html again over an existing page, and --html RUN alone (tdperf.html)' '
	"$TDPERF" report a.txt --html after.html 2>err &&
	test_grep "^tdperf: wrote after.html " err &&
	"$TDPERF" report --html a.txt 2>err &&
	test -s tdperf.html && test_grep "^tdperf: wrote tdperf.html " err
'

test_expect_success 'report: the same text with its options before or after the run' '
	"$TDPERF" report --level 1 --events --color never a.txt >before &&
	"$TDPERF" report a.txt --color never --events --level 1 >after &&
	cmp before after && test_grep "Frontend Bound" after
'

test_expect_success 'report -l N is --level N (as record -l), and shows N levels' '
	"$TDPERF" report -l 1 --color never "$B" >l1 &&
	"$TDPERF" report --level 1 --color never "$B" >level1 &&
	cmp l1 level1 &&
	"$TDPERF" report -l 3 -vv --color never "$B" >l3 &&
	test_grep "Frontend Bound" l1 && ! test_grep "Fetch Latency" l1 >/dev/null &&
	test_grep "Fetch Latency" l3 && test_grep "ICache Misses" l3
'

test_expect_success 'diff: options after the two runs mean the same' '
	"$TDPERF" diff --format json "$A" "$B" >d1 &&
	"$TDPERF" diff "$A" "$B" --format json >d2 &&
	"$TDPERF" diff "$A" --format json "$B" >d3 &&
	cmp d1 d2 && cmp d1 d3
'

test_expect_success 'explain: --cpu after the node means the same' '
	"$TDPERF" explain --cpu skylake memory_bound >x1 &&
	"$TDPERF" explain memory_bound --cpu skylake >x2 &&
	cmp x1 x2 && test_grep "^memory_bound: Memory Bound" x1
'

test_expect_success 'check: --json after nothing else, one usage line for an operand' '
	{ "$TDPERF" check --json >c1 || test $? = 1; } && test_grep "\"microarchitecture\"" c1 &&
	test_exit_code 2 "$TDPERF" check stray --json 2>err &&
	test_line_count = 1 err && test_grep "unexpected argument .stray." err
'

test_expect_success 'record: options end at the workload (its -l 3 is the workload argument)' '
	"$TDPERF" record --dry-run --cpu skylake echo -l 3 >r1 2>&1 &&
	test_grep "^table skylake .*, level 2$" r1 &&
	test_grep -- "-- echo -l 3$" r1 &&
	"$TDPERF" record --dry-run --cpu skylake -l 3 echo >r2 2>&1 &&
	test_grep "^table skylake .*, level 3$" r2
'

test_expect_success 'report and diff say the same when --html replaces the text, and both print it with --format text' '
	"$TDPERF" report --html r.html "$A" >rout 2>rerr &&
	"$TDPERF" diff --html d.html "$A" "$B" >dout 2>derr &&
	test_line_count = 0 rout && test_line_count = 0 dout &&
	test_grep "the text report is not printed with --html: add --format text to have both$" rerr &&
	test_grep "the text report is not printed with --html: add --format text to have both$" derr &&
	"$TDPERF" report --html r.html --format text "$A" >rout 2>rerr &&
	"$TDPERF" diff --html d.html --format text "$A" "$B" >dout 2>derr &&
	test_grep "Frontend Bound" rout && test_grep "Frontend Bound" dout &&
	! test_grep "not printed" rerr >/dev/null && ! test_grep "not printed" derr >/dev/null
'

test_done
