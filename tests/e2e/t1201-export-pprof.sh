#!/bin/sh
# tdperf report --format pprof: gzip'd profile.proto read by Go's own
# pprof (Debian's golang-go, "go tool pprof").  For every sample type the
# self share pprof prints per function equals tdperf report --hotspots'
# within 0.1 point: samples and CPU time of a cpu-clock recording, and
# each member event of a leader-sampled group recorded through the
# emulated PMU (tests/pmu-emu).  The executable's mapping carries the
# build-id readelf reads from the file.
. "$(dirname "$0")/test-lib.sh"
. "$TD_SRCDIR/tests/e2e/perfdata-lib.sh"
. "$TD_SRCDIR/tests/e2e/hotspots-lib.sh"

. "$TD_SRCDIR/tests/e2e/pmu-emu-lib.sh"
emu_require go readelf
require_cpu_clock_record 'pprof export'
GOFLAGS=-mod=mod GOCACHE=$TEST_DIR/gocache PPROF_TMPDIR=$TEST_DIR/pprof
export GOFLAGS GOCACHE PPROF_TMPDIR

# pprof_self FILE INDEX: "NAME PERCENT" per function of go tool pprof -top
# (-noinlines: an inlined function's samples count to the function it is
# inlined in, as the symbol table and --hotspots' rows see them; t1204
# checks the inline chains)
pprof_self() {
	go tool pprof -top -noinlines -sample_index="$2" -nodecount=100000 -nodefraction=0 -edgefraction=0 "$1" 2>/dev/null |
		awk 'on { sub("%", "", $2); name = $6; for (i = 7; i <= NF; i++) name = name " " $i; print name, $2 }
		     $1 == "flat" && $2 == "flat%" { on = 1 }' | sort
}
# ours_self JSON WHAT: "NAME PERCENT" per function of the hotspots document
# (summed by name, as pprof groups), WHAT: samples, period or a member event
ours_self() {
	jq -r --arg w "$2" '
		def weight: if $w == "samples" then .samples elif $w == "period" then .period else .counts[$w] end;
		([.hotspots[] | weight] | add) as $total |
		[.hotspots[] | {symbol, w: weight}] | group_by(.symbol)[] |
		"\(.[0].symbol) \(100 * ([.[].w] | add) / $total)"' "$1" | sort
}
# agree A B: every function at 0.5 % or more in A is in B within 0.1
# point, and the other way round; prints the compared lines
agree() {
	awk 'FNR == NR { a[$NF] = 0; $NF = $NF; v = $NF; $NF = ""; sub(/ $/, ""); pa[$0] = v; next }
	     { v = $NF; $NF = ""; sub(/ $/, ""); pb[$0] = v }
	     END {
		bad = 0
		for (k in pa) if (pa[k] >= 0.5 || pb[k] >= 0.5) {
			d = pa[k] - pb[k]; if (d < 0) d = -d
			printf "%-30s pprof %7.2f  tdperf %7.2f\n", k, pa[k], pb[k]
			if (!(k in pb) || d > 0.1) bad = 1
		}
		for (k in pb) if (pb[k] >= 0.5 && !(k in pa)) { print "missing in pprof: " k; bad = 1 }
		exit bad
	     }' "$1" "$2"
}

test_expect_success 'cpu-clock recording exported as pprof' '
	"$PERF" record -q -e cpu-clock -g -o hot.data -- "$W/tw-hot" 1 >rec.log 2>&1 &&
	"$TDPERF" report --hotspots --format json hot.data >hot.json &&
	"$TDPERF" report --format pprof -o hot.pb.gz hot.data &&
	gzip -t hot.pb.gz &&
	go tool pprof -raw hot.pb.gz >hot.raw 2>&1 &&
	grep "^PeriodType: cpu-clock nanoseconds" hot.raw
'

test_expect_success 'pprof -sample_index=0 (samples): self shares equal those of --hotspots' '
	pprof_self hot.pb.gz 0 >p0 && ours_self hot.json samples >o0 &&
	grep "^tw_hot_a " p0 && agree p0 o0
'

test_expect_success 'pprof -sample_index=1 (CPU time): self shares equal those of --hotspots' '
	pprof_self hot.pb.gz 1 >p1 && ours_self hot.json period >o1 &&
	agree p1 o1 &&
	go tool pprof -top -sample_index=1 hot.pb.gz 2>/dev/null | grep "^Type: cpu-clock" &&
	total=$(go tool pprof -top -sample_index=1 -unit=ns hot.pb.gz 2>/dev/null | sed -n "s/.*Total samples = \([0-9]*\)ns.*/\1/p") &&
	test "$total" = "$(jq .profile.period hot.json)"
'

test_expect_success 'the executable'"'"'s mapping carries its build-id; the comment names the source' '
	want=$(readelf -n "$W/tw-hot" | sed -n "s/.*Build ID: *//p") &&
	test -n "$want" &&
	grep " $W/tw-hot $want " hot.raw &&
	go tool pprof -comments hot.pb.gz 2>/dev/null | grep "of hot.data: [0-9]* samples of cpu-clock"
'

test_expect_success 'threads are labels: pprof -tags gives each tid the share perf script gives it' '
	"$PERF" record -q -e cpu-clock -g -o par.data -- "$W/tw-parallel" 4 >rec.log 2>&1 &&
	"$TDPERF" report --format pprof -o par.pb.gz par.data &&
	go tool pprof -tags -sample_index=0 par.pb.gz 2>/dev/null |
		awk "/^ *tid:/ { on = 1; next } on && /%\\):/ { sub(/^.*\\( */, \"\"); sub(/%\\): /, \" \"); print \$2, \$1 }" |
		sort >pprof.tids &&
	"$PERF" script -F tid -i par.data 2>/dev/null |
		awk "{ n[\$1]++; t++ } END { for (k in n) printf \"%s %.2f\\n\", k, 100 * n[k] / t }" | sort >perf.tids &&
	cat pprof.tids && test "$(wc -l <pprof.tids)" -ge 5 &&
	diff -u perf.tids pprof.tids &&
	go tool pprof -tags par.pb.gz 2>/dev/null | grep -A1 "^ *thread:" | grep "tw-worker"
'

cat >sky.rates <<EOF
binary $W/tw-hot
tw_hot_a   0x20003c=2.0 0x19c=2.0 0x10e=1.4 0x2c2=1.2 0x20010d=0.01
tw_hot_b   0x20003c=2.0 0x19c=0.2 0x10e=3.3 0x2c2=3.2 0x20010d=0.01
tw_hot_inl 0x20003c=2.0 0x19c=0.3 0x10e=1.0 0x2c2=0.8 0x20010d=0.02
EOF

test_expect_success 'a leader-sampled group (emulated skylakex) exported as pprof' '
	"$EMU/pmu-emu" --cpu skylakex --ip-rates sky.rates -- \
		"$TDPERF" record --hotspots --assume-pmu -g -o sky.data -- "$W/tw-hot" 1 >sky.out 2>&1 &&
	"$TDPERF" report --hotspots --format json sky.data >sky.json &&
	jq -e ".profile.group | length == 5" sky.json &&
	"$TDPERF" report --format pprof -o sky.pb.gz sky.data &&
	go tool pprof -raw sky.pb.gz >sky.raw 2>&1 &&
	grep "^Samples:" -A1 sky.raw | tail -n 1 >types &&
	cat types &&
	for ev in $(jq -r ".profile.group[1:][]" sky.json); do grep -q "$ev/count" types || return 1; done
'

test_expect_success 'each sample type of the group: self shares equal those of --hotspots' '
	pprof_self sky.pb.gz 1 >s1 && ours_self sky.json period >t1 && agree s1 t1 &&
	i=2 &&
	for ev in $(jq -r ".profile.group[1:][]" sky.json); do
		echo "== $ev" &&
		pprof_self sky.pb.gz $i >s$i && ours_self sky.json "$ev" >t$i && agree s$i t$i || return 1
		i=$((i + 1))
	done
'

test_done
