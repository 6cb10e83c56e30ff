#!/bin/sh
# Guidance per node (metrics/guidance/*.json, docs/guidance.md): every node
# of every formula table has it, a new CPU's table inherits its vendor
# family's text, a table's own file comes first, and a broken guidance
# file is refused with one line.
. "$(dirname "$0")/test-lib.sh"

TOOL=$TD_BUILDDIR/tests/tools/guidance-tool

# a data directory whose guidance files the test may change
own_datadir() {
	rm -rf data && mkdir -p data/metrics &&
	for f in "$TD_SRCDIR"/metrics/*; do ln -s "$f" data/metrics/ || return 1; done &&
	rm data/metrics/guidance &&
	ln -s "$TD_SRCDIR/templates" data/templates &&
	cp -r "$TD_SRCDIR/metrics/guidance" data/metrics/guidance
}

test_expect_success 'every node of every table has guidance' '
	"$TOOL" "$TD_SRCDIR"/metrics/tables/*.json >all &&
	python3 -c "
import glob, json
n = sum(1 for f in glob.glob(\"$TD_SRCDIR/metrics/tables/*.json\")
        for m in json.load(open(f))[\"metrics\"] if m.get(\"level\", 0) >= 1)
print(n)" >want.count &&
	test "$(wc -l <all)" -eq "$(cat want.count)" &&
	test "$(cat want.count)" -gt 2000 &&
	! grep " -\$" all
'

test_expect_success 'each vendor family gives its own text (Intel, AMD, Arm)' '
	grep "^skylakex memory_bound metrics/guidance/intel.json\$" all &&
	grep "^zen4 smt_contention metrics/guidance/amd.json\$" all &&
	grep "^neoverse-n3 backend_mem_tlb_bound metrics/guidance/arm.json\$" all &&
	grep "^hip08 sync_stall metrics/guidance/arm.json\$" all &&
	grep "^ampereone stall_rob_id_rate metrics/guidance/arm.json\$" all
'

test_expect_success 'no guidance entry names a node that no table of its vendor has' '
	python3 - "$TD_SRCDIR" <<-\PY
	import glob, json, sys
	src = sys.argv[1]
	nodes = {}
	for f in glob.glob(src + "/metrics/tables/*.json"):
	    t = json.load(open(f))
	    for m in t["metrics"]:
	        if m.get("level", 0) >= 1:
	            nodes.setdefault(t["vendor"], set()).add(m["id"])
	bad = []
	for f in glob.glob(src + "/metrics/guidance/*.json"):
	    g = json.load(open(f))
	    known = set().union(*(nodes.get(v, set()) for v in g["vendors"]))
	    bad += [(f, k) for k in g["nodes"] if k not in known]
	print(bad)
	sys.exit(1 if bad else 0)
	PY
'

test_expect_success 'a table of a new CPU inherits its family text' '
	jq ".name = \"futurecove\" | .display = \"a CPU no guidance file names\"" \
		"$TD_SRCDIR/metrics/tables/skylakex.json" >futurecove.json &&
	"$TOOL" futurecove.json >new &&
	grep -c . new >n && test "$(cat n)" -gt 90 &&
	! grep -v " metrics/guidance/intel.json\$" new &&
	jq ".vendor = \"SomeNewVendor\"" futurecove.json >unknown.json &&
	"$TOOL" unknown.json >none &&
	! grep -v " -\$" none
'

test_expect_success 'a table'"'"'s own guidance file comes before its family'"'"'s' '
	own_datadir &&
	cat >data/metrics/guidance/futurecove.json <<-\EOF &&
	{"refs": {"x": "Our measurements on futurecove"},
	 "nodes": {"memory_bound": {"meaning": "Futurecove-specific text.", "causes": ["c"],
	   "try": ["t"], "next": ["n"], "refs": ["x"]}}}
	EOF
	TDPERF_DATADIR=$PWD/data "$TOOL" futurecove.json >own &&
	grep "^futurecove memory_bound metrics/guidance/futurecove.json\$" own &&
	grep "^futurecove core_bound metrics/guidance/intel.json\$" own
'

test_expect_success 'a broken guidance file: one line naming it, exit 2, no report' '
	own_datadir &&
	jq "del(.nodes.memory_bound.try)" "$TD_SRCDIR/metrics/guidance/intel.json" \
		>data/metrics/guidance/intel.json &&
	test_exit_code 2 env TDPERF_DATADIR=$PWD/data "$TDPERF" report \
		"$FIXTURES/perf-oracle/skylakex/all.txt" --format json >out 2>err &&
	test ! -s out &&
	test_line_count = 1 err &&
	grep "^tdperf: .*metrics/guidance/intel.json: node memory_bound: \"try\" must be" err &&
	echo "{" >data/metrics/guidance/intel.json &&
	test_exit_code 2 env TDPERF_DATADIR=$PWD/data "$TDPERF" report \
		"$FIXTURES/perf-oracle/skylakex/all.txt" >out 2>err &&
	test_line_count = 1 err && grep "intel.json: line" err
'

test_done
