# tests/e2e/test-lib.sh: a tiny test library for end-to-end tests, in the
# spirit of git's t/test-lib.sh.  Each script sources it, declares tests with
#
#     test_expect_success 'what it checks' '
#         commands that must all succeed
#     '
#
# and ends with test_done.  Output is TAP, read by automake's tap-driver.
# Every test runs in a fresh subshell inside the script's own scratch
# directory ($TEST_DIR), with $TDPERF naming the binary under test.

set -u

TD_SRCDIR=${TD_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
TD_BUILDDIR=${TD_BUILDDIR:-$TD_SRCDIR}
TDPERF=${TDPERF:-$TD_BUILDDIR/tdperf}
FIXTURES=$TD_SRCDIR/tests/fixtures
SHARED_FIXTURES=$TD_SRCDIR/../shared/fixtures
export TD_SRCDIR TD_BUILDDIR TDPERF FIXTURES

test_count=0
test_failed=0
test_name=$(basename "$0" .sh)
TEST_DIR=${TMPDIR:-/tmp}/tdperf-test.$test_name.$$
rm -rf "$TEST_DIR"
mkdir -p "$TEST_DIR"
trap 'rm -rf "$TEST_DIR"' EXIT
cd "$TEST_DIR" || exit 99

# The seconds since boot in hundredths (/proc/uptime), to time each test.
test_clock() {
	read -r test_up test_idle </proc/uptime
	echo "${test_up%.*}${test_up#*.}"
}
test_script_start=$(test_clock)

# test_took START: a TAP comment with the wall time since START, so that
# "grep -h '^# took' tests/e2e/*.log | sort -k3 -n" finds the slow tests.
test_took() {
	test_cs=$(($(test_clock) - $1))
	printf '# took %d.%02d s: %s %d\n' $((test_cs / 100)) $((test_cs % 100)) "$test_name" "$test_count"
}

# test_expect_success DESCRIPTION SCRIPT
test_expect_success() {
	test_count=$((test_count + 1))
	test_start=$(test_clock)
	if (set -e; eval "$2") >"$TEST_DIR/.out" 2>&1; then
		echo "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $1"
		sed 's/^/# /' "$TEST_DIR/.out" | tail -n 40
	fi
	test_took "$test_start"
}

# test_expect_failure is for known bugs: the test is run and reported as TODO.
test_expect_failure() {
	test_count=$((test_count + 1))
	test_start=$(test_clock)
	if (set -e; eval "$2") >"$TEST_DIR/.out" 2>&1; then
		echo "ok $test_count - $1 # TODO known breakage vanished"
	else
		echo "not ok $test_count - $1 # TODO known breakage"
	fi
	test_took "$test_start"
}

# test_skip DESCRIPTION REASON: a test that cannot run here, said so.
# Under CI=true a skip is a failure: CI installs every prerequisite
# (scripts/bootstrap), so a missing one there is a broken setup, and a
# test that quietly did not run would let a regression through.
test_skip() {
	test_count=$((test_count + 1))
	if [ "${CI:-}" = true ]; then
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $1 (could not run, and CI=true allows no skip: $2)"
		return 0
	fi
	echo "ok $test_count - $1 # SKIP $2"
}

# test_skip_busy DESCRIPTION REASON: a measurement that this machine is
# too busy to make (calibrate's benchmarks, every attempt preempted).  The
# suite runs such a test alone, after all others (collect/local.mk), so
# under CI=true "too busy" means something else is loading the machine:
# a failure like any other skip, never a quiet pass.
test_skip_busy() {
	test_skip "$@"
}

# Assertions usable inside tests (they print what went wrong).
test_must_fail() {
	if "$@"; then
		echo "expected failure, but succeeded: $*"
		return 1
	fi
	return 0
}

# test_exit_code N CMD...: CMD must exit with status N.
test_exit_code() {
	want=$1; shift
	set +e
	"$@"
	got=$?
	set -e
	if [ "$got" != "$want" ]; then
		echo "expected exit $want, got $got: $*"
		return 1
	fi
}

# test_grep [GREP-OPTIONS] PATTERN [FILE...]: grep, and when it finds
# nothing, show what it searched: the last FILE, or with no FILE the
# standard input (kept in a scratch file, since grep consumed it).
test_grep() {
	tg_files=0 tg_pattern=0 tg_arg=0 tg_opts=1
	for tg_a in "$@"; do
		if [ $tg_arg = 1 ]; then
			tg_arg=0
			continue
		fi
		case $tg_opts$tg_a in
		1--)
			tg_opts=0 ;;
		1-e|1-f|1--regexp|1--file)
			tg_pattern=1 tg_arg=1 ;;
		1-e?*|1-f?*|1--regexp=*|1--file=*)
			tg_pattern=1 ;;
		1-A|1-B|1-C|1-m|1--after-context|1--before-context|1--context|1--max-count)
			tg_arg=1 ;;
		1-?*)
			;;
		*)
			if [ $tg_pattern = 0 ]; then
				tg_pattern=1
			else
				tg_files=$((tg_files + 1)) tg_last=$tg_a
			fi ;;
		esac
	done
	if [ $tg_files -gt 0 ]; then
		grep "$@" && return 0
		echo "grep $* found nothing in $tg_last:"
		head -n 30 "$tg_last"
		return 1
	fi
	tg_in=$(mktemp "$TEST_DIR/.grep-stdin.XXXXXX")
	cat >"$tg_in"
	if grep "$@" <"$tg_in"; then
		rm -f "$tg_in"
		return 0
	fi
	echo "grep $* found nothing in its standard input:"
	head -n 30 "$tg_in"
	rm -f "$tg_in"
	return 1
}

test_line_count() {
	# test_line_count = N FILE
	n=$(wc -l <"$3" | tr -d ' ')
	if ! [ "$n" "$1" "$2" ]; then
		echo "line count of $3 is $n, expected $1 $2"
		return 1
	fi
}

# td_sanitized: is $TDPERF built with AddressSanitizer?  Its shadow memory
# reserves terabytes of address space, so ulimit -v cannot bound such a
# build; the plain build's run of the same test asserts the bound.
td_sanitized() {
	ldd "$TDPERF" 2>/dev/null | grep -q libasan
}

# calc EXPR: the value of an arithmetic expression (awk's syntax: + - * / ^
# sqrt), printed with 15 significant digits.
calc() {
	awk "BEGIN { printf \"%.15g\\n\", $* }"
}

# approx_eq A B TOL: |A-B| <= TOL (floating point, via awk)
approx_eq() {
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }' || {
		echo "$1 and $2 differ by more than $3"
		return 1
	}
}

have_prog() { command -v "$1" >/dev/null 2>&1; }

# case27_intervals N: the one interval of the published case-27 output
# (Ice Lake class, -M topdownl1 -x, -I 1000) repeated N times with rising
# times, as bench/stat-report-bench.sh builds a long run: perf's layout,
# a synthetic repetition.
case27_intervals() {
	grep "^1\.000103288," "$FIXTURES"/perf-stat-published/case-27-*.txt |
	awk -v n="$1" '{ row[++k] = $0 }
		END { for (i = 0; i < n; i++) for (j = 1; j <= k; j++) {
			r = row[j]; sub(/^[^,]*/, sprintf("%.9f", 1.000103288 + i), r); print r } }'
}

test_done() {
	test_cs=$(($(test_clock) - test_script_start))
	printf '# took %d.%02d s: %s in all\n' $((test_cs / 100)) $((test_cs % 100)) "$test_name"
	echo "1..$test_count"
	if [ "$test_failed" -gt 0 ]; then
		exit 1
	fi
	exit 0
}
