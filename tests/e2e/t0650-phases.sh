#!/bin/sh
# Phases of an interval run (analyze/phases.c): a synthetic perf stat -I
# file whose construction is known (tests/fixtures/phases/README.md): 40 s,
# Frontend bound, Backend bound from 20 to 30 s, with one-interval blips at
# 7 s and 34 s.  The report must name the three phases with their times
# (JSON, text, the HTML summary), not the blips, and a steady run none.
. "$(dirname "$0")/test-lib.sh"

RUN="$FIXTURES/phases/fe-be-fe-I.csv"
STEADY="$FIXTURES/perf-stat-emu/icelakex-topdownL1-I.csv"

# phases FILE: "start end node intervals" per phase of the run's total
phases() {
	jq -r '.scopes[] | select(.phases) | .phases[] |
		"\(.start_s * 10 | round / 10) \(.end_s * 10 | round / 10) \(.node) \(.intervals)"' "$1"
}

test_expect_success 'JSON: three phases with the times the file was made with, no blip a phase' '
	"$TDPERF" report --cpu icelakex --format json "$RUN" >doc.json &&
	phases doc.json >got &&
	printf "%s\n" "0 20 frontend_bound 20" "20 30 backend_bound 10" "30 40 frontend_bound 10" >want &&
	diff -u want got
'

test_expect_success 'JSON: each phase has the mean share of its bottleneck (0.60 Backend Bound made in)' '
	jq -e "[.scopes[] | select(.phases) | .phases[1].mean] | .[0] > 0.58 and .[0] < 0.62" doc.json
'

test_expect_success 'the whole document (--scopes all) finds the same phases as the streamed one' '
	"$TDPERF" report --cpu icelakex --format json --scopes all "$RUN" >all.json &&
	phases all.json >got-all &&
	diff -u want got-all
'

test_expect_success 'text: the phases after the whole-run bottleneck, with the rule' '
	"$TDPERF" report --cpu icelakex "$RUN" >out &&
	test_grep "Phases: the bottleneck changes over time: 0.0-20.0 s Frontend Bound 53 %; 20.0-30.0 s Backend Bound 60 %; 30.0-40.0 s Frontend Bound" out &&
	test_grep "at least 3 intervals and 10 % of them" out
'

test_expect_success 'HTML: the phases come first on the summary, one band span per phase' '
	"$TDPERF" report --cpu icelakex --html page.html "$RUN" >/dev/null &&
	tr -d "\n" <page.html | sed "s/<div class=\"verdict\"/\n&/g" >split &&
	head -n 1 split | test_grep -q "The bottleneck changes over time: <b>0.0&ndash;20.0 s</b> Frontend Bound" &&
	test "$(grep -o "<span class=\"phase\"" page.html | wc -l)" = 3
'

test_expect_success 'a steady interval run has no phases' '
	"$TDPERF" report --cpu icelakex --format json "$STEADY" >steady.json &&
	jq -e "[.scopes[] | select(.phases)] | length == 0" steady.json &&
	"$TDPERF" report --cpu icelakex "$STEADY" >steady.txt &&
	! test_grep "Phases:" steady.txt
'

test_done
