#!/bin/sh
# Formulas too deep for the evaluator's recursion are one-line errors, never
# a stack overflow: a 65,000-term sum on the command line, a 100,000-term
# formula and a 200,000-metric chain of references in a run directory's
# table.json (through report, diff, explain and --table), deeply nested
# parentheses.  The message does not repeat a 200 KB expression.
. "$(dirname "$0")/test-lib.sh"

CSV=$FIXTURES/perf-stat-published/case-27-iclclass-irogers-csv-interval-topdownL1.txt

if ! have_prog python3; then
	test_skip 'deep formulas' 'python3 missing'
	test_done
fi

# one_line_error FILE: exactly one line, short, starting with "tdperf: "
one_line_error() {
	test_line_count = 1 "$1" &&
	grep -q "^tdperf: " "$1" &&
	test "$(wc -c <"$1")" -lt 400
}

sum() { python3 -c "import sys; print('+'.join(['1'] * int(sys.argv[1])))" "$1"; }

test_expect_success 'a 2000-term sum still evaluates' '
	test "$("$TDPERF" expr "$(sum 2000)")" = 2000
'

test_expect_success 'expr of a 65,000-term sum: exit 2, one short line' '
	test_exit_code 2 "$TDPERF" expr "$(sum 65000)" >out 2>err &&
	one_line_error err &&
	grep -q "too deep" err &&
	test ! -s out
'

test_expect_success 'expr of 5000 nested parentheses: exit 2, one short line' '
	e=$(python3 -c "print(\"(\" * 5000 + \"1\" + \")\" * 5000)") &&
	test_exit_code 2 "$TDPERF" expr "$e" >out 2>err &&
	one_line_error err
'

test_expect_success 'run directories whose table.json holds a 100,000-term formula or a 200,000-deep chain' '
	"$TDPERF" import -o run "$CSV" >/dev/null &&
	cp -r run long && cp -r run chain &&
	python3 - <<-\EOF
	import json
	t = json.load(open("long/table.json"))
	t["metrics"][0]["formula"] = "+".join(["1"] * 100000)
	json.dump(t, open("long/table.json", "w"))
	t = json.load(open("chain/table.json"))
	base, n = dict(t["metrics"][0]), 200000
	base.pop("threshold", None)
	chain = [dict(base, id="c%d" % i, name="C %d" % i,
		      formula="1" if i == n - 1 else "c%d + 1" % (i + 1)) for i in range(n)]
	t["metrics"] = chain + t["metrics"]
	json.dump(t, open("chain/table.json", "w"))
	EOF
'

for d in long chain; do
	test_expect_success "report, diff, explain, --table with the $d table: exit 2, one line" '
		test_exit_code 2 "$TDPERF" report '$d' >out 2>err && one_line_error err &&
		test_exit_code 2 "$TDPERF" diff run '$d' >out 2>err && one_line_error err &&
		test_exit_code 2 "$TDPERF" explain backend_bound '$d' >out 2>err && one_line_error err &&
		test_exit_code 2 "$TDPERF" report --table '$d'/table.json "$CSV" >out 2>err &&
		one_line_error err && grep -q "table.json" err
	'
done

test_done
