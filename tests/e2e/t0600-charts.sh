#!/bin/sh
# Charts: gnuplot data and scripts for each chart type, valid SVG with the
# expected series, restyling by re-running the kept scripts, and the
# behaviour without gnuplot.
. "$(dirname "$0")/test-lib.sh"

GEN="$TD_SRCDIR/tests/e2e/gen-report-doc.sh"
PUB="$FIXTURES/perf-stat-published"
# Two SYNTHETIC documents (see gen-report-doc.sh): A Skylake-like with L1+L2,
# CPI 1.5 (3e9 cycles / 2e9 instructions, multiplexed); B Ice Lake-like, CPI 1.
sh "$GEN" skylake 4 3e9 2e9 60 0.10 0.05 0.50 0.35 0.06 0.04 0.04 0.01 0.30 0.20 0.30 0.05 >a.json
sh "$GEN" icelake 5 1e9 1e9 100 0.10 0.15 0.30 0.45 0.05 0.05 0.12 0.03 0.20 0.10 0.40 0.05 >b.json

have_report() { "$TDPERF" report --format json "$PUB/case-23-cml-multidim-topdownL1-L2-L3.txt" >/dev/null 2>&1; }
have_gnuplot() { have_prog "${TDPERF_GNUPLOT:-gnuplot}"; }

# row LABEL FILE: the data fields of the row with that label
row() { awk -F '\t' -v l="$1" '$1 == l' "$2"; }

test_expect_success 'diff --plot writes data and scripts for the comparison charts' '
	"$TDPERF" diff --plot cmp a.json b.json >/dev/null &&
	for c in compare-l1 compare-l2 compare-cpi cpi-delta; do
		test -s cmp/$c.dat && test -s cmp/$c.gp || exit 1
	done &&
	test_grep "^# tab-separated columns: label | Retiring | Bad Speculation | Frontend Bound | Backend Bound" cmp/compare-l1.dat &&
	test "$(row "A: skylake" cmp/compare-l1.dat)" = "A: skylake	35	5	10	50" &&
	test "$(row "B: icelake" cmp/compare-l1.dat)" = "B: icelake	45	15	10	30"
'

test_expect_success 'the CPI chart holds CPI x fraction, the delta chart B - A per component' '
	# A: CPI 1.5 x Memory Bound 0.30 = 0.45; B: 1 x 0.20
	awk -F "\t" "/^A: skylake/ { print \$8 }" cmp/compare-cpi.dat >got &&
	approx_eq "$(cat got)" 0.45 1e-9 &&
	awk -F "\t" "/^Memory Bound/ { print \$2 }" cmp/cpi-delta.dat >got &&
	approx_eq "$(cat got)" -0.25 1e-9 &&
	awk -F "\t" "/^Memory Bound/ { print \$3 }" cmp/cpi-delta.dat >got &&
	test "$(cat got)" = 0x1f4f99
'

test_expect_success 'scripts name their data and use the fixed palette' '
	test_grep "plot \"compare-l1.dat\" using 2:xtic(1) title '"'"'Retiring'"'"' lc rgb \"#2f9e5a\"" cmp/compare-l1.gp &&
	test_grep "title '"'"'Backend Bound'"'"' lc rgb \"#3578d4\"" cmp/compare-l1.gp &&
	test_grep "title '"'"'Memory Bound'"'"' lc rgb \"#1f4f99\"" cmp/compare-l2.gp &&
	test_grep "with boxes lc rgb variable" cmp/cpi-delta.gp
'

if have_gnuplot && have_prog xmllint; then
	test_expect_success 'gnuplot output is valid SVG with the expected series' '
		for c in compare-l1 compare-l2 compare-cpi cpi-delta; do
			xmllint --noout cmp/$c.svg || exit 1
		done &&
		for s in Retiring "Bad Speculation" "Frontend Bound" "Backend Bound"; do
			test_grep "<text>$s</text>" cmp/compare-l1.svg || exit 1
		done &&
		test_grep "<text>Memory Bound</text>" cmp/compare-l2.svg &&
		test_grep "<text>A: skylake</text>" cmp/compare-cpi.svg
	'
	test_expect_success 'the kept scripts re-render on their own (restyling)' '
		(cd cmp && gnuplot -e "fmt=\"png\"" compare-l1.gp) &&
		test "$(head -c 8 cmp/compare-l1.png | od -An -c | tr -d " ")" = "211PNG\r\n032\n"
	'
else
	test_skip 'gnuplot output is valid SVG with the expected series' 'gnuplot or xmllint not installed'
	test_skip 'the kept scripts re-render on their own (restyling)' 'gnuplot not installed'
fi

test_expect_success 'without gnuplot: a clear message, data and scripts still written' '
	TDPERF_GNUPLOT=/nonexistent/gnuplot "$TDPERF" diff --plot nognu a.json b.json >/dev/null 2>err &&
	test_grep "gnuplot not found" err &&
	test_grep "wrote chart data and gnuplot scripts only" err &&
	test -s nognu/compare-l1.gp && ! test -e nognu/compare-l1.svg
'

if have_report; then
	test_expect_success 'report --plot on a real perf output: Level 1, Level 2 and CPI charts' '
		"$TDPERF" report --plot real "$PUB/case-23-cml-multidim-topdownL1-L2-L3.txt" &&
		for c in topdown-l1 topdown-l2 cpi-stack; do
			test -s real/$c.dat && test -s real/$c.gp || exit 1
		done
	'
	test_expect_success 'the Level-1 chart data are the values perf printed (Comet Lake, case 23)' '
		# perf: 35.4 % retiring, 2.1 % bad speculation, 2.6 % frontend, 60.0 % backend
		awk -F "\t" "!/^#/ && \$2 != \"?\" { print; exit }" real/topdown-l1.dat >first &&
		approx_eq "$(cut -f2 first)" 35.4 0.06 && approx_eq "$(cut -f3 first)" 2.1 0.06 &&
		approx_eq "$(cut -f4 first)" 2.6 0.06 && approx_eq "$(cut -f5 first)" 60.0 0.06
	'
	if have_gnuplot && have_prog xmllint; then
		test_expect_success 'report --plot SVGs are valid and name the components' '
			for c in topdown-l1 topdown-l2 cpi-stack; do xmllint --noout real/$c.svg || exit 1; done &&
			test_grep "<text>Memory Bound</text>" real/topdown-l2.svg
		'
	fi
else
	test_skip 'report --plot on a real perf output' 'tdperf report is not built in this tree yet'
fi

test_done
