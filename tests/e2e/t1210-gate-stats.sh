#!/bin/sh
# tdperf diff --check: the statistics against scipy (an oracle we did not
# write).  For each metric of the gate's JSON, Welch's t and the two-sided
# p must equal scipy.stats.ttest_ind(equal_var=False) on the per-run
# values the run directories hold (perf stat's CSV, read here by Python),
# or scipy.stats.ttest_ind_from_stats on perf stat -r N summaries; the
# confidence interval must be diff +- scipy.stats.t.ppf((1 + c) / 2, df) x se,
# at several confidence levels (so at many (p, df) pairs of the inverse t).
. "$(dirname "$0")/test-lib.sh"

GATE=$FIXTURES/gate
PUB=$FIXTURES/perf-stat-published

PY=
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import scipy.stats' 2>/dev/null; then
		PY=$p
		break
	fi
done
if [ -z "$PY" ]; then
	test_skip 'the gate against scipy' 'python3-scipy is not installed (scripts/bootstrap installs it)'
	test_done
fi

# oracle.py CASES: each line "JSON BASE-CSVS NEW-CSVS" (comma-separated perf
# stat CSV files: every software count of the gate compared with scipy on
# their values), or "JSON summary" (the case-40 counts below).  One Python
# run for all: importing scipy takes seconds on a loaded machine.
cat >oracle.py <<'PYEOF'
import csv, json, math, sys
from scipy import stats

def values(files, event):
    out = []
    for f in files:
        for row in csv.reader(l for l in open(f) if l.strip() and not l.startswith("#")):
            if len(row) > 2 and row[2] == event:
                out.append(float(row[0]))
                break
    return out

def close(a, b, rel=1e-6, abs_=1e-12):
    return abs(a - b) <= max(rel * max(abs(a), abs(b)), abs_)

def check(name, m, t, p, df, diff, se, conf):
    half = stats.t.ppf((1 + conf) / 2, df) * se
    print("%s %s: t %.9g/%.9g df %.9g/%.9g p %.9g/%.9g ci [%.9g, %.9g]/[%.9g, %.9g]" %
          (name, m["id"], m["t"], t, m["df"], df, m["p"], p, m["ci"][0], m["ci"][1], diff - half, diff + half))
    assert close(m["t"], t), "t"
    assert close(m["df"], df), "df"
    assert close(m["p"], p, 1e-6, 1e-15), "p"
    assert close(m["ci"][0], diff - half, 1e-6, 1e-9 * half), "ci low"
    assert close(m["ci"][1], diff + half, 1e-6, 1e-9 * half), "ci high"

def welch_df(va, vb, na, nb):
    return (va + vb) ** 2 / (va ** 2 / (na - 1) + vb ** 2 / (nb - 1))

def runs_case(name, doc, base, new):
    checked = 0
    for m in doc["metrics"]:
        if m["id"] not in ("task-clock", "context-switches", "cpu-migrations", "page-faults"):
            continue
        a, b = values(base, m["id"]), values(new, m["id"])
        assert len(a) == m["base"]["n"] and len(b) == m["new"]["n"], (m["id"], len(a), len(b))
        va, vb = stats.tvar(a) / len(a), stats.tvar(b) / len(b)
        if va + vb == 0:
            continue
        r = stats.ttest_ind(b, a, equal_var=False)
        check(name, m, r.statistic, r.pvalue, welch_df(va, vb, len(a), len(b)),
              sum(b) / len(b) - sum(a) / len(a), math.sqrt(va + vb), doc["confidence"])
        checked += 1
    assert checked >= 2, "only %d metrics compared" % checked

# perf stat -r 5 before and after a kernel patch (LKML, case-40): the mean
# and "+- x %" (the standard error of the mean) perf printed for each count
PRINTED = {
    "task-clock": ((3072392.92, 0.05), (3033250.65, 0.05)),
    "context-switches": ((1351534, 0.99), (1329033, 0.64)),
    "cpu-migrations": ((224862, 1.39), (225550, 1.36)),
    "cycles": ((8743357421495, 0.06), (8629663367477, 0.05)),
}

def summary_case(name, doc):
    left = dict(PRINTED)
    for m in doc["metrics"]:
        if m["id"] not in left:
            continue
        (ma, pa), (mb, pb) = left.pop(m["id"])
        sa, sb = ma * pa / 100 * math.sqrt(5), mb * pb / 100 * math.sqrt(5)
        r = stats.ttest_ind_from_stats(mb, sb, 5, ma, sa, 5, equal_var=False)
        va, vb = sa * sa / 5, sb * sb / 5
        check(name, m, r.statistic, r.pvalue, welch_df(va, vb, 5, 5), mb - ma,
              math.sqrt(va + vb), doc["confidence"])
    assert not left, left

for line in open(sys.argv[1]):
    f = line.split()
    doc = json.load(open(f[0]))
    if f[1] == "summary":
        summary_case(f[0], doc)
    else:
        runs_case(f[0], doc, f[1].split(","), f[2].split(","))
print("all cases agree with scipy")
PYEOF

csvs() { # csvs DIR...: the perf-stat-N.csv files of the runs, comma-separated
	for d in "$@"; do
		ls "$d"/perf-stat-*.csv
	done | paste -sd, -
}

: >cases
for c in 0.95 0.9 0.99 0.999; do
	test_expect_success "software runs, 1.5x the work, confidence $c: the gate fails" '
		test_exit_code 1 "$TDPERF" diff --check --confidence '$c' --format json \
			"$GATE/base" "$GATE/slow" >slow-'$c'.json &&
		echo "slow-'$c'.json $(csvs "$GATE/base") $(csvs "$GATE/slow")" >>cases
	'
done

test_expect_success 'same program: the gate passes' '
	"$TDPERF" diff --check --format json "$GATE/base" "$GATE/same" >same.json &&
	echo "same.json $(csvs "$GATE/base") $(csvs "$GATE/same")" >>cases
'

test_expect_success 'ten runs split in halves (sets of run directories), confidence 90 %' '
	"$TDPERF" diff --check --confidence 90 --format json \
		"$GATE"/noise-0[1-5] -- "$GATE"/noise-0[6-9] "$GATE"/noise-10 >noise.json &&
	echo "noise.json $(csvs "$GATE"/noise-0[1-5]) $(csvs "$GATE"/noise-0[6-9] "$GATE"/noise-10)" >>cases
'

test_expect_success 'perf stat -r 5 sessions of a published output, one per side (--scope-a/-b)' '
	f=$PUB/case-40-icx-bp-repeat5-topdown.txt &&
	test_exit_code 0 "$TDPERF" diff --check --scope-a s1/total --scope-b s2/total --format json \
		"$f" "$f" >summary.json &&
	echo "summary.json summary" >>cases
'

test_expect_success 't, df, p and the interval of every comparison equal scipy'"'"'s' '
	test $(wc -l <cases) = 7 &&
	"$PY" oracle.py cases
'

test_done
fi

# oracle.py GATE.JSON BASE-CSVS NEW-CSVS: every software count of the gate
# compared with scipy on the values of the CSV files (comma-separated lists).
cat >oracle.py <<'PYEOF'
import csv, json, math, sys
from scipy import stats

doc = json.load(open(sys.argv[1]))
sides = [sys.argv[2].split(","), sys.argv[3].split(",")]
conf = doc["confidence"]

def values(files, event):
    out = []
    for f in files:
        for row in csv.reader(l for l in open(f) if l.strip() and not l.startswith("#")):
            if len(row) > 2 and row[2] == event:
                out.append(float(row[0]))
                break
    return out

def close(a, b, rel=1e-6, abs_=1e-12):
    return abs(a - b) <= max(rel * max(abs(a), abs(b)), abs_)

checked = 0
for m in doc["metrics"]:
    if m["id"] not in ("task-clock", "context-switches", "cpu-migrations", "page-faults"):
        continue
    a, b = values(sides[0], m["id"]), values(sides[1], m["id"])
    assert len(a) == m["base"]["n"] and len(b) == m["new"]["n"], (m["id"], len(a), len(b))
    va, vb = stats.tvar(a) / len(a), stats.tvar(b) / len(b)
    if va + vb == 0:
        continue
    r = stats.ttest_ind(b, a, equal_var=False)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    half = stats.t.ppf((1 + conf) / 2, df) * math.sqrt(va + vb)
    diff = sum(b) / len(b) - sum(a) / len(a)
    print("%s: t %.9g/%.9g df %.9g/%.9g p %.9g/%.9g ci [%.9g, %.9g]/[%.9g, %.9g]" %
          (m["id"], m["t"], r.statistic, m["df"], df, m["p"], r.pvalue,
           m["ci"][0], m["ci"][1], diff - half, diff + half))
    assert close(m["t"], r.statistic), "t"
    assert close(m["df"], df), "df"
    assert close(m["p"], r.pvalue, 1e-6, 1e-15), "p"
    assert close(m["ci"][0], diff - half, 1e-6, 1e-9) and close(m["ci"][1], diff + half, 1e-6, 1e-9), "ci"
    checked += 1
assert checked >= 2, "only %d metrics compared" % checked
print("compared", checked)
PYEOF

csvs() { # csvs DIR...: the perf-stat-N.csv files of the runs, comma-separated
	for d in "$@"; do
		ls "$d"/perf-stat-*.csv
	done | paste -sd, -
}

for c in 0.95 0.9 0.99 0.999; do
	test_expect_success "software runs (1.5x the work), confidence $c: t, df, p, interval as scipy" '
		"$TDPERF" diff --check --confidence '$c' --format json "$GATE/base" "$GATE/slow" >g.json ||
			test $? = 1 &&
		"$PY" oracle.py g.json "$(csvs "$GATE/base")" "$(csvs "$GATE/slow")"
	'
done

test_expect_success 'same program: t, df, p, interval as scipy' '
	"$TDPERF" diff --check --format json "$GATE/base" "$GATE/same" >g.json &&
	"$PY" oracle.py g.json "$(csvs "$GATE/base")" "$(csvs "$GATE/same")"
'

test_expect_success 'ten runs split in halves (sets of run directories): as scipy' '
	"$TDPERF" diff --check --confidence 0.9 --format json "$GATE"/noise-0[1-5] -- "$GATE"/noise-0[6-9] "$GATE"/noise-10 >g.json &&
	"$PY" oracle.py g.json "$(csvs "$GATE"/noise-0[1-5])" "$(csvs "$GATE"/noise-0[6-9] "$GATE"/noise-10)"
'

# perf stat -r 5 before and after a kernel patch (LKML, tests/fixtures/perf-stat-published
# case-40): perf printed each count's mean and "+- x %", the standard error of the mean.
test_expect_success 'perf stat -r 5 summaries (published): as scipy.stats.ttest_ind_from_stats' '
	f=$PUB/case-40-icx-bp-repeat5-topdown.txt &&
	"$TDPERF" diff --check --scope-a s1/total --scope-b s2/total --format json "$f" "$f" >g.json ||
		test $? = 1 &&
	cat >summary.py <<-PYEOF &&
	import json, math
	from scipy import stats
	doc = json.load(open("g.json"))
	# mean and "+- x %" as perf printed them (case-40), n = 5
	printed = {
	    "task-clock": ((3072392.92, 0.05), (3033250.65, 0.05)),
	    "context-switches": ((1351534, 0.99), (1329033, 0.64)),
	    "cpu-migrations": ((224862, 1.39), (225550, 1.36)),
	    "cycles": ((8743357421495, 0.06), (8629663367477, 0.05)),
	}
	for m in doc["metrics"]:
	    if m["id"] not in printed:
	        continue
	    (ma, pa), (mb, pb) = printed.pop(m["id"])
	    sa, sb = ma * pa / 100 * math.sqrt(5), mb * pb / 100 * math.sqrt(5)
	    r = stats.ttest_ind_from_stats(mb, sb, 5, ma, sa, 5, equal_var=False)
	    va, vb = sa * sa / 5, sb * sb / 5
	    df = (va + vb) ** 2 / (va * va / 4 + vb * vb / 4)
	    half = stats.t.ppf(0.975, df) * math.sqrt(va + vb)
	    print(m["id"], m["t"], r.statistic, m["p"], r.pvalue, m["df"], df, m["ci"], mb - ma - half)
	    assert abs(m["t"] - r.statistic) <= 1e-6 * abs(r.statistic)
	    assert abs(m["p"] - r.pvalue) <= 1e-6 * r.pvalue + 1e-15
	    assert abs(m["df"] - df) <= 1e-6 * df
	    assert abs(m["ci"][0] - (mb - ma - half)) <= 1e-6 * half
	    assert abs(m["ci"][1] - (mb - ma + half)) <= 1e-6 * half
	assert not printed, printed
	PYEOF
	"$PY" summary.py
'

test_done
