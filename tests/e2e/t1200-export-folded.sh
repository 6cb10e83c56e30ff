#!/bin/sh
# tdperf report --format folded: the flame-graph scripts' folded stacks
# of a perf.data.  The oracle is perf's own folding of the same file
# (perf script report stackcollapse, whose paths start with the command
# name): the samples per leaf function and per caller;leaf pair are equal.
. "$(dirname "$0")/test-lib.sh"
. "$TD_SRCDIR/tests/e2e/perfdata-lib.sh"
. "$TD_SRCDIR/tests/e2e/hotspots-lib.sh"

require_cpu_clock_record 'folded export'

# by_leaf: "FUNCTION COUNT" per leaf function of folded stacks on stdin
by_leaf() {
	awk '{ c = $NF; $NF = ""; sub(/ $/, ""); n = split($0, f, ";"); leaf[f[n]] += c }
	     END { for (k in leaf) print k, leaf[k] }' | sort
}
# by_pair: "CALLER;LEAF COUNT" (the last two frames)
by_pair() {
	awk '{ c = $NF; $NF = ""; sub(/ $/, ""); n = split($0, f, ";"); if (n > 1) p[f[n-1] ";" f[n]] += c }
	     END { for (k in p) print k, p[k] }' | sort
}

# Frames without a symbol: tdperf says [unknown] where perf names a PLT
# stub "NAME@plt" (it synthesizes those names; tdperf's symbolizer does not)
UNNAMED='\[unknown\]\|@plt'

test_expect_success 'perf records tw-hot with call chains' '
	"$PERF" record -q -e cpu-clock -g -o hot.data -- "$W/tw-hot" 1 >rec.log 2>&1 &&
	"$PERF" script report stackcollapse -i hot.data >perf.folded 2>perf.err &&
	test -s perf.folded
'

test_expect_success 'samples per leaf function equal perf stackcollapse'"'"'s' '
	"$TDPERF" report --format folded -o hot.folded hot.data &&
	by_leaf <perf.folded | grep -v "$UNNAMED" >perf.leaf &&
	by_leaf <hot.folded | grep -v "$UNNAMED" >ours.leaf &&
	cat ours.leaf | head -n 5 &&
	grep "^tw_hot_a " ours.leaf &&
	diff -u perf.leaf ours.leaf
'

test_expect_success 'samples per caller;leaf pair equal perf'"'"'s (its command-name root left out)' '
	sed "s/^[^;]*;//" perf.folded | by_pair | grep -v "$UNNAMED" >perf.pair &&
	by_pair <hot.folded | grep -v "$UNNAMED" >ours.pair &&
	grep "tw_hot_a " ours.pair &&
	diff -u perf.pair ours.pair
'

test_expect_success 'every line is "a;b;c COUNT"; the counts add up to the samples' '
	! grep -v "^[^ ].* [0-9][0-9]*$" hot.folded &&
	total=$(awk "{ n += \$NF } END { print n }" hot.folded) &&
	want=$("$TDPERF" report --hotspots --format json hot.data | jq .profile.samples) &&
	test "$total" = "$want"
'

test_expect_success '--weight period counts the sampled event: cpu-clock nanoseconds' '
	"$TDPERF" report --format folded --weight period hot.data >period.folded &&
	total=$(awk "{ n += \$NF } END { printf \"%d\", n }" period.folded) &&
	want=$("$PERF" script -F period -i hot.data 2>/dev/null | awk "{ n += \$1 } END { printf \"%d\", n }") &&
	echo "$total $want" && test "$total" = "$want"
'

test_expect_success 'an unknown --weight event: one line, exit 2, no file' '
	test_exit_code 2 "$TDPERF" report --format folded --weight cycles -o bad.folded hot.data 2>err &&
	test_line_count = 1 err && grep "weight cycles" err && ! test -e bad.folded &&
	test_exit_code 2 "$TDPERF" report --weight period hot.data 2>err &&
	grep "weight is an option of --format folded" err
'

test_done
