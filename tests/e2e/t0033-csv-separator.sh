#!/bin/sh
# report -x SEP: perf stat's CSV separator (issue 32, item 10).  Oracle:
# Python's csv module reads the SEP file into the same rows as the comma
# file, for a separator inside no field (;) and one inside many (space).
. "$(dirname "$0")/test-lib.sh"

PUB="$FIXTURES/perf-stat-published"

test_expect_success 'report -x";" and -x" " parse into the same rows as the CSV' '
	for f in case-11-zen4-ckl-blog-pipelineL1-L2.txt case-23-cml-multidim-topdownL1-L2-L3.txt; do
		"$TDPERF" report --format csv "$PUB/$f" >comma.csv &&
		"$TDPERF" report -x";" "$PUB/$f" >semi.csv &&
		"$TDPERF" report "$PUB/$f" -x " " >space.csv &&
		python3 - <<-\PY || exit 1
		import csv
		comma = list(csv.reader(open("comma.csv", newline="")))
		assert len(comma) > 10 and len(comma[0]) == 28, len(comma)
		for name, sep in (("semi.csv", ";"), ("space.csv", " ")):
		    rows = list(csv.reader(open(name, newline=""), delimiter=sep))
		    assert rows == comma, (name, [(a, b) for a, b in zip(rows, comma) if a != b][:2])
		    assert "," not in open(name).readline(), name
		PY
	done
'

test_expect_success '-x, is the plain CSV; -x with another format or a long separator is refused' '
	f="$PUB/case-05-skl-irogers-topdownL1-systemwide.txt" &&
	"$TDPERF" report -x, "$f" >x.csv && "$TDPERF" report --format csv "$f" >c.csv && cmp x.csv c.csv &&
	test_exit_code 2 "$TDPERF" report -x";" --format json "$f" >out 2>err &&
	test ! -s out && test_line_count = 1 err && test_grep "goes with --format csv only" err &&
	test_exit_code 2 "$TDPERF" report -x ";;" "$f" >out 2>err &&
	test ! -s out && test_grep "one character" err
'

test_done
