#!/bin/sh
# JSON folds the per-interval, per-CPU and per-thread scopes (schema
# version 2, docs/report-schema.md): values and flags as columns, the
# nodes' descriptions and the reason texts once in the document's tables.
# Folded or whole, a scope must say the same: checked against the whole
# scopes of --scopes all, on case 27 repeated and on perf's own -I, -A
# and --per-thread outputs of this machine.
. "$(dirname "$0")/test-lib.sh"

PUB=$FIXTURES/perf-stat-published

# Every folded scope as lines "scope|node|field|value", strings looked up;
# and the same from the whole scopes.  Fields: those of docs/report-schema.md.
FIELDS='["value","flagged","bottleneck","approximate","reason","perf_value","perf_resolution","perf_name","group","uncertainty","undecided","counted_pct","estimate","sanity"]'
EFIELDS='["value","status","running_pct","scaled"]'
unfolded_lines() {
	jq -r --argjson f "$FIELDS" --argjson ef "$EFIELDS" '
	  .columns as $c | .strings as $s | .scopes[] | select(.folded == true) | . as $x |
	  $c[$x.columns] as $shape |
	  def cell($k; $name): ($x[$name] | if type == "array" then .[$k] else . end) as $v |
	    if ($name | IN("reason","perf_name","estimate","sanity","status")) and $v != null then $s[$v] else $v end;
	  if ($shape.nodes | length) > 0 then
	    range(0; $shape.nodes | length) as $k | $f[] as $name |
	    "\($x.id)|\($shape.nodes[$k].id)|\($name)|\(cell($k; $name) | if . == false then null else . end)"
	  else
	    range(0; $shape.events | length) as $k | $ef[] as $name |
	    "\($x.id)|\($shape.events[$k].name)|\($name)|\(cell($k; $name) | if . == false then null else . end)"
	  end' "$1"
}
whole_lines() {
	jq -r --argjson f "$FIELDS" --argjson ef "$EFIELDS" '
	  .scopes[] | select(.derived == null and (.kind != "total" or .time != null)) | . as $x |
	  if (.nodes | length) > 0 then
	    .nodes[] | . as $n | $f[] as $name |
	    "\($x.id)|\($n.id)|\($name)|\($n[$name] | if . == false then null else . end)"
	  else
	    .events[] | . as $e | $ef[] as $name |
	    "\($x.id)|\($e.name)|\($name)|\($e[$name] | if . == false then null else . end)"
	  end' "$1"
}

# folded_says_whole FILE: the folded scopes hold what the whole ones do
folded_says_whole() {
	"$TDPERF" report --format json "$1" >folded.json &&
	"$TDPERF" report --format json --scopes all "$1" >whole.json &&
	jq -e ".version == 2 and ([.scopes[] | select(.folded == true)] | length) > 0" folded.json &&
	jq -e "[.scopes[] | select(.folded == true)] | length == 0" whole.json &&
	unfolded_lines folded.json >got &&
	whole_lines whole.json >want &&
	test -s want &&
	diff -u want got &&
	# the run's totals are written in full, the same in both
	jq -S "[.scopes[] | select(.folded != true)]" folded.json >tot.folded &&
	jq -S "[.scopes[] | select(.derived != null or (.kind == \"total\" and .time == null))]" whole.json >tot.whole &&
	diff -u tot.whole tot.folded
}

test_expect_success 'setup: case 27 repeated into 40 and 80 intervals' '
	case27_intervals 40 >i40.csv && case27_intervals 80 >i80.csv &&
	test_line_count = 640 i40.csv
'

test_expect_success 'case 27, 40 intervals: each folded scope holds what the whole one does' '
	folded_says_whole i40.csv &&
	test $(jq "[.scopes[] | select(.folded == true)] | length" folded.json) = 40 &&
	test $(jq ".columns | length" folded.json) = 1
'

test_expect_success 'the published interval output (case 27): folded equals whole' '
	folded_says_whole $PUB/case-27-*.txt
'

test_expect_success 'an interval takes a tenth of the bytes it took in full, or less' '
	for n in 40 80; do
		"$TDPERF" report --format json i$n.csv >f$n.json &&
		"$TDPERF" report --format json --scopes all i$n.csv >w$n.json || return 1
	done &&
	folded=$(( $(wc -c <f80.json) - $(wc -c <f40.json) )) &&
	whole=$(( $(wc -c <w80.json) - $(wc -c <w40.json) )) &&
	echo "40 intervals: folded $folded bytes, whole $whole bytes" &&
	test $((folded * 10)) -le $whole
'

test_expect_success 'tdperf diff reads a folded document as the whole one' '
	"$TDPERF" diff w40.json w80.json >d.whole &&
	"$TDPERF" diff f40.json f80.json >d.folded &&
	sed "s/w40.json/A/; s/w80.json/B/" d.whole >d.whole.cmp &&
	sed "s/f40.json/A/; s/f80.json/B/" d.folded >d.folded.cmp &&
	diff -u d.whole.cmp d.folded.cmp
'

test_expect_success 'a folded scope pointing past the columns table is refused with one line' '
	jq "(.scopes[] | select(.folded == true) | .columns) = 9" f40.json >bad.json &&
	test_exit_code 2 "$TDPERF" diff bad.json w40.json 2>err &&
	test_line_count = 1 err &&
	test_grep "bad.json: folded scope .* columns entry 9" err
'

test_expect_success 'a document of a later version is refused, naming it' '
	jq ".version = 3" f40.json >v3.json &&
	test_exit_code 2 "$TDPERF" diff v3.json w40.json 2>err &&
	test_grep "v3.json: report document version 3 is not supported" err
'

if perf stat -a -e task-clock true >/dev/null 2>&1; then
	E=task-clock,context-switches,page-faults
	test_expect_success 'perf -x, -I 100 on this machine: folded counts equal whole' '
		perf stat -o iv.csv -x, -I 100 -e $E sleep 0.35 2>/dev/null &&
		folded_says_whole iv.csv &&
		jq -e ".columns[0].events | map(.name) | index(\"page-faults\") != null" folded.json
	'
	test_expect_success 'perf -A -a and --per-thread -a on this machine: folded equals whole' '
		perf stat -o a.txt -A -a -e $E sleep 0.1 2>/dev/null &&
		folded_says_whole a.txt &&
		test $(jq "[.scopes[] | select(.kind == \"cpu\" and .folded == true)] | length" folded.json) = \
			$(getconf _NPROCESSORS_ONLN) &&
		for try in 1 2 3 4; do perf stat -o th.txt --per-thread -a -e $E sleep 0.1 2>/dev/null && break; done &&
		folded_says_whole th.txt
	'
else
	test_skip "perf -x -I, -A -a and --per-thread -a on this machine" "perf stat -a cannot count task-clock here"
fi

test_done
