#!/bin/sh
# Both byte orders: a SYNTHETIC perf.data written by our test generator
# (tests/tools/perfdata-synth, from the documented layout) in little- and
# big-endian form reads the same, field for field.  perf here writes only
# native files, hence the generator.
. "$(dirname "$0")/test-lib.sh"

SYNTH=$TD_BUILDDIR/tests/tools/perfdata-synth
TRUNCATE=$TD_BUILDDIR/tests/tools/perfdata-truncate

test_expect_success 'generate both byte orders' '
	"$SYNTH" --little-endian le.data && "$SYNTH" --big-endian be.data &&
	! cmp -s le.data be.data
'

test_expect_success 'the big-endian file is read as swapped' '
	"$TDPERF" dump --header be.data >h && test_grep "byte_order=swapped" h &&
	"$TDPERF" dump --header le.data >h && test_grep "byte_order=native" h
'

test_expect_success 'both dump the same header, features and records' '
	"$TDPERF" dump le.data | sed 1,2d >le.txt &&
	"$TDPERF" dump be.data | sed 1,2d >be.txt &&
	diff -u le.txt be.txt
'

test_expect_success 'both dump the same in time order' '
	"$TDPERF" dump -t le.data | sed 1,2d >le.txt &&
	"$TDPERF" dump -t be.data | sed 1,2d >be.txt &&
	diff -u le.txt be.txt
'

test_expect_success 'attr fields, flag bits and names decode as written' '
	"$TDPERF" dump be.data >d &&
	test_grep "^event 0: name=cpu-clock:u type=1 config=0x0 attr_size=128 sample_type=0x1f7 read_format=0x1f flags=0x840703 sample_freq=4000 ids=1:11$" d &&
	test_grep "^event 1: name=task-clock:u .* flags=0x40002 sample_period=0 ids=1:21$" d
'

test_expect_success 'features decode as written' '
	test_grep "^feature HOSTNAME: synth-host$" d &&
	test_grep "^feature NRCPUS: avail=8 online=4$" d &&
	test_grep "^feature TOTAL_MEM: 16384000 kB$" d &&
	test_grep "^feature CMDLINE: /usr/bin/perf, record, synth$" d
'

test_expect_success 'COMM, FORK, MMAP2 and their sample_id trailers decode as written' '
	test_grep "COMM size=64 misc=0x2000 pid=100 tid=101 comm=synth-comm exec | pid=100 tid=101 time=1000 cpu=1 id=11$" d &&
	test_grep "FORK size=64 misc=0x0 pid=100 ppid=1 tid=102 ptid=101 time=1100 | pid=100 tid=102 time=1100 cpu=0 id=11$" d &&
	test_grep "MMAP2 .* addr=0x400000 len=0x2000 pgoff=0x1000 maj=8 min=1 ino=123456 ino_generation=7 prot=5 flags=2 filename=/usr/bin/synth |" d
'

test_expect_success 'group READ values with ids, times and lost counts, and callchains' '
	test_grep "SAMPLE size=168 .* pid=100 tid=101 time=2000 cpu=1 id=11 ip=0x400010 period=250000$" d &&
	test_grep "^  read: enabled=7000 running=6000 \[cpu-clock:u value=1000000 id=11 lost=0\] \[task-clock:u value=999000 id=21 lost=3\]$" d &&
	test_grep "^  callchain: nr=4 fffffffffffffe00 400000 400010 400020$" d
'

test_expect_success 'time order follows the FINISHED_ROUND rule' '
	"$TDPERF" dump -t be.data | sed -n "s/^@0x[0-9a-f]* \([A-Z_0-9]*\) .*time=\([0-9]*\).*/\2/p" >times &&
	printf "%s\n" 1000 1100 1200 1500 2000 3000 3100 >want &&
	diff -u want times
'

test_expect_success 'the big-endian file truncated at every offset fails cleanly' '
	"$TRUNCATE" be.data >res && test_grep -q "clean=0" res
'

test_done
