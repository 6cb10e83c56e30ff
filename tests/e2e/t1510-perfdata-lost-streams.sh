#!/bin/sh
# perf.data inputs that lose data without a word unless checked: a 'perf
# record --threads' directory missing one of its data.N streams (its
# samples would silently be left out), and a pipe-mode perf.data that ends
# after its header (it would read as an empty recording).  Both are refused
# in one line naming the file, from files perf writes here.
. "$(dirname "$0")/test-lib.sh"

PERF=${TDPERF_PERF:-perf}

one_error() {
	test_line_count = 1 "$1" && test_grep "^tdperf: $2" "$1"
}

if ! have_prog "$PERF" || ! "$PERF" record -q -o - -e cpu-clock -- true >pipe.data 2>perf.err; then
	test_skip 'perf.data streams' "perf cannot record cpu-clock here ($(head -n 1 perf.err 2>/dev/null))"
	test_done
fi

test_expect_success 'a pipe-mode perf.data of only its header is refused, as a file and on a pipe' '
	"$TDPERF" dump pipe.data >/dev/null &&
	head -c 16 pipe.data >head.data &&
	test_exit_code 2 "$TDPERF" dump head.data >/dev/null 2>err &&
	one_error err "head.data: offset 16: no records" &&
	head -c 16 pipe.data | { test_exit_code 2 "$TDPERF" dump - >/dev/null 2>err; } &&
	one_error err "<stdin>: offset 16: no records"
'

ncpus=$(getconf _NPROCESSORS_ONLN)
if "$PERF" record -q --threads -a -e cpu-clock -o threads.data -- sleep 0.2 2>perf.err &&
   test -f threads.data/data.1; then
	test_expect_success 'a --threads directory reads whole, with every data.N' '
		test "$(ls threads.data | grep -c "^data\.[0-9]")" = "$ncpus" &&
		"$TDPERF" dump threads.data >/dev/null
	'

	test_expect_success 'a --threads directory missing its last data.N is refused' '
		cp -r threads.data last.data && last=$((ncpus - 1)) && rm "last.data/data.$last" &&
		test_exit_code 2 "$TDPERF" dump last.data >/dev/null 2>err &&
		one_error err "last.data: data.$last is missing"
	'

	# perf maps one ring buffer per recorded CPU and writes one data.N per
	# buffer, whatever the --threads spec: a lost last stream is told from
	# the CPU count (the -C list, or the online CPUs) in the header.
	test_expect_success 'a --threads=core directory missing its last data.N is refused' '
		"$PERF" record -q --threads=core -a -e cpu-clock -o core.data -- sleep 0.1 2>perf.err &&
		test "$(ls core.data | grep -c "^data\.[0-9]")" = "$ncpus" &&
		"$TDPERF" dump core.data >/dev/null &&
		last=$((ncpus - 1)) && rm "core.data/data.$last" &&
		test_exit_code 2 "$TDPERF" dump core.data >/dev/null 2>err &&
		one_error err "core.data: data.$last is missing: .* per recorded CPU ($ncpus)"
	'

	test_expect_success 'a -C directory has one data.N per listed CPU; a lost last one is refused' '
		"$PERF" record -q --threads -C 0 -e cpu-clock -o one.data -- sleep 0.1 2>perf.err &&
		test "$(ls one.data | grep -c "^data\.[0-9]")" = 1 &&
		"$TDPERF" dump one.data >/dev/null &&
		"$PERF" record -q --threads=package --cpu=0-$((ncpus - 1)) -e cpu-clock -o list.data \
			-- sleep 0.1 2>perf.err &&
		"$TDPERF" dump list.data >/dev/null &&
		last=$((ncpus - 1)) && rm "list.data/data.$last" &&
		test_exit_code 2 "$TDPERF" dump list.data >/dev/null 2>err &&
		one_error err "list.data: data.$last is missing"
	'

	test_expect_success 'a --threads directory with a gap in its data.N is refused' '
		cp -r threads.data gap.data && mv gap.data/data.0 gap.data/data.9 &&
		test_exit_code 2 "$TDPERF" dump gap.data >/dev/null 2>err &&
		one_error err "gap.data: data.0 is missing"
	'
else
	test_skip 'perf record --threads directories' "perf record --threads -a failed here ($(head -n 1 perf.err))"
fi

test_done
