#!/bin/sh
# tdperf diff --check over sets of --regions runs: each region's metrics
# are region:NAME:METRIC, compared with Welch's t as the run metrics are.
# The marked program (tests/regions/regions-app.c, mode work NA NB) does
# ten passes of region A (NA iterations) and of B (NB): the new side
# doubles B's work and leaves A's.  Oracles: the program's work (B's
# rule fails, A's passes, the rule named in the JUnit XML), and scipy's
# Welch test (scipy.stats.ttest_ind, equal_var=False) on the per-run
# counts that Python reads from libtdperf.so's own regions-PID.json files.
. "$(dirname "$0")/test-lib.sh"

CC=${TD_CC:-cc}
PY=
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import scipy.stats' 2>/dev/null; then
		PY=$p
		break
	fi
done
if [ -z "$PY" ] || ! have_prog jq; then
	test_expect_success 'the regions gate tests can run' 'echo "missing python3-scipy or jq"; false'
	test_done
fi

test_expect_success 'three --regions runs a side; the new side does twice B'"'"'s work' '
	$CC -O1 -I"$TD_SRCDIR/regions" -o app "$TD_SRCDIR/tests/regions/regions-app.c" \
		-L"$TD_BUILDDIR" -ltdperf -Wl,-rpath,"$TD_BUILDDIR" -pthread &&
	for i in 1 2 3; do
		"$TDPERF" record --regions -o base$i -- ./app work 2000000 2000000 2>err &&
		"$TDPERF" record --regions -o new$i -- ./app work 2000000 4000000 2>err || return 1
	done
'

test_expect_success 'region B'"'"'s rule is broken, A'"'"'s is not: exit 1, the rule named' '
	test_exit_code 1 "$TDPERF" diff --check --junit j.xml --fail-on "region:A:task-clock:+25%,region:B:task-clock:+25%" \
		base1 base2 base3 -- new1 new2 new3 >out &&
	cat out &&
	test_grep "^  FAIL  *region:B:task-clock:+25%" out && test_grep "^  pass  *region:A:task-clock:+25%" out &&
	"$PY" -c "
import xml.etree.ElementTree as ET
cases = {c.get(\"name\"): c for c in ET.parse(\"j.xml\").getroot().iter(\"testcase\")}
assert cases[\"region:B:task-clock:+25%\"].find(\"failure\") is not None, cases
assert cases[\"region:A:task-clock:+25%\"].find(\"failure\") is None
print(\"junit ok\")
" &&
	"$TDPERF" diff --check --fail-on "region:A:task-clock:+25%,region:A:time:+25%" base1 base2 base3 -- new1 new2 new3 >out2 &&
	test_grep "^Result: pass: 0 of 2 rules broken" out2
'

test_expect_success 'each region metric'"'"'s t, df, p and interval are scipy'"'"'s on the library'"'"'s own counts' '
	test_exit_code 1 "$TDPERF" diff --check --format json --confidence 0.9 --fail-on "region:B:task-clock:+25%" \
		base1 base2 base3 -- new1 new2 new3 >gate.json &&
	cat >oracle.py <<-\PYEOF &&
	import glob, json, math
	from scipy import stats

	def value(run, region, event):
	    # the region inclusive count, summed over threads, scaled by enabled / running
	    total = 0
	    for f in glob.glob(run + "/regions-*.json"):
	        d = json.load(open(f))
	        names = [e for g in d["groups"] for e in g["events"]]
	        group = [i for i, g in enumerate(d["groups"]) for e in g["events"]]
	        k = names.index(event)
	        for t in d["threads"]:
	            for r in t["regions"]:
	                if r["name"] == region:
	                    v = r["inclusive"]
	                    total += v["counts"][k] * v["enabled_ns"][group[k]] / v["running_ns"][group[k]]
	    return total

	def close(a, b, rel=1e-6):
	    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-12)

	doc = json.load(open("gate.json"))
	conf = doc["confidence"]
	checked = 0
	for m in doc["metrics"]:
	    if not m["id"].startswith("region:") or m["id"].count(":") != 2:
	        continue
	    _, region, event = m["id"].split(":")
	    if event not in ("task-clock", "context-switches"):
	        continue
	    a = [value("base%d" % i, region, event) for i in (1, 2, 3)]
	    b = [value("new%d" % i, region, event) for i in (1, 2, 3)]
	    va, vb = stats.tvar(a) / 3, stats.tvar(b) / 3
	    if va + vb == 0:
	        continue
	    r = stats.ttest_ind(b, a, equal_var=False)
	    df = (va + vb) ** 2 / (va ** 2 / 2 + vb ** 2 / 2)
	    diff, half = sum(b) / 3 - sum(a) / 3, stats.t.ppf((1 + conf) / 2, df) * math.sqrt(va + vb)
	    print(m["id"], m["t"], r.statistic, m["df"], df, m["p"], r.pvalue, m["ci"], [diff - half, diff + half])
	    assert m["base"]["n"] == 3 and m["new"]["n"] == 3
	    assert close(m["t"], r.statistic) and close(m["df"], df) and close(m["p"], r.pvalue)
	    assert close(m["ci"][0], diff - half) and close(m["ci"][1], diff + half)
	    checked += 1
	assert checked >= 4, checked
	print("compared", checked)
	PYEOF
	"$PY" oracle.py
'

test_expect_success 'the root region stands for the run: the plain task-clock is (root)'"'"'s' '
	jq -e "[.metrics[] | select(.id == \"task-clock\" or .id == \"region:(root):task-clock\") | .base.mean]
		| length == 2 and .[0] == .[1]" gate.json &&
	jq -e ".software_only and (.rules[0].status == \"failed\")" gate.json
'

test_expect_success 'a rule on Top-Down of a region without a PMU is not measured, and said so' '
	"$TDPERF" diff --check --junit j2.xml --fail-on "region:A:retiring:-2pt" base1 base2 -- new1 new2 >out &&
	test_grep "not measured: base has no hardware counts" out &&
	grep -q "<skipped" j2.xml
'

test_expect_success 'a region neither side has, or a metric nobody knows: one line, exit 2' '
	test_exit_code 2 "$TDPERF" diff --check --fail-on "region:nosuch:task-clock:+5%" base1 base2 -- new1 new2 2>err &&
	test_line_count = 1 err && test_grep "no region .nosuch. in the runs of either side" err &&
	test_exit_code 2 "$TDPERF" diff --check --fail-on "region:A:bogus:+5%" base1 base2 -- new1 new2 2>err &&
	test_line_count = 1 err && test_grep "no metric .region:A:bogus." err &&
	test_exit_code 2 "$TDPERF" diff --check --fail-on "region:A:task-clock:+5pt" base1 base2 -- new1 new2 2>err &&
	test_line_count = 1 err && test_grep "pt (percentage points) is for fractions" err
'

test_done
