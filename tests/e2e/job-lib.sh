# Sourced by the job tests (t085x) after test-lib.sh.
#
# job_missing WHY NAME: a real component (Open MPI, Slurm, munge) is not
# there.  Under CI=true that is a failing test that says WHY; elsewhere a
# skip that says WHY.  Never silent.
job_missing() {
	if [ "${CI:-}" = true ]; then
		test_expect_success "$2: $1" 'false'
	else
		test_skip "$2" "$1"
	fi
}

# rank3_work_shows FILE FACTOR: in the job report FILE (JSON) of
# mpi-imbalance, where rank 3 does FACTOR times the work of ranks 0-2,
# rank 3's CPU time is more than 1.5 and less than 1.5 x FACTOR times the
# others' median (the MPI start-up time, the same in every rank, lowers the
# ratio from FACTOR; on a loaded 2-CPU VM the CPU time of the same work
# varied by 1.9x, 0.42 against 0.80 s, in a run where 3x the work gave only
# 1.42x the median), and the job's max over mean of CPU time is the one the
# ranks' own CPU times make.  Prints the CPU times, so that a failure says
# what was measured.
rank3_work_shows() {
	jq -c "[.ranks[].cpu_s]" "$1" &&
	jq -e --argjson f "$2" "([.ranks[0,1,2].cpu_s] | sort | .[1]) as \$m | .ranks[3].cpu_s / \$m > 1.5 and .ranks[3].cpu_s / \$m < 1.5 * \$f" "$1" &&
	jq -e "[.ranks[].cpu_s] as \$c | (\$c | max) / ((\$c | add) / (\$c | length)) - .imbalance.max_over_mean.cpu_s | fabs < 1e-6" "$1"
}

# outliers_follow_rule FILE: in the job report FILE (JSON), the outliers are
# exactly the ranks whose CPU time is at least 1.2 x the median of all ranks
# and 10 ms above it (the rule the report states), and rank 3, with five times the work, is
# one of them and the largest.  On a loaded VM the CPU time of equal work
# can differ by a fifth, so another rank may pass the rule too: that is the
# rule applied to what was measured, not an error.  Prints the CPU times.
outliers_follow_rule() {
	jq -c "{cpu_s: [.ranks[].cpu_s], outliers: .imbalance.outliers}" "$1" &&
	jq -e "([.ranks[].cpu_s] | sort | if length % 2 == 1 then .[length / 2 | floor]
		else (.[length / 2 - 1] + .[length / 2]) / 2 end) as \$m |
		[.ranks[] | select(.cpu_s >= 1.2 * \$m and .cpu_s - \$m >= 0.01) | .rank] == .imbalance.outliers" "$1" &&
	jq -e "(.imbalance.outliers | index(3)) != null and
		(.imbalance.outlier_details | max_by(.ratio) | .rank) == 3" "$1"
}

# rank3_running_grows FILE: in the job report FILE (JSON) of mpi-imbalance,
# rank 3's running time, its extra work, is more than 1.5 x the median of
# all ranks' (by construction), and the component the report says grows
# most is the one its stated rule picks from the ranks' own scheduler
# stacks: the largest ratio to the median among the components at least 5 %
# of the rank's total above it.  On a loaded machine that can be runnable,
# not running: rank 3 then waits for a CPU longer than it computes more.
rank3_running_grows() {
	jq -c "[.ranks[].sched | {running, runnable}]" "$1" &&
	jq -e "def median: sort | if length % 2 == 1 then .[length / 2 | floor]
			else (.[length / 2 - 1] + .[length / 2]) / 2 end;
		.ranks as \$r | \$r[3].sched as \$s | ([\$s[] | numbers] | add) as \$t |
		([\$r[].sched.running] | median) as \$mr |
		(\$s.running / \$mr > 1.5) and
		([\$s | to_entries[] | select(.value | type == \"number\") |
		  ([\$r[].sched[.key]] | median) as \$m |
		  select(.value - \$m > 0 and .value - \$m >= 0.05 * \$t) |
		  {key, ratio: (if \$m > 0 then .value / \$m else infinite end)}] | max_by(.ratio) | .key) ==
		(.imbalance.outlier_details[] | select(.rank == 3) | .sched_grows.component)" "$1"
}
