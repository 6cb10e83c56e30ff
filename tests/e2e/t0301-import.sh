#!/bin/sh
# tdperf import: run directories from perf stat outputs, the CPU inferred
# from the events with its confidence, bad input refused with one line.
. "$(dirname "$0")/test-lib.sh"

PUB=$FIXTURES/perf-stat-published

# cpu_of FIXTURE: the table import infers for it
cpu_of() {
	"$TDPERF" import -q -o run.$$ "$1" && jq -r .cpu.microarchitecture run.$$/meta.json
	rm -rf run.$$ run.$$.old
}

test_expect_success 'import writes input/, meta.json and table.json' '
	"$TDPERF" import -o run $PUB/case-27-*.txt >out &&
	test_grep "1 session, 1 scope, CPU icelake (inferred from events)" out &&
	cmp $PUB/case-27-*.txt run/input/case-27-*.txt &&
	test -s run/table.json &&
	jq -e ".format == \"tdperf-run\" and .version == 1 and .kind == \"import\"" run/meta.json &&
	jq -e ".cpu.source == \"inferred from events\"" run/meta.json &&
	jq -e ".cpu.confidence | test(\"INT_MISC.CLEARS_COUNT \\\\(line 26\\\\)\")" run/meta.json &&
	jq -e "[.files[].name] | index(\"table.json\") and index(\"meta.json\")" run/meta.json &&
	jq -e ".files[0].role == \"input\" and .files[0].format == \"csv\"" run/meta.json
'

test_expect_success 'a second import keeps the first as .old' '
	"$TDPERF" import -q -o run $PUB/case-05-*.txt &&
	test -d run.old && jq -e ".cpu.microarchitecture == \"skylake\"" run/meta.json &&
	jq -e ".cpu.microarchitecture == \"icelake\"" run.old/meta.json
'

test_expect_success 'the CPU of every published output is inferred' '
	test "$(cpu_of $PUB/case-01-*.txt)" = sapphirerapids &&
	test "$(cpu_of $PUB/case-05-*.txt)" = skylake &&
	test "$(cpu_of $PUB/case-10-*.txt)" = icelake &&
	test "$(cpu_of $PUB/case-11-*.txt)" = zen4 &&
	test "$(cpu_of $PUB/case-17-*.txt)" = alderlake &&
	test "$(cpu_of $PUB/case-23-*.txt)" = skylake &&
	test "$(cpu_of $PUB/case-26-*.txt)" = icelake &&
	test "$(cpu_of $PUB/case-27-*.txt)" = icelake
'

test_expect_success 'Zen 4 is confirmed by the width perf used for retiring' '
	"$TDPERF" import -q -o z $PUB/case-11-*.txt &&
	jq -e ".cpu.confidence | test(\"6 dispatch slots\")" z/meta.json
'

# A hybrid's E-core width tells Alder Lake (Gracemont, 5) from Meteor Lake
# (Crestmont, 6) and Arrow or Lunar Lake (Skymont, 8): perf printed the
# E-core Retiring of case 17 beside its counts.
test_expect_success 'hybrid: Alder Lake is confirmed by the E-core width perf used for retiring' '
	"$TDPERF" import -q -o w $PUB/case-17-*.txt &&
	jq -e ".cpu.confidence | test(\"E-core Retiring implies 5 slots per cycle: Gracemont\")" w/meta.json
'

# No Meteor, Arrow or Lunar Lake output has been published that we could
# find: the same real output with its E-core cycles scaled by 5/6 and 5/8
# (an edited input) stands for a 6- and an 8-wide E-core.
scale_atom_cycles() {
	awk -v f="$1" "/cpu_atom\/CPU_CLK_UNHALTED.CORE\// {
		for (i = 1; i <= NF; i++) if (\$i ~ /^[0-9,]+\$/ && \$i ~ /,/) {
			n = \$i; gsub(/,/, \"\", n); \$i = sprintf(\"%.0f\", n * f); break } }
		{ print }" $PUB/case-17-*.txt
}

test_expect_success 'hybrid: a 6-wide E-core is Meteor Lake, an 8-wide one Arrow or Lunar Lake (edited case 17)' '
	scale_atom_cycles 0.8333333333 >w6.txt &&
	"$TDPERF" import -q -o w6 w6.txt &&
	jq -e ".cpu.microarchitecture == \"meteorlake\" and (.cpu.confidence | test(\"implies 6 slots per cycle: Crestmont\"))" w6/meta.json &&
	jq -e ".table.cpu_atom.name == \"meteorlake_atom\"" w6/meta.json &&
	scale_atom_cycles 0.625 >w8.txt &&
	"$TDPERF" import -q -o w8 w8.txt &&
	jq -e ".cpu.microarchitecture == \"arrowlake\" and (.cpu.confidence | test(\"implies 8 slots per cycle: Skymont\"))" w8/meta.json &&
	jq -e ".table.cpu_atom.name == \"arrowlake_atom\"" w8/meta.json
'

test_expect_success 'hybrid: both tables copied, both PMUs listed' '
	"$TDPERF" import -q -o h $PUB/case-17-*.txt &&
	test -s h/table.json && test -s h/table-cpu_atom.json &&
	jq -e "[.pmus[].name] == [\"cpu_core\", \"cpu_atom\"]" h/meta.json &&
	jq -e ".table.cpu_atom.name == \"alderlake_atom\"" h/meta.json
'

test_expect_success 'SMT is inferred from the *_ANY events (case 05)' '
	"$TDPERF" import -q -o s $PUB/case-05-*.txt &&
	jq -e ".smt.on == true and .smt.source == \"inferred from events\"" s/meta.json &&
	jq -e ".smt.reason | test(\"THREAD_ANY\")" s/meta.json
'

test_expect_success '--cpu and --smt override the inference and say so' '
	"$TDPERF" import -q --cpu icelake --smt off -o o $PUB/case-26-*.txt &&
	jq -e ".cpu.source == \"--cpu\" and .cpu.microarchitecture == \"icelake\"" o/meta.json &&
	jq -e ".cpu.confidence | test(\"given on the command line\")" o/meta.json &&
	jq -e ".smt.on == false and .smt.source == \"--smt\"" o/meta.json
'

test_expect_success 'software events only: no table, counts kept' '
	cp $TD_SRCDIR/tests/fuzz/stat-inputs/intcsv.txt sw.csv &&
	"$TDPERF" import -q -o sw sw.csv &&
	! test -e sw/table.json &&
	jq -e ".table == null and .analyses.topdown.status == \"impossible\"" sw/meta.json &&
	jq -e ".hardware_pmu == false" sw/meta.json
'

# ---- bad input: one line naming file and line, exit 2, nothing written ----
bad() {
	# bad NAME: import must fail with 2, write nothing, and say FILE:LINE
	rm -rf out.run out.run.old out.run.tmp-*
	test_exit_code 2 "$TDPERF" import -o out.run "$1" 2>err &&
	test "$(wc -l <err)" = 1 &&
	test_grep "^tdperf: $1:$2: " err &&
	! test -e out.run && ! ls -d out.run.tmp-* 2>/dev/null
}

test_expect_success 'not perf output at all' '
	printf "hello\nworld\n" >prose.txt &&
	bad prose.txt 1 && test_grep "no perf stat output" err
'

test_expect_success 'binary data' '
	printf "abc\000def" >bin.dat &&
	rm -rf out.run && test_exit_code 2 "$TDPERF" import -o out.run bin.dat 2>err &&
	test_grep "bin.dat: offset 3: binary data" err && ! test -e out.run
'

test_expect_success 'a truncated CSV row' '
	head -c 250 $TD_SRCDIR/tests/fuzz/stat-inputs/intcsv.txt >trunc.csv &&
	n=$(($(wc -l <trunc.csv) + 1)) &&
	bad trunc.csv $n && test_grep "truncated" err
'

test_expect_success 'a CSV row cut after its count' '
	printf "1.17,msec,task-clock,1171293,100.00,0.743,CPUs utilized\n0,,context-switches,1171293,100.00,0.000,/sec\n50\n" >cut.csv &&
	head -n 2 cut.csv >ok.csv && "$TDPERF" import -q -o okrun ok.csv &&
	printf "1.17,msec,task-clock,1171293,100.00,0.743,CPUs utilized\n0,\n" >cut2.csv &&
	bad cut2.csv 2 && test_grep "truncated CSV row" err
'

test_expect_success 'a real -I CSV cut inside a row (at every length of its last data row)' '
	grep -v "^#" $TD_SRCDIR/tests/fixtures/perf-stat-published/case-27-*.txt >full.csv &&
	"$TDPERF" import -q -o full.run full.csv &&
	total=$(wc -c <full.csv) && last=$(tail -n 1 full.csv | wc -c) &&
	cut=$((total - last + 16)) &&
	while test $cut -lt $((total - 1)); do
		head -c $cut full.csv >cut.csv &&
		n=$(wc -l <full.csv) &&
		bad cut.csv $n && test_grep "truncated CSV" err >/dev/null || { echo "cut at $cut accepted"; exit 1; }
		cut=$((cut + 7))
	done
'

test_expect_success 'a real text output cut inside a count line' '
	head -c 1500 $TD_SRCDIR/tests/fixtures/perf-stat-published/case-05-skl-irogers-topdownL1-systemwide.txt >cut5.txt &&
	bad cut5.txt $(($(wc -l <cut5.txt) + 1)) && test_grep "truncated perf stat line" err
'

test_expect_success 'a malformed JSON line' '
	printf "{\"counter-value\" : \"12.0\", \"event\" : \"cycles\", \"unit\" : \"\"}\n{\"counter-value\" : \"1\", \"event\" \n" >bad.json &&
	bad bad.json 2 && test_grep "malformed perf JSON line" err
'

test_expect_success 'model-specific events of no known CPU' '
	printf "\n Performance counter stats for '"'"'x'"'"':\n\n     1,234      FROB.NICATE\n     2,345      FROB.OTHER\n\n       1.0 seconds time elapsed\n" >unk.txt &&
	bad unk.txt 4 && test_grep "cannot tell the CPU.*FROB.NICATE" err && test_grep "give --cpu" err
'

test_expect_success 'an unknown --cpu is refused' '
	test_exit_code 2 "$TDPERF" import -o out.run --cpu frobnitz $PUB/case-05-*.txt 2>err &&
	test_grep "frobnitz" err && ! test -e out.run
'

test_expect_success 'a missing file' '
	test_exit_code 2 "$TDPERF" import -o out.run no-such-file 2>err &&
	test_grep "no-such-file: cannot read" err
'

test_expect_success 'usage errors exit 2' '
	test_exit_code 2 "$TDPERF" import 2>err &&
	test_exit_code 2 "$TDPERF" import --smt maybe x 2>err && test_grep "smt" err
'

test_done
