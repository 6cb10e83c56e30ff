#!/bin/sh
# Hardware counts in a job: under mpirun, ranks 0 and 1 record through the
# replay perf (tests/replay-perf) with the counts of a published Skylake
# output (case 05: perf printed 14.2 % retiring, 41.1 % frontend bound,
# 36.2 % backend bound, 8.4 % bad speculation, on 2,402,640,337
# CPU_CLK_UNHALTED.THREAD_ANY) and ranks 2 and 3 with those of a published
# Zen 4 output (case 11: 33.7 % retiring, 65.1 % frontend bound, 1.2 %
# backend bound, 0.0 % bad speculation, on 30,857,165,236 ls_not_halted_cyc).
# The merged report must say that two CPU models were mixed, give each rank
# perf's values, and weight the job-wide tree by each rank's cycles.
. "$(dirname "$0")/test-lib.sh"
. "$TD_SRCDIR/tests/e2e/job-lib.sh"

REPLAY=$TD_BUILDDIR/tests/replay-perf
PUB=$FIXTURES/perf-stat-published
if ! have_prog mpirun || ! test -x "$REPLAY"; then
	why="mpirun $(command -v mpirun || echo missing), $REPLAY $(test -x "$REPLAY" && echo built || echo 'not built')"
	job_missing "$why" 'mpirun job with hardware counts'
	test_done
fi
TDPERF_PERF=$REPLAY
SKL=$PUB/case-05-skl-irogers-topdownL1-systemwide.txt
ZEN=$PUB/case-11-zen4-ckl-blog-pipelineL1-L2.txt
export TDPERF_PERF SKL ZEN TDPERF

test_expect_success 'mpirun -np 4: two ranks on Skylake counts, two on Zen 4 counts' '
	mpirun --allow-run-as-root --oversubscribe -np 4 sh -c "
		if [ \$OMPI_COMM_WORLD_RANK -lt 2 ]; then
			TDPERF_REPLAY_FIXTURE=\$SKL exec \"\$TDPERF\" record --cpu skylake --assume-pmu --smt on -l 1 -o JOB -- true
		else
			TDPERF_REPLAY_FIXTURE=\$ZEN exec \"\$TDPERF\" record --cpu zen4 --assume-pmu --smt on -l 1 -o JOB -- true
		fi" 2>err &&
	"$TDPERF" report --format json JOB >job.json &&
	jq -e "[.ranks[].rank] == [0,1,2,3] and [.ranks[].mode] == [\"hardware\",\"hardware\",\"hardware\",\"hardware\"]" job.json
'

test_expect_success 'mixed CPU models are allowed and said' '
	jq -e "(.job.cpu_models | length) == 2" job.json &&
	jq -e "[.warnings[].text | select(test(\"2 CPU models\"))] | length == 1" job.json &&
	"$TDPERF" report JOB | grep "warning: the ranks ran on 2 CPU models"
'

test_expect_success 'each rank has the Level-1 values perf printed and its cycles' '
	jq -e ".ranks[0].topdown.retiring - 0.142 | fabs < 0.0006" job.json &&
	jq -e ".ranks[1].topdown.frontend_bound - 0.411 | fabs < 0.0006" job.json &&
	jq -e ".ranks[2].topdown.retiring - 0.337 | fabs < 0.0006" job.json &&
	jq -e ".ranks[3].topdown.frontend_bound - 0.651 | fabs < 0.0006" job.json &&
	jq -e ".ranks[0].cycles == 2402640337" job.json &&
	jq -e ".ranks[2].cycles - 30857165236 | fabs < 10" job.json
'

test_expect_success 'the job-wide tree weights each rank by its cycles' '
	for pair in retiring:0.142:0.337 frontend_bound:0.411:0.651 backend_bound:0.362:0.012; do
		node=${pair%%:*} rest=${pair#*:} skl=${rest%%:*} zen=${rest#*:}
		want=$(calc "($skl * 2402640337 + $zen * 30857165236) / (2402640337 + 30857165236)") &&
		jq -e --argjson w "$want" ".job.tree.$node - \$w | fabs < 0.0006" job.json || { echo "$node: want $want"; exit 1; }
	done &&
	"$TDPERF" report JOB | grep "^Job-wide Top-Down (ranks weighted by cycles):"
'

test_expect_success 'the Top-Down nodes are compared across ranks and averaged per node' '
	jq -e ".nodes[0].means[\"topdown.retiring\"] - (0.142 + 0.337) / 2 | fabs < 0.0006" job.json &&
	jq -e ".nodes[0].cpu_model | test(\"skylake\") and test(\"zen4\")" job.json &&
	jq -e ".imbalance.max_over_mean[\"topdown.frontend_bound\"] - 0.651 / ((0.411 + 0.651) / 2) | fabs < 0.002" job.json
'

test_done
