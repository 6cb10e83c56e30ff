#!/bin/sh
# "Ruled out" under each flagged node's guidance: the siblings below their
# thresholds.  The oracle is not tdperf: Intel's own thresholds (the
# threshold formulas of its perfmon TMA files, kept as facts in
# tests/fixtures/intel-tma-thresholds) evaluated on the values perf printed
# (perf 6.1 under the emulated PMU, and a published Comet Lake run), with
# Intel's parent links and gating.
. "$(dirname "$0")/test-lib.sh"

THRESHOLDS=$FIXTURES/intel-tma-thresholds
REF=${TD_REFERENCE:-$TD_SRCDIR/../shared/reference}

# compare PERF_OUTPUT INTEL_PLATFORM DOC: writes "want", the triples
# "SESSION NODE SIBLING" of each sibling that Intel's thresholds rule out
# under a flagged node, from perf's printed values, and "got", the same
# from tdperf's document, for the nodes perf printed in that session.  A
# node whose threshold the printed value cannot decide (within half its
# 0.1 % resolution of the limit) or that needs a value perf did not print
# is left out of both, as a flagged node or as a sibling.
compare() {
	python3 - "$1" "$2" "$3" "$THRESHOLDS/thresholds.tsv" <<'PY'
import json, re, sys
text, plat, doc = sys.argv[1:4]
metrics = {}
for line in open(sys.argv[4]):
    p, name, parent, formula = line.rstrip("\n").split("\t")
    if p == plat:
        metrics[name] = {"ParentCategory": "" if parent == "-" else parent,
                         "BaseFormula": None if formula == "-" else formula}
assert metrics, plat
# sessions: a "Performance counter stats" header or a "perf stat" command starts one
sessions, cur = [], None
for line in open(text):
    if "Performance counter stats" in line or re.match(r"\s*(sudo )?perf stat", line):
        if cur is None or cur:
            cur = {}
            sessions.append(cur)
        continue
    m = re.search(r"#\s+(-?[0-9.]+) %\s+tma_(\w+)", line)
    if m and cur is not None and m.group(2) in metrics:
        cur[m.group(2)] = float(m.group(1))
def threshold(name, vals, delta):
    f = metrics[name]["BaseFormula"]
    if not f:
        return None
    def sub(m):
        key = re.sub(r"^metric_TMA_\.*", "", m.group(1)).lower()
        if key not in vals:
            raise KeyError(key)
        return repr(vals[key] + delta)
    try:
        e = re.sub(r"(metric_TMA_[.\w]+)\(%\)", sub, f)
    except KeyError:
        return None
    return eval(e.replace("&", " and ").replace("|", " or "))
def decided(name, vals):
    lo, hi = threshold(name, vals, -0.05), threshold(name, vals, 0.05)
    return lo if lo == hi else None
d = json.load(open(doc))
totals = [s for s in d["scopes"] if s["kind"] == "total" and s.get("time") is None]
assert len(totals) == len(sessions), (len(totals), len(sessions))
want, got = open("want", "w"), open("got", "w")
for si, (vals, scope) in enumerate(zip(sessions, totals), 1):
    def flagged(n):
        p = metrics[n].get("ParentCategory", "").lower()
        return decided(n, vals) is True and (not p or (p in vals and flagged(p)))
    def undecided(n):
        p = metrics[n].get("ParentCategory", "").lower()
        return decided(n, vals) is None or (p and (p not in vals or undecided(p)))
    ours = {n["id"]: n for n in scope["nodes"]}
    for n in sorted(vals):
        if undecided(n):
            continue
        parent = metrics[n].get("ParentCategory", "").lower()
        sibs = [s for s in sorted(vals) if s != n and decided(s, vals) is not None and
                metrics[s].get("ParentCategory", "").lower() == parent]
        if flagged(n):
            for s in sibs:
                if decided(s, vals) is False:
                    print(si, n, s, file=want)
        g = (ours.get(n) or {}).get("guidance")
        for r in (g or {}).get("ruled_out", []):
            if r["id"] in sibs:
                print(si, n, r["id"], file=got)
PY
}

check() {
	"$TDPERF" report "$1" --format json >doc.json &&
	compare "$1" "$2" doc.json &&
	sort want >want.s && sort got >got.s &&
	test -s want.s &&
	diff -u want.s got.s
}

test_expect_success 'Skylake-X (perf 6.1, L1-L6): ruled out = siblings below Intel thresholds' '
	check "$FIXTURES/perf-oracle/skylakex/all.txt" SKX &&
	grep "^1 branch_resteers icache_misses$" want &&
	grep "^1 core_bound memory_bound$" want
'

test_expect_success 'Ice Lake-X (perf 6.1, L1-L6): ruled out = siblings below Intel thresholds' '
	check "$FIXTURES/perf-oracle/icelakex/all.txt" ICX &&
	grep "^1 core_bound memory_bound$" want
'

test_expect_success 'published Comet Lake run (TopdownL1, L2): Level 1 siblings ruled out, flagged Core Bound not' '
	f=$FIXTURES/perf-stat-published/case-23-cml-multidim-topdownL1-L2-L3.txt &&
	check "$f" SKL &&
	grep "^1 backend_bound frontend_bound$" want &&
	! grep "memory_bound core_bound" got
'

test_expect_success 'a ruled-out sibling carries its value, threshold and its own causes' '
	"$TDPERF" report "$FIXTURES/perf-oracle/skylakex/all.txt" --format json >d.json &&
	jq -e "[.scopes[0].nodes[] | select(.id == \"ports_utilization\") | .guidance.ruled_out[]
		| select(.id == \"divider\")][0]
		| (.value < 0.2) and (.threshold | test(\"divider > 0.2\"))
		  and (.causes | length > 0) and (.causes[0] | test(\"divi\"))" d.json &&
	jq -e "[.scopes[0].nodes[] | select(.flagged | not) | .guidance] | all(. == null)" d.json
'

# The fixture is Intel's data: read afresh wherever the reference is at hand.
if [ -d "$REF/intel-perfmon" ]; then
	test_expect_success 'the thresholds fixture is what Intel perfmon says today' '
		python3 "$THRESHOLDS/extract.py" "$REF" SKX ICX SKL >fresh.tsv &&
		diff -u "$THRESHOLDS/thresholds.tsv" fresh.tsv
	'
fi

test_done
