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

# rank3_work_shows FILE: in the job report FILE (JSON) of mpi-imbalance,
# where rank 3 does three times the work of ranks 0-2, rank 3's CPU time is
# well above the others' median (the MPI start-up time, the same in every
# rank, lowers the ratio from 3; on a shared VM the CPU time of the same work
# varies by up to half), and the job's max over mean of CPU time is the one
# the ranks' own CPU times make.  Prints the CPU times, so that a failure
# says what was measured.
rank3_work_shows() {
	jq -c "[.ranks[].cpu_s]" "$1" &&
	jq -e "([.ranks[0,1,2].cpu_s] | sort | .[1]) as \$m | .ranks[3].cpu_s / \$m > 1.5 and .ranks[3].cpu_s / \$m < 4.5" "$1" &&
	jq -e "[.ranks[].cpu_s] as \$c | (\$c | max) / ((\$c | add) / (\$c | length)) - .imbalance.max_over_mean.cpu_s | fabs < 1e-6" "$1"
}
