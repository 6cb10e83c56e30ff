#!/bin/sh
# The tree's layout is its data flow: collect/ runs perf, parse/ reads its
# outputs, metrics/ evaluates formulas, analyze/ builds the report
# document from both, report/ draws it.  These rules hold the boundaries,
# read from the #include "dir/file.h" lines, followed through headers:
#  - report/ reaches neither parse/, metrics/ nor collect/, nor analyze/'s
#    private headers (*-int.h): renderers read the document only;
#  - only analyze/ (and tests) reach both parse/ and metrics/;
#  - no directory reaches one above it in the flow (util/ < parse/,
#    metrics/ < collect/ < analyze/ < report/ < src/).
# The same order holds for what the objects link against (nm): a header
# can declare a function in one directory and a file of another define it,
# which no #include line shows.
. "$(dirname "$0")/test-lib.sh"

# reach ROOT FILE: every "dir/file.h" FILE includes, directly or through
# the headers it includes, one per line (ROOT: the tree to read).
reach() {
	awk -v root="$1" '
	function visit(f,    line, inc) {
		while ((getline line < (root "/" f)) > 0) {
			if (line !~ /^[ \t]*#[ \t]*include[ \t]*"[^"]*\/[^"]*"/)
				continue
			inc = line
			sub(/^[^"]*"/, "", inc)
			sub(/".*$/, "", inc)
			if (inc in seen)
				continue
			seen[inc] = 1
			print inc
			visit(inc)
		}
		close(root "/" f)
	}
	BEGIN { visit(ARGV[1]); ARGV[1] = "" }' "$2"
}

# check_layout ROOT: print one line per broken rule, for every source file.
check_layout() {
	root=$1
	(cd "$root" && ls collect/*.[ch] parse/*.[ch] metrics/*.[ch] util/*.[ch] \
		analyze/*.[ch] report/*.[ch] src/*.[ch] 2>/dev/null) |
	while read -r f; do
		dir=${f%%/*}
		incs=$(reach "$root" "$f" | sed 's|/.*||' | sort -u | tr '\n' ' ')
		case $dir in
		util) forbidden="parse metrics collect analyze report src" ;;
		parse) forbidden="metrics collect analyze report src" ;;
		metrics) forbidden="parse collect analyze report src" ;;
		collect) forbidden="analyze report src" ;;
		analyze) forbidden="report src" ;;
		report) forbidden="parse metrics collect src" ;;
		src) forbidden="" ;;
		esac
		for d in $forbidden; do
			case " $incs" in
			*" $d "*) echo "$f reaches $d/" ;;
			esac
		done
		if [ "$dir" != analyze ] && echo " $incs" | grep -q " parse " &&
		   echo " $incs" | grep -q " metrics "; then
			echo "$f reaches both parse/ and metrics/ (only analyze/ may)"
		fi
		if [ "$dir" = report ] && reach "$root" "$f" | grep -q '^analyze/.*-int\.h$'; then
			echo "$f reaches analyze/'s private headers"
		fi
	done
}

# check_symbols BUILD: one line per object that uses a function or variable
# defined in a directory above its own, or between parse/ and metrics/;
# and one per renderer (a name with "render") defined outside report/.
check_symbols() {
	(cd "$1" && nm -P -A */*.o) | awk '
	function layer(d) {
		if (d == "util") return 0
		if (d == "parse" || d == "metrics") return 1
		if (d == "collect") return 2
		if (d == "analyze") return 3
		return d == "report" ? 4 : 5
	}
	{
		obj = $1; sub(/:$/, "", obj); dir = obj; sub(/\/.*/, "", dir)
		if ($3 ~ /^[TDBR]$/)
			where[$2] = dir
		else if ($3 == "U")
			use[++n] = dir " " $2 " " obj
	}
	END {
		for (i = 1; i <= n; i++) {
			split(use[i], u, " ")
			if (!(u[2] in where))
				continue
			w = where[u[2]]
			if (layer(w) > layer(u[1]) || layer(w) == 1 && layer(u[1]) == 1 && w != u[1])
				print u[3] " uses " u[2] " of " w "/"
		}
		for (s in where)
			if (s ~ /render/ && where[s] != "report" && where[s] != "src")
				print s " is defined in " where[s] "/, not report/"
	}' | sort
}

test_expect_success 'the tree keeps its layout rules' '
	check_layout "$TD_SRCDIR" >broken &&
	{ test ! -s broken || { cat broken; false; }; }
'

test_expect_success 'report/ holds the renderers, analyze/ the builder: render/ is gone' '
	! ls "$TD_SRCDIR"/render/*.[ch] 2>/dev/null &&
	test -f "$TD_SRCDIR/analyze/report.h" && test -f "$TD_SRCDIR/report/render.h"
'

# The checker itself: a copy of the tree with one renderer including the
# formula tables, and one command reaching both parse/ and metrics/.
test_expect_success 'a renderer that includes metrics/ or a command reaching parse/ and metrics/ is caught' '
	mkdir tree &&
	(cd "$TD_SRCDIR" && tar cf - --exclude="*.o" --exclude=".deps" collect parse metrics util analyze report src) |
		(cd tree && tar xf -) &&
	check_layout tree >before && test ! -s before &&
	printf "#include \"metrics/table.h\"\n" >>tree/report/csv.c &&
	printf "#include \"parse/parse.h\"\n#include \"analyze/analyze-int.h\"\n" >>tree/src/cmd-list.c &&
	check_layout tree >after &&
	test_grep "^report/csv.c reaches metrics/" after &&
	test_grep "^src/cmd-list.c reaches both parse/ and metrics/" after
'

test_expect_success 'the objects keep the same order: no directory calls one above it, renderers are in report/' '
	ls "$TD_BUILDDIR"/report/*.o "$TD_BUILDDIR"/analyze/*.o >/dev/null &&
	check_symbols "$TD_BUILDDIR" >broken &&
	{ test ! -s broken || { cat broken; false; }; }
'

# The checker itself, on a copy of the objects: util/ calling a renderer,
# and a renderer defined in analyze/ (as td_hotspots_diff_render_text was).
test_expect_success 'a call up the flow or a renderer outside report/ is caught' '
	mkdir objs && (cd "$TD_BUILDDIR" && tar cf - */*.o) | (cd objs && tar xf -) &&
	check_symbols objs >before && test ! -s before &&
	printf "extern void td_hotspots_render_csv(void);\nvoid td_zz_up(void) { td_hotspots_render_csv(); }\n" >up.c &&
	printf "void td_zz_render_text(void) { }\n" >misplaced.c &&
	${CC:-cc} -c up.c -o objs/util/zz-up.o && ${CC:-cc} -c misplaced.c -o objs/analyze/zz-misplaced.o &&
	check_symbols objs >after &&
	test_grep "^util/zz-up.o uses td_hotspots_render_csv of report/$" after &&
	test_grep "^td_zz_render_text is defined in analyze/, not report/$" after
'

test_done
