#!/bin/sh
# Chart craft (issue 32 item 12): a chart is drawn at most as wide as the
# HTML report's card until it has too many bars, so its 12 px text is
# shown at 12 px; a 9-thread chart was 1,410 units wide, shrunk into the
# 1,096 px card with its text at 9 px.  On a recorded 9-thread run
# (tests/fixtures/threads-9, tw-barrier 8).
. "$(dirname "$0")/test-lib.sh"

RUN=$FIXTURES/threads-9
CARD=1096

test_expect_success 'setup: the 9-thread run as gnuplot files and HTML' '
	"$TDPERF" report --plot charts $RUN >/dev/null &&
	"$TDPERF" report --html=t9.html $RUN >/dev/null &&
	test "$(grep -vc "^#" charts/threads.dat)" = 9
'

test_expect_success 'the SVG is no wider than the card, its text at least 12 px' '
	w=$(sed -n "s/.*viewBox=\"0 0 \([0-9]*\) [0-9]*\".*/\1/p" charts/threads.svg) &&
	test -n "$w" && test "$w" -le $CARD && test "$w" -ge 640 &&
	sed -n "s/.*font-size=\"\([0-9.]*\)\".*/\1/p" charts/threads.svg >sizes &&
	test -s sizes &&
	awk "\$1 < 12 { bad = 1 } END { exit bad }" sizes
'

test_expect_success 'HTML: the figure is shown at the SVG width (scale 1: text as drawn)' '
	fig=$(grep -o "<figure class=\"chart\" id=\"fig-threads\" style=\"max-width:[0-9]*px\">" t9.html) &&
	mw=$(echo "$fig" | sed "s/.*max-width:\([0-9]*\)px.*/\1/") &&
	test "$mw" -le $CARD &&
	! grep -q "<div style=\"overflow-x:auto\"><div style=\"width:[0-9]*px\"><svg class=\"chart\" role=\"img\"[^>]*id=\"threads" t9.html
'

test_expect_success 'the card is as wide as the chart module says (templates/report.css)' '
	grep -q "^\.wrap { max-width: 1200px;.*padding: 0 24px" "$TD_SRCDIR/templates/report.css" &&
	grep -q "^\.card {.*padding: 22px 26px" "$TD_SRCDIR/templates/report.css"
'

test_done
