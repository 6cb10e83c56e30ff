#!/bin/sh
# Write errors are never ignored.  Standard output on /dev/full makes every
# command exit 2 with one line (stdio hides the error until the last
# flush); on a full disk (a 48 KB tmpfs mounted here) and on a read-only one,
# --plot, --html, -o and import -o exit 2 with one line and leave nothing:
# no cut or empty SVG, no empty chart directory, no temporary file.
. "$(dirname "$0")/test-lib.sh"

IN=$FIXTURES/perf-stat-published/case-23-cml-multidim-topdownL1-L2-L3.txt
TABLE=$TD_SRCDIR/metrics/tables/skylake.json

# one_error FILE WHAT: one line on stderr, naming WHAT
one_error() {
	test_line_count = 1 "$1" && grep -q "^tdperf: .*$2" "$1"
}

test_expect_success 'stdout on /dev/full: every command exits 2 with one line' '
	for cmd in "report $IN" "report --format json $IN" "report --format csv $IN" \
		   "diff $IN $IN" "diff --format json $IN $IN" "explain backend_bound $IN" \
		   "explain --cpu skylake retiring" "expr 1+2" "list" "list --cpu skylake" "help" \
		   "help report" "--version" "--help" "check" "tables check $TABLE" "import -o run $IN"; do
		rm -rf run &&
		test_exit_code 2 $TDPERF $cmd >/dev/full 2>err || { echo "in: $cmd"; exit 1; }
		one_error err "standard output: cannot write" || { echo "in: $cmd"; cat err; exit 1; }
	done
'

if [ "$(id -u)" != 0 ] || ! have_prog gnuplot || ! mkdir tfs || ! mount -t tmpfs -o size=48k tmpfs tfs 2>/dev/null; then
	test_skip 'outputs on a full disk' 'not root, gnuplot missing, or mounting a tmpfs is not permitted here'
	test_done
fi
trap 'umount "$TEST_DIR/tfs" 2>/dev/null; rm -rf "$TEST_DIR"' EXIT

# empty_fs: nothing at all left on the small file system
empty_fs() {
	left=$(find tfs -mindepth 1 | head -n 5)
	test -z "$left" || { echo "left behind: $left"; return 1; }
}

test_expect_success 'full disk: report --plot exits 2, no chart directory left' '
	test_exit_code 2 "$TDPERF" report --plot tfs/charts "$IN" >/dev/null 2>err &&
	one_error err "No space left on device" && empty_fs
'

test_expect_success 'full disk: report --plot into an existing directory leaves it empty' '
	mkdir tfs/charts &&
	test_exit_code 2 "$TDPERF" report --plot tfs/charts "$IN" >/dev/null 2>err &&
	one_error err "No space left on device" &&
	test -z "$(ls tfs/charts)" && rmdir tfs/charts
'

test_expect_success 'full disk: diff --plot exits 2, no directory left' '
	test_exit_code 2 "$TDPERF" diff --plot tfs/cmp "$IN" "$IN" >/dev/null 2>err &&
	one_error err "No space left on device" && empty_fs
'

test_expect_success 'full disk: --html, -o, diff -o and import -o exit 2, nothing left' '
	for cmd in "report --html tfs/r.html $IN" "diff --html tfs/d.html $IN $IN" \
		   "import -o tfs/run $IN"; do
		test_exit_code 2 $TDPERF $cmd >/dev/null 2>err || { echo "in: $cmd"; exit 1; }
		one_error err "No space left on device" || { echo "in: $cmd"; cat err; exit 1; }
		empty_fs || { echo "in: $cmd"; exit 1; }
	done
'

test_expect_success 'full disk: report -o and diff -o exit 2, nothing but the filler left' '
	{ cat /dev/zero >tfs/filler; } 2>/dev/null || true
	test_exit_code 2 "$TDPERF" report -o tfs/r.txt "$IN" 2>err && one_error err "No space left on device" &&
	test_exit_code 2 "$TDPERF" diff -o tfs/d.txt "$IN" "$IN" 2>err && one_error err "No space left on device" &&
	rm tfs/filler && empty_fs
'

test_expect_success 'read-only file system: --plot, --html and -o exit 2, one line' '
	mount -o remount,ro tfs &&
	test_exit_code 2 "$TDPERF" report --plot tfs/c "$IN" >/dev/null 2>err && one_error err "Read-only" &&
	test_exit_code 2 "$TDPERF" report --html tfs/r.html "$IN" >/dev/null 2>err && one_error err "Read-only" &&
	test_exit_code 2 "$TDPERF" report -o tfs/r.txt "$IN" 2>err && one_error err "Read-only" &&
	test_exit_code 2 "$TDPERF" import -o tfs/run "$IN" 2>err && one_error err "Read-only" &&
	mount -o remount,rw tfs && empty_fs
'

test_expect_success 'unmount the small file system' '
	umount tfs
'

test_done
