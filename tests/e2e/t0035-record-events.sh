#!/bin/sh
# record -e: extra events counted beside the tree, through the real perf
# against the emulated PMU (tests/pmu-emu).  Oracles: perf's own CSV in
# the run directory (the count it printed) and the emulator's true count
# (tests/pmu-emu/emu-truth); the scheduler's placement is checked in the
# dry run, an unknown event before the workload runs.
. "$(dirname "$0")/test-lib.sh"

. "$TD_SRCDIR/tests/e2e/pmu-emu-lib.sh"

emu_require

BR='cpu/event=0xc4,umask=0x0,name=BR_INST_RETIRED.ALL_BRANCHES/'

# perf's printed count of EVENT in a perf stat CSV (first field of its line)
perf_count() {
	grep -v '^#' "$2" | awk -F, -v e="$1" '$3 == e { print $1; exit }'
}

test_expect_success 'dry run: a lone event is packed into a tree group with a free counter, {a,b} gets its own group' '
	"$TDPERF" record --dry-run --cpu skylakex -e branch-misses -e "{instructions:u,branches}" -- true >dry &&
	# level 2 leaves group 4 with two free general counters (t0520 shows its layout)
	awk "/^group/ { g = \$2 } /^  branch-misses / { print g }" dry >where &&
	echo 4 >expect && diff -u expect where &&
	test_grep "^  branch-misses  *no counter fixed here: extra event (-e)" dry &&
	awk "/^group/ { g = \$2 } /^  instructions:u |^  branches / { print g }" dry >where &&
	printf "5\n5\n" >expect && diff -u expect where &&
	test_grep "^group 5 (cpu): 2/4 general counters" dry &&
	test_grep "extra events only (-e)" dry &&
	test_grep "branch-misses},{instructions:u,branches}" dry
'

test_expect_success 'bad -e lists exit 2 with one line, nothing run' '
	test_exit_code 2 "$TDPERF" record --dry-run --cpu skylakex -e "{cycles" -- true 2>err &&
	test_line_count = 1 err && test_grep "unbalanced braces" err &&
	test_exit_code 2 "$TDPERF" record --dry-run --cpu skylakex -e "cycles,,branches" -- true 2>err &&
	test_line_count = 1 err && test_grep "empty event name" err
'

test_expect_success 'an event perf does not know: one line naming it, exit 2, the workload never runs' '
	test_exit_code 2 "$EMU/pmu-emu" --cpu skylakex -- \
		"$TDPERF" record -l 1 -e branch-misses,no-such-event -o bad.data -- touch ran 2>err &&
	grep -v "^tdperf: warning:" err >err1 &&
	test_line_count = 1 err1 && test_grep "^tdperf: -e no-such-event: perf cannot count" err1 &&
	! test -e ran && ! test -e bad.data
'

test_expect_success 'record -e under the emulated Skylake-SP: counts equal perf'"'"'s CSV and the emulator'"'"'s truth' '
	"$EMU/pmu-emu" --cpu skylakex --log emu.log -- \
		"$TDPERF" record -l 1 -e "$BR" -e branch-misses -o run.data -- sleep 0.3 >out 2>&1 &&
	"$TDPERF" report run.data --format json >r.json &&
	jq -r ".scopes[0].extra_events[] | \"\(.name) \(.value) \(.running_pct) \(.scaled)\"" r.json >ours &&
	test_line_count = 2 ours &&
	for e in BR_INST_RETIRED.ALL_BRANCHES branch-misses; do
		want=$(perf_count $e run.data/perf-stat-1.csv) && test -n "$want" &&
		got=$(awk -v e=$e "\$1 == e { printf \"%.0f\", \$2 }" ours) &&
		echo "$e perf $want tdperf $got" &&
		test "$want" = "$got" || return 1
	done &&
	# -l 1 fills group 1: the extras share counters in time, perf scaled them
	awk "{ if (\$3 >= 100 || \$4 != \"true\") exit 1 }" ours &&
	# the truth: drop the perf processes of the -e check (one per event) from the log
	awk "/comm=perf/ { p = \$2; if (!(p in seen)) { seen[p] = ++n } if (seen[p] <= 2) next } { print }" \
		emu.log >emu-run.log &&
	"$TDPERF" record --dry-run --cpu skylakex -l 1 -e "$BR" -e branch-misses -- true >dry1 &&
	"$EMU/emu-truth" "$EMU/cpus/skylakex.cpu" emu-run.log dry1 >truth &&
	true_br=$(awk "\$2 == \"BR_INST_RETIRED.ALL_BRANCHES\" { print \$5 }" truth) &&
	got=$(awk "\$1 == \"BR_INST_RETIRED.ALL_BRANCHES\" { print \$2 }" ours) &&
	echo "truth $true_br tdperf $got" &&
	approx_eq "$got" "$true_br" "$(awk "BEGIN { print $true_br / 1000 }")"
'

test_expect_success 'text, CSV and HTML show the extra events, marked multiplexed' '
	"$TDPERF" report run.data >text &&
	test_grep "^  Extra events (record -e):" text &&
	n=$(perf_count branch-misses run.data/perf-stat-1.csv) &&
	c=$(printf "%s" "$n" | sed -e ":a" -e "s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/" -e "ta") &&
	test_grep "^ *$c  *branch-misses  [0-9.]*% running, m scaled by perf" text &&
	"$TDPERF" report run.data --format csv >r.csv &&
	awk -F, "\$8 == \"branch-misses\" && \$(NF-5) == \"extra event (record -e)\" { print \$11, \$16 }" r.csv >row &&
	echo "$n 1" >expect && diff -u expect row &&
	"$TDPERF" report run.data --html=r.html >/dev/null &&
	test_grep "<section id=\"extra-events\"" r.html &&
	test_grep "<td><code>branch-misses</code></td><td class=\"num\">$c</td>" r.html &&
	test_grep "m multiplexed</span>" r.html
'

test_done
