#!/bin/sh
# Endless and special inputs.  /dev/zero and a 3 GB sparse file are refused
# within the first block, with memory bounded by ulimit -v (reading
# /dev/zero to its end would take all memory); a FIFO, a pipe on stdin ("-")
# and process substitution are read once (a second open of a FIFO blocks for
# ever) and give the same report as the file, for report, explain and diff,
# including a perf.data that perf stat record writes to a pipe.
. "$(dirname "$0")/test-lib.sh"

IN=$FIXTURES/perf-stat-published/case-23-cml-multidim-topdownL1-L2-L3.txt
# 300 MB of address space: the binary and its libraries need about 60 MB
LIMIT_KB=300000

# bounded CMD...: CMD under ulimit -v and a 20 s timeout; its exit status
bounded() {
	(td_sanitized || ulimit -v $LIMIT_KB; exec timeout 20 "$@")
}

# same FILE1 FILE2: the reports agree but for the name of the input
same() {
	for f in "$1" "$2"; do
		sed -e "s|$IN|INPUT|g" -e "s|stat\.data|INPUT|g" -e "s|/dev/fd/[0-9]*|INPUT|g" \
		    -e "s|/proc/self/fd/[0-9]*|INPUT|g" -e "s|fifo2*|INPUT|g" \
		    -e "s|\([ (]\)-\([,:) ]\)|\1INPUT\2|g" "$f" >"$f.cmp"
	done
	cmp "$1.cmp" "$2.cmp"
}

one_error() {
	test_line_count = 1 "$1" && grep -q "^tdperf: .*$2" "$1"
}

test_expect_success '/dev/zero: report, diff and explain refuse it at offset 0, memory bounded' '
	test_exit_code 2 bounded "$TDPERF" report /dev/zero 2>err && one_error err "/dev/zero: offset 0: binary data" &&
	test_exit_code 2 bounded "$TDPERF" diff /dev/zero /dev/zero 2>err && one_error err "binary data" &&
	test_exit_code 2 bounded "$TDPERF" explain backend_bound /dev/zero 2>err && one_error err "binary data" &&
	test_exit_code 2 bounded "$TDPERF" import -o run /dev/zero 2>err && one_error err "binary data" &&
	test ! -e run
'

test_expect_success 'a 3 GB sparse file: refused at offset 0 within the memory bound' '
	truncate -s 3G sparse &&
	test_exit_code 2 bounded "$TDPERF" report sparse 2>err && one_error err "sparse: offset 0: binary data" &&
	rm sparse
'

test_expect_success 'text then a NUL byte: refused at its offset' '
	{ head -c 70000 "$IN" 2>/dev/null || cat "$IN"; printf "\000"; } >cut &&
	off=$(($(wc -c <cut) - 1)) &&
	test_exit_code 2 bounded "$TDPERF" report cut 2>err && one_error err "cut: offset $off: binary data"
'

test_expect_success 'a FIFO: report, explain and diff read it once and agree with the file' '
	"$TDPERF" report "$IN" >want &&
	mkfifo fifo fifo2 &&
	{ cat "$IN" >fifo & } &&
	bounded "$TDPERF" report fifo >got && same want got &&
	"$TDPERF" explain backend_bound "$IN" >want.x &&
	{ cat "$IN" >fifo & } &&
	bounded "$TDPERF" explain backend_bound fifo >got.x && same want.x got.x &&
	"$TDPERF" diff "$IN" "$IN" | grep -v "^  [AB]: " >want.d &&
	{ cat "$IN" >fifo & } && { cat "$IN" >fifo2 & } &&
	bounded "$TDPERF" diff fifo fifo2 | grep -v "^  [AB]: " >got.d && same want.d got.d
'

test_expect_success 'stdin: perf stat output piped to report -, and to diff - FILE' '
	cat "$IN" | bounded "$TDPERF" report - >got && same want got &&
	bounded "$TDPERF" diff - "$IN" <"$IN" | grep -v "^  [AB]: " >got.d && same want.d got.d
'

if have_prog bash; then
	test_expect_success 'process substitution: report, explain and diff' '
		bash -c "\"\$TDPERF\" report <(cat \"\$1\")" sh "$IN" >got && same want got &&
		bash -c "\"\$TDPERF\" explain backend_bound <(cat \"\$1\")" sh "$IN" >got.x && same want.x got.x &&
		bash -c "\"\$TDPERF\" diff <(cat \"\$1\") <(cat \"\$1\")" sh "$IN" | grep -v "^  [AB]: " >got.d && same want.d got.d
	'
fi

if have_prog perf && perf stat record -o probe.data -e task-clock true 2>/dev/null; then
	test_expect_success 'perf stat record -o - piped into report -' '
		perf stat record -o stat.data -e task-clock,context-switches -- sleep 0.05 2>/dev/null &&
		"$TDPERF" report stat.data >want.pd &&
		cat stat.data | bounded "$TDPERF" report - >got.pd && same want.pd got.pd &&
		perf stat record -o - -e task-clock -- true 2>/dev/null | bounded "$TDPERF" report - >piped &&
		grep -q "perf.data" piped
	'
else
	test_skip 'perf stat record -o - piped into report -' 'perf stat record does not work here'
fi

test_done
