#!/bin/sh
# Sweeps and threads (issue 32, item 9), on a real sweep recorded on a busy
# 2-CPU machine (tests/fixtures/sweep-busy/README.md) and one recorded here:
# record --sweep names no temporary path; the report knows the CPU; the
# page title has no "{threads}"; no empty cards; no bar column cut off;
# a worker over half in sync stays in the aggregate (only the thread that
# created the others is left out, counted against perf script's own fork
# lines); without Top-Down values the thread finding heads the summary;
# the busy machine and the point with more threads than CPUs are said.
. "$(dirname "$0")/test-lib.sh"

FIX=$TD_SRCDIR/tests/fixtures/sweep-busy
if ! have_prog jq; then
	test_expect_success 'jq is installed' 'false'
	test_done
fi

test_expect_success 'the sweep report knows the CPU, from the values recordings' '
	"$TDPERF" report --format json "$FIX" >sw.json &&
	"$TDPERF" report "$FIX" >sw.txt &&
	jq -r ".cpu.name" "$FIX/threads-1/meta.json" >want &&
	jq -r ".run.cpu.name" sw.json >got && diff want got &&
	grep "^CPU: $(cat want) " sw.txt && ! grep "CPU: unknown" sw.txt
'

test_expect_success 'each point says its CPUs; the one with more threads than CPUs is named' '
	jq -e "[.sweep.runs[].cpus] == [2, 2, 2]" sw.json &&
	jq -e "[.sweep.runs[] | .oversubscribed == (.aggregated_threads > .cpus)] | all" sw.json &&
	jq -e "[.sweep.runs[].oversubscribed] == [false, false, true]" sw.json &&
	sp=$(jq -r ".sweep.runs[2].speedup * 100 | round / 100 | tostring" sw.json) &&
	jq -e --arg sp "$sp" ".sweep.notes | map(select(startswith(\"threads=4 runs 4 threads on 2 CPUs: \") and contains(\"speedup of \" + \$sp))) | length == 1" sw.json &&
	grep "^  note: threads=4 runs 4 threads on 2 CPUs: " sw.txt
'

test_expect_success 'the busy machine is warned about, naming exactly the points that waited for a CPU with CPUs to spare' '
	# the points with no more threads than CPUs and 20 % or more runnable, from the numbers themselves
	jq -r "[.sweep.runs[] | select(.aggregated_threads <= .cpus and .fractions.runnable >= 0.2) |
		\"\(.fractions.runnable * 100 | round) % at threads=\(.value)\"] | join(\", \")" sw.json >want &&
	test -s want && cat want &&
	jq -r ".warnings[] | select(.text | startswith(\"the machine was busy during the sweep\")) | .text" sw.json >w &&
	test_line_count = 1 w &&
	sed "s/ ([0-9]* threads\{0,1\} on 2 CPUs)//g; s/.*(runnable): //; s/; other load.*//" w >got &&
	diff want got &&
	grep "^warning: the machine was busy during the sweep" sw.txt
'

test_expect_success 'the page: a title without the placeholder, no tree, chart or event card for a sweep' '
	"$TDPERF" report --html sw.html "$FIX" 2>err &&
	grep "<title>tw-lock (threads = 1, 2, 4)</title>" sw.html &&
	grep "<h1>tw-lock (threads = 1, 2, 4)</h1>" sw.html &&
	! grep "id=\"tree\"\|id=\"events\"\|id=\"charts\"" sw.html &&
	! grep "no counts of its own (a sweep" sw.html
'

test_expect_success 'workers over half in sync stay in the aggregate; the thread that created them does not' '
	"$TDPERF" report --format json "$FIX/threads-2" >t2.json &&
	jq -c "[.threads.threads[] | {tid, sync_fraction, created_threads, excluded}]" t2.json &&
	# the oracle: the fork lines perf script prints, per parent tid
	perf script -i "$FIX/threads-2/perf.data" -F tid,event 2>/dev/null | grep -c "sched:sched_process_fork" >forks &&
	main=$(jq ".threads.threads[] | select(.tid == .pid) | .tid" t2.json) &&
	jq -e --argjson n "$(cat forks)" ".threads.threads[] | select(.tid == .pid) | .created_threads == \$n and .excluded" t2.json &&
	jq -e "[.threads.threads[] | select(.tid != .pid) | .excluded] | all | not" t2.json &&
	jq -e "[.threads.threads[] | select(.tid != .pid and .sync_fraction > 0.5)] | length >= 1" t2.json &&
	jq -e ".threads.aggregate.threads == ([.threads.threads[] | select(.tid != .pid)] | length)" t2.json &&
	jq -e ".threads.notes | map(select(test(\"^1 worker spent more than half of its time in sync, waiting for other workers .a contended lock or a barrier.\"))) | length == 1" t2.json
'

test_expect_success 'without Top-Down values the thread finding heads the summary' '
	"$TDPERF" report --html one.html "$FIX/threads-4" 2>err &&
	"$TDPERF" report --format json "$FIX/threads-4" >t4.json &&
	jq -e "[.scopes[0].nodes[] | .value | numbers] | length == 0" t4.json &&
	jq -r ".threads.aggregate.sentence" t4.json | sed "s/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/\x27/\&#39;/g" >want &&
	sed -n "/<section id=\"summary\"/,/<\/section>/p" one.html | grep -o "<div class=\"verdict[^\"]*\"><div class=\"sentence\">[^<]*" | head -n 1 >first &&
	cat first && grep -F "<div class=\"verdict threads\"><div class=\"sentence\">Threads: $(cat want)" first &&
	jq -e ".threads.aggregate.sentence | test(\"the threads wait for each other: a contended lock or a barrier\")" t4.json
'

CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
TMPDIR=$TEST_DIR
export CHROMIUM TMPDIR
if test -x "$CHROMIUM" && have_prog node; then
	test_expect_success 'in Chromium: no table of the sweep and thread pages is wider than its card' '
		for p in sw one; do
			node "$TD_SRCDIR/tests/e2e/browser-check.js" $p.html $p.png \
				"[...document.querySelectorAll(\".tablewrap\")].filter(e => e.scrollWidth > e.clientWidth).length" \
				"document.querySelectorAll(\".tablewrap\").length" \
				"[...document.querySelectorAll(\"section.card\")].filter(s => s.innerText.trim().split(\"\\n\").length < 2).length" >res &&
			cat res && grep "^console-errors 0$" res &&
			grep -F "filter(e => e.scrollWidth > e.clientWidth).length => 0" res &&
			! grep -F "querySelectorAll(\".tablewrap\").length => 0" res &&
			grep -F "length < 2).length => 0" res || exit 1
		done
	'
else
	test_expect_success 'chromium and node are installed' 'false'
fi

if ASAN_OPTIONS=detect_leaks=0 "$TDPERF" record --threads -o probe -- true >out 2>err && test -f probe/perf.data; then
	test_expect_success 'record --sweep: no message and no recording names the temporary directory' '
		ASAN_OPTIONS=detect_leaks=0 "$TDPERF" record --sweep threads=1,2 -o sw -- sh -c "exit 0" 2>err &&
		cat err &&
		! grep "tmp-" err &&
		grep "^tdperf: note: sweep: threads=1 recorded (1 run)$" err &&
		grep "^tdperf: note: wrote sw (threads=1,2); see it with: tdperf report sw$" err &&
		! grep -r "tmp-" sw --include=*.json &&
		jq -e ".command_line[3:5] == [\"-o\", \"sw/threads-2\"]" sw/threads-2/meta.json
	'
else
	test_expect_success "record --threads works here ($(tail -n 1 err))" 'false'
fi

test_done
