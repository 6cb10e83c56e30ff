#!/bin/sh
# tdperf report --format pprof: each sample's own source line and inline
# chain.  tw-hot (-O2 -g) has tw_inl_step always inlined into tw_hot_inl's
# loop.  For every sample whose leaf is in tw_hot_a, tw_hot_b or
# tw_hot_inl, addr2line -i (binutils, not libdw) on the sampled address,
# found from perf script's symbol+offset and nm, gives the chain of
# functions and lines, innermost first; go tool pprof -traces -lines must
# print the same chains with the same sample counts, and pprof -lines
# -top the same innermost lines.
. "$(dirname "$0")/test-lib.sh"
. "$TD_SRCDIR/tests/e2e/perfdata-lib.sh"
. "$TD_SRCDIR/tests/e2e/hotspots-lib.sh"

W=$TD_BUILDDIR/tests/workloads
missing=
have_prog go || missing="$missing go (golang-go: go tool pprof)"
have_prog addr2line || missing="$missing addr2line (binutils)"
have_prog nm || missing="$missing nm (binutils)"
test -x "$W/tw-hot" || missing="$missing $W/tw-hot (make check builds it)"
if test -n "$missing"; then
	test_expect_success 'the pprof line tests can run' 'echo "missing:$missing"; false'
	test_done
fi
require_cpu_clock_record 'pprof lines export'
GOFLAGS=-mod=mod GOCACHE=$TEST_DIR/gocache PPROF_TMPDIR=$TEST_DIR/pprof
export GOFLAGS GOCACHE PPROF_TMPDIR
FUNCS="tw_hot_a tw_hot_b tw_hot_inl"

test_expect_success 'a cpu-clock recording of tw-hot exported as pprof' '
	"$PERF" record -q -e cpu-clock -g -o hot.data -- "$W/tw-hot" 1 >rec.log 2>&1 &&
	"$TDPERF" report --format pprof -o hot.pb.gz hot.data &&
	go tool pprof -traces -lines -sample_index=0 hot.pb.gz >traces 2>pprof.err &&
	grep "tw_inl_step .*(inline)" traces
'

# The oracle: "COUNT fn file:line < fn file:line ..." per distinct leaf chain.
test_expect_success 'addr2line -i on the sampled addresses' '
	"$PERF" script -F ip,sym,symoff -G -i hot.data 2>/dev/null >ips &&
	nm "$W/tw-hot" >syms &&
	for f in $FUNCS; do
		base=$(awk -v f="$f" "\$3 == f { print \$1 }" syms) &&
		awk -v f="$f" "{ split(\$2, s, \"+\") } s[1] == f { print s[2] }" ips |
		while read -r off; do printf "0x%x\n" $((0x$base + off)); done || return 1
	done >addrs &&
	test $(wc -l <addrs) -gt 50 &&
	addr2line -a -i -f -e "$W/tw-hot" <addrs >a2l &&
	awk "function flush() { if (key != \"\") n[key]++; key = \"\" }
		/^0x/ { flush(); next }
		{ fn = \$1; getline; sub(/ \\(discriminator.*/, \"\"); k = split(\$1, p, \"/\");
		  key = key (key == \"\" ? \"\" : \" < \") fn \" \" p[k] }
		END { flush(); for (c in n) print n[c], c }" a2l | sort >want &&
	cat want && grep " tw_inl_step tw-hot.c:[0-9]* < tw_hot_inl tw-hot.c:[0-9]*$" want
'

test_expect_success 'pprof -traces -lines: the same inline chains, the same sample counts' '
	awk -v funcs="$FUNCS" "BEGIN { nf = split(funcs, f, \" \"); for (i = 1; i <= nf; i++) want[f[i]] = 1 }
		/^-+\\+/ { leaf = 0; next }
		/^ *(thread|tid):/ { next }
		/^ *[0-9]+ / && !leaf { count = \$1; sub(/^ *[0-9]+ +/, \"\"); leaf = 1; key = \"\"; open = 1 }
		leaf && open { k = split(\$2, p, \"/\"); key = key (key == \"\" ? \"\" : \" < \") \$1 \" \" p[k];
			if (\$NF != \"(inline)\") { open = 0; if (\$1 in want) n[key] += count } }
		END { for (c in n) print n[c], c }" traces | sort >got &&
	cat got && diff -u want got
'

test_expect_success 'pprof -lines -top: the innermost lines addr2line gives, with their counts' '
	go tool pprof -lines -top -sample_index=0 -nodecount=100000 -nodefraction=0 hot.pb.gz 2>/dev/null |
		awk "on && \$1 > 0 && (\$6 ~ /^tw_(hot_|inl_)/) { k = split(\$7, p, \"/\"); print \$1, \$6, p[k] } \$1 == \"flat\" { on = 1 }" |
		sort >top &&
	awk "{ split(\$0, c, \" < \"); sub(/^[0-9]+ /, \"\", c[1]); n[c[1]] += \$1 } END { for (k in n) print n[k], k }" want |
		sort >want.top &&
	cat want.top && diff -u want.top top
'

test_done
