#!/bin/sh
# Repeated runs reported as one (issue 32, item 3).  'record -r 3' wrote
# three perf stat sessions; the report shows one tree on the runs' mean
# counts with perf stat -r's spread (the standard error of the mean, in %
# of it: perf's util/stat.c), and each node's spread over the runs.
# Oracles: perf's own CSV of each run (awk over the three files, not
# tdperf), tdperf's report of each run's file alone, and perf's printed
# "+- x%" of a published perf stat -r output.
. "$(dirname "$0")/test-lib.sh"

if ! have_prog jq; then
	test_expect_success 'jq is installed' 'false'
	test_done
fi
R3="$FIXTURES/record-repeat/emu-skx-r3"
P5="$FIXTURES/perf-stat-published/case-40-icx-bp-repeat5-topdown.txt"

test_expect_success 'record -r 3: one session of 3 runs, one tree' '
	"$TDPERF" report --format json "$R3" >r3.json &&
	jq -e ".sessions | length == 1 and .[0].repeats == 3" r3.json &&
	jq -e ".repeat.runs == 3 and .repeat.source == \"record\"" r3.json &&
	jq -e "[.scopes[] | select(.kind == \"total\")] | length == 1" r3.json &&
	jq -e ".scopes[0].uncertainty.method == \"repeats\"" r3.json
'

# line, mean and perf's "+- x%" of every count perf printed in all 3 runs
perf_means() {
	awk -F, "FNR == 1 { f++ } /^#/ || NF < 3 { next }
		\$1 + 0 == \$1 { v[FNR, f] = \$1; L[FNR] = 1 }
		END { for (l in L) {
			if (!((l, 1) in v) || !((l, 2) in v) || !((l, 3) in v)) continue
			m = (v[l, 1] + v[l, 2] + v[l, 3]) / 3; s = 0
			for (i = 1; i <= 3; i++) s += (v[l, i] - m) ^ 2
			printf \"%d %.17g %.17g\\n\", l, m, m ? 100 * sqrt(s / 2 / 3) / m : 0 } }" "$@" | sort -n
}

test_expect_success 'counts: the mean of the runs and the standard error of the mean, as perf -r prints' '
	perf_means "$R3/perf-stat-1.csv" "$R3/perf-stat-2.csv" "$R3/perf-stat-3.csv" >want &&
	test $(wc -l <want) -ge 20 &&
	jq -r ".scopes[0].events[] | select(.status == \"ok\") | \"\(.line) \(.value) \(.variance_pct)\"" \
		r3.json | sort -n >got &&
	test_line_count = $(wc -l <want) got &&
	awk "NR == FNR { m[\$1] = \$2; s[\$1] = \$3; next }
	     { d = \$2 - m[\$1]; if (d < 0) d = -d; e = \$3 - s[\$1]; if (e < 0) e = -e
	       if (!(\$1 in m) || d > 1e-9 * (m[\$1] < 0 ? -m[\$1] : m[\$1]) + 1e-9 || e > 1e-6) {
		print \"line \" \$1 \": \" \$0 \" want \" m[\$1] \" \" s[\$1]; bad = 1 } }
	     END { exit bad }" want got &&
	# the runs do differ: the spread is not zero
	awk "\$3 > 0.5 { n++ } END { exit !(n >= 5) }" want
'

test_expect_success 'nodes: each run value is that run alone, mean/stddev/min/max over them' '
	for k in 1 2 3; do
		"$TDPERF" report --format json --cpu skylakex --smt on "$R3/perf-stat-$k.csv" 2>/dev/null |
			jq -r ".scopes[0].nodes[] | select(.value != null) | \"\(.id) \(.value)\"" >run$k || return 1
	done &&
	test $(wc -l <run1) -ge 10 &&
	jq -r ".scopes[0].nodes[] | select(.repeat != null) |
		\"\(.id) \(.repeat.values | map(tostring) | join(\" \")) \(.repeat.mean) \(.repeat.stddev) \(.repeat.min) \(.repeat.max)\"" \
		r3.json | sort >ours &&
	join run1 run2 | join - run3 | sort |
		awk "{ m = (\$2 + \$3 + \$4) / 3; s = 0; for (i = 2; i <= 4; i++) s += (\$i - m) ^ 2
		       lo = \$2; hi = \$2; for (i = 3; i <= 4; i++) { if (\$i < lo) lo = \$i; if (\$i > hi) hi = \$i }
		       printf \"%s %.17g %.17g %.17g %.17g %.17g %.17g %.17g\\n\", \$1, \$2, \$3, \$4, m, sqrt(s / 2), lo, hi }" >theirs &&
	test_line_count = $(wc -l <run1) ours &&
	awk "NR == FNR { for (i = 2; i <= 8; i++) w[\$1, i] = \$i; seen[\$1] = 1; next }
	     { if (!(\$1 in seen)) { print \"unknown \" \$1; bad = 1; next }
	       for (i = 2; i <= 8; i++) { d = \$i - w[\$1, i]; if (d < 0) d = -d
		 if (d > 1e-9) { print \$1 \" field \" i \": \" \$i \" want \" w[\$1, i]; bad = 1 } } }
	     END { exit bad }" theirs ours
'

test_expect_success 'text: one tree, the spread per node, each run under -v' '
	"$TDPERF" report "$R3" >r3.txt &&
	test $(grep -c "^== session" r3.txt) = 1 &&
	grep "^== session 1: perf stat (csv, 3 runs," r3.txt &&
	grep "^  Mean of 3 runs (record -r): values from the runs. mean counts" r3.txt &&
	grep "^    Frontend Bound  *25.0%  sd   0.00  range   25.0%   25.0%$" r3.txt &&
	! grep "runs:" r3.txt &&
	"$TDPERF" report -v "$R3" >r3v.txt &&
	grep "^    Frontend Bound .*  runs:   25.0%   25.0%   25.0%$" r3v.txt
'

test_expect_success 'record-time warnings: said once, as recorded' '
	test $(grep -c "do not fit one group" r3.txt) = 1 &&
	grep "^recorded with warnings: memory_bound: its 5 events do not fit one group" r3.txt &&
	! grep "^warning: memory_bound" r3.txt &&
	jq -e "[.warnings[] | select(.source == \"record\")] | length == 1" r3.json
'

test_expect_success 'CSV and HTML carry the spread' '
	"$TDPERF" report --format csv "$R3" >r3.csv &&
	head -n 1 r3.csv | grep ",repeat_runs,repeat_mean,repeat_stddev,repeat_min,repeat_max" &&
	grep "^s1/total,.*,frontend_bound,.*,3,0.2" r3.csv &&
	"$TDPERF" report --html r3.html "$R3" >/dev/null 2>&1 &&
	grep -c "class=\"repeat-spread\"" r3.html >n && test $(cat n) -ge 1 &&
	grep "Mean of 3 runs (record -r)" r3.html
'

test_expect_success 'perf stat -r: perf printed means and +- x%, read as such' '
	"$TDPERF" report --format json "$P5" >p5.json &&
	jq -e ".repeat.source == \"perf\" and ([.sessions[].repeats] == [5, 5])" p5.json &&
	# perf: "8,018,664,899,041 topdown-fe-bound ... ( +-  0.07% )"
	jq -e "[.scopes[] | select(.session == 1) | .events[] | select(.name == \"topdown-fe-bound\")][0] |
		((.value - 8018664899041) | if . < 0 then -. else . end) < 1e5 and .variance_pct == 0.07" p5.json &&
	"$TDPERF" report "$P5" >p5.txt &&
	test $(grep -c "^  Mean of 5 runs (perf stat -r)" p5.txt) = 2
'

test_done
