#!/bin/sh
# The Fortran module (regions/tdperf.f90, ISO_C_BINDING) and the Python
# module (regions/python/tdperf.py, ctypes) over libtdperf.so, recorded
# with --regions on software events.  The oracle is the programs' own
# work: region a does three times the iterations of b (Fortran), and the
# context manager's a holds three quarters of the decorated b's work
# (Python).
. "$(dirname "$0")/test-lib.sh"

region() {
	jq -r --arg n "$1" ".regions[] | select(.name == \$n) | $2" report.json
}

ratio_within() { # ratio_within A B LO HI: LO <= A / B <= HI
	awk -v a="$1" -v b="$2" -v lo="$3" -v hi="$4" \
		'BEGIN { r = a / b; if (r >= lo && r <= hi) exit 0; print "ratio " r " not within [" lo ", " hi "]"; exit 1 }'
}

if ! have_prog jq; then
	test_skip 'regions in Fortran and Python' 'jq is not installed'
	test_done
fi

if have_prog gfortran; then
	test_expect_success 'Fortran: use tdperf, -ltdperf; a does three times b'"'"'s work' '
		gfortran -O1 -o fapp "$TD_SRCDIR/regions/tdperf.f90" "$TD_SRCDIR/tests/regions/regions-app.f90" \
			-L"$TD_BUILDDIR" -ltdperf -Wl,-rpath,"$TD_BUILDDIR" &&
		./fapp && ! ls regions-*.json 2>/dev/null &&
		"$TDPERF" record --regions -o f -- ./fapp 2>err &&
		"$TDPERF" report --format json f >report.json &&
		test "$(region a .calls)" = 10 && test "$(region b .calls)" = 10 &&
		test "$(region b.inner .parent)" = b && test "$(region a .parent)" = "(root)" &&
		ratio_within $(region a ".counts[\"task-clock\"]") $(region b ".counts[\"task-clock\"]") 2.4 3.75 &&
		ratio_within $(region b.inner ".counts[\"task-clock\"]") $(region b ".counts[\"task-clock\"]") 0.35 0.65
	'
else
	test_skip 'regions in Fortran' 'gfortran is not installed'
fi

test_expect_success 'Python: with tdperf.region(...) and @tdperf.region()' '
	PYTHONPATH="$TD_SRCDIR/regions/python" TDPERF_LIB="$TD_BUILDDIR/libtdperf.so.1" \
		python3 "$TD_SRCDIR/tests/regions/regions-app.py" 2>err && test ! -s err &&
	PYTHONPATH="$TD_SRCDIR/regions/python" TDPERF_LIB="$TD_BUILDDIR/libtdperf.so.1" \
		"$TDPERF" record --regions -o p -- python3 "$TD_SRCDIR/tests/regions/regions-app.py" 2>err &&
	"$TDPERF" report --format json p >report.json &&
	test "$(region a .calls)" = 5 && test "$(region b .calls)" = 10 &&
	test "$(region b .parent)" = a &&
	test "$(region named_by_function .calls)" = 1 &&
	ratio_within $(region a ".counts[\"task-clock\"]") $(region b ".counts[\"task-clock\"]") 0.6 0.85
'

test_expect_success 'Python outside tdperf: the module loads, active() is false' '
	PYTHONPATH="$TD_SRCDIR/regions/python" TDPERF_LIB="$TD_BUILDDIR/libtdperf.so.1" \
		python3 -c "import tdperf; assert not tdperf.active(); tdperf.begin(\"x\"); tdperf.end(\"x\")"
'

test_done
