#!/bin/sh
# Labels from the input never reach gnuplot as commands.  Thread names
# (a process names its own threads), -j JSON thread labels and the node names
# of a run directory's table.json are written into the chart scripts; gnuplot
# substitutes `backticks` and expands @macros inside double-quoted strings and
# runs system().  Each input below carries such strings (built from the real
# published Ice Lake CSV and JSON outputs, and a real recording of a workload
# started under a hostile name); report --plot and --html must draw the
# charts, show the label as text, and never create a marker file.
. "$(dirname "$0")/test-lib.sh"

TMPDIR=$TEST_DIR; export TMPDIR
CSV=$FIXTURES/perf-stat-published/case-27-iclclass-irogers-csv-interval-topdownL1.txt
JSON=$FIXTURES/perf-stat-published/case-26-intel-namhyung-v613-json-topdownL1.txt
W=$TD_BUILDDIR/tests/workloads

if ! have_prog gnuplot || ! have_prog jq; then
	test_skip 'hostile labels' 'gnuplot or jq missing'
	test_done
fi

# no_marker: no command of the labels ran (markers are named PWNED*)
no_marker() {
	found=$(find "$TEST_DIR" -name 'PWNED*' | head -n 3)
	test -z "$found" || { echo "a label ran a command: $found"; return 1; }
}

# csv_threads NAME: the published interval CSV as three intervals of thread NAME
csv_threads() {
	awk -F, -v OFS=, -v n="$1" '/^[0-9]+\.[0-9]+,/ { l[++k] = $0 }
		END { for (t = 1; t <= 3; t++) for (i = 1; i <= k; i++) {
			$0 = l[i]; $1 = t ".000103288," n; print } }' "$CSV"
}

# plot_and_html INPUT DIR: both renderers succeed and the label is in a script
plot_and_html() {
	"$TDPERF" report --plot "$2" "$1" >/dev/null &&
	"$TDPERF" report --html "$2.html" "$1" >/dev/null &&
	grep -q "touch PWNED" "$2"/*.gp &&
	grep -q "touch PWNED" "$2.html" &&
	no_marker
}

test_expect_success 'per-thread CSV: a comm with backticks, @macro, quotes and a backslash' '
	csv_threads "\`touch PWNED1\`@x\"q\"'"'"'s'"'"'\\-4242" >t1.csv &&
	plot_and_html t1.csv c1 &&
	grep -F "\`touch PWNED1\`@x" c1/timeline-*.gp | grep -q "^set title"
'

test_expect_success 'per-thread text: a comm with spaces, system() and a backslash' '
	csv_threads "x" | awk -F, -v n="\`touch PWNED2\` system(\"touch PWNED4\")\\\\-4242" \
		"\$3 != \"\" { printf \"%16s %s %20s %s\\n\", \$1, n, \$3, \$5 }" >t2.txt &&
	plot_and_html t2.txt c2
'

test_expect_success '-j JSON: a thread label with an escaped newline and quotes' '
	n=0 &&
	for t in 1 2 3; do
		grep "^ *{" "$JSON" |
		sed "s/^ *{/{\"interval\" : $t.0, \"thread\" : \"\`touch PWNED5\`\\\\n@x \\\\\"q\\\\\" '"'"'-4242\", /"
	done >t3.json &&
	plot_and_html t3.json c3 &&
	! grep -q "^@x" c3/*.gp
'

test_expect_success 'run directory: table.json node names run nothing' '
	csv_threads "w-1" >csv_src.csv &&
	"$TDPERF" import -o run csv_src.csv >/dev/null &&
	jq ".metrics |= map(.name = \"\`touch PWNED6\` \" + .name + \"\\n@x \\\\ '"'"' system(\\\"touch PWNED7\\\")\")" \
		run/table.json >t && mv t run/table.json &&
	plot_and_html run c4 &&
	no_marker
'

if have_prog perf && perf record -q -e sched:sched_switch -o probe.data -- true 2>/dev/null; then
	test_expect_success 'record --threads of a workload named `touch PWNED8`: report runs nothing' '
		ln -s "$W/tw-barrier" "\`touch PWNED8\`" &&
		ASAN_OPTIONS=detect_leaks=0 "$TDPERF" record --threads -o rec.data -- "./\`touch PWNED8\`" 2 \
			>/dev/null 2>err &&
		"$TDPERF" report --plot c5 rec.data >/dev/null &&
		"$TDPERF" report --html c5.html rec.data >/dev/null &&
		grep -q "touch PWNED8" c5/threads.gp c5/threads.dat &&
		no_marker
	'
else
	test_skip 'record --threads of a workload named `touch PWNED8`' 'perf cannot record sched tracepoints here'
fi

test_done
