#!/bin/sh
# tdperf list and tdperf explain on the built-in tables.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'list shows every built-in table' '
	"$TDPERF" list >out &&
	for f in "$TD_SRCDIR"/metrics/tables/*.json; do
		n=$(basename "$f" .json)
		test_grep "^$n " out || exit 1
	done
'

test_expect_success 'list --cpu prints the tree indented by level, thresholds included' '
	"$TDPERF" list --cpu skylakex >out &&
	test_grep "^backend_bound  *Backend Bound  *backend_bound > 0.2$" out &&
	test_grep "^  memory_bound  *Memory Bound  *memory_bound > 0.2 & backend_bound > 0.2$" out &&
	test_grep "^    l1_bound " out
'

test_expect_success 'list --level 2 stops at Level 2' '
	"$TDPERF" list --cpu skylakex --level 2 >out &&
	test_grep "^  memory_bound " out &&
	! grep "^    [a-z]" out
'

test_expect_success 'list --info and --events add sections' '
	"$TDPERF" list --cpu zen4 --info --events >out &&
	test_grep "^smt_contention " out &&
	test_grep "^  ipc " out &&
	test_grep "^  ls_not_halted_cyc  *cpu/event=0x76,umask=0x0/" out
'

test_expect_success 'Zen 1-3 tables say what their PMU cannot measure' '
	"$TDPERF" list --cpu zen2 >out &&
	test_grep "missing: .*Zen 4" out
'

test_expect_success 'explain shows path, formula, threshold, events and children' '
	"$TDPERF" explain --cpu skylake memory_bound >out &&
	test_grep "^path:  *Backend Bound > Memory Bound$" out &&
	test_grep "^formula:  *.*CYCLE_ACTIVITY.STALLS_MEM_ANY" out &&
	test_grep "^threshold:  *memory_bound > 0.2 & backend_bound > 0.2$" out &&
	test_grep "^events:.*CPU_CLK_UNHALTED.THREAD_ANY" out &&
	test_grep "^children:  *l1_bound, l2_bound, l3_bound, dram_bound, store_bound$" out
'

test_expect_success 'explain shows alternatives with their notes' '
	"$TDPERF" explain --cpu skylake info_core_core_clks >out &&
	test_grep "^alternative: .*ONE_THREAD_ACTIVE" out &&
	test_grep "THREAD_ANY was not counted" out
'

test_expect_success 'explain of an unknown node is an error naming the table' '
	test_exit_code 2 "$TDPERF" explain --cpu icelake no_such_node 2>err &&
	test_grep "table icelake has no metric .no_such_node." err
'

test_expect_success 'explain without a table or run is a usage error' '
	test_exit_code 2 "$TDPERF" explain memory_bound 2>err &&
	test_grep "needs --cpu" err
'

# Stacks by the names 'tdperf record --stacks' takes; a node of a run with
# its error bar and out-of-range finding (published outputs).
PUB=$FIXTURES/perf-stat-published
test_expect_success 'explain flops / multistage / frontend: the stack, its metrics and events' '
	for st in flops multistage frontend; do
		"$TDPERF" explain $st --cpu skylakex >st.txt || return 1
		grep -q "^$st: " st.txt || return 1
		grep -q "^record it:   tdperf record --stacks $st" st.txt || return 1
	done &&
	"$TDPERF" explain multistage --cpu skylakex >st.txt &&
	grep -q "stack_execute_memory" st.txt && grep -q "CYCLE_ACTIVITY.STALLS_MEM_ANY" st.txt &&
	"$TDPERF" explain cpi --cpu skylake >st.txt &&
	grep -q "^cpi: CPI stack" st.txt
'

test_expect_success 'explain multistage RUN: the parts of the run (case 23, Comet Lake)' '
	"$TDPERF" explain multistage $PUB/case-23-*.txt >st.txt &&
	grep -E "^  frontend +0\.01611 - 0\.01611" st.txt &&
	grep -E "^  memory +n/a" st.txt
'

test_expect_success 'explain NODE RUN shows the uncertainty (case 40, perf stat -r 5)' '
	"$TDPERF" explain retiring $PUB/case-40-*.txt >u.txt &&
	grep -E "^uncertainty: ± 0\.02 points \(repeats: " u.txt
'

test_expect_success 'explain NODE RUN names an out-of-range value (case 44)' '
	"$TDPERF" explain backend_bound $PUB/case-44-*.txt >o.txt &&
	grep -q "^out of range: below 0: Backend Bound = -1780.4 %" o.txt &&
	grep -q "^report:      -1780.4 % of slots" o.txt
'

test_expect_success 'papers are cited by authors and year, each listed in docs/references.md' '
	"$TDPERF" explain stack_alloc_branch --cpu skylake >explain.txt &&
	test_grep "Eyerman et al. 2018 count it in the branch component" explain.txt &&
	"$TDPERF" report -v "$FIXTURES/perf-stat-published/case-23-cml-multidim-topdownL1-L2-L3.txt" >report.txt &&
	test_grep -q "Eyerman et al. (2018) call the allocation point" report.txt &&
	cat explain.txt report.txt "$TD_SRCDIR"/metrics/tables/*.json >all.txt &&
	! grep -n -i -E "(paper|thesis)[ -]?0[0-9][0-9]" all.txt &&
	for cite in "Yasin 2014" "Eyerman et al. 2018" "Forte 2021" "Heirman et al. 2011" "Cabezas and Püschel 2014"; do
		test_grep -q "^- \*\*$cite\*\*: " "$TD_SRCDIR/docs/references.md" || exit 1
	done
'

test_expect_success 'every "X et al. YEAR" or "X and Y YEAR" cited in the sources is in docs/references.md' '
	(cd "$TD_SRCDIR" &&
	 grep -rhoE --include="*.[ch]" --include="*.sh" --include="*.md" --include="*.json" \
		"[A-Z][a-zü]+ (et al\.|and [A-Z][a-zü]+) \(?(19|20)[0-9][0-9]" \
		collect parse metrics util report src docs tests/e2e tests/unit) |
	sed "s/(//" | sort -u >cited &&
	test -s cited &&
	while IFS= read -r cite; do
		grep -q "^- \*\*$cite\*\*: " "$TD_SRCDIR/docs/references.md" ||
			{ echo "not in docs/references.md: $cite"; exit 1; }
	done <cited
'

test_done
