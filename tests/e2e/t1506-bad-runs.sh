#!/bin/sh
# Bad input that is easy to accept without a word: a perf stat text cut
# in the middle of a line (a metric line, the "seconds time elapsed"
# footer), and run directories whose meta.json has a version of the wrong
# type or value, a "files" of the wrong type, or names a file outside the
# run directory (../../etc/passwd, a symbolic link out of it).  Each is one
# line naming the file and exit 2.
. "$(dirname "$0")/test-lib.sh"

IN=$FIXTURES/perf-stat-published/case-23-cml-multidim-topdownL1-L2-L3.txt

if ! have_prog jq; then
	test_skip 'bad runs' 'jq missing'
	test_done
fi

one_error() {
	test_line_count = 1 "$1" && grep -q "^tdperf: .*$2" "$1"
}

test_expect_success 'a perf stat text cut inside a metric line or the footer is refused' '
	for at in "tma_backend_bound:64" "seconds time elapsed:22" "IDQ_UOPS_NOT_DELIVERED.CORE:40" \
		  "tma_light_operations:90"; do
		pat=${at%:*} &&
		off=$(grep -b -m1 "$pat" "$IN" | cut -d: -f1) &&
		head -c $((off + ${at##*:})) "$IN" >cut &&
		test_exit_code 2 "$TDPERF" report cut 2>err || { echo "cut in: $pat"; exit 1; }
		one_error err "cut:[0-9]*: .*\\(ends in the middle\\)" ||
			{ echo "cut in: $pat"; cat err; exit 1; }
	done
'

# A cut inside a line of perf's output is refused; what is still read ends
# at a line end or inside the prose around perf's output (the markdown
# comments between sessions).  Each line is cut after its first byte, in
# its middle and before its last, so that the cuts that still look like
# whole lines (in the leading blanks, after a metric's '#', inside the
# "seconds user" footer) are covered too.
test_expect_success 'a cut inside any line of perf output is refused' '
	off=0 && : >midline &&
	while IFS= read -r line; do
		len=${#line} &&
		for k in 1 $((len / 2)) $((len - 1)); do
			[ $k -ge 1 ] && [ $k -lt $len ] || continue
			head -c $((off + k)) "$IN" >cut &&
			if "$TDPERF" report cut >/dev/null 2>&1; then
				tail -n 1 cut | grep -q "^# [A-Za-z]" || echo "$((off + k)): $(tail -n 1 cut)" >>midline
			fi
		done
		off=$((off + len + 1))
	done <"$IN" &&
	test "$off" = "$(wc -c <"$IN")" &&
	{ ! test -s midline || { cat midline; false; }; }
'

test_expect_success 'the whole file and a cut at a line end still read' '
	"$TDPERF" report "$IN" >/dev/null &&
	n=$(grep -n -m1 "seconds time elapsed" "$IN" | cut -d: -f1) &&
	head -n "$n" "$IN" >whole && "$TDPERF" report whole >/dev/null
'

test_expect_success 'a run directory to spoil' '
	"$TDPERF" import -o run "$IN" >/dev/null && "$TDPERF" report run >/dev/null
'

# spoiled JQ MESSAGE: run with meta.json rewritten by JQ: exit 2, one line with MESSAGE
spoiled() {
	rm -rf bad && cp -r run bad && jq "$1" run/meta.json >bad/meta.json &&
	test_exit_code 2 "$TDPERF" report bad >/dev/null 2>err && one_error err "$2"
}

test_expect_success 'meta.json version of the wrong type or value' '
	spoiled ".version = \"1\"" "bad/meta.json: run format version \"1\" is not a version number" &&
	spoiled ".version = 1e308" "version 1e308 is not a version number" &&
	spoiled ".version = -1" "version -1 is not a version number" &&
	spoiled ".version = 2" "version 2 is newer than this tdperf understands (1)" &&
	spoiled "del(.version)" "no run format version"
'

test_expect_success 'meta.json files of the wrong type' '
	spoiled ".files = 3" "\"files\" is not an array" &&
	spoiled ".files[0].name = 5" "files\\[0\\] is not an object" &&
	spoiled ".files[0] = \"input\"" "files\\[0\\] is not an object"
'

test_expect_success 'meta.json naming a file outside the run directory' '
	spoiled ".files[0].name = \"../../../../etc/passwd\"" "bad: meta.json files\\[0\\] names a file outside" &&
	spoiled ".files[0].name = \"/etc/passwd\"" "names a file outside" &&
	rm -rf bad && cp -r run bad &&
	name=$(jq -r ".files[0].name" run/meta.json) &&
	ln -sf /etc/passwd "bad/$name" &&
	test_exit_code 2 "$TDPERF" report bad >/dev/null 2>err && one_error err "names a file outside"
'

test_done
