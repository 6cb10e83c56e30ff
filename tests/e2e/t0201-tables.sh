#!/bin/sh
# The built-in formula tables: every one loads, every formula parses and
# names only events its table lists; CPUs map to tables.
. "$(dirname "$0")/test-lib.sh"

TABLES=$TD_SRCDIR/metrics/tables

test_expect_success 'every built-in table loads and lists every event its formulas use' '
	"$TDPERF" tables check "$TABLES"/*.json >out &&
	test_line_count = "$(ls "$TABLES"/*.json | wc -l)" out
'

test_expect_success 'the tables asked for are all there' '
	for t in sandybridge ivybridge haswell haswellx broadwell broadwellx skylake skylakex cascadelakex icelake \
		 icelakex tigerlake rocketlake alderlake alderlake_atom sapphirerapids \
		 emeraldrapids graniterapids meteorlake sierraforest zen1 zen2 zen3 zen4 zen5; do
		test -f "$TABLES/$t.json" || { echo "missing $t"; exit 1; }
	done
'

while read -r cpuid table; do
	test_expect_success "CPUID $cpuid maps to $table" "
		\"\$TDPERF\" tables path $cpuid >out &&
		test_grep '/$table.json\$' out
	"
done <<'LIST'
GenuineIntel-6-55-4 skylakex
GenuineIntel-6-3A-9 ivybridge
GenuineIntel-6-2A sandybridge
GenuineIntel-6-55-7 cascadelakex
GenuineIntel-6-A5 skylake
GenuineIntel-6-A5-0 skylake
GenuineIntel-6-8F-8 sapphirerapids
GenuineIntel-6-97-2 alderlake
GenuineIntel-6-7E-5 icelake
AuthenticAMD-25-61-2 zen4
AuthenticAMD-25-21 zen3
AuthenticAMD-23-71 zen2
AuthenticAMD-26-44 zen5
skylakex skylakex
amdzen4 zen4
spr sapphirerapids
LIST

test_expect_success 'a hybrid part: the E-core table by PMU name' '
	"$TDPERF" tables path alderlake/cpu_atom >out &&
	test_grep "/alderlake_atom.json$" out
'

test_expect_success 'an unknown model names the closest table of its vendor and family' '
	test_exit_code 2 "$TDPERF" tables path GenuineIntel-6-56 2>err &&
	test_grep "closest known table is" err &&
	test_grep "force it with --cpu" err
'

test_expect_success 'a malformed table is rejected with file and line' '
	printf "{\"tdperf_table\": 1,\n \"name\": \"x\",\n \"metrics\": [ }\n" >bad.json &&
	test_exit_code 2 "$TDPERF" tables check bad.json 2>err &&
	test_grep "bad.json:3:" err
'

test_expect_success 'a table with a bad formula names the metric' '
	cat >bad2.json <<-JSON &&
	{"tdperf_table": 1, "name": "x", "metrics": [
	  {"id": "a", "level": 1, "formula": "1 +"}]}
	JSON
	test_exit_code 2 "$TDPERF" tables check bad2.json 2>err &&
	test_grep "metric .a.: formula" err
'

test_expect_success 'a reference cycle is rejected' '
	cat >cyc.json <<-JSON &&
	{"tdperf_table": 1, "name": "x", "metrics": [
	  {"id": "a", "level": 0, "formula": "b + 1"},
	  {"id": "b", "level": 0, "formula": "a * 2"}]}
	JSON
	test_exit_code 2 "$TDPERF" tables check cyc.json 2>err &&
	test_grep "refers to itself" err
'

test_done
