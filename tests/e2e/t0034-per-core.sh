#!/bin/sh
# record --per-core and -A (issue 32, item 10): perf stat's per-core and
# per-CPU counts, one tree per core or CPU in the report.  Oracle: the
# counts perf itself wrote (perf-stat-1.csv, real perf 6.1 on the emulated
# PMU) and Intel's Level-1 formula, Frontend Bound =
# IDQ_UOPS_NOT_DELIVERED.CORE / (4 x CPU_CLK_UNHALTED.THREAD_ANY / 2) on
# Skylake-SP with SMT on (perfmon SKX TMA metrics: SLOTS, CORE_CLKS).
. "$(dirname "$0")/test-lib.sh"
. "$TD_SRCDIR/tests/e2e/pmu-emu-lib.sh"

emu_require

test_expect_success 'record --per-core and -A need -a or -C, and exclude each other' '
	test_exit_code 2 "$TDPERF" record --per-core true 2>err &&
	test_line_count = 1 err && test_grep "add one" err &&
	test_exit_code 2 "$TDPERF" record -a -A --per-core true 2>err &&
	test_grep "exclude each other" err &&
	"$TDPERF" record --dry-run --cpu skylakex -a --per-core sleep 1 >plan &&
	test_grep "perf stat .* -a --per-core -e " plan &&
	"$TDPERF" record --dry-run --cpu skylakex -C 0,1 -A sleep 1 >plan &&
	test_grep "perf stat .* -C 0,1 -A -e " plan
'

# check_scopes RUN KIND: each scope of that kind is one perf printed, with
# perf's counts, and its Frontend Bound is Intel's formula on them
check_scopes() {
	"$TDPERF" report "$1" --format json --scopes all >"$1.json" &&
	python3 - "$1" "$2" <<-\PY
	import csv, json, sys
	run, kind = sys.argv[1], sys.argv[2]
	perf = {}
	for row in csv.reader(l for l in open(run + "/perf-stat-1.csv") if l.strip() and not l.startswith("#")):
	    # per-core rows: S0-D0-C0,CPUS,VALUE,UNIT,EVENT,...; -A rows: CPU0,VALUE,UNIT,EVENT,...
	    label, rest = row[0], row[2:] if kind == "core" else row[1:]
	    if rest[0] and rest[0][0].isdigit():
	        perf.setdefault(label, {})[rest[2]] = float(rest[0])
	doc = json.load(open(run + ".json"))
	scopes = [s for s in doc["scopes"] if s["kind"] == kind]
	assert sorted(s["label"] for s in scopes) == sorted(perf), (sorted(perf), [s["label"] for s in scopes])
	for s in scopes:
	    counts = perf[s["label"]]
	    for e in s["events"]:
	        if e["name"] in counts:
	            assert abs(e["value"] - counts[e["name"]]) <= 1e-9 * counts[e["name"]] + 0.01, (s["label"], e)
	    fe = counts["IDQ_UOPS_NOT_DELIVERED.CORE"] / (4 * counts["CPU_CLK_UNHALTED.THREAD_ANY"] / 2)
	    node = {n["id"]: n["value"] for n in s["nodes"]}
	    assert abs(node["frontend_bound"] - fe) < 1e-6, (s["label"], node["frontend_bound"], fe)
	assert len(scopes) >= 2, len(scopes)
	PY
}

test_expect_success 'record -a --per-core: one tree per core perf printed, on perf counts' '
	"$EMU/pmu-emu" --cpu skylakex -- "$TDPERF" record -a --per-core -l 1 -o pc -- sleep 0.2 >out 2>&1 &&
	test_grep -- "--per-core" pc/meta.json &&
	check_scopes pc core &&
	"$TDPERF" report pc --color never >text &&
	test_grep "^  S0-D0-C0  " text && test_grep "^-- total (sum of [0-9]* core scopes) --" text
'

test_expect_success 'record -a -A: one tree per CPU perf printed, on perf counts' '
	"$EMU/pmu-emu" --cpu skylakex -- "$TDPERF" record -a -A -l 1 -o pa -- sleep 0.2 >out 2>&1 &&
	check_scopes pa cpu &&
	"$TDPERF" report pa --color never >text &&
	test_grep "^  CPU0  " text
'

test_done
