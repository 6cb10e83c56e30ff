#!/bin/sh
# tdperf record --drilldown with the real perf of this machine.  Without a
# hardware PMU (the test machines: a VM whose hypervisor exposes none)
# there is no tree to drill into: the second run samples cpu-clock, and
# the warning, meta.json and every format of the report say why.  On a
# machine with one, the run must sample a hardware event instead.  Also
# the options --drilldown refuses.
. "$(dirname "$0")/test-lib.sh"

W=$TD_BUILDDIR/tests/workloads

# No skip: without these the test cannot run, which is a failure.
missing=
have_prog perf || missing="$missing perf (linux-perf)"
have_prog jq || missing="$missing jq"
test -x "$W/tw-hot" || missing="$missing $W/tw-hot (make check builds it)"
if test -n "$missing"; then
	test_expect_success 'the drill-down tests can run' '
		echo "missing:$missing"; false
	'
	test_done
fi
if perf stat -x, -e cycles -- true 2>&1 | grep -q "not supported"; then
	pmu=no
else
	pmu=yes
fi

test_expect_success 'record --drilldown: two runs, the second sampled into drilldown.data' '
	"$TDPERF" record --drilldown -o d -- "$W/tw-hot" 0.3 >out 2>err &&
	test_grep "wrote d (2 runs)" err &&
	test -s d/drilldown.data &&
	jq -e ".drilldown | length == 1" d/meta.json &&
	jq -e "[.files[] | select(.role == \"drilldown\")] | length == 1" d/meta.json &&
	jq -e "[.runs[]] | length == 2" d/meta.json
'

if test $pmu = no; then
	test_expect_success 'no hardware PMU: cpu-clock samples, with a warning naming why' '
		why=$(jq -r ".analyses.topdown.reason" d/meta.json) &&
		echo "meta.json: $why" &&
		test_grep "^tdperf: warning: --drilldown: cpu-clock samples instead of a node.s events: no hardware PMU: " err &&
		jq -e ".drilldown[0] | .node == null and .sampled.kind == \"cpu_clock\" and
			.sampled.events == \"cpu-clock\" and (.sampled.note | test(\"no hardware PMU: \"))" d/meta.json &&
		# the reason is the one tdperf check gives for the missing PMU
		reason=${why#no hardware PMU: } &&
		jq -e --arg r "$reason" ".drilldown[0].sampled.note | contains(\$r)" d/meta.json &&
		jq -e --arg r "$reason" ".warnings | any(contains(\$r) and startswith(\"--drilldown\"))" d/meta.json
	'
	test_expect_success 'no hardware PMU: the report shows where the time went, and says it is cpu-clock' '
		"$TDPERF" report --format json d >d.json &&
		jq -e ".drilldown.steps[0] | .sampled.kind == \"cpu_clock\" and .samples > 0" d.json &&
		# tw-hot: tw_hot_a does about twice the work of tw_hot_b
		jq -e ".drilldown.steps[0].functions[0].symbol == \"tw_hot_a\"" d.json &&
		"$TDPERF" report d >d.txt &&
		test_grep "step 1: cpu-clock" d.txt &&
		test_grep "sampled: cpu-clock (no hardware counters)" d.txt &&
		test_grep "instead: cpu-clock samples instead of a node.s events: no hardware PMU" d.txt &&
		"$TDPERF" report --html d.html d 2>/dev/null &&
		test_grep "Instead: cpu-clock samples instead of a node" d.html
	'
else
	test_expect_success 'a hardware PMU: a hardware event was sampled, not cpu-clock' '
		jq -e ".drilldown == [] or (.drilldown[0].sampled.kind != \"cpu_clock\")" d/meta.json
	'
fi

test_expect_success 'a meta.json naming a file outside the run directory: the step says so, nothing read' '
	cp -r d hostile &&
	ln -s "$TD_SRCDIR/README.md" hostile/drilldown-9.data &&
	jq ".drilldown = [{\"step\": 1, \"file\": \"../d/drilldown.data\"}, 5,
		{\"step\": 2, \"file\": \"drilldown-9.data\"}, {\"step\": 3, \"file\": 7}]" d/meta.json >hostile/meta.json &&
	"$TDPERF" report --format json hostile >h.json &&
	jq -e ".drilldown.steps | length == 3 and all(.samples == 0 and .functions == [] and
		(.error | test(\"names no drill-down file of the run directory\")))" h.json
'

test_expect_success 'bad --drilldown values and options it cannot go with: one line, exit 2' '
	test_exit_code 2 "$TDPERF" record --drilldown=0 -- true 2>err &&
	test_line_count = 1 err && test_grep "drilldown takes a number of steps from 1 to 8, not .0." err &&
	test_exit_code 2 "$TDPERF" record --drilldown=x -- true 2>err &&
	test_grep "not .x." err &&
	test_exit_code 2 "$TDPERF" record --drilldown -r 2 -- true 2>err &&
	test_grep "drilldown chooses its second run from the first: it cannot be used with -r" err &&
	test_exit_code 2 "$TDPERF" record --drilldown --no-multiplex -- true 2>err &&
	test_grep "cannot be used with --no-multiplex" err &&
	test_exit_code 2 "$TDPERF" record -g -- true 2>err &&
	test_grep "go with --hotspots or --drilldown" err &&
	! test -e tdperf.data
'

test_expect_success 'documented: --help, the man page and the README' '
	"$TDPERF" record --help >help 2>&1 &&
	test_grep -e "--drilldown\[=N\]" help &&
	test_grep "drilldown" "$TD_SRCDIR/man/tdperf.1" &&
	test_grep "record --drilldown" "$TD_SRCDIR/README.md" &&
	test_grep "\`drilldown\`" "$TD_SRCDIR/docs/report-schema.md"
'

test_done
