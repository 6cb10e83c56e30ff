#!/bin/sh
# Error bars: perf stat -r spreads carried through the formulas, on real
# published outputs; the share of time each node's events were counted
# under multiplexing; every output format shows them.
. "$(dirname "$0")/test-lib.sh"

PUB=$FIXTURES/perf-stat-published
ICX=$PUB/case-40-icx-bp-repeat5-topdown.txt
MUX=$PUB/case-41-icx-arora-repeat3-multiplexed.txt

test_expect_success 'setup: case 40 (Ice Lake-SP, perf stat -r 5) as JSON' '
	"$TDPERF" report --format json $ICX >d.json &&
	jq -e ".scopes[0].uncertainty.method == \"repeats\"" d.json
'

# Retiring in a legacy --topdown session is r / (r + b + f + e); first order
# over independent counts: x df/dx = f (1 - f) for r, -f x / S for the others.
test_expect_success 'Retiring: uncertainty equals the first-order propagation of the four spreads' '
	r=7377211958188 b=3145247374138 f=8018664899041 k=4167103609622 &&
	want=$(printf "%s\n" "tt = $r + $b + $f + $k" "qq = $r / tt" \
		"sqrt((qq * (1 - qq) * 0.0002)^2 + (qq * $b / tt * 0.0027)^2 + (qq * $f / tt * 0.0007)^2 + (qq * $k / tt * 0.0009)^2)" | bc -l) &&
	got=$(jq ".scopes[0].nodes[] | select(.id == \"retiring\") | .uncertainty" d.json) &&
	approx_eq "$got" "$want" 1e-7
'

test_expect_success 'every computed node and info metric has an uncertainty, in the unit of its value' '
	jq -e "[.scopes[] | .nodes[], .metrics[] | select(.value != null) | .uncertainty | type] | unique == [\"number\"]" d.json &&
	jq -e "[.scopes[] | .nodes[] | select(.value == null) | .uncertainty] | unique == [null]" d.json &&
	jq -e "[.scopes[0].metrics[] | select(.id == \"ipc\") | .uncertainty < 0.001 and .uncertainty > 0.0001] == [true]" d.json
'

test_expect_success 'text shows value +- u; CSV has the uncertainty column' '
	"$TDPERF" report $ICX >out.txt &&
	grep -E "Retiring +32\.5 % +± +0\.02" out.txt &&
	"$TDPERF" report --format csv $ICX >out.csv &&
	head -1 out.csv | grep -q ",uncertainty,undecided,counted_pct,sanity$" &&
	grep "^s1/total,.*,retiring," out.csv | grep -q ",0\.000161[0-9]*,0,"
'

test_expect_success 'HTML shows the error bar beside the value' '
	"$TDPERF" report --html=r.html $ICX >/dev/null &&
	grep -q "plusmn; 0.02" r.html
'

test_expect_success 'a single run has no error bars and says so' '
	"$TDPERF" report --format json $PUB/case-01-*.txt >one.json &&
	jq -e ".scopes[0].uncertainty.method == \"none\"" one.json &&
	jq -e "[.scopes[0].nodes[].uncertainty] | unique == [null]" one.json &&
	"$TDPERF" report $PUB/case-01-*.txt >one.txt &&
	! grep -q "±" one.txt
'

test_expect_success 'multiplexed -r run (case 41): counted share and how the value was estimated' '
	"$TDPERF" report --format json $MUX >m.json &&
	jq -e "[.scopes[0].nodes[] | select(.level == 1) | .counted_pct] | unique == [69.22]" m.json &&
	jq -e "[.scopes[0].nodes[] | select(.level == 1) | .estimate | test(\"counted 69.2 % of the time\")] | unique == [true]" m.json &&
	jq -e "[.scopes[0].nodes[] | select(.id == \"backend_bound\") | .uncertainty > 0.03 and .uncertainty < 0.035] == [true]" m.json &&
	"$TDPERF" report --html=m.html $MUX >/dev/null &&
	grep -q "counted 69.2 % of the time" m.html
'

test_expect_success 'a run without multiplexing: no estimate sentence' '
	jq -e "[.scopes[0].nodes[] | select(.value != null) | .estimate] | unique == [null]" d.json
'

test_done
