#!/bin/sh
# The command line: dispatch, help, version, unknown commands.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'tdperf --version prints the version' '
	"$TDPERF" --version >out &&
	test_grep "^tdperf version [0-9]" out
'

test_expect_success 'tdperf with no command lists the commands and fails' '
	test_exit_code 2 "$TDPERF" 2>err &&
	test_grep "record" err && test_grep "report" err
'

test_expect_success 'tdperf help lists every command' '
	"$TDPERF" help >out &&
	for c in record report diff import list explain check expr help; do
		test_grep "^   $c " out || exit 1
	done
'

test_expect_success 'an unknown command is a usage error naming it' '
	test_exit_code 2 "$TDPERF" frobnicate 2>err &&
	test_grep "frobnicate" err
'

for c in record report diff import list explain check expr dump tables calibrate; do
	test_expect_success "tdperf $c --help prints usage and exits 0" "
		\"\$TDPERF\" $c --help >out &&
		test_grep '^usage: tdperf $c' out
	"
	test_expect_success "tdperf help $c shows the same usage" "
		\"\$TDPERF\" help $c >out &&
		test_grep '^usage: tdperf $c' out
	"
done

test_done
