#!/bin/sh
# tdperf diff --check on runs: the same program passes, 1.5 times the work
# fails with the rule named (text, JSON, JUnit XML), noise alone (ten runs
# of one program split in halves) passes, without a PMU it says it used
# the software counts; with hardware counts (emulated Skylake-X) and with a
# published perf stat -r 5 before/after a kernel patch, the Top-Down rules
# in points; live recordings of this machine, and self shares of functions
# from recordings with --hotspots.
. "$(dirname "$0")/test-lib.sh"

GATE=$FIXTURES/gate
PUB=$FIXTURES/perf-stat-published
WORK=$TD_BUILDDIR/tests/workloads/gate-work

PY=
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import xml.dom.minidom' 2>/dev/null; then
		PY=$p
		break
	fi
done

test_expect_success 'two software-only recordings of one program pass, and say they are software-only' '
	"$TDPERF" diff --check --junit j.xml "$GATE/base" "$GATE/same" >out &&
	test_grep "^base: 5 runs (.*base), software counts only$" out &&
	test_grep "^note: no hardware counts (no PMU) on a side: compared on the software counts" out &&
	test_grep "^  not measured cycles:+5%: not measured: base has no hardware counts (no PMU)" out &&
	test_grep "^  pass         task-clock:+5%: task-clock changed by" out &&
	test_grep "^Result: pass: 0 of 3 rules broken, 2 not checked (not measured or not tested)$" out &&
	xmllint --noout j.xml
'

test_expect_success 'a run doing 1.5x the work fails, the rule named in text and JSON' '
	test_exit_code 1 "$TDPERF" diff --check --fail-on "page-faults:+20%,task-clock:+5%,context-switches:+300%" \
		"$GATE/base" "$GATE/slow" >out &&
	test_grep "^  FAIL         task-clock:+5%: task-clock changed by +4[0-9]\.[0-9][0-9] %, 95% interval \[+[34][0-9]\.[0-9][0-9], +[45][0-9]\.[0-9][0-9]\] %: all of it above +5 %$" out &&
	test_grep "^  pass         page-faults:+20%" out &&
	test_grep "^  pass         context-switches:+300%" out &&
	test_grep "^  task-clock (msec) .* regressed$" out &&
	test_grep "^Result: FAIL: 1 of 3 rules broken$" out &&
	test_exit_code 1 "$TDPERF" diff --check --fail-on "page-faults:+20%,task-clock:+5%" --format json \
		-o g.json "$GATE/base" "$GATE/slow" &&
	jq -e ".schema == \"tdperf-gate\" and .failed == 1 and .software_only == true and .confidence == 0.95" g.json &&
	jq -e "[.rules[] | select(.status == \"failed\") | .rule] == [\"task-clock:+5%\"]" g.json &&
	jq -e ".rules[1] | .metric == \"task-clock\" and .direction == \"rise\" and .limit == 5 and .unit == \"%\"
		and .change_ci[0] > 5 and .verdict == \"regressed\"" g.json &&
	jq -e ".metrics[] | select(.id == \"task-clock\") | .base.n == 5 and .new.n == 5 and .df > 0 and .p < 0.05
		and .change > 40 and .change < 60" g.json
'

test_expect_success 'JUnit XML: one test case per rule, the broken one a failure, what Jenkins and GitLab read' '
	test_exit_code 1 "$TDPERF" diff --check --junit j.xml --fail-on "cycles:+3%,task-clock:+5%,page-faults:+20%" \
		"$GATE/base" "$GATE/slow" >/dev/null &&
	xmllint --noout j.xml &&
	if [ -n "$PY" ]; then
		cat >junit.py <<-PYEOF &&
		import xml.dom.minidom as dom
		d = dom.parse("j.xml").documentElement
		assert d.tagName == "testsuites"
		suites = d.getElementsByTagName("testsuite")
		assert len(suites) == 1
		s = suites[0]
		cases = s.getElementsByTagName("testcase")
		assert [c.getAttribute("name") for c in cases] == ["cycles:+3%", "task-clock:+5%", "page-faults:+20%"]
		assert all(c.getAttribute("classname") and c.getAttribute("time") for c in cases)
		fail = [c.getAttribute("name") for c in cases if c.getElementsByTagName("failure")]
		skip = [c.getAttribute("name") for c in cases if c.getElementsByTagName("skipped")]
		assert fail == ["task-clock:+5%"] and skip == ["cycles:+3%"], (fail, skip)
		f = cases[1].getElementsByTagName("failure")[0]
		assert f.getAttribute("message").startswith("task-clock changed by +"), f.getAttribute("message")
		assert "no hardware counts" in cases[0].getElementsByTagName("skipped")[0].getAttribute("message")
		for e in (d, s):
		    assert (e.getAttribute("tests"), e.getAttribute("failures"), e.getAttribute("errors"),
		            e.getAttribute("skipped")) == ("3", "1", "0", "1"), e.toxml()[:200]
		assert s.getAttribute("name") and s.getAttribute("timestamp")
		print("junit ok")
		PYEOF
		"$PY" junit.py
	fi
'

test_expect_success 'noise alone: ten runs of one program split in halves pass at the default confidence' '
	"$TDPERF" diff --check "$GATE"/noise-0[1-5] -- "$GATE"/noise-0[6-9] "$GATE"/noise-10 >out &&
	test_grep "^base: 5 runs (.*noise-01 .*noise-05), software counts only$" out &&
	test_grep "^new: 5 runs (.*noise-06 .*noise-10), software counts only$" out &&
	"$TDPERF" diff --check --fail-on "task-clock:+2%,task-clock:-2%,page-faults:+1%,context-switches:+10%" \
		"$GATE"/noise-0[1-5] -- "$GATE"/noise-0[6-9] "$GATE"/noise-10 >out &&
	test_grep "^Result: pass: 0 of 4 rules broken$" out &&
	test_grep "^  task-clock (msec) .* no significant change$" out
'

test_expect_success 'hardware counts (emulated Skylake-X): cycles, IPC, Top-Down Levels 1-2 compared' '
	test_exit_code 1 "$TDPERF" diff --check --format json --fail-on "cycles:+3%,retiring:-2pt,ipc:-3%" \
		"$GATE/hw-base" "$GATE/hw-slow" >g.json &&
	jq -e ".software_only == false and .note == null and .base.hardware_counts and .new.hardware_counts" g.json &&
	jq -e "[.metrics[].id] | contains([\"cycles\", \"instructions\", \"ipc\", \"retiring\", \"frontend_bound\",
		\"backend_bound\", \"bad_speculation\", \"memory_bound\", \"core_bound\", \"light_operations\"])" g.json &&
	jq -e "[.metrics[] | select(.level == 2)] | length == 8" g.json &&
	jq -e "[.rules[] | .status] == [\"failed\", \"passed\", \"passed\"]" g.json &&
	jq -e ".metrics[] | select(.id == \"retiring\") | .kind == \"fraction\" and .change_unit == \"pt\"
		and .better == \"higher\" and .verdict == \"no significant change\"" g.json
'

# The published perf stat --repeat 5 of a kernel build before and after a
# clear_page patch (LKML, case-40): perf's own means and standard errors.
test_expect_success 'perf stat -r 5 before/after a patch (published): Top-Down rules in points, approximations marked' '
	f=$PUB/case-40-icx-bp-repeat5-topdown.txt &&
	test_exit_code 1 "$TDPERF" diff --check --scope-a s1/total --scope-b s2/total \
		--fail-on "frontend_bound:+0.2pt,backend_bound:-0.5pt,retiring:-0.2pt,task-clock:+1%" "$f" "$f" >out &&
	test_grep "^base: 5 runs (.*case-40.*), perf stat -r summaries$" out &&
	test_grep "^  FAIL         frontend_bound:+0.2pt: frontend_bound changed by +0.37 pt" out &&
	test_grep "^  FAIL         backend_bound:-0.5pt: backend_bound changed by -1.12 pt" out &&
	test_grep "^  pass         retiring:-0.2pt" out &&
	test_grep "^  pass         task-clock:+1%: task-clock changed by -1.27 %" out &&
	test_grep "^  task-clock (msec) .* improved$" out &&
	test_grep "^  retiring .* improved ~$" out &&
	test_grep "^  ~ approximate spread" out &&
	"$TDPERF" diff --check --scope-a s1/total --scope-b s2/total --format json "$f" "$f" >g.json &&
	jq -e ".metrics[] | select(.id == \"retiring\") | .approximate and (.approximation | test(\"first-order\"))" g.json &&
	jq -e ".metrics[] | select(.id == \"instructions\") | .approximate and (.approximation | test(\"0.00 %\"))" g.json &&
	jq -e ".metrics[] | select(.id == \"task-clock\") | .approximate == false and .base.n == 5" g.json
'

test_expect_success 'hybrid (Alder Lake, published): each core PMU compared, the other as ID#PMU' '
	f=$PUB/case-17-adl-hybrid-irogers-topdownL1-4runs.txt &&
	"$TDPERF" diff --check --format json --fail-on "retiring#cpu_atom:-1pt,retiring:-1pt" "$f" "$f" >g.json &&
	jq -e ".base.pmu == \"cpu_core\" and .base.runs == 4" g.json &&
	jq -e "[.metrics[].id] | contains([\"retiring\", \"backend_bound\", \"retiring#cpu_atom\", \"backend_bound#cpu_atom\"])" g.json &&
	jq -e "[.rules[] | .status] == [\"passed\", \"passed\"]" g.json &&
	"$TDPERF" diff --check "$f" "$f" >out &&
	test_grep "^base: 4 runs (.*), plain ids are cpu_core'"'"'s, other PMUs'"'"' are ID#PMU$" out &&
	test_grep "^  retiring#cpu_atom  *12.54% ±3.79%" out
'

if ! have_prog perf || ! perf stat -x, -e task-clock -- true >/dev/null 2>&1; then
	test_skip 'live recordings' 'perf cannot count task-clock here'
	test_done
fi

# Live runs on a loaded machine (and in the sanitizer build) spread more
# than the recorded fixtures above, whose 1.5x case is the issue's: here B
# does twice the work, so that three runs a side clear +10 % whatever the
# load; the shares are compared by their ratio, not fixed bounds.
test_expect_success 'live: two recordings of one program pass, 2x the work fails on task-clock' '
	"$TDPERF" record --no-sched -r 3 -o a1 -- "$WORK" 100 50 2>/dev/null &&
	"$TDPERF" record --no-sched -r 3 -o a2 -- "$WORK" 100 50 2>/dev/null &&
	"$TDPERF" record --no-sched -r 3 -o b -- "$WORK" 200 100 2>/dev/null &&
	"$TDPERF" diff --check --fail-on task-clock:+10% a1 a2 >out &&
	test_grep "^Result: pass" out &&
	test_exit_code 1 "$TDPERF" diff --check --fail-on task-clock:+10% a1 b >out &&
	test_grep "^  FAIL         task-clock:+10%" out
'

# Three runs a side: with two, Welch's interval has about one degree of
# freedom (t = 12.7 at 95 %), and a +20 pt shift on a loaded machine did
# not always clear +10 pt; B's work_b share is also raised further.
test_expect_success 'live: self shares of functions from --hotspots recordings (sets of runs)' '
	for i in 1 2 3; do
		"$TDPERF" record --no-sched --hotspots -o ha$i -- "$WORK" 100 50 2>rec-a$i &&
		"$TDPERF" record --no-sched --hotspots -o hb$i -- "$WORK" 30 150 2>rec-b$i ||
		{ cat rec-*; exit 1; }
	done &&
	{ "$TDPERF" diff --check --fail-on "self:work_b:+10pt,self:work_a:+10pt" --format json \
		ha1 ha2 ha3 -- hb1 hb2 hb3 >g.json; test $? = 1 ||
	  { echo "the gate did not fail"; jq -c ".rules, (.metrics[] | select(.id | test(\"^self:work\")))" g.json; false; }; } &&
	jq -e "[.rules[] | .status] == [\"failed\", \"passed\"]" g.json &&
	{ jq -e ".metrics[] | select(.id == \"self:work_b\") | .kind == \"fraction\" and .base.n == 3
		and .base.mean > 0.1 and .new.mean > 1.5 * .base.mean and .change > 10 and .verdict == \"changed\"" g.json ||
	  { jq -c ".metrics[] | select(.id == \"self:work_b\")" g.json; false; }; }
'

test_done
