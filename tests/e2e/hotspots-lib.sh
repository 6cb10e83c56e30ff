# tests/e2e/hotspots-lib.sh: what the hotspot tests (t064x) share.  Source
# after test-lib.sh and perfdata-lib.sh.
#
# W: the workloads; HOME: the test's own, since perf keeps its build-id
# cache in $HOME/.debug.
W=$TD_BUILDDIR/tests/workloads
HOME=$TEST_DIR/home
mkdir -p "$HOME"
export HOME

# require_cpu_clock_record WHAT: end the script unless perf can record
# cpu-clock here (a failure under CI=true, a skip otherwise).
require_cpu_clock_record() {
	"$PERF" record -q -e cpu-clock -o probe.data -- true >probe.log 2>&1 && return 0
	if [ "${CI:-}" = true ]; then
		test_expect_success 'perf record -e cpu-clock works (required under CI)' 'cat probe.log; false'
	else
		test_skip "$1" "perf cannot record cpu-clock here: $(head -n1 probe.log)"
	fi
	test_done
}
