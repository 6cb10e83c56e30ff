#!/bin/sh
# The interfaces of collect/, parse/, metrics/ and util/: one header per
# subject (docs/layout.md), each of which a caller can include on its own.
# A header that compiles only after another one was included hides a
# dependency that every includer then has to know about; this catches it
# when the header is written, not in whichever file happens to include it
# first.  Private headers (*-int.h, *-internal.h) are checked the same way.
. "$(dirname "$0")/test-lib.sh"

CC=${TD_CC:-cc}
CPPFLAGS_H=${TD_HEADER_CPPFLAGS:-"-I$TD_SRCDIR -I$TD_BUILDDIR"}
CFLAGS_H=${TD_HEADER_CFLAGS:-"-Wall -Wextra"}

headers() {
	(cd "$TD_SRCDIR" && ls collect/*.h parse/*.h metrics/*.h util/*.h)
}

test_expect_success 'the C compiler of the build is usable' '
	echo "int main(void) { return 0; }" | $CC -fsyntax-only -x c -
'

for h in $(headers); do
	test_expect_success "$h compiles alone, and twice (include guard)" "
		printf '#include \"%s\"\n#include \"%s\"\n' $h $h >alone.c &&
		$CC -fsyntax-only -Werror $CPPFLAGS_H $CFLAGS_H -x c alone.c
	"
done

test_expect_success 'every header opens with a comment saying what it is' '
	for h in $(headers); do
		head -n 1 "$TD_SRCDIR/$h" | grep -q "^/\*" || { echo "$h"; exit 1; }
	done
'

test_expect_success 'no catch-all header is left: metrics.h and collect.h are gone' '
	! test -e "$TD_SRCDIR/metrics/metrics.h" &&
	! test -e "$TD_SRCDIR/collect/collect.h" &&
	cd "$TD_SRCDIR" &&
	! grep -rn --include="*.[ch]" -e "metrics/metrics\.h" -e "collect/collect\.h" \
		bench collect metrics parse report src tests util
'

test_done
