#!/bin/sh
# --plot DIR run as root next to another user: gnuplot reads only files in a
# private directory tdperf made (mode 0700), never DIR, so a user who owns
# DIR and renames a script of their own over DIR/STEM.gp again and again
# runs nothing as root (report --plot, diff --plot, report --hotspots
# --plot).  DIR still gets STEM.svg, STEM.dat and STEM.gp, which re-render
# on their own.  Labels reach gnuplot as their text: one starting with a
# quote (or made of quotes only) draws the charts, and a thread named with
# terminal escapes (ESC, BEL), a C1 control and a byte that is not UTF-8
# gives an SVG that is well-formed XML.  Tests run as root; the other user
# is nobody (setpriv).
. "$(dirname "$0")/test-lib.sh"
. "$TD_SRCDIR/tests/e2e/perfdata-lib.sh"

TMPDIR=$TEST_DIR/tmp; export TMPDIR
mkdir -p "$TMPDIR"
IN=$FIXTURES/perf-stat-published/case-23-cml-multidim-topdownL1-L2-L3.txt
CSV=$FIXTURES/perf-stat-published/case-27-iclclass-irogers-csv-interval-topdownL1.txt
W=$TD_BUILDDIR/tests/workloads
NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"
# the other user's script: a mark in a directory only root may write
MARK=$TEST_DIR/PWNED-by-gnuplot

if [ "$(id -u)" != 0 ] || ! have_prog setpriv || ! have_prog gnuplot || ! have_prog xmllint; then
	test_skip 'gnuplot in a private directory' 'needs root, setpriv, gnuplot and xmllint'
	test_done
fi
chmod 755 "$TEST_DIR"
printf 'system("touch %s")\n' "$MARK" >evil.gp
chmod 644 evil.gp

# The attacker, run as nobody until killed: for each stem, a fresh copy of
# its script renamed over DIR/STEM.gp, in a busy loop.
cat >attacker.sh <<'EOF'
dir=$1; shift
while :; do
	for s in "$@"; do
		cp evil.gp "$dir/.evil-$s" 2>/dev/null && mv -f "$dir/.evil-$s" "$dir/$s.gp" 2>/dev/null
	done
done
EOF

# nobody_dir DIR: a chart directory that nobody owns (0755)
nobody_dir() {
	rm -rf "$1" && mkdir "$1" && chown 65534:65534 "$1" && chmod 755 "$1"
}

# stems_of DIR: the chart stems in DIR
stems_of() {
	for f in "$1"/*.gp; do basename "$f" .gp; done
}

# race N DIR STEMS -- TDPERF ARGS: run tdperf N times with the attacker on
# DIR; each run must exit 0 with well-formed SVGs, and no mark may appear
race() {
	n=$1 dir=$2 stems=$3
	shift 4
	rm -f "$MARK" race.err
	nobody_dir "$dir" || return 1
	$NOBODY timeout 120 sh attacker.sh "$dir" $stems &
	apid=$!
	i=0 fail=
	while [ $i -lt "$n" ]; do
		i=$((i + 1))
		"$TDPERF" "$@" >/dev/null 2>>race.err || fail="run $i exited $?"
		for s in $stems; do
			xmllint --noout "$dir/$s.svg" 2>>race.err || fail="run $i: bad $s.svg"
		done
	done
	kill $apid
	wait $apid 2>/dev/null || :
	if test -e "$MARK"; then
		echo "the other user's script ran as root: $MARK exists"
		return 1
	fi
	test -z "$fail" || { echo "$fail"; cat race.err; return 1; }
}

test_expect_success 'report --plot into a directory nobody owns: their scripts never run' '
	"$TDPERF" report --plot ref "$IN" >/dev/null &&
	stems=$(stems_of ref) && test "$(echo $stems | wc -w)" -ge 3 &&
	race 5 race-report "$stems" -- report --plot race-report "$IN"
'

test_expect_success 'diff --plot into a directory nobody owns: their scripts never run' '
	"$TDPERF" diff --plot ref-diff "$IN" "$IN" >/dev/null &&
	stems=$(stems_of ref-diff) && test "$(echo $stems | wc -w)" -ge 3 &&
	race 3 race-diff "$stems" -- diff --plot race-diff "$IN" "$IN"
'

# a gnuplot that says where it runs and what it reads, then runs gnuplot
cat >gnuplot-spy <<EOF
#!/bin/sh
for last; do :; done
{
	echo "cwd \$(pwd -P) \$(stat -c '%u %a' .)"
	echo "script \$(realpath "\$last")"
} >>"$TEST_DIR/spy.log"
exec $(command -v gnuplot) "\$@"
EOF
chmod 755 gnuplot-spy

test_expect_success 'gnuplot runs in a 0700 directory of root, never in DIR, and it is removed' '
	rm -f spy.log && mkdir -p spied &&
	TDPERF_GNUPLOT=$TEST_DIR/gnuplot-spy "$TDPERF" report --plot spied "$IN" >/dev/null &&
	TDPERF_GNUPLOT=$TEST_DIR/gnuplot-spy "$TDPERF" diff --plot spied "$IN" "$IN" >/dev/null &&
	cat spy.log &&
	test "$(grep -c "^cwd " spy.log)" -ge 6 &&
	dir=$(cd spied && pwd -P) && tmp=$(cd "$TMPDIR" && pwd -P) &&
	while read -r what path rest; do
		case "$path" in
		"$dir"|"$dir"/*) echo "gnuplot used the chart directory: $what $path"; exit 1 ;;
		"$tmp"/tdperf-charts-*) ;;
		*) echo "gnuplot outside the private directory: $what $path"; exit 1 ;;
		esac
		if test "$what" = cwd; then
			test "$rest" = "0 700" || { echo "private directory not root 0700: $rest"; exit 1; }
			cwd=$path
		else
			test "$(dirname "$path")" = "$cwd" || { echo "script $path not in $cwd"; exit 1; }
		fi
	done <spy.log &&
	test -z "$(ls "$TMPDIR")"
'

test_expect_success 'DIR gets STEM.svg, STEM.dat and STEM.gp, which re-render on their own' '
	for s in $(stems_of ref); do
		test -s ref/$s.dat && xmllint --noout ref/$s.svg || exit 1
	done &&
	mkdir rerun && cp ref/topdown-l1.gp ref/topdown-l1.dat rerun/ &&
	(cd rerun && gnuplot topdown-l1.gp) &&
	xmllint --noout rerun/topdown-l1.svg &&
	grep -q "<text>Backend Bound</text>" rerun/topdown-l1.svg &&
	(cd ref && gnuplot -e "fmt=\"png\"" topdown-l2.gp) &&
	test "$(head -c 4 ref/topdown-l2.png | od -An -c | tr -d " ")" = "211PNG"
'

# csv_threads NAME: the published interval CSV as three intervals of thread NAME
csv_threads() {
	awk -F, -v OFS=, -v n="$1" '/^[0-9]+\.[0-9]+,/ { l[++k] = $0 }
		END { for (t = 1; t <= 3; t++) for (i = 1; i <= k; i++) {
			$0 = l[i]; $1 = t ".000103288," n; print } }' "$CSV"
}

# node names of a run's table.json: Retiring as three quotes, the others after a quote
Q="'"
cat >quotes.jq <<'EOF'
.metrics |= map(if .id == "retiring" then .name = "'''" else .name = "'" + .name end)
EOF

if have_prog jq; then
	test_expect_success 'labels starting with a quote, or only quotes, are drawn as their text' '
		csv_threads "${Q}w-1" >w.csv &&
		"$TDPERF" import -o run w.csv >/dev/null &&
		jq -f quotes.jq run/table.json >t && mv t run/table.json &&
		"$TDPERF" report --plot quoted run >/dev/null &&
		for f in quoted/*.svg; do xmllint --noout "$f" || exit 1; done &&
		grep -q "<text>${Q}Backend Bound</text>" quoted/topdown-l1.svg &&
		grep -q "<text>$Q$Q$Q</text>" quoted/topdown-l1.svg &&
		grep -q "${Q}w-1" quoted/timeline-*.svg
	'
else
	test_skip 'labels starting with a quote' 'jq is missing'
fi

if have_prog "$PERF" && "$PERF" record -q -e sched:sched_switch -o probe.data -- true 2>/dev/null; then
	test_expect_success 'a thread named with ESC, BEL and a C1 control: well-formed threads.svg' '
		name=$(printf "\033]0;PWN\a\033[2J\302\233x") &&
		ln -s "$W/tw-barrier" "$name" &&
		ASAN_OPTIONS=detect_leaks=0 "$TDPERF" record --threads -o esc.data -- "./$name" 2 \
			>/dev/null 2>err &&
		"$TDPERF" report --plot esc esc.data >/dev/null &&
		grep -q "]0;PWN" esc/threads.dat &&
		for f in esc/*.svg; do xmllint --noout "$f" || exit 1; done &&
		grep -q "]0;PWN" esc/threads.svg &&
		for c in "\033" "\007" "\302\233"; do
			! grep -q "$(printf "$c")" esc/threads.svg esc/threads.dat esc/threads.gp || exit 1
		done
	'
else
	test_skip 'a thread named with ESC and BEL' 'perf cannot record sched tracepoints here'
fi

if have_prog "$PERF" && "$PERF" record -q -e cpu-clock -o probe.data -- true 2>/dev/null; then
	test_expect_success 'report --hotspots --plot into a directory nobody owns: their script never runs, ESC in a JIT name' '
		HOME=$TEST_DIR/home && export HOME && mkdir -p "$HOME" &&
		TW_JIT_NAME=$(printf "jit\033]0;PWN\a\302\233x") \
			"$PERF" record -q -e cpu-clock -g -o hot.data -- "$W/tw-hot" 1 "$W/libtwhot.so" >rec.log 2>&1 &&
		race 3 race-hot hotspots -- report --hotspots --plot race-hot hot.data &&
		grep -q ">jit ]0;PWN  x<" race-hot/hotspots.svg
	'
else
	test_skip 'report --hotspots --plot race' 'perf cannot record cpu-clock here'
fi

test_done
