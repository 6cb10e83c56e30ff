#!/bin/sh
# The job page (issue 32, item 8): the heat map coloured by each cell's
# deviation from its column's median, with a legend and a neutral band
# (a 1 % spread of elapsed times stays plain), text readable on every cell
# (WCAG 2.1 contrast, computed in Chromium from the styles it applied),
# metric labels a reader knows, the command line, a chart of the per-rank
# components; and 'report JOB --plot' writing those charts.
# The job is written by hand as 'record' writes it (docs/job-format.md:
# JOB/meta.json and one summary.json per rank), with values chosen so that
# the expected band of each cell is worked out here, by jq, from them.
. "$(dirname "$0")/test-lib.sh"

if ! have_prog jq; then
	test_expect_success 'jq is installed' 'false'
	test_done
fi
VERSION=$("$TDPERF" --version | sed 's/.* //')

# rank R ELAPSED CPU RUNNING RUNNABLE
rank() {
	mkdir -p J/rank-0000$1.h &&
	printf '{"tdperf_version":"%s","rank":%s,"job_id":"7","launcher":"openmpi","size":4,"node":null,"host":"h","scope":"process","elapsed_s":%s,"cpu_s":%s,"context_switches":10,"cpu_migrations":1,"page_faults":100,"exit_status":0,"signal":null,"interrupted":false,"mode":"software","cpu":{"name":"X","microarchitecture":null},"sched":{"running":%s,"runnable":%s,"sync":0.1,"io":0,"sleep":0.05,"unknown":0,"imbalance":0},"topdown":{"retiring":0.3,"bad_speculation":0.05,"frontend_bound":0.15,"backend_bound":0.5},"cycles":1000000000.0,"mpi_share":null,"mpi_share_with_callees":null}\n' \
		"$VERSION" "$1" "$2" "$3" "$4" "$5" >J/rank-0000$1.h/summary.json
}

test_expect_success 'a 4-rank job: elapsed within 1.1 %, rank 3 with twice the CPU time' '
	mkdir J &&
	printf "%s\n" "{\"format\":\"tdperf-job\",\"version\":1,\"kind\":\"job\",\"launcher\":\"openmpi\",\"job_id\":\"7\",\"ranks\":4,\"command_line\":[\"tdperf\",\"record\",\"--threads\",\"-o\",\"J\",\"--\",\"./app\",\"<6>\"],\"workload\":[\"./app\",\"<6>\"]}" >J/meta.json &&
	rank 0 1.259 1.00 0.98 0.20 && rank 1 1.273 1.02 1.00 0.02 &&
	rank 2 1.262 0.99 0.97 0.13 && rank 3 1.268 2.10 2.05 0.11 &&
	"$TDPERF" report --format json J >job.json &&
	"$TDPERF" report --html job.html J 2>err &&
	! grep "{{" job.html
'

# The band of every cell, rank by rank, from the ranks' values and the
# medians jq takes of them: within 5 % of the median dev0, then 5, 20 and
# 50 % steps above (devp1-3) or below (devm1-3).
bands_jq='def median: sort | if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end;
	def val($c): if ($c | contains(".")) then .[$c | split(".")[0]][$c | split(".")[1]] else .[$c] end;
	.ranks as $r | $cols | split(" ") as $cs |
	($cs | map(. as $c | [$r[] | val($c)] | median)) as $m |
	$r[] | [range(0; $cs | length) as $i | val($cs[$i]) as $v | $m[$i] as $md |
		(if $md == 0 then (if $v == 0 then 0 else 1e9 * $v end) else 100 * ($v - $md) / ($md | fabs) end) as $p |
		($p | fabs) as $a | (if $a < 5 then 0 elif $a < 20 then 1 elif $a < 50 then 2 else 3 end) as $s |
		if $s == 0 then "dev0" elif $p > 0 then "devp\($s)" else "devm\($s)" end] | join(" ")'

test_expect_success 'each heat cell has the band of its deviation from its column median' '
	sed -n "/<table class=\"data heatmap\">/,/<\/table>/p" job.html >heat &&
	cols=$(sed -n "/<thead>/,/<\/thead>/p" heat | grep -o "<th class=\"num\" title=\"[^\"]*\"" | sed "s/.*title=\"//; s/\"$//" | tr "\n" " " | sed "s/ $//") &&
	test "$cols" = "elapsed_s cpu_s sched.running sched.runnable sched.sync sched.io sched.sleep sched.unknown sched.imbalance topdown.retiring topdown.bad_speculation topdown.frontend_bound topdown.backend_bound" &&
	jq -r --arg cols "$cols" "$bands_jq" job.json >want &&
	grep "^<tr><th>[0-3]</th>" heat | sed "s/<td class=\"num heat \([a-z0-9]*\)\"/\n\1 /g" |
		sed -n "s/^\(dev[a-z0-9]*\) .*/\1/p" | paste -d " " - - - - - - - - - - - - - >got &&
	cat want && diff want got &&
	grep -q devp3 want && grep -q devm3 want && grep -q devm1 want && grep -q dev0 want
'

test_expect_success 'the bands the issue names: 1 % of elapsed time is plain, rank 3 CPU time is far above' '
	! sed -n "/heatmap/,/<\/table>/p" job.html | grep -o "<td class=\"num heat [a-z0-9]*\" title=\"[-+0-9.]* % from the median 1.265\">1.2[0-9]*<" | grep -v " dev0\"" &&
	sed -n "/heatmap/,/<\/table>/p" job.html | grep -c "<td class=\"num heat dev0\" title=\"[-+0-9.]* % from the median 1.265\">1.2" >n && test "$(cat n)" = 4 &&
	grep -q "<td class=\"num heat devp3\" title=\"+107.9 % from the median 1.01\">2.1</td>" job.html &&
	grep -q "<td class=\"num heat devm3\" title=\"-83.3 % from the median 0.12\">0.02</td>" job.html
'

test_expect_success 'a legend of the seven bands, human labels, the command line' '
	test $(grep -o "<span class=\"heat dev[pm0-9]*\">" job.html | wc -l) = 7 &&
	grep -q "<span class=\"heat dev0\">within 5 % of the median</span>" job.html &&
	grep -q "<th class=\"num\" title=\"elapsed_s\">Elapsed time (s)</th>" job.html &&
	grep -q "<th class=\"num\" title=\"sched.runnable\">Runnable (waiting for a CPU) (s)</th>" job.html &&
	grep -q "<td title=\"topdown.backend_bound\">Top-Down: Backend Bound</td>" job.html &&
	! grep -q ">elapsed_s<\|>sched\.[a-z]*<\|>cpu_s<" job.html &&
	grep -q "Recorded with <code>tdperf record --threads -o J -- ./app &lt;6&gt;</code>" job.html
'

test_expect_success 'the per-rank charts: one bar per rank, segments as the ranks measured them' '
	for c in job-cpu job-sched job-topdown; do
		sed -n "/<figure class=\"jobchart\" id=\"chart-$c\">/,/<\/figure>/p" job.html >fig &&
		test $(grep -c "<div class=\"stackrow\">" fig) = 4 || { echo "$c"; exit 1; }
	done &&
	sed -n "/id=\"chart-job-sched\"/,/<\/figure>/p" job.html >fig &&
	# rank 3: running 2.05 s of the largest bar, 2.05 + 0.11 + 0.1 + 0.05 = 2.31 s
	grep -q "data-series=\"running\" style=\"width:88.74%;background:#2f9e5a\" title=\"running: 2.05\"" fig &&
	grep -q "<div class=\"val\">2.31</div>" fig
'

test_expect_success 'report JOB --plot writes the three charts with the ranks values' '
	"$TDPERF" report --plot P J 2>err &&
	for c in job-cpu job-sched job-topdown; do test -s P/$c.dat && test -s P/$c.gp || exit 1; done &&
	grep -v "^#" P/job-cpu.dat | cut -f2 | tr "\n" " " >got &&
	jq -r "[.ranks[].cpu_s | tostring] | join(\" \")" job.json >want &&
	test "$(cat got)" = "$(cat want) " &&
	grep "^rank 3	2.05	0.11	0.1	0	0.05	0	0$" P/job-sched.dat
'

CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
TMPDIR=$TEST_DIR
export CHROMIUM TMPDIR
if test -x "$CHROMIUM" && have_prog node; then
	# contrast(fg, bg) of WCAG 2.1 (relative luminance of sRGB), on the colours Chromium computed
	contrast='(() => { const lum = (c) => { const v = c.match(/[0-9.]+/g).slice(0, 3).map(Number).map((x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); }); return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; }; const r = [...document.querySelectorAll("td.heat, .heatlegend span")].map((e) => { const s = getComputedStyle(e); const a = lum(s.color), b = lum(s.backgroundColor); return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05); }); return r.length + " " + Math.min(...r).toFixed(2); })()'
	test_expect_success 'in Chromium: every heat cell and legend band has text contrast 4.5:1 or more' '
		node "$TD_SRCDIR/tests/e2e/browser-check.js" job.html job.png "$contrast" \
			"document.querySelectorAll(\".jobchart .stackrow\").length" >res &&
		cat res &&
		grep "^console-errors 0$" res && grep "^requests 0$" res &&
		min=$(grep "^eval (() =>" res | sed "s/.*=> \"[0-9]* \([0-9.]*\)\"$/\1/") &&
		grep -q "=> \"59 " res &&
		awk -v m="$min" "BEGIN { exit !(m >= 4.5) }" &&
		grep -F "eval document.querySelectorAll(\".jobchart .stackrow\").length => 12" res
	'
else
	test_expect_success 'chromium and node are installed' 'false'
fi

test_done
