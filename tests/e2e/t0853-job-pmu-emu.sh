#!/bin/sh
# Hardware counts for every rank of a real MPI job: the emulated PMU
# (tests/pmu-emu) around mpirun, as a user types it
#     pmu-emu --cpu skylakex -- mpirun -np 4 tdperf record -o JOB -- ./app
# so that each rank's tdperf runs the real perf against the emulated
# Skylake-SP PMU.  mpirun starts the ranks of one node as its own children,
# so they inherit the emulator's LD_PRELOAD and mount namespace (no -x
# needed).  Each rank must have Level 1-2 equal to the table formulas on
# the emulator's true counts of its own perf, and the job-wide tree must
# be the ranks' values weighted by their cycles.
#
# The emulator's counts are rate x time enabled: a task counts while it
# sleeps as while it spins (tests/pmu-emu/README.md, "Limits").  The ranks
# of tests/workloads/mpi-imbalance wait for each other at a barrier that
# sleeps, so all ranks are enabled about as long and their emulated
# cycles come out about equal, although rank 3 does 3x the work; its real
# CPU time (perf's task-clock, a kernel software event) shows the 3x.
. "$(dirname "$0")/test-lib.sh"
. "$TD_SRCDIR/tests/e2e/job-lib.sh"
. "$TD_SRCDIR/tests/e2e/pmu-emu-lib.sh"
APP=$TD_BUILDDIR/tests/workloads/mpi-imbalance
missing=$emu_missing
have_prog mpirun || missing="$missing mpirun (openmpi-bin)"
test -x "$APP" || missing="$missing $APP (configure found no mpicc?)"
if test -n "$missing"; then
	job_missing "missing:$missing" 'mpirun job on the emulated PMU'
	test_done
fi
MPIRUN="mpirun --allow-run-as-root --oversubscribe -np 4"
L12="frontend_bound fetch_latency fetch_bandwidth bad_speculation branch_mispredicts machine_clears backend_bound memory_bound core_bound retiring light_operations heavy_operations"

# rank_checks CPU_FILE LOG JOB: each rank's perf counts and Top-Down equal
# the truth of one of the perf processes of the emulator's log.
rank_checks() {
	"$TDPERF" record --dry-run --cpu skylakex -l 2 -- true >dry &&
	awk "/^event / && / comm=perf / { split(\$2, p, \"=\"); print > (\"proc-\" p[2] \".log\") }" "$2" &&
	test "$(ls proc-*.log | wc -l)" = 4 &&
	for r in 0 1 2 3; do
		ok=
		# the full check (every node against tdperf expr) only where the
		# counts match: a process whose counts differ fails it anyway
		for l in proc-*.log; do
			"$EMU/emu-check" --counts-only "$1" "$l" dry $3/rank-0000$r.* >check.$r 2>&1 &&
			"$EMU/emu-check" "$1" "$l" dry $3/rank-0000$r.* >check.$r 2>&1 && ok=$l && break
		done
		test -n "$ok" || { echo "rank $r: no perf process of the log has its counts"; cat check.$r; return 1; }
	done && rm -f proc-*.log
}

test_expect_success 'pmu-emu -- mpirun -np 4 tdperf record -l 2: every rank counts on the emulated PMU' '
	"$EMU/pmu-emu" --cpu skylakex --log emu.log -- \
		$MPIRUN "$TDPERF" record -l 2 -o JOB -- "$APP" 6 >out 2>&1 &&
	! grep "^refused" emu.log &&
	"$TDPERF" report --format json JOB >job.json &&
	jq -e "[.ranks[].rank] == [0,1,2,3] and ([.ranks[].mode] | unique) == [\"hardware\"]" job.json &&
	for n in $L12; do
		jq -e --arg n $n "[.ranks[].topdown[\$n] | type == \"number\"] | all" job.json ||
		{ echo "a rank lacks $n"; exit 1; }
	done &&
	jq -e ".job.cpu_models | length == 1" job.json
'

test_expect_success 'each rank: perf counts and Level 1-2 = the formulas on the true counts of its own perf' '
	rank_checks "$EMU/cpus/skylakex.cpu" emu.log JOB
'

test_expect_success 'cycles follow enabled time (all ranks end at the barrier); CPU time shows the 3x work' '
	jq -e "([.ranks[0,1,2].cycles] | sort | .[1]) as \$m | .ranks[3].cycles / \$m > 0.7 and .ranks[3].cycles / \$m < 1.4" job.json &&
	rank3_work_shows job.json 3 &&
	# rank 3 is an outlier, and the largest; under the emulator (its library
	# in every rank) an equal rank may also pass 1.2 x the median
	jq -e "(.imbalance.outliers | index(3)) != null and (.imbalance.outlier_details | max_by(.ratio) | .rank) == 3" job.json
'

# Identical rates give identical per-rank values, which any mean
# reproduces.  Here rank 3 runs on a Skylake-SP whose Level 1 events
# have other rates and whose clock is 3x faster (same PMU, so the same
# sysfs tree): its values and its cycles differ from the others', and only
# the weighting by cycles gives the job-wide tree.
test_expect_success 'job-wide tree = the ranks values weighted by their cycles (rank 3 on other rates, 3x the clock)' '
	sed -e "s/^ghz .*/ghz 7.2/" -e "/^pmu cpu /a\\
  rate 0x20003c 2.0\\
  rate 0x10e 2.6\\
  rate 0x2c2 1.2\\
  rate 0x19c 0.9\\
  rate 0x20010d 0.05\\
  rate 0x19c01 0.1" "$EMU/cpus/skylakex.cpu" >fast.cpu &&
	"$EMU/pmu-emu" --cpu skylakex --log emu2.log -- $MPIRUN sh -c "
		test \$OMPI_COMM_WORLD_RANK = 3 && PMU_EMU_CPU_FILE=$PWD/fast.cpu && export PMU_EMU_CPU_FILE
		exec \"$TDPERF\" record -l 2 -o JOB2 -- \"$APP\"" >out2 2>&1 &&
	"$TDPERF" report --format json JOB2 >job2.json &&
	jq -e "(.ranks[3].cycles / .ranks[0].cycles) > 2" job2.json &&
	jq -e ".ranks[3].topdown.retiring - .ranks[0].topdown.retiring | fabs > 0.01" job2.json &&
	for n in frontend_bound bad_speculation backend_bound retiring; do
		want=$(jq "([.ranks[] | .topdown.$n * .cycles] | add) / ([.ranks[].cycles] | add)" job2.json) &&
		plain=$(jq "([.ranks[].topdown.$n] | add) / 4" job2.json) &&
		jq -e --argjson w "$want" --argjson p "$plain" \
			".job.tree.$n - \$w | fabs < 1e-6 * (1 + (\$w | fabs)) and (\$w - \$p | fabs) > 1e-3" job2.json ||
		{ echo "$n: weighted $want, plain mean $plain"; jq .job.tree job2.json; exit 1; }
	done
'

test_done
