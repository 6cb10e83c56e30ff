#!/bin/sh
# Names a reader knows (issue 32, item 11): Zen nodes keep their canonical
# ids but carry AMD's names, the names of perf's amdzen metrics, in every
# format; an event in a message is spelled as perf prints it and users
# type it, never in the formula's escapes (cpu@...@, topdown\-...).
# Oracle: the metric names and the event perf itself printed in the
# published Zen 4 output (case 11).
. "$(dirname "$0")/test-lib.sh"

ZEN="$FIXTURES/perf-stat-published/case-11-zen4-ckl-blog-pipelineL1-L2.txt"

test_expect_success 'each value perf printed sits on the node of the name perf gave it' '
	"$TDPERF" report --format csv "$ZEN" >zen.csv &&
	python3 - "$ZEN" zen.csv <<-\PY
	import csv, re, sys
	# perf: "#      3.9 %  retiring_fastpath"
	printed = {}
	for line in open(sys.argv[1]):
	    m = re.search(r"#\s+([0-9.]+) %\s+([a-z_]+)", line)
	    if m:
	        printed[m.group(2)] = float(m.group(1))
	seen = 0
	for row in csv.DictReader(open(sys.argv[2])):
	    if row["level"] != "2" or not row["perf_value"]:
	        continue
	    # "Retiring Fastpath" is retiring_fastpath, "Frontend Latency" frontend_bound_latency
	    words = row["name"].lower().split()
	    names = ["_".join(words), "_".join([words[0], "bound"] + words[1:])]
	    hit = [n for n in names if n in printed]
	    assert hit, (row["name"], sorted(printed))
	    assert abs(printed[hit[0]] - 100 * float(row["perf_value"])) < 0.06, (row["name"], row["perf_value"])
	    seen += 1
	assert seen == 4, seen
	PY
'

test_expect_success 'AMD names in text, JSON, CSV and HTML; the ids stay canonical' '
	"$TDPERF" report -vv --color never "$ZEN" >zen.txt &&
	"$TDPERF" report --format json "$ZEN" >zen.json &&
	"$TDPERF" report --html zen.html "$ZEN" 2>/dev/null &&
	for f in zen.txt zen.json zen.csv zen.html; do
		for n in "Retiring Fastpath" "Retiring Microcode" "Backend Memory" "Backend CPU" \
			 "Pipeline Restarts" "Frontend Latency"; do
			test_grep "$n" $f >/dev/null || { echo "$n not in $f"; exit 1; }
		done
		! grep -q "Light Operations\|Heavy Operations" $f || { echo "Intel names in $f"; exit 1; }
	done &&
	python3 -c "
import json, sys
d = json.load(open(\"zen.json\"))
names = {n[\"id\"]: n[\"name\"] for n in d[\"scopes\"][0][\"nodes\"]}
assert names[\"light_operations\"] == \"Retiring Fastpath\", names
assert names[\"machine_clears\"] == \"Pipeline Restarts\", names
assert names[\"memory_bound\"] == \"Backend Memory\", names
"
'

test_expect_success 'list and explain use the AMD names; Intel tables keep theirs' '
	"$TDPERF" list --cpu zen4 >z4 && "$TDPERF" list --cpu zen5 >z5 &&
	test_grep "^  light_operations  *Retiring Fastpath " z4 &&
	test_grep "^  core_bound  *Backend CPU " z5 &&
	"$TDPERF" list --cpu skylake >skl &&
	test_grep "^  light_operations  *Light Operations " skl &&
	"$TDPERF" explain "Retiring Fastpath" --cpu zen4 >x &&
	test_grep "^light_operations: Retiring Fastpath" x
'

test_expect_success 'a missing event is named as perf printed it, in every format' '
	ev="cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6/" &&
	grep -F -q "$ev" "$ZEN" &&
	grep -F -q "$ev not measured" zen.txt &&
	grep -F -q "$ev not measured" zen.csv &&
	grep -F -q "$ev not measured" zen.json &&
	for f in zen.txt zen.csv zen.json; do
		! grep -n "[a-z]@[a-z]\|\\\\-" $f || exit 1
	done
'

test_expect_success 'no escapes in the messages of any published output' '
	for f in "$FIXTURES"/perf-stat-published/case-*.txt; do
		"$TDPERF" report -vv --color never "$f" >o 2>&1
		! grep -n "[a-z]@[a-z]\|\\\\-" o || { echo "in $f"; exit 1; }
	done
'

test_expect_success 'perf stat -p: the session is the process perf named, not a command called 31443' '
	pid="$FIXTURES/perf-stat-published/case-42-zen4-kinematics-pipelineL2-pid.txt" &&
	grep -q "Performance counter stats for process id .31443.:" "$pid" &&
	"$TDPERF" report --color never "$pid" >p.txt 2>/dev/null &&
	test_grep "^== session 1: perf stat of process 31443 (" p.txt &&
	! grep -q "perf stat .31443." p.txt &&
	"$TDPERF" report --format json "$pid" >p.json &&
	python3 -c "
import json
d = json.load(open(\"p.json\"))
assert [s[\"target\"] for s in d[\"sessions\"]] == [\"process 31443\", \"process 31517\"], d[\"sessions\"]
"
'

test_expect_success 'the error-bar column is named and explained' '
	r="$FIXTURES/perf-stat-published/case-23-cml-multidim-topdownL1-L2-L3.txt" &&
	"$TDPERF" report -vv --color never "$r" >r.txt 2>/dev/null &&
	! grep -q "± u " r.txt &&
	test_grep "Top-Down node  *value  ± err" r.txt &&
	test_grep "± err: the value.s error bar in points" r.txt
'

test_expect_success 'diff names where a CPI came from in words, not as the JSON path stacks.cpi' '
	p="$FIXTURES/perf-stat-published" &&
	"$TDPERF" diff --html d.html --format json "$p/case-23-cml-multidim-topdownL1-L2-L3.txt" \
		"$p/case-10-icl-tgl-ffmpeg-aac-4runs.txt" >d.json 2>/dev/null &&
	! grep -q "\"cpi_from\": \"stacks" d.json && ! grep -q "stacks\.cpi" d.html &&
	test_grep "\"cpi_from\": \"the run.s CPI stack\"" d.json
'

test_done
