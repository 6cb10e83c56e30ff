#!/bin/sh
# The hotspots page (issue 32, item 7) on a program built here with -O2,
# whose hot loop (a static function called once) the compiler inlines into
# main: the flame graph draws the inlined function as a frame of its own
# over main, with the share perf's own source lines give it; the table
# lists only functions with samples of their own and offers their inlined
# functions and lines; no empty Top-Down column; the report's styling.
. "$(dirname "$0")/test-lib.sh"
. "$TD_SRCDIR/tests/e2e/perfdata-lib.sh"
. "$TD_SRCDIR/tests/e2e/hotspots-lib.sh"

CHECK="$TD_SRCDIR/tests/e2e/browser-check.js"
TMPDIR=$TEST_DIR; export TMPDIR
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
export CHROMIUM
evald() { grep -F "eval $1 => " "$2" | sed 's/.* => //'; }

require_cpu_clock_record 'hotspots page'
CC=${CC:-cc}

cat >inl.c <<'EOT'
#include <stdlib.h>

static unsigned long hot_kernel(unsigned long x, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		x = x * 6364136223846793005UL + (i ^ (x >> 17));
	return x;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000000UL;

	return hot_kernel((unsigned long)argc, n) == 42; /* 0: perf record exits with it */
}
EOT

test_expect_success 'an -O2 build inlines hot_kernel into main; perf records it' '
	"$CC" -O2 -g -fno-omit-frame-pointer -o inl inl.c &&
	! nm inl | grep -q hot_kernel &&
	"$PERF" record -q -e cpu-clock -g -o inl.data -- ./inl 400000000 >rec.log 2>&1 &&
	"$TDPERF" report --hotspots --format json inl.data >inl.json &&
	"$TDPERF" report --hotspots --html=inl.html inl.data >/dev/null 2>err &&
	! grep "{{" inl.html
'

# perf's own srcline of each sample in main: inside hot_kernel's lines or not
test_expect_success 'main: its inlined hot_kernel has the samples perf puts in hot_kernel lines' '
	first=$(grep -n "^static unsigned long hot_kernel" inl.c | cut -d: -f1) &&
	last=$(awk -v f="$first" "NR > f && /^}/ { print NR; exit }" inl.c) &&
	"$PERF" script -i inl.data -F ip,sym,srcline -G 2>/dev/null |
	awk -v f="$first" -v l="$last" "/ main\$/ { getline s; n++; sub(/.*:/, \"\", s);
		if (s + 0 >= f && s + 0 <= l) k++ } END { print n + 0, k + 0 }" >perf.inl &&
	read n k <perf.inl && echo "perf: $n samples in main, $k in hot_kernel" && test "$k" -gt 10 &&
	jq -e --argjson n "$n" --argjson k "$k" ".hotspots[] | select(.symbol == \"main\") |
		.samples == \$n and .inlined[0].symbol == \"hot_kernel\" and .inlined[0].samples == \$k" inl.json
'

test_expect_success 'the page: the report style sheet, a CSP, no empty Top-Down column in the data' '
	grep -q "^  --bg: #f2f4f8" inl.html &&
	grep -q "<header class=\"masthead\">" inl.html &&
	grep -q "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src .none.; script-src .unsafe-inline.;" inl.html &&
	test "$(grep -c "<script" inl.html)" = 2
'

# The -O0 build of the same program, where hot_kernel is a function of its own:
# diff --hotspots compares loop with loop (the samples perf's source lines put
# in hot_kernel, test 2), not "main faster".
test_expect_success 'diff --hotspots -O2 vs -O0: hot_kernel against hot_kernel, main not faster' '
	mkdir -p o0 && "$CC" -O0 -g -fno-omit-frame-pointer -o o0/inl inl.c &&
	"$PERF" record -q -e cpu-clock -g -o o0.data -- o0/inl 400000000 >rec0.log 2>&1 &&
	"$TDPERF" diff --hotspots --format json inl.data o0.data >d.json &&
	"$TDPERF" diff --hotspots inl.data o0.data >d.txt && cat d.txt | head -n 8 &&
	read n k <perf.inl &&
	jq -e --argjson k "$k" ".functions[] | select(.symbol == \"hot_kernel\") |
		.a.samples == \$k and .b.samples > 0 and .inlined_in_a == [\"main\"] and .approximate" d.json &&
	# main keeps only what was not in hot_kernel: its change is small beside hot_kernel weight
	jq -e "(.functions[] | select(.symbol == \"hot_kernel\") | .b.period) as \$h |
		.functions[] | select(.symbol == \"main\") | (.change | fabs) < 0.1 * \$h" d.json &&
	! grep " main (inl) .*faster" d.txt &&
	grep "~ inlined in A into main: its share of their samples, by debug info" d.txt
'

if test -x "$CHROMIUM" && have_prog node; then
	test_expect_success 'in Chromium: hot_kernel drawn inlined over main, with perf share; the table as said' '
		share=$(printf "%.1f" "$(jq -r ".hotspots[] | select(.symbol == \"main\") | 100 * .inlined[0].samples / .samples" inl.json)") &&
		listed=$(jq "[.hotspots[] | select(.samples > 0)] | length" inl.json) &&
		hidden=$(jq "[.hotspots[] | select(.samples == 0)] | length" inl.json) &&
		node "$CHECK" inl.html inl.png \
			"[...document.querySelectorAll(\"#flame g.inl\")].map((g) => g.querySelector(\"text\") ? g.querySelector(\"text\").textContent : \"\").join(\",\")" \
			"[...document.querySelectorAll(\"#flame g.inl title\")].map((t) => t.textContent).find((t) => t.startsWith(\"hot_kernel \"))" \
			"document.querySelectorAll(\"#hot tbody tr:not(.detail)\").length" \
			"[...document.querySelectorAll(\"#hot thead th\")].map((t) => t.textContent).join(\"|\")" \
			"document.getElementById(\"hidden\").textContent" \
			"(document.querySelector(\"#hot tr.has-detail\").click(), document.querySelector(\"#hot tr.detail:not([hidden])\").textContent)" \
			"getComputedStyle(document.querySelector(\"section.card\")).borderRadius" >res &&
		cat res &&
		grep "^console-errors 0$" res && grep "^requests 0$" res &&
		evald "[...document.querySelectorAll(\"#flame g.inl\")].map((g) => g.querySelector(\"text\") ? g.querySelector(\"text\").textContent : \"\").join(\",\")" res | grep -q "hot_kernel" &&
		grep -F "eval [...document.querySelectorAll(\"#flame g.inl title\")]" res |
			grep -F "\"hot_kernel (inlined into main: $share% of its own samples" &&
		test "$(evald "document.querySelectorAll(\"#hot tbody tr:not(.detail)\").length" res)" = "$listed" &&
		! evald "[...document.querySelectorAll(\"#hot thead th\")].map((t) => t.textContent).join(\"|\")" res | grep -q "Top-Down" &&
		if test "$hidden" -gt 0; then
			evald "document.getElementById(\"hidden\").textContent" res | grep -q "^\"$hidden function"
		fi &&
		grep -F "eval (document.querySelector(\"#hot tr.has-detail\").click()" res | grep -q "=> \"inlined: hot_kernel $share%; lines: .*inl.c:[0-9]* " &&
		grep -F "borderRadius => \"12px\"" res
	'
else
	test_expect_success 'chromium and node are installed' 'false'
fi

test_done
