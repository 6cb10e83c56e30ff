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

# The long options of a command's table (src/cmd-NAME.c): each entry
# starts TD_OPT_KIND(SHORT, "name", on one line.
table_options() {
	sed -n 's/.*TD_OPT_[A-Z_]*([^,]*, *"\([a-z][a-z0-9-]*\)".*/\1/p' "$TD_SRCDIR/src/cmd-$1.c"
}

# Does the help in file $1 show --NAME for each NAME read?
help_lists() {
	while read -r name; do
		grep -q -E -e "--$name( |=|\[|\$)" "$1" || { echo "--$name is not in the help"; return 1; }
	done
}

for c in record report diff import list explain check expr dump tables calibrate; do
	test_expect_success "tdperf $c: an unknown option is one line on stderr, exit 2" "
		test_exit_code 2 \"\$TDPERF\" $c --no-such-option x >out 2>err &&
		test_line_count = 1 err && test ! -s out &&
		test_grep \"^tdperf: $c: unknown option '--no-such-option'; see 'tdperf help $c'\$\" err &&
		test_exit_code 2 \"\$TDPERF\" $c -Z x >out 2>err &&
		test_line_count = 1 err && test ! -s out &&
		test_grep \"^tdperf: $c: unknown option '-Z'; see 'tdperf help $c'\$\" err
	"
	test_expect_success "tdperf $c --help lists every long option of its table" "
		\"\$TDPERF\" $c --help >out 2>err &&
		test ! -s err &&
		table_options $c >names && test -s names &&
		help_lists out <names &&
		test_grep '^  -h, --help ' out
	"
done

test_expect_success 'a unique prefix of a long option is that option; an ambiguous one is refused' '
	"$TDPERF" list --cp skylake --lev 1 >out &&
	test_grep "^skylake: " out &&
	test_exit_code 2 "$TDPERF" record --no -- true 2>err &&
	test_line_count = 1 err &&
	test_grep "^tdperf: record: option .--no. is ambiguous: it could be --nodes, --no-sched, --no-multiplex, --no-aggr; see .tdperf help record.$" err
'

test_expect_success 'integer options name the option and the range they take' '
	test_exit_code 2 "$TDPERF" record -r0 -- true 2>err &&
	test_grep "^tdperf: record: --repeat takes a number >= 1, not .0.; see .tdperf help record.$" err &&
	test_exit_code 2 "$TDPERF" calibrate --threads=x 2>err &&
	test_grep "^tdperf: calibrate: --threads takes a number from 1 to 256, not .x.; see .tdperf help calibrate.$" err &&
	test_exit_code 2 "$TDPERF" report --top 99999999999 2>err &&
	test_grep "^tdperf: report: --top takes a number <= 2147483647, not .99999999999.; see .tdperf help report.$" err
'

test_done
