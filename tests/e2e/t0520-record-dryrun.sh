#!/bin/sh
# tdperf record --dry-run: groups and perf command lines for every
# built-in table, without running anything.  (The scheduler's invariants
# are checked in depth by tests/unit/test_sched.c; this checks the
# command line and what it prints.)
. "$(dirname "$0")/test-lib.sh"

tables=$(cd "$TD_SRCDIR/metrics/tables" && ls *.json | sed 's/\.json$//')

# Count the groups in the perf -e argument of a dry run's output.
perf_groups() { grep "^run 1: " "$1" | head -1 | tr -cd '{' | wc -c | tr -d ' '; }
said_groups() { sed -n 's/^groups: \([0-9]*\),.*/\1/p' "$1"; }
said_runs() { sed -n 's/^groups: [0-9]*, runs: \([0-9]*\).*/\1/p' "$1"; }

test_expect_success 'skylake L2: a group serving only split formulas says so' '
	"$TDPERF" record --dry-run --cpu skylake -l 2 -- ./app >out &&
	test_grep "^formulas split over groups (too many events for one group): memory_bound" out &&
	test_grep "^  no formula whole here: its events serve formulas split over groups$" out
'

test_expect_success 'every table: the groups printed are the groups in the perf command' '
	n=0
	for t in $tables; do
		for l in 1 2 3; do
			if ! "$TDPERF" record --dry-run --cpu $t -l $l -- ./app >out 2>err; then
				# only a table without a Top-Down tree may refuse
				test_grep "has no Top-Down tree" err >/dev/null || { cat err; exit 1; }
				continue
			fi
			cp out "dry-$t-$l" # the next test reads the -l 3 ones again
			g=$(said_groups out) && test "$g" = "$(perf_groups out)" ||
				{ echo "$t L$l: said $g groups, command has $(perf_groups out)"; exit 1; }
			test "$(grep -c "^group [0-9]* (" out)" = "$g" || { echo "$t L$l: group lines"; exit 1; }
			test "$(said_runs out)" = 1 || { echo "$t L$l: more than one run"; exit 1; }
			! grep -n "formulas whole here: *$" out || { echo "$t L$l: an empty formula list"; exit 1; }
			n=$((n + 1))
		done
	done
	test $n -ge 60
'

# Events per {group} of the perf command, commas inside /.../ respected.
command_group_sizes() {
	grep "^run 1: " "$1" | head -1 | sed "s/.* -e .//; s/. -- .*//" | awk '{
		n = 0; depth = 0; slash = 0
		for (i = 1; i <= length($0); i++) {
			c = substr($0, i, 1)
			if (c == "/") slash = !slash
			else if (c == "{") { depth = 1; n = 1 }
			else if (c == "}") { depth = 0; print n }
			else if (c == "," && depth && !slash) n++
		}
	}'
}
listed_group_sizes() {
	awk '/^group [0-9]+ \(/ { if (g) print n; g = 1; n = 0; next }
	     /^  [^ ].* (fixed [0-9]+|counter [0-9]+|no counter)/ { n++ }
	     /^(run|outside|formulas split)/ { if (g) print n; g = 0 }' "$1"
}

# named_not_asked DRY_RUN: the events a dry run lists in its groups that
# its perf command does not ask for by name (name=EV, name=cpu_core.EV or
# name=cpu_atom.EV, ended by / or ,), one per line.
named_not_asked() {
	awk '/^run 1: / && !cmd { cmd = $0 }
	     /^  [A-Za-z0-9_.]+ +(fixed|counter)/ { ev[$1] = 1 }
	     END { for (e in ev) {
			found = 0
			for (p = 1; p <= 3 && !found; p++) {
				pre = p == 1 ? "name=" : p == 2 ? "name=cpu_core." : "name=cpu_atom."
				found = index(cmd, pre e "/") || index(cmd, pre e ",")
			}
			if (!found) print e
	     } }' "$1"
}

# The -l 3 dry runs are the test above's (made here for a table it did
# not get to).
test_expect_success 'every event listed in a group is in that group of the perf command' '
	for t in $tables; do
		if ! test -f "dry-$t-3"; then
			"$TDPERF" record --dry-run --cpu $t -l 3 -- ./app >"dry-$t-3" 2>/dev/null ||
				{ rm -f "dry-$t-3"; continue; }
		fi
		out=dry-$t-3 &&
		command_group_sizes $out >cmd-sizes &&
		listed_group_sizes $out >listed-sizes &&
		test -s cmd-sizes &&
		cmp cmd-sizes listed-sizes || { echo "$t: group sizes differ"; exit 1; }
		named_not_asked $out >missing &&
		test ! -s missing || { echo "$t: listed but not asked of perf by name:"; cat missing; exit 1; }
	done
'

test_expect_success 'hybrid Alder Lake: P-core and E-core groups apart, each with its own table and counters' '
	"$TDPERF" record --dry-run --cpu alderlake -l 1 -- ./app >out 2>err &&
	test_grep "^hybrid: E-cores (cpu_atom) with table alderlake_atom: 6 general per group" out &&
	test_grep "^group 1 (cpu_core): " out &&
	test_grep "^group 2 (cpu_atom): 3/6 general counters" out &&
	test "$(said_groups out)" = 2 && test "$(perf_groups out)" = 2 &&
	grep "^groups: 2, runs: 1$" out &&
	grep "^run 1: " out | sed "s/.*-e .//; s/. -- .*//" | tr "{}" "\n\n" | grep / >groups &&
	test_line_count = 2 groups &&
	sed -n 1p groups | grep -v cpu_atom | grep -q "cpu_core/event=0x0,umask=0x4,name=cpu_core.TOPDOWN.SLOTS/" &&
	sed -n 2p groups | grep -v cpu_core | grep -q "cpu_atom/event=0xc2,umask=0x0,name=cpu_atom.TOPDOWN_RETIRING.ALL/"
'

test_expect_success 'hybrid: two groups of one PMU are multiplexed, one group per PMU is not' '
	"$TDPERF" record --dry-run --cpu alderlake -l 2 -- ./app >out 2>err &&
	test "$(grep -c "^group [0-9]* (cpu_atom)" out)" -ge 1 &&
	grep -q "^groups: [0-9]*, runs: 1" out &&
	"$TDPERF" record --dry-run --cpu sapphirerapids -l 1 -- ./app >spr &&
	! grep -q "^hybrid:" spr && ! grep -q "cpu_atom" spr &&
	"$TDPERF" record --dry-run --cpu alderlake -l 1 --no-multiplex -- ./app >nm &&
	grep "^groups: 2, runs: 1$" nm
'

test_expect_success 'a dry run needs no workload and runs nothing' '
	"$TDPERF" record --dry-run --cpu skylake -l 1 -o never.data >out &&
	test_grep "^groups: 1, runs: 1$" out &&
	! test -e never.data && ! ls never.data* 2>/dev/null
'

test_expect_success 'Skylake Level 1 with SMT on: one group, four general counters and a fixed one' '
	"$TDPERF" record --dry-run --cpu skylake --smt on -l 1 -- ./app >out &&
	test_grep "^counters: 4 general per group" out &&
	test_grep "^group 1 (cpu): 4/4 general counters" out &&
	test_grep "CPU_CLK_UNHALTED.THREAD_ANY  *fixed 1" out &&
	test_grep "^groups: 1, runs: 1$" out
'

test_expect_success 'the NMI watchdog takes a counter: Skylake Level 1 needs two groups' '
	"$TDPERF" record --dry-run --cpu skylake --smt on --nmi-watchdog on -l 1 -- ./app >out &&
	test_grep "^counters: 3 general per group .*NMI watchdog on" out &&
	test_grep "^groups: 2, runs: 1 (multiplexed)$" out
'

test_expect_success 'slots leads the topdown group on Sapphire Rapids' '
	"$TDPERF" record --dry-run --cpu sapphirerapids -l 2 -- ./app >out &&
	grep "^run 1: " out | grep -q "{cpu/event=0x0,umask=0x4,name=TOPDOWN.SLOTS/,[^}]*cpu/topdown-fe-bound/" &&
	test_grep "^groups: 1, runs: 1$" out
'

test_expect_success '--no-multiplex: one run per group; -r multiplies the runs' '
	"$TDPERF" record --dry-run --cpu skylake --smt on -l 2 -- ./app >out &&
	g=$(said_groups out) && test "$g" -gt 1 &&
	"$TDPERF" record --dry-run --no-multiplex --cpu skylake --smt on -l 2 -- ./app >out &&
	test "$(said_runs out)" = "$g" &&
	test "$(grep -c "^run [0-9]*: .*perf stat" out)" = "$g" &&
	for i in $(seq 1 $g); do
		grep "^run $i: " out | grep -q "instructions" || exit 1
		test "$(grep "^run $i: " out | tr -cd "{" | wc -c)" = 1 || exit 1
	done &&
	"$TDPERF" record --dry-run --no-multiplex -r 3 --cpu skylake --smt on -l 2 -- ./app >out &&
	test "$(said_runs out)" = $((3 * g))
'

test_expect_success 'options reach the perf command: -I, -a, -C, --per-thread, -p' '
	"$TDPERF" record --dry-run --cpu skylake -l 1 -I 100 -a -- ./app >out &&
	grep "^run 1: " out | grep -q "perf stat -x, --no-big-num -o perf-stat-1.csv -I100 -a -e" &&
	"$TDPERF" record --dry-run --cpu skylake -l 1 -C 0-3 --per-thread -- ./app >out &&
	grep "^run 1: " out | grep -q " -C 0-3 --per-thread -e" &&
	"$TDPERF" record --dry-run --cpu skylake -l 1 -p 4242 >out &&
	grep "^run 1: " out | grep -q " -p 4242$"
'

test_expect_success '--nodes measures a node and its parents only' '
	"$TDPERF" record --dry-run --cpu skylake -l 0 --nodes memory_bound -- ./app >out &&
	test_grep "backend_bound" out && test_grep "memory_bound" out &&
	! grep -q -e fetch_latency -e core_bound -e heavy_operations out
'

test_expect_success '--stacks adds the metrics the tables mark for that stack' '
	"$TDPERF" record --dry-run --cpu skylake -l 1 -- ./app >l1 &&
	"$TDPERF" record --dry-run --cpu skylake -l 1 --stacks cpi -- ./app >cpi &&
	test_grep "^stacks cpi" cpi &&
	test_grep "stack_cycles" cpi && ! grep -q stack_cycles l1 &&
	m1=$(sed -n "s/^metrics: \([0-9]*\),.*/\1/p" l1) &&
	m2=$(sed -n "s/^metrics: \([0-9]*\),.*/\1/p" cpi) &&
	test "$m2" -gt "$m1"
'

test_expect_success 'a table without a tree: without options its info metrics, each once' '
	"$TDPERF" record --dry-run --cpu zen1 -- ./app >out 2>err &&
	test_grep "^tdperf: note: no Top-Down tree on this CPU (table zen1): measuring its 17 info metrics instead" err &&
	test_grep "^table zen1 .*, level 0, metrics " out &&
	want=$(jq -r "[.metrics[].id] | sort | join(\",\")" "$TD_SRCDIR/metrics/tables/zen1.json") &&
	got=$(sed -n "s/^table zen1 .*, metrics //p" out | tr , "\n" | sort | paste -sd,) &&
	test "$got" = "$want"
'

test_expect_success 'unknown names are errors naming them' '
	test_exit_code 2 "$TDPERF" record --dry-run --cpu skylake --nodes nope -- ./app 2>err &&
	test_grep "nope" err &&
	test_exit_code 2 "$TDPERF" record --dry-run --cpu nosuchcpu -- ./app 2>err &&
	test_grep "nosuchcpu" err &&
	test_exit_code 2 "$TDPERF" record --dry-run --cpu zen1 -l 1 -- ./app 2>err &&
	test_grep "table zen1 has no Top-Down tree: ask for info metrics with --metrics" err
'

test_done
