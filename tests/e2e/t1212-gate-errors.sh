#!/bin/sh
# tdperf diff --check: a usage or input error is one line on stderr that
# names the rule, option or file and what is wrong, exit 2, and nothing
# written (no JUnit file, no output file).
. "$(dirname "$0")/test-lib.sh"

GATE=$FIXTURES/gate

# fails_with PATTERN ARGS...: diff --check ARGS exits 2, says one line
# matching PATTERN, and leaves no j.xml or out.txt behind.
fails_with() {
	pattern=$1
	shift
	rm -f j.xml out.txt err
	test_exit_code 2 "$TDPERF" diff --check --junit j.xml -o out.txt "$@" 2>err >stdout &&
	test $(wc -l <err) = 1 &&
	test_grep -e "^tdperf: .*$pattern" err &&
	test ! -e j.xml && test ! -e out.txt && test ! -s stdout
}

test_expect_success 'a rule without a sign' '
	fails_with "--fail-on: '"'"'cycles:3%'"'"': the limit needs a sign" --fail-on cycles:3% "$GATE/base" "$GATE/same"
'

test_expect_success 'a rule without a unit, or with another' '
	fails_with "'"'"'cycles:+3'"'"': the limit needs its unit" --fail-on cycles:+3 "$GATE/base" "$GATE/same" &&
	fails_with "'"'"'cycles:+3x'"'"': the limit needs its unit.*not '"'"'x'"'"'" --fail-on cycles:+3x "$GATE/base" "$GATE/same"
'

test_expect_success 'a limit that is not a number; an empty rule' '
	fails_with "'"'"'cycles:+x%'"'"': the limit is not a number" --fail-on cycles:+x% "$GATE/base" "$GATE/same" &&
	fails_with "an empty rule" --fail-on "cycles:+3%,,task-clock:+1%" "$GATE/base" "$GATE/same"
'

test_expect_success 'a metric nobody knows is named, not ignored' '
	fails_with "'"'"'cylces:+3%'"'"': no metric '"'"'cylces'"'"'" --fail-on "task-clock:+5%,cylces:+3%" "$GATE/base" "$GATE/same"
'

test_expect_success 'points are for fractions' '
	fails_with "'"'"'task-clock:+2pt'"'"': pt (percentage points) is for fractions" \
		--fail-on task-clock:+2pt "$GATE/base" "$GATE/same" &&
	fails_with "'"'"'ipc:-1pt'"'"': pt" --fail-on ipc:-1pt "$GATE/base" "$GATE/same"
'

test_expect_success 'one run a side: no variance, no test; says how to record' '
	fails_with "noise-01: 1 run on the base side: the gate needs at least 2 per side (record with -r N" \
		"$GATE/noise-01" "$GATE/noise-02" &&
	fails_with "noise-03: 1 run on the new side" "$GATE/base" "$GATE/noise-03"
'

test_expect_success 'a bad confidence level' '
	fails_with "--confidence 1.5: a level of at least 0.5 and below 1" --confidence 1.5 "$GATE/base" "$GATE/same" &&
	fails_with "--confidence abc" --confidence abc "$GATE/base" "$GATE/same" &&
	fails_with "--confidence 0.2" --confidence 0.2 "$GATE/base" "$GATE/same"
'

test_expect_success 'a missing input, a session that is not there' '
	fails_with "nonexistent: cannot read" "$GATE/base" nonexistent &&
	fails_with "base: no scope '"'"'s9/total'"'"'" --scope-a s9/total "$GATE/base" "$GATE/same"
'

test_expect_success 'usage: the gate options need --check, --check needs two sides' '
	test_exit_code 2 "$TDPERF" diff --fail-on cycles:+1% "$GATE/base" "$GATE/same" 2>err &&
	test_grep "fail-on, --junit and --confidence go with --check" err &&
	test_exit_code 2 "$TDPERF" diff "$GATE/base" "$GATE/same" -- "$GATE/slow" 2>err &&
	test_grep "sets of runs (A1 A2 -- B1 B2) go with --check" err &&
	fails_with "--check takes two runs A B, or sets" "$GATE/base" &&
	fails_with "--check takes two runs A B, or sets" "$GATE/base" "$GATE/same" "$GATE/slow" &&
	fails_with "--check takes no --hotspots, --html" --html x.html "$GATE/base" "$GATE/same" &&
	test ! -e x.html
'

test_done
