#!/bin/sh
# A process that ends by _exit or replaces itself by exec runs no atexit
# handler: libtdperf.so writes its regions on those paths too (its own
# _exit and exec* come before libc's).  The oracle is the emulator's log
# of each event's true count (tests/pmu-emu): every thread's root region,
# in each file written, equals it.  An exec'd program that marks regions
# itself writes beside the first image's file (same pid, another name).
. "$(dirname "$0")/test-lib.sh"

. "$TD_SRCDIR/tests/e2e/pmu-emu-lib.sh"

emu_require
have_prog python3 || { test_expect_success 'python3 is installed' 'false'; test_done; }

CC=${TD_CC:-cc}

region() {
	jq -r --arg n "$1" ".regions[] | select(.name == \$n) | $2" "$3"
}

test_expect_success 'record a program that _exits and one that execs itself' '
	$CC -O1 -I"$TD_SRCDIR/regions" -o app "$TD_SRCDIR/tests/regions/regions-app.c" \
		-L"$TD_BUILDDIR" -ltdperf -Wl,-rpath,"$TD_BUILDDIR" -pthread &&
	"$EMU/pmu-emu" --cpu skylakex --log "$PWD/emu.log" -- sh -c "
		\"$TDPERF\" record --regions -l 1 -o quit -- ./app _exit 2000000 &&
		\"$TDPERF\" record --regions -l 1 -o exec -- ./app exec 1000000" 2>err &&
	jq -e ".regions.files | length == 1" quit/meta.json &&
	jq -e ".regions.files | length == 2" exec/meta.json
'

test_expect_success '_exit: the regions are written, the open one closed with a warning' '
	"$TDPERF" report --format json quit >quit.json &&
	test "$(region quick .calls quit.json)" = 1 &&
	test "$(region left-open .calls quit.json)" = 1 &&
	jq -e "[.warnings[] | select(test(\"left-open.*still open at _exit\"))] | length == 1" quit.json &&
	python3 "$TD_SRCDIR/tests/regions/emu-truth.py" emu.log quit >cmp &&
	test_grep "compared 5, mismatches 0, not run 0" cmp
'

test_expect_success 'exec: both images write their regions, under one pid, in two files' '
	"$TDPERF" report --format json exec >exec.json &&
	jq -e ".processes == 2" exec.json &&
	test "$(region before-exec .calls exec.json)" = 1 &&
	test "$(region A .calls exec.json)" = 10 && test "$(region B .calls exec.json)" = 10 &&
	test "$(region before-exec .per_thread[0].pid exec.json)" = "$(region A .per_thread[0].pid exec.json)" &&
	test "$(region "(root)" .threads exec.json)" = 2 &&
	python3 "$TD_SRCDIR/tests/regions/emu-truth.py" emu.log exec >cmp &&
	test_grep "compared 10, mismatches 0, not run 0" cmp
'

test_done
