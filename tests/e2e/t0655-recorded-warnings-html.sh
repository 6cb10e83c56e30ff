#!/bin/sh
# Record-time warnings on the HTML page say what the text report says
# (issue 32, item 3): "recorded with warnings: ..." in one line, each
# warning once, not as a bare line that reads as a finding of the report.
# On a 'record -r 3' run whose recording warned that memory_bound's 5
# events do not fit one group (tests/fixtures/record-repeat).
. "$(dirname "$0")/test-lib.sh"

R3="$FIXTURES/record-repeat/emu-skx-r3"

test_expect_success 'setup: the text report and the page of the run' '
	"$TDPERF" report "$R3" >r3.txt &&
	"$TDPERF" report --html r3.html "$R3" >/dev/null &&
	grep "^recorded with warnings: " r3.txt >text-line &&
	test_line_count = 1 text-line
'

test_expect_success 'the page has the text report line, prefix included, once' '
	grep -o "<li class=\"recorded\">[^<]*</li>" r3.html |
		sed "s/<[^>]*>//g; s/&amp;/\&/g; s/&lt;/</g; s/&gt;/>/g; s/&quot;/\"/g; s/&#39;/'"'"'/g" >html-line &&
	test_line_count = 1 html-line &&
	diff text-line html-line
'

test_expect_success 'the warning is on the page once, not also as a bare line' '
	test "$(grep -o "memory_bound: its 5 events do not fit one group" r3.html | wc -l)" = 1
'

test_done
