#!/bin/sh
# tdperf report --format pprof: the per-function Top-Down Level 1 slots of
# a leader-sampled group as sample types (tma_frontend_bound, ...).
# tw-hot under the emulated Skylake-SP PMU with per-function event rates;
# for each function with an estimate, pprof's own per-function values of
# the tma_* types must equal the numerators of Intel's TMA formulas for
# Skylake (perfmon's TMA_Metrics, SLOTS = 4 * CPU_CLK_UNHALTED.THREAD_ANY / 2
# with SMT on, as the recording's group assumes) applied to the member
# counts pprof itself gives for that function:
#   Frontend Bound  IDQ_UOPS_NOT_DELIVERED.CORE
#   Bad Speculation UOPS_ISSUED.ANY - UOPS_RETIRED.RETIRE_SLOTS + 4 * INT_MISC.RECOVERY_CYCLES_ANY / 2
#   Retiring        UOPS_RETIRED.RETIRE_SLOTS
#   Backend Bound   SLOTS less the three
. "$(dirname "$0")/test-lib.sh"

. "$TD_SRCDIR/tests/e2e/pmu-emu-lib.sh"
emu_require go tw-hot
GOFLAGS=-mod=mod GOCACHE=$TEST_DIR/gocache PPROF_TMPDIR=$TEST_DIR/pprof
export GOFLAGS GOCACHE PPROF_TMPDIR

cat >sky.rates <<EOF
binary $W/tw-hot
tw_hot_a   0x20003c=2.0 0x19c=2.0 0x10e=1.4 0x2c2=1.2 0x20010d=0.01
tw_hot_b   0x20003c=2.0 0x19c=0.2 0x10e=3.3 0x2c2=3.2 0x20010d=0.01
tw_hot_inl 0x20003c=2.0 0x19c=0.3 0x10e=1.0 0x2c2=0.8 0x20010d=0.02
EOF

# flat TYPE: "FUNCTION VALUE" per function of go tool pprof -top
flat() {
	go tool pprof -top -noinlines -sample_index="$1" -nodecount=100000 -nodefraction=0 -edgefraction=0 \
		sky.pb.gz 2>/dev/null |
		awk 'on && $1 + 0 > 0 { v = $1; sub(/[a-z]+$/, "", v); print $6, v } $1 == "flat" { on = 1 }' | sort
}

test_expect_success 'a leader-sampled group (emulated skylakex) exported as pprof' '
	"$EMU/pmu-emu" --cpu skylakex --ip-rates sky.rates -- \
		"$TDPERF" record --hotspots --assume-pmu -g -o sky.data -- "$W/tw-hot" 1 >sky.out 2>&1 &&
	"$TDPERF" report --format pprof -o sky.pb.gz sky.data &&
	go tool pprof -raw sky.pb.gz 2>/dev/null | grep -A1 "^Samples:" | tail -n 1 >types && cat types &&
	for t in tma_frontend_bound tma_bad_speculation tma_backend_bound tma_retiring; do
		grep -q " $t/slots" types || return 1
	done &&
	go tool pprof -comments sky.pb.gz 2>/dev/null | grep "approximate per call path"
'

test_expect_success 'per function, the tma_* slots are Intel'"'"'s formulas on pprof'"'"'s member counts' '
	for t in tma_frontend_bound tma_bad_speculation tma_backend_bound tma_retiring \
		 CPU_CLK_UNHALTED.THREAD_ANY IDQ_UOPS_NOT_DELIVERED.CORE UOPS_ISSUED.ANY \
		 UOPS_RETIRED.RETIRE_SLOTS INT_MISC.RECOVERY_CYCLES_ANY; do
		flat $t | sed "s/^/$t /" || return 1
	done >flat &&
	awk "{ v[\$2, \$1] = \$3; fn[\$2] = 1 }
	     function near(a, b) { d = a - b; if (d < 0) d = -d; return d <= 2 + 1e-6 * b }
	     END {
		for (f in fn) {
			if (!((f, \"tma_retiring\") in v)) continue
			n++
			slots = 4 * v[f, \"CPU_CLK_UNHALTED.THREAD_ANY\"] / 2
			fe = v[f, \"IDQ_UOPS_NOT_DELIVERED.CORE\"]; ret = v[f, \"UOPS_RETIRED.RETIRE_SLOTS\"]
			bad = v[f, \"UOPS_ISSUED.ANY\"] - ret + 4 * v[f, \"INT_MISC.RECOVERY_CYCLES_ANY\"] / 2
			be = slots - fe - bad - ret
			printf \"%-16s FE %d/%d BAD %d/%d BE %d/%d RET %d/%d\\n\", f, v[f, \"tma_frontend_bound\"], fe,
				v[f, \"tma_bad_speculation\"], bad, v[f, \"tma_backend_bound\"], be, v[f, \"tma_retiring\"], ret
			if (!near(v[f, \"tma_frontend_bound\"], fe) || !near(v[f, \"tma_bad_speculation\"], bad) ||
			    !near(v[f, \"tma_backend_bound\"], be) || !near(v[f, \"tma_retiring\"], ret)) bad_fn++
		}
		print n, \"functions,\", bad_fn + 0, \"differ\"
		exit !(n >= 3 && bad_fn == 0)
	     }" flat
'

test_expect_success 'tw_hot_a, tw_hot_b and tw_hot_inl have their estimate' '
	grep "^tma_retiring tw_hot_a " flat && grep "^tma_retiring tw_hot_b " flat &&
	grep "^tma_retiring tw_hot_inl " flat
'

test_expect_success 'a recording without a group has no tma_* sample type' '
	"$EMU/pmu-emu" --cpu skylakex -- perf record -q -e cpu-clock -g -o cpu.data -- "$W/tw-hot" 1 >rec.log 2>&1 &&
	"$TDPERF" report --format pprof -o cpu.pb.gz cpu.data &&
	go tool pprof -raw cpu.pb.gz 2>/dev/null | grep -A1 "^Samples:" >cpu.types && cat cpu.types &&
	grep "cpu-clock/nanoseconds" cpu.types && ! grep tma_ cpu.types
'

test_done
