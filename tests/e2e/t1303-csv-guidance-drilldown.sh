#!/bin/sh
# The CSV report's guidance and drill-down sections (issue 35: CSV had
# neither).  Each is an empty line, its header row and its rows, after the
# node table (docs/report-schema.md, "CSV sections").  Read back with
# Python's csv module (a reader we did not write), with ',' and with
# perf's -x ';'.  The drill-down's shares are checked against the emulated
# PMU's log of what each function's samples added (tests/pmu-emu), as in
# t1310; the guidance rows against the document's own structure (the
# guidance text is ours: its presence and shape are what can be asserted).
. "$(dirname "$0")/test-lib.sh"

. "$TD_SRCDIR/tests/e2e/pmu-emu-lib.sh"
emu_require nm tw-hot jq python3

ICX="$FIXTURES/perf-stat-published/case-23-cml-multidim-topdownL1-L2-L3.txt"

# sections FILE SEP: "SECTION NR_FIELDS" per row of the sections, read by Python's csv
sections() {
	python3 -c "
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline=''), delimiter=sys.argv[2]))
blank = [i for i, r in enumerate(rows) if not r]
for i in blank:
    head = rows[i + 1]
    for r in rows[i + 2:]:
        if not r:
            break
        print(head[0] == 'section' and r[0], len(r) == len(head) and len(r))
" "$1" "$2"
}

test_expect_success 'guidance: a section after the node table, a row per item of each flagged node' '
	"$TDPERF" report --format csv "$ICX" >g.csv &&
	"$TDPERF" report --format json "$ICX" >g.json &&
	grep -x "section,scope,session,pmu,node,name,role,field,item,value,text" g.csv &&
	sections g.csv , | sort | uniq -c >shape &&
	cat shape &&
	test "$(wc -l <shape)" = 1 && grep -q " guidance 11$" shape &&
	# as many rows as the document has guidance items, field by field
	for f in causes:cause try:try next:next refs:ref ruled_out:ruled_out; do
		want=$(jq "[.scopes[].nodes[]? | .guidance | select(. != null) | .${f%%:*}[]] | length" g.json) &&
		got=$(grep -c "^guidance,[^,]*,[0-9]*,[^,]*,[a-z0-9_]*,[^,]*,[a-z]*,${f#*:}," g.csv) &&
		echo "$f: $got rows, $want items" && test "$got" = "$want" && test "$want" -gt 0 || return 1
	done &&
	# the nodes the text report shows guidance for are the ones marked shown
	"$TDPERF" report "$ICX" >t.txt &&
	sed -n "s/^  What to try (\(.*\)):\$/\1/p" t.txt >shown-text &&
	grep ",shown,meaning," g.csv | cut -d, -f6 >shown-csv &&
	test_line_count = 2 shown-csv && diff shown-text shown-csv
'

test_expect_success 'guidance: -x ";" gives the same fields' '
	"$TDPERF" report -x";" "$ICX" >s.csv &&
	sections s.csv ";" | sort | uniq -c >shape2 &&
	cmp shape shape2
'

# skylakex.cpu with these counting rates; the first rate line of a config wins
rates_cpu() {
	awk -v extra="$2" '{ print } /^  rate 0x3c 1.0$/ {
		n = split(extra, a, ","); for (i = 1; i <= n; i++) print "  rate " a[i] }' \
		"$EMU/cpus/skylakex.cpu" >"$1"
}
share_truth() {
	awk -v c="config=$2" -v s="sym=$3" '$1 == "ipcount" && $4 == c {
		split($6, t, "="); all += t[2]; if ($3 == s) mine += t[2] }
		END { if (all > 0) printf "%.9f\n", 100 * mine / all }' "$1"
}

# t1310's frontend-bound case: Fetch Latency drilled into, FRONTEND_RETIRED.LATENCY_GE_16 sampled
rates_cpu fe.cpu "0x19c 2.0,0x0400019c 0.4"
cat >fe.rates <<EOF2
binary $W/tw-hot
tw_hot_a   0x20003c=2.0 0x19c=0.4 0x0400019c=0.05 0x1c6=0.01
tw_hot_b   0x20003c=2.0 0x19c=3.0 0x0400019c=0.6  0x1c6=0.2
EOF2

test_expect_success 'drilldown: a row per function and hot line, shares as the emulator counted them' '
	"$EMU/pmu-emu" --cpu ./fe.cpu --log fe.log --ip-rates fe.rates -- \
		"$TDPERF" record --assume-pmu --drilldown -o fe -- "$W/tw-hot" 0.5 >fe.out 2>&1 &&
	"$TDPERF" report --format csv fe >fe.csv &&
	grep -x "section,step,node,name,event,kind,precise,rank,symbol,dso,source,samples,share" fe.csv &&
	sections fe.csv , | sort | uniq -c >dshape && cat dshape &&
	grep -q " drilldown 13$" dshape &&
	grep "^drilldown,1,fetch_latency,Fetch Latency,FRONTEND_RETIRED.LATENCY_GE_16,locate_event,1,1,tw_hot_b," fe.csv &&
	for f in tw_hot_b tw_hot_a; do
		want=$(share_truth fe.log 0x1c6 $f) &&
		got=$(python3 -c "
import csv, sys
for r in csv.reader(open(\"fe.csv\", newline=\"\")):
    if r and r[0] == \"drilldown\" and r[8] == sys.argv[1]:
        print(r[12]); break  # the function s row comes before its lines
" $f) &&
		echo "$f: CSV $got %, emulator $want %" && approx_eq "$got" "$want" 0.01 || return 1
	done
'

test_done
