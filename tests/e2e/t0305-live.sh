#!/bin/sh
# The live view (report/live.c): perf stat's interval output drawn one
# interval at a time as it arrives, from a pipe ('report --live -') or
# from the file a running 'record -I MS --live' has perf write.  Each
# interval's values must be the report's own values for that interval;
# on a terminal (a pseudo-terminal from script(1)) each frame replaces the
# previous one; memory does not grow with the stream.
. "$(dirname "$0")/test-lib.sh"

. "$TD_SRCDIR/tests/e2e/pmu-emu-lib.sh"

PUB=$FIXTURES/perf-stat-published

# level1_of_report FILE: "time backend_bound bad_speculation frontend_bound
# retiring" per interval scope of the whole report, in percent with one
# decimal as the live view prints them, "n/a" where not computable
level1_of_report() {
	"$TDPERF" report --format json --scopes all --html=whole.html "$@" >whole.json 2>/dev/null &&
	jq -r '.scopes[] | select(.derived == null and .time != null) |
		[.time] + ([.nodes[] | select(.level == 1)] | sort_by(.id) |
			map(if .value == null then "n/a" else .value * 100 end)) | map(tostring) | join(" ")' \
		whole.json | awk "$format_line"
}

# level1_of_live FILE: the same from the live view's lines
level1_of_live() {
	awk '{ for (i = 1; i <= NF; i++) v[$i] = $(i + 1)
		print $1, v["backend_bound"], v["bad_speculation"], v["frontend_bound"], v["retiring"] }' "$1" |
	awk "$format_line"
}

# same_intervals WANT GOT: the same lines, but the times may differ by
# 1 ms: the live view prints the time rounded to milliseconds and that
# printed value is rounded again here, so a time on a rounding boundary can
# come out one millisecond apart (seen on a loaded machine).
same_intervals() {
	test "$(wc -l <"$1")" -eq "$(wc -l <"$2")" &&
	paste -d"|" "$1" "$2" | awk -F"|" '{
		split($1, w, " "); split($2, g, " ")
		rw = $1; sub(/^[^ ]*/, "", rw); rg = $2; sub(/^[^ ]*/, "", rg)
		d = w[1] - g[1]; if (d < 0) d = -d
		if (d > 0.0011 || rw != rg) { print "line " NR ": want " $1 ", got " $2; bad = 1 }
	} END { exit bad }'
}

# one decimal for percentages, three for the time, n/a kept
format_line='{ printf "%.3f", $1
	for (i = 2; i <= 5; i++) if ($i == "n/a") printf " n/a"; else printf " %.1f", $i
	printf "\n" }'

test_expect_success 'report --live -: a line per interval of a pipe, each the report of that interval' '
	case27_intervals 5 >five.csv &&
	cat five.csv | "$TDPERF" report --live - >live.out &&
	test_line_count = 5 live.out &&
	test_grep "^ *5.000 s  frontend_bound 51.0 %!  bad_speculation 7.6 %  backend_bound 31.1 %!  retiring 10.2 %  | Frontend Bound: 51.0 % of slots$" live.out &&
	level1_of_live live.out >got &&
	level1_of_report five.csv >want &&
	test_line_count = 5 want &&
	same_intervals want got
'

test_expect_success 'on a terminal: each interval redraws the frame, with the tree and each node'"'"'s history' '
	have_prog script &&
	script -qec "\"$TDPERF\" report --live five.csv" /dev/null >tty.out &&
	test "$(grep -o "$(printf "\033\\[H\033\\[J")" tty.out | wc -l)" = 5 &&
	test_grep "tdperf live: interval 5, 5.000 s; table icelake" tty.out &&
	test_grep "^> Frontend Bound  *51.0 %  !  *$(printf "\342\226\205\342\226\205\342\226\205\342\226\205\342\226\205")" tty.out &&
	test_grep "^  Bottleneck: Frontend Bound: 51.0 % of slots" tty.out &&
	test_grep "deeper nodes not computable from these events hidden" tty.out
'

test_expect_success 'software counts only: the counts of each interval, said to have no Top-Down events' '
	printf "#           time             counts unit events\n     0.100269448      0.72 msec task-clock\n     0.100269448      1      context-switches\n     0.200704724      0.31 msec task-clock\n     0.200704724      3      context-switches\n" >sw.txt &&
	"$TDPERF" report --live sw.txt >out &&
	test_line_count = 2 out &&
	test_grep "0.201 s  task-clock 0.31 msec  context-switches 3  | no Top-Down events" out
'

# perf's -I output written on this machine in CSV and in JSON (the inputs
# of the fuzz-stat seeds): one line per interval of the input, at its times.
test_expect_success 'perf stat -I -x, and -j -I outputs: one line per interval, at the input'"'"'s times' '
	for f in intcsv intjson; do
		in=$TD_SRCDIR/tests/fuzz/stat-inputs/$f.txt &&
		"$TDPERF" report --live "$in" >$f.out &&
		if test $f = intjson; then
			sed -n "s/^{\"interval\" : \([0-9.]*\),.*/\1/p" "$in"
		else
			sed -n "s/^ *\([0-9][0-9]*\.[0-9]*\),.*/\1/p" "$in"
		fi | uniq | awk "{ printf \"%.3f s\n\", \$1 }" >$f.want &&
		test_line_count = 3 $f.want &&
		awk "{ print \$1, \$2 }" $f.out >$f.got &&
		diff -u $f.want $f.got || return 1
	done
'

test_expect_success 'bad input and bad usage: one line, exit 2' '
	test_exit_code 2 "$TDPERF" report --live /dev/zero 2>err &&
	test_line_count = 1 err && test_grep "/dev/zero: binary data" err &&
	test_exit_code 2 "$TDPERF" report --live $PUB/case-23-*.txt 2>err &&
	test_line_count = 1 err && test_grep "no interval in the input" err &&
	test_exit_code 2 "$TDPERF" report --live --format json five.csv 2>err &&
	test_line_count = 1 err && test_grep "^tdperf: report: --live draws on the terminal" err &&
	test_exit_code 2 "$TDPERF" record --live -- true 2>err &&
	test_line_count = 1 err && test_grep "^tdperf: record: --live needs -I MS" err
'

# The view keeps one interval, the header and a short history per node:
# 3,000 intervals go through under a memory limit far below what the
# parsed stream would take if it were kept.
test_expect_success 'a long stream in constant memory' '
	case27_intervals 3000 >long.csv &&
	(td_sanitized || ulimit -v 100000; "$TDPERF" report --live - <long.csv >long.out) &&
	test_line_count = 3000 long.out &&
	test_grep "^ *3000.000 s  frontend_bound 51.0 %!" long.out
'

emu_require

# A real perf writing its text -I output into the pipe, counting the
# emulated Ice Lake's PERF_METRICS: the view's Level 1 equals the
# percentages perf printed beside each count.
test_expect_success 'perf stat -I into report --live -: the Level 1 perf printed, interval by interval' '
	"$EMU/pmu-emu" --cpu icelakex -- sh -c "perf stat -I 100 -e \"{slots,topdown-retiring,topdown-bad-spec,topdown-fe-bound,topdown-be-bound}\" -- sleep 0.35 2>&1 | \"$TDPERF\" report --live -" >emu.out &&
	test "$(wc -l <emu.out)" -ge 3 &&
	! grep -v "frontend_bound 25.0 %!~  bad_speculation 10.0 %~  backend_bound 35.0 %!~  retiring 30.0 %  | Backend Bound: 35.0 % of slots$" emu.out
'

test_expect_success 'record -I 100 --live: the intervals as perf writes them, and a complete run directory' '
	"$EMU/pmu-emu" --cpu icelakex -- "$TDPERF" record -I 100 --live -o live.data -- sleep 0.45 >rec.out 2>rec.err &&
	test "$(wc -l <rec.out)" -ge 4 &&
	test -f live.data/meta.json && test -f live.data/perf-stat-1.csv &&
	test_grep "note: wrote live.data" rec.err &&
	level1_of_live rec.out >got &&
	level1_of_report live.data >want &&
	same_intervals want got
'

test_done
