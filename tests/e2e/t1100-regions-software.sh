#!/bin/sh
# record --regions without a hardware PMU: libtdperf.so counts the
# software events (task-clock, context switches, page faults) per region
# and thread of a program marked with <tdperf.h>.  The oracles are the
# program's own work (region A does three times region B's iterations, so
# the kernel's task-clock must say about 3) and its structure (nesting,
# recursion, threads, processes the program made).
. "$(dirname "$0")/test-lib.sh"

CC=${TD_CC:-cc}
APP_SRC=$TD_SRCDIR/tests/regions/regions-app.c

if ! have_prog jq; then
	test_skip 'record --regions' 'jq is not installed'
	test_done
fi

# region NAME KEY: a field of region NAME in report.json
region() {
	jq -r --arg n "$1" ".regions[] | select(.name == \$n) | $2" report.json
}

# within V LO HI: LO <= V <= HI
within() {
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }' ||
	{ echo "$1 is not within [$2, $3]"; false; }
}

test_expect_success 'a program links with -ltdperf through tdperf.pc, in C and in C++' '
	sed -e "s|@prefix@|$TD_BUILDDIR|" -e "s|@libdir@|$TD_BUILDDIR|" \
	    -e "s|@includedir@|$TD_SRCDIR/regions|" -e "s|@VERSION@|0|" \
	    "$TD_SRCDIR/regions/tdperf.pc.in" >tdperf.pc &&
	$CC -O1 -Wall -Werror $(PKG_CONFIG_PATH=. pkg-config --cflags tdperf) -o app "$APP_SRC" \
		$(PKG_CONFIG_PATH=. pkg-config --libs tdperf) -pthread &&
	printf "#include <tdperf.h>\nint main() { { TDPERF_REGION(\"cxx\"); } tdperf_region_begin(\"x\"); tdperf_region_end(\"x\"); return 0; }\n" >cxx.cc &&
	{ ! have_prog g++ || g++ -Wall -Werror -I"$TD_SRCDIR/regions" -o cxx cxx.cc \
		-L"$TD_BUILDDIR" -ltdperf -Wl,-rpath,"$TD_BUILDDIR"; }
'

test_expect_success 'outside tdperf the marks do nothing and write nothing' '
	./app ratio 1000 2>err && test ! -s err && ! ls regions-*.json 2>/dev/null
'

test_expect_success 'region A, three times region B'"'"'s work, counts about three times its task-clock' '
	"$TDPERF" record --regions -o ratio -- ./app ratio 2000000 2>err &&
	jq -e ".regions.files | length == 1" ratio/meta.json &&
	"$TDPERF" report --format json ratio >report.json &&
	test "$(region A .calls)" = 10 && test "$(region B .calls)" = 10 &&
	test "$(region A .parent)" = "(root)" && test "$(region "(root)" .parent)" = null &&
	a=$(region A ".counts[\"task-clock\"]") && b=$(region B ".counts[\"task-clock\"]") &&
	within $(awk -v a=$a -v b=$b "BEGIN { print a / b }") 2.4 3.75 &&
	root=$(region "(root)" ".counts[\"task-clock\"]") &&
	within $(awk -v a=$a -v b=$b -v r=$root "BEGIN { print (a + b) / r }") 0.8 1.0 &&
	"$TDPERF" report ratio >text &&
	test_grep "^  A  *10  *1 " text && test_grep "^region B: 10 calls, 1 thread" text
'

test_expect_success 'nesting: exclusive is inclusive less the nested region; recursion counts once' '
	"$TDPERF" record --regions -o nest -- ./app nest 1000000 2>err &&
	"$TDPERF" report --format json nest >report.json &&
	test "$(region inner .parent)" = outer &&
	oi=$(region outer ".counts[\"task-clock\"]") && oe=$(region outer ".exclusive_counts[\"task-clock\"]") &&
	ii=$(region inner ".counts[\"task-clock\"]") &&
	test "$(awk -v a=$oi -v b=$oe -v c=$ii "BEGIN { print (a == b + c) }")" = 1 &&
	within $(awk -v i=$ii -v o=$oi "BEGIN { print i / o }") 0.5 0.8 &&
	test "$(region rec .calls)" = 3 &&
	test "$(region rec .counts[\"task-clock\"])" = "$(region rec .exclusive_counts[\"task-clock\"])" &&
	root=$(region "(root)" ".counts[\"task-clock\"]") && rec=$(region rec ".counts[\"task-clock\"]") &&
	within $(awk -v r=$rec -v t=$root "BEGIN { print r / t }") 0.3 0.75
'

test_expect_success 'the HTML page: the region table and a section per region' '
	"$TDPERF" report --html=page.html nest 2>err &&
	test_grep "^<h1>Regions of nest</h1>" page.html &&
	for r in "(root)" outer inner rec; do
		grep -q "<h2 id=\"r[0-9]*\">$r</h2>" page.html || { echo "no section for $r"; exit 1; }
	done &&
	test "$(grep -c "<tr><td style=\"padding-left" page.html)" = 4
'

test_expect_success 'unbalanced marks: a clear warning each, and nothing lost' '
	"$TDPERF" record --regions -o unbal -- ./app unbalanced 100000 2>err &&
	test_grep "region .never-begun. ended in thread [0-9]* without a begin: the end is ignored" err &&
	test_grep "region .left-open. of thread [0-9]* was still open at exit: closed there" err &&
	"$TDPERF" report --format json unbal >report.json &&
	test "$(region left-open .calls)" = 1 &&
	jq -e "[.warnings[] | select(test(\"never-begun\"))] | length == 1" report.json &&
	jq -e "[.warnings[] | select(test(\"left-open\"))] | length == 1" report.json &&
	"$TDPERF" report unbal >text && test_grep "^warning: process [0-9]*: region .left-open." text
'

test_expect_success '64 threads: each counts its own regions, summed per name' '
	"$TDPERF" record --regions -o thr -- ./app threads 64 20000 2>err &&
	"$TDPERF" report --format json thr >report.json &&
	test "$(region T .threads)" = 64 && test "$(region T.inner .threads)" = 64 &&
	test "$(region T.inner .parent)" = T &&
	test "$(region "(root)" .threads)" = 65 &&
	jq -e "[.regions[] | select(.name == \"T\") | .per_thread[].tid] | unique | length == 64" report.json &&
	"$TDPERF" report -v thr >text &&
	test "$(grep -c "^  thread [0-9]* (process [0-9]*): 1 calls" text)" -ge 128
'

test_expect_success 'a forked child counts itself, in its own file, once' '
	"$TDPERF" record --regions -o fork -- ./app fork 500000 2>err &&
	jq -e ".regions.files | length == 2" fork/meta.json &&
	"$TDPERF" report --format json fork >report.json &&
	test "$(region child .calls)" = 1 && test "$(region parent .calls)" = 1 &&
	test "$(region child .per_thread[0].pid)" != "$(region parent .per_thread[0].pid)" &&
	jq -e ".processes == 2" report.json
'

test_expect_success '--region-sample 4 counts one pass in 4 and marks the estimate' '
	"$TDPERF" record --regions --region-sample 4 -o sample -- ./app sample 1000000 2>err &&
	"$TDPERF" report --format json sample >report.json &&
	test "$(region hot .calls)" = 40 && test "$(region hot .measured_calls)" = 10 &&
	test "$(region hot .estimate)" = true &&
	jq -e "[.regions[] | select(.name == \"hot\") | .estimate_reasons[] | select(test(\"one pass in 4\"))] | length == 1" report.json &&
	"$TDPERF" report --format csv sample >csv &&
	test_grep "^hot,(root),40,1,.*,1,count,task-clock," csv
'

test_expect_success 'bad usage: --region-sample alone, --regions with -p' '
	test_exit_code 2 "$TDPERF" record --region-sample 3 -- ./app ratio 1 2>err &&
	test_grep "region-sample goes with --regions" err &&
	test_exit_code 2 "$TDPERF" record --regions -p 1 2>err &&
	test_grep "not with -p" err
'

test_expect_success 'a program not linked with -ltdperf: the run says so' '
	"$TDPERF" record --regions -o none -- true 2>err &&
	test_grep "the workload wrote no regions" err &&
	test_exit_code 2 "$TDPERF" report none 2>err &&
	test_grep "no regions were written" err
'

test_done
