#!/bin/sh
# tdperf report --format trace: Chrome's trace-event JSON of a run
# recorded with --threads and -I under the emulated PMU.  Neither
# chrome://tracing nor Perfetto's trace processor installs here from
# Debian, so a reader checks the fields the Trace Event Format documents
# (ph, name, pid, tid, ts, dur in microseconds, args; "M" metadata names)
# and what they must say: each thread's state slices are in order, do not
# overlap and add up to the thread's life per state in the report; the
# Level 1 counter track has one sample per interval perf printed, each
# summing to 1 and equal to the report's interval values.
. "$(dirname "$0")/test-lib.sh"

. "$TD_SRCDIR/tests/e2e/pmu-emu-lib.sh"
emu_require tw-barrier

test_expect_success 'a --threads -I 100 run (emulated skylakex) exported as a trace' '
	"$EMU/pmu-emu" --cpu skylakex -- "$TDPERF" record --assume-pmu --threads -I 100 -o run \
		-- "$W/tw-barrier" 4 >rec.out 2>&1 &&
	"$TDPERF" report --format json --scopes all run >run.json &&
	jq -e ".threads.threads | length >= 5" run.json &&
	"$TDPERF" report --format trace -o trace.json run &&
	jq -e ".traceEvents | length > 0" trace.json
'

test_expect_success 'every event has the documented fields of its phase' '
	jq -e ".displayTimeUnit == \"ms\"" trace.json &&
	jq -e "[.traceEvents[] | .ph] | unique == [\"C\", \"M\", \"X\"]" trace.json &&
	jq -e "[.traceEvents[] | select(.ph == \"M\") | (.name == \"process_name\" or .name == \"thread_name\")
		and (.pid | type) == \"number\" and (.args.name | type) == \"string\"] | all" trace.json &&
	jq -e "[.traceEvents[] | select(.ph == \"X\") | (.pid | type) == \"number\" and (.tid | type) == \"number\"
		and .ts >= 0 and .dur > 0 and .cat == \"thread-state\"
		and (.name | IN(\"running\", \"runnable\", \"sync\", \"io\", \"sleep\", \"unknown\"))] | all" trace.json &&
	jq -e "[.traceEvents[] | select(.ph == \"C\") | (.ts | type) == \"number\" and (.args | length) > 0
		and ([.args[] | type == \"number\"] | all)] | all" trace.json
'

test_expect_success 'each thread of the report is named once, with its slices' '
	for tid in $(jq ".threads.threads[].tid" run.json); do
		name=$(jq -r --argjson t "$tid" ".threads.threads[] | select(.tid == \$t) | .name" run.json) &&
		jq -e --argjson t "$tid" --arg n "$name" "[.traceEvents[] | select(.ph == \"M\" and .name == \"thread_name\" and .tid == \$t)]
			| length == 1 and .[0].args.name == \$n" trace.json &&
		jq -e --argjson t "$tid" "[.traceEvents[] | select(.ph == \"X\" and .tid == \$t)] | length > 0" trace.json || return 1
	done
'

test_expect_success 'slices are in order, never overlap, and sum to the thread'"'"'s life per state' '
	jq -e "[.traceEvents[] | select(.ph == \"X\")] | group_by(.tid)[] as \$s
		| [range(1; \$s | length) | \$s[.].ts >= \$s[. - 1].ts + \$s[. - 1].dur - 0.001] | all" trace.json &&
	jq -r "[.traceEvents[] | select(.ph == \"X\")] | group_by([.tid, .name])[]
		| \"\(.[0].tid) \(.[0].name) \([.[].dur] | add)\"" trace.json | sort >got &&
	jq -r ".threads.threads[] | .tid as \$t | .life | to_entries[] | select(.value > 0 and .key != \"imbalance\")
		| \"\(\$t) \(.key) \(.value * 1e6)\"" run.json | sort >want &&
	test -s want && cat want &&
	paste -d" " want got | awk "{ d = \$3 - \$6; if (d < 0) d = -d; if (\$1 != \$4 || \$2 != \$5 || d >= 1) { print \"differs: \" \$0; bad = 1 } }
		END { exit bad }" && test_line_count = $(wc -l <want) got
'

test_expect_success 'the Level 1 track: one sample per interval perf printed, each the report'"'"'s' '
	n=$(jq "[.traceEvents[] | select(.ph == \"C\" and .name == \"Top-Down Level 1\")] | length" trace.json) &&
	intervals=$(grep -v "^#" run/perf-stat-1.csv | awk -F, "NF > 2 { print \$1 }" | sort -u | wc -l) &&
	echo "$n samples, $intervals intervals" && test "$n" = "$intervals" &&
	jq -e "[.traceEvents[] | select(.ph == \"C\" and .name == \"Top-Down Level 1\") | [.args[]] | add
		| . > 0.999 and . < 1.001] | all" trace.json &&
	jq -c "[.scopes[] | select(.time != null and .kind == \"total\") | [.nodes[] | select(.level == 1) | .value]]" run.json >want &&
	jq -c "[.traceEvents[] | select(.ph == \"C\" and .name == \"Top-Down Level 1\") | [.args[]]]" trace.json >got &&
	jq -n --slurpfile w want --slurpfile g got -e "[range(\$w[0] | length) as \$i | range(\$w[0][\$i] | length) as \$k
		| (\$w[0][\$i][\$k] - \$g[0][\$i][\$k]) | fabs < 1e-9] | all and (\$w[0] | length) == (\$g[0] | length)"
'

test_expect_success 'a run without threads or intervals: one line, exit 2, no file' '
	"$TDPERF" import -o plain "$TD_SRCDIR/tests/fixtures/perf-stat-published/case-05-skl-irogers-topdownL1-systemwide.txt" >/dev/null 2>&1 &&
	test_exit_code 2 "$TDPERF" report --format trace -o bad.json plain 2>err &&
	test_line_count = 1 err && grep "nothing to put on a timeline" err && ! test -e bad.json &&
	test_exit_code 2 "$TDPERF" report --hotspots --format trace run 2>err
'

test_done
