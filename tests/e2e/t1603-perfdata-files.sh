#!/bin/sh
# The files a perf.data names, whose paths another user may control (a
# binary in their directory, a JIT map in /tmp), as root reads them:
#
#  - a FIFO where a mapped binary (or its build-id cache copy, or a
#    data.N stream) was: opening it waited for a writer, and report
#    --hotspots hung.  It is skipped, said once, and the samples stay
#    [unknown] in that file;
#  - /tmp/perf-PID.map of another user: its names were given to root's
#    samples.  A map is read only when root or the user tdperf runs as
#    owns it (perf's rule), never through a symbolic link.
#
# The perf.data files are synthetic (tests/tools/perfdata-synth): every
# sample falls in the one file its MMAP2 record maps.
. "$(dirname "$0")/test-lib.sh"

SYNTH=$TD_BUILDDIR/tests/tools/perfdata-synth
HOME=$TEST_DIR/home
export HOME
mkdir -p "$HOME" bin

# A pid no process can have (above the largest pid_max, 2^22), one per
# test run, so that its /tmp/perf-PID.map is the test's own.
PID=$((4194304 + 1 + $$ % 100000))
MAP=/tmp/perf-$PID.map
trap 'rm -f "$MAP"; rm -rf "$TEST_DIR"' EXIT

# hotspots [OPTION...] FILE: report --hotspots into out and err, bounded in time
hotspots() {
	timeout 20 "$TDPERF" report --hotspots "$@" >out 2>err ||
	{ echo "report --hotspots $*: exit $? (124: still waiting after 20 s)"; cat err; return 1; }
}

test_expect_success 'a FIFO at a mapped binary'"'"'s path is skipped, said once, and the report ends' '
	mkfifo bin/prog &&
	"$SYNTH" --little-endian --mmap "$TEST_DIR/bin/prog" fifo.data &&
	hotspots fifo.data &&
	test_grep "^tdperf: note: $TEST_DIR/bin/prog: a FIFO, not a regular file; its symbols are not used$" err &&
	test_line_count = 1 err &&
	test_grep "\[unknown\] in $TEST_DIR/bin/prog+0x1000" out &&
	hotspots --format json fifo.data && test_line_count = 1 err
'

test_expect_success 'and so is a FIFO in perf'"'"'s build-id cache, where a changed binary is looked for' '
	id=0123456789abcdef0123456789abcdef01234567 &&
	mkdir -p "$HOME/.debug/.build-id/01/23456789abcdef0123456789abcdef01234567" &&
	mkfifo "$HOME/.debug/.build-id/01/23456789abcdef0123456789abcdef01234567/elf" &&
	"$SYNTH" --little-endian --mmap "$TEST_DIR/bin/prog" --build-id $id bid.data &&
	hotspots bid.data &&
	test_grep "^tdperf: note: $TEST_DIR/bin/prog: a FIFO" err &&
	test_grep "^tdperf: note: $HOME/.debug/.build-id/01/.*/elf: a FIFO, not a regular file" err &&
	test_line_count = 2 err
'

test_expect_success 'a FIFO where the debug file of a stripped binary is looked for is skipped' '
	mkdir strip &&
	objcopy --only-keep-debug "$TD_BUILDDIR/tests/workloads/tw-hot" strip/prog.debug &&
	objcopy --strip-all --add-gnu-debuglink=strip/prog.debug "$TD_BUILDDIR/tests/workloads/tw-hot" strip/prog &&
	rm strip/prog.debug && mkfifo strip/prog.debug &&
	"$SYNTH" --little-endian --mmap "$TEST_DIR/strip/prog" strip.data &&
	hotspots strip.data &&
	test_grep "^tdperf: note: $TEST_DIR/strip/prog.debug: a FIFO, not a regular file; its symbols are not used$" err &&
	test_line_count = 1 err
'

test_expect_success 'a FIFO as a perf.data, or as a stream of a perf.data directory, is an error, not a wait' '
	"$SYNTH" --little-endian plain.data &&
	mkdir dir.data && cp plain.data dir.data/data && mkfifo dir.data/data.0 &&
	test_exit_code 2 timeout 20 "$TDPERF" dump --summary dir.data >out 2>err &&
	test_grep "^tdperf: dir.data/data.0: .*not a regular file but a FIFO" err &&
	mkfifo fifo-as.data &&
	test_exit_code 2 timeout 20 "$TDPERF" report --hotspots fifo-as.data >out 2>err &&
	test_grep "^tdperf: fifo-as.data: .*not a regular file but a FIFO" err
'

"$SYNTH" --little-endian --pid $PID --mmap //anon jit.data

test_expect_success 'a JIT map root owns names the samples' '
	printf "400000 2000 jit_hot_func\n" >"$MAP" &&
	hotspots jit.data && test_line_count = 0 err &&
	test_grep "jit_hot_func  ($MAP)" out
'

test_expect_success 'a JIT map another user owns is not used, and said so once' '
	chown 65534 "$MAP" &&
	hotspots jit.data &&
	test_grep "^tdperf: note: $MAP: owned by uid 65534, not by you or root; its symbols are not used$" err &&
	test_line_count = 1 err &&
	test_must_fail grep -q jit_hot_func out &&
	test_grep "\[unknown\] in //anon" out &&
	rm -f "$MAP" &&
	setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "printf \"400000 2000 planted\n\" >$MAP" &&
	hotspots jit.data && test_must_fail grep -q planted out && test_line_count = 1 err
'

test_expect_success 'a JIT map that is a symbolic link is not followed, even to a file of root'"'"'s' '
	rm -f "$MAP" && printf "400000 2000 root_only_name\n" >root.map && ln -s "$TEST_DIR/root.map" "$MAP" &&
	hotspots jit.data &&
	test_grep "^tdperf: note: $MAP: a symbolic link, not followed; its symbols are not used$" err &&
	test_line_count = 1 err &&
	test_must_fail grep -q root_only_name out
'

test_expect_success 'a FIFO as a JIT map is skipped, not waited on' '
	rm -f "$MAP" && mkfifo "$MAP" &&
	hotspots jit.data &&
	test_grep "^tdperf: note: $MAP: a FIFO, not a regular file" err &&
	rm -f "$MAP"
'

test_done
