#!/bin/sh
# Bad perf.data input: a clear one-line error with the byte offset and exit
# status 2, never a crash or a hang.  The files are real recordings,
# damaged at places found from their own dump.
. "$(dirname "$0")/test-lib.sh"
. "$TD_SRCDIR/tests/e2e/perfdata-lib.sh"

TRUNCATE=$TD_BUILDDIR/tests/tools/perfdata-truncate

# patch FILE OFFSET PRINTF-BYTES: overwrite bytes in place.
patch() {
	printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# record_offset FILE TYPE: decimal file offset of the first TYPE record.
record_offset() {
	hex=$("$TDPERF" dump "$1" | sed -n "s/^@0x\([0-9a-f]*\) $2 .*/\1/p" | head -n1)
	test -n "$hex" && echo $((0x$hex))
}

test_expect_success 'an empty file' '
	: >empty.data &&
	test_exit_code 2 "$TDPERF" dump empty.data 2>err &&
	test_grep "^tdperf: empty.data: offset 0: file too short" err
'

test_expect_success 'a text file (wrong magic)' '
	echo "hello, this is not perf.data at all" >text.data &&
	test_exit_code 2 "$TDPERF" dump text.data 2>err &&
	test_grep "offset 0: not a perf.data file (bad magic)" err
'

test_expect_success 'a directory without data' '
	mkdir nodata &&
	test_exit_code 2 "$TDPERF" dump nodata 2>err &&
	test_grep "nodata/data" err
'

if ! perf_can_record; then
	test_skip 'damaged recordings' "$skip_reason"
	test_done
fi

"$PERF" record -q -e sched:sched_switch -o sw.data -- sleep 0.01 2>/dev/null
"$PERF" record -q -z -e sched:sched_switch -a -o z.data -- sleep 0.01 2>/dev/null
"$PERF" record -q -e sched:sched_switch -o - -- sleep 0.01 >pipe.data 2>/dev/null
"$PERF" stat record -o stat.data -- sleep 0.01 >/dev/null 2>&1

test_expect_success 'data section size pointing past the end of the file' '
	cp sw.data big.data &&
	patch big.data 48 "\377\377\377\000" &&
	test_exit_code 2 "$TDPERF" dump big.data 2>err &&
	test_grep "offset 48: data section .* runs past the end of the file" err
'

test_expect_success 'attr section pointing past the end of the file' '
	cp sw.data attrs.data &&
	patch attrs.data 24 "\377\377\377\000" &&
	test_exit_code 2 "$TDPERF" dump attrs.data 2>err &&
	test_grep "offset 24: attr section" err
'

test_expect_success 'a zero-sized record' '
	cp sw.data zero.data &&
	off=$(record_offset zero.data COMM) &&
	patch zero.data $((off + 6)) "\000\000" &&
	test_exit_code 2 "$TDPERF" dump zero.data >out 2>err &&
	test_grep "offset $off: record size 0 is smaller than its 8-byte header" err
'

test_expect_success 'a record size running past the data section' '
	cp pipe.data long.data &&
	size=$(wc -c <long.data) &&
	off=$(record_offset long.data FINISHED_ROUND) &&
	patch long.data $((off + 6)) "\370\377" &&
	test_exit_code 2 "$TDPERF" dump long.data >out 2>err &&
	test_grep "offset $off: .* record of 65528 bytes runs past the end" err
'

test_expect_success 'an unknown record type is shown and skipped' '
	cp sw.data unknown.data &&
	off=$(record_offset unknown.data FINISHED_ROUND) &&
	patch unknown.data $off "\310\000\000\000" &&
	"$TDPERF" dump unknown.data >out &&
	test_grep "^@0x[0-9a-f]* UNKNOWN(200) size=8" out &&
	"$TDPERF" dump --time-order unknown.data >out2 &&
	test_grep "UNKNOWN(200)" out2
'

test_expect_success 'an unknown feature is listed by number and skipped' '
	cp sw.data feat.data &&
	"$TDPERF" dump --header feat.data | sed -n "s/^feature \([A-Z_]*\):.*/\1/p" | tail -n1 >last &&
	test -s last &&
	bytes=$(od -An -tu1 -j72 -N32 feat.data) &&
	hi=-1 && i=0 &&
	for b in $bytes; do
		bit=0
		while [ $bit -lt 8 ]; do
			[ $(( (b >> bit) & 1 )) = 1 ] && hi=$((i * 8 + bit))
			bit=$((bit + 1))
		done
		i=$((i + 1))
	done &&
	test $hi -gt 3 && test $hi -lt 250 &&
	byte=$((72 + hi / 8)) && old=$(od -An -tu1 -j$byte -N1 feat.data) &&
	patch feat.data $byte "\\$(printf %o $((old & ~(1 << (hi % 8)))))" &&
	patch feat.data $((72 + 250 / 8)) "\\$(printf %o $((1 << (250 % 8))))" &&
	"$TDPERF" dump --header feat.data >out &&
	test_grep "^feature 250: [0-9]* bytes" out &&
	! grep "^feature $(cat last):" out
'

test_expect_success 'corrupt zstd data in a COMPRESSED record' '
	cp z.data badz.data &&
	off=$(record_offset badz.data COMPRESSED) &&
	patch badz.data $((off + 8)) "\000\000\000\000" &&
	test_exit_code 2 "$TDPERF" dump badz.data >out 2>err &&
	test_grep "offset $off: corrupt zstd data in COMPRESSED record" err
'

test_expect_success 'a COMPRESSED stream cut inside a record' '
	cp z.data cutz.data &&
	off=$(record_offset cutz.data COMPRESSED) &&
	"$TDPERF" dump cutz.data | sed -n "s/^@0x\([0-9a-f]*\) COMPRESSED size=\([0-9]*\).*/\1 \2/p" | tail -n1 >last &&
	read hex sz <last &&
	patch cutz.data $((0x$hex + 6)) "\020\000" &&
	test_exit_code 2 "$TDPERF" dump cutz.data >out 2>err &&
	test_grep "offset [0-9]*" err
'

for f in sw.data pipe.data z.data stat.data; do
	test_expect_success "$f truncated at every offset: an error with its offset, never a crash" "
		test -s $f && \"\$TRUNCATE\" $f >res && cat res &&
		test_grep -q '^prefixes=[1-9]' res
	"
done

test_done
