#!/bin/sh
# Output paths that are not plain files.  A device or FIFO given to -o or
# --html is written as a stream and stays what it was (an atomic rename
# would replace /dev/full with a regular file); a symbolic link is followed, a
# dangling one refused; import -o and record -o never rename a device or a
# file to .old; an output that is the input is refused; an overwritten file
# keeps its mode; temporary run directories of dead processes are removed.
. "$(dirname "$0")/test-lib.sh"

IN=$FIXTURES/perf-stat-published/case-23-cml-multidim-topdownL1-L2-L3.txt

if [ "$(id -u)" != 0 ] || ! mknod probe-dev c 1 3 2>/dev/null; then
	test_skip 'special output files' 'not root, or mknod is not permitted here'
	test_done
fi

test_expect_success 'report -o a full device: exit 2, one line, the device stays' '
	mknod full c 1 7 &&
	test_exit_code 2 "$TDPERF" report -o full "$IN" 2>err &&
	test_line_count = 1 err && grep -q "^tdperf: full: cannot write: No space left" err &&
	test -c full && ! ls full.* 2>/dev/null
'

test_expect_success 'report -o and --html onto a null device: exit 0, the device stays' '
	mknod null c 1 3 &&
	"$TDPERF" report -o null "$IN" &&
	"$TDPERF" report --html null "$IN" >/dev/null &&
	test -c null && ! ls null.* 2>/dev/null
'

test_expect_success 'report -o and --html onto a FIFO stream into it' '
	"$TDPERF" report "$IN" >want &&
	mkfifo fifo &&
	{ timeout 20 cat fifo >got & } &&
	"$TDPERF" report -o fifo "$IN" && wait &&
	cmp want got && test -p fifo &&
	{ timeout 20 cat fifo >got.html & } &&
	"$TDPERF" report --html fifo "$IN" >/dev/null && wait &&
	grep -q "</html>" got.html && test -p fifo
'

test_expect_success 'a symbolic link is followed: the file it names is written, the link stays' '
	echo old >target &&
	ln -s target link &&
	"$TDPERF" report -o link "$IN" &&
	test -h link && cmp want target
'

test_expect_success 'a dangling symbolic link is refused' '
	ln -s nowhere dangling &&
	test_exit_code 2 "$TDPERF" report -o dangling "$IN" 2>err &&
	test_line_count = 1 err && test -h dangling && test ! -e nowhere
'

test_expect_success 'report -o of its own input is refused; the input is untouched' '
	cp "$IN" in.txt && cp in.txt in.orig &&
	test_exit_code 2 "$TDPERF" report -o in.txt in.txt 2>err &&
	test_line_count = 1 err && grep -q "refusing to overwrite" err &&
	cmp in.orig in.txt &&
	test_exit_code 2 "$TDPERF" report --html in.txt in.txt 2>err &&
	cmp in.orig in.txt &&
	test_exit_code 2 "$TDPERF" diff -o in.txt "$IN" in.txt 2>err &&
	cmp in.orig in.txt
'

test_expect_success 'an overwritten 0600 report stays 0600' '
	echo secret >private && chmod 600 private &&
	"$TDPERF" report -o private "$IN" &&
	test "$(stat -c %a private)" = 600 && cmp want private
'

test_expect_success 'import -o onto a device or a regular file: refused, nothing renamed' '
	mknod dev c 1 3 && echo mine >plain &&
	test_exit_code 2 "$TDPERF" import -o dev "$IN" 2>err &&
	test_line_count = 1 err && test -c dev && test ! -e dev.old &&
	test_exit_code 2 "$TDPERF" import -o plain "$IN" 2>err &&
	test_line_count = 1 err && test "$(cat plain)" = mine && test ! -e plain.old &&
	! ls -a | grep -q "tmp-"
'

test_expect_success 'record -o onto a device: refused, nothing renamed' '
	test_exit_code 2 "$TDPERF" record -o dev -- true 2>err &&
	grep -q "^tdperf: .*dev.*Not a directory" err && test -c dev && test ! -e dev.old
'

test_expect_success 'a temporary run directory of a dead process is removed, a live one kept' '
	dead=$(sh -c "echo \$\$") &&
	mkdir -p "run.tmp-$dead" &&
	"$TDPERF" import -o run "$IN" >/dev/null &&
	test -d run && test ! -e "run.tmp-$dead" &&
	mkdir "run.tmp-$$" &&
	test_exit_code 2 "$TDPERF" import -o run "$IN" 2>err &&
	test_line_count = 1 err && grep -q "another tdperf is writing this run now" err &&
	test -d "run.tmp-$$"
'

test_done
