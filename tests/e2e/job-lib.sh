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
