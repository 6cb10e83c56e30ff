#!/bin/sh
# "Did you mean": a mistyped command, long option or Top-Down node gets the
# name meant (issue 32, item 10), as git answers "git comit".
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'tdperf recrod: did you mean record' '
	test_exit_code 2 "$TDPERF" recrod true 2>err &&
	test_line_count = 1 err &&
	test_grep "^tdperf: .recrod. is not a tdperf command (did you mean .record.?); see .tdperf help.$" err &&
	test_exit_code 2 "$TDPERF" help repotr 2>err &&
	test_grep "did you mean .report.?" err
'

test_expect_success 'a word near no command gets no guess' '
	test_exit_code 2 "$TDPERF" frobnicate 2>err &&
	test_line_count = 1 err && ! test_grep "did you mean" err >/dev/null
'

test_expect_success 'report --levle: did you mean --level (one line, exit 2)' '
	test_exit_code 2 "$TDPERF" report --levle 2 x.txt >out 2>err &&
	test ! -s out && test_line_count = 1 err &&
	test_grep "^tdperf: report: unknown option .--levle. (did you mean .--level.?); see .tdperf help report.$" err &&
	test_exit_code 2 "$TDPERF" record --dry-rn true 2>err &&
	test_grep "did you mean .--dry-run.?" err &&
	test_exit_code 2 "$TDPERF" diff --formta json a b 2>err &&
	test_grep "did you mean .--format.?" err
'

# (sapphirerapids has perf 6.1's dram_bound too, beside l3_miss_bound: t0212)
test_expect_success 'explain dram_bound --cpu emeraldrapids names the node in its place there' '
	"$TDPERF" list --cpu emeraldrapids >tree &&
	! test_grep "dram_bound" tree >/dev/null &&
	test_exit_code 2 "$TDPERF" explain dram_bound --cpu emeraldrapids 2>err &&
	test_line_count = 1 err &&
	test_grep "in its place emeraldrapids has l3_miss_bound (L3 Miss Bound)" err &&
	test_grep "^    l3_miss_bound  *L3 Miss Bound" tree &&
	test_grep "^      mem_bandwidth " tree && test_grep "^      mem_latency " tree
'

test_expect_success 'explain: a mistyped id or display name gets the node' '
	test_exit_code 2 "$TDPERF" explain dram_bond --cpu skylake 2>err &&
	test_grep "did you mean dram_bound (DRAM Bound)?" err &&
	test_exit_code 2 "$TDPERF" explain "L3 Mis Bound" --cpu sapphirerapids 2>err &&
	test_grep "did you mean l3_miss_bound (L3 Miss Bound)?" err
'

test_expect_success 'explain without --cpu in a directory holding tdperf.data uses that run' '
	mkdir here && cd here &&
	"$TDPERF" import -o tdperf.data "$FIXTURES/perf-stat-published/case-23-cml-multidim-topdownL1-L2-L3.txt" 2>/dev/null &&
	"$TDPERF" explain memory_bound >out 2>err &&
	test_grep "^memory_bound: Memory Bound (table skylake" out &&
	test_grep "^in tdperf.data, scope" out &&
	cd .. && mkdir empty && cd empty &&
	test_exit_code 2 "$TDPERF" explain memory_bound 2>err &&
	test_grep "needs --cpu NAME or --table FILE" err
'

test_done
