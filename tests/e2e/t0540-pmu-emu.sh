#!/bin/sh
# tdperf record through the real perf (Debian's linux-perf) against the
# emulated PMUs of tests/pmu-emu: perf parses every event string tdperf
# builds against the CPU's sysfs format/ and events/, the emulated kernel
# interface validates and schedules the groups on the CPU's counters and
# multiplexes them, and the report must equal the table formulas evaluated
# on the emulator's true counts (tests/pmu-emu/emu-check).
. "$(dirname "$0")/test-lib.sh"

. "$TD_SRCDIR/tests/e2e/pmu-emu-lib.sh"

emu_require

# emu_record CPU NAME [tdperf record options]: record 'sleep 0.3' under
# the emulated CPU into NAME.data, with the emulator's log in NAME.log and
# tdperf's dry run of the same options in NAME.dry.
emu_record() {
	cpu=$1 name=$2
	shift 2
	rm -rf "$name.data" "$name.log"
	"$EMU/pmu-emu" --cpu "$cpu" --log "$name.log" -- \
		"$TDPERF" record "$@" -o "$name.data" -- sleep 0.3 >"$name.out" 2>&1 &&
	"$TDPERF" record --dry-run --cpu "$cpu" "$@" -- true >"$name.dry" 2>&1
}

# emu_verify CPU NAME [emu-check options]: nothing refused by the
# emulated kernel, every count and node equal to the truth.
emu_verify() {
	cpu=$1 name=$2
	shift 2
	! grep "^refused" "$name.log" &&
	"$EMU/emu-check" "$@" "$EMU/cpus/$cpu.cpu" "$name.log" "$name.dry" "$name.data" >"$name.check" ||
	{ cat "$name.check"; false; }
}

test_expect_success 'bad input: unknown CPU, missing --cpu, bad option values exit 2 with one line' '
	test_exit_code 2 "$EMU/pmu-emu" --cpu pentium4 -- true 2>err &&
	test_line_count = 1 err && test_grep "unknown CPU .pentium4." err &&
	test_exit_code 2 "$EMU/pmu-emu" -- true 2>err &&
	test_line_count = 1 err && test_grep "cpu NAME is required" err &&
	test_exit_code 2 "$EMU/pmu-emu" --cpu zen4 --nmi-watchdog 2 -- true 2>err &&
	test_line_count = 1 err &&
	printf "pmu cpu type=4 gp=banana\n" >bad.cpu &&
	test_exit_code 2 env PMU_EMU_CPU_FILE=$PWD/bad.cpu LD_PRELOAD=$PMU_EMU_LIB true 2>err &&
	test_line_count = 1 err && test_grep "bad.cpu:1: malformed line" err
'

test_expect_success 'perf sees the emulated PMU; software events still reach the kernel' '
	"$EMU/pmu-emu" --cpu icelakex --log ev.log -- sh -c \
		"cat /sys/bus/event_source/devices/cpu/events/slots /sys/bus/event_source/devices/cpu/type; \
		 grep -m1 \"model name\" /proc/cpuinfo; \
		 perf stat -x, -e task-clock,cpu/slots/,cpu/event=0xc0,umask=0x0/ -- sleep 0.05" >out 2>&1 &&
	test_grep "^event=0x00,umask=0x4$" out && test_grep "^4$" out &&
	test_grep "model name.*(emulated by tests/pmu-emu)" out &&
	test_grep "^[0-9.]*,msec,task-clock," out &&
	test_grep "^[0-9]*,,cpu/slots/," out &&
	test "$(grep -c "^event proc=.* comm=perf .*config=0x400 " ev.log)" = 1
'

for cpu in skylakex icelakex sapphirerapids alderlake meteorlake zen4; do
	test_expect_success "$cpu: -l 1, -l 2, -l 3 with every stack: perf accepts every event, nothing unscheduled, report = formulas on the truth" '
		emu_record $cpu $cpu-l1 -l 1 && emu_verify $cpu $cpu-l1 &&
		emu_record $cpu $cpu-l2 -l 2 && emu_verify $cpu $cpu-l2 &&
		emu_record $cpu $cpu-l3 -l 3 --stacks cpi,multistage,flops,frontend &&
		emu_verify $cpu $cpu-l3 &&
		jq -e ".cpu.name | test(\"emulated by tests/pmu-emu\")" $cpu-l1.data/meta.json &&
		jq -e ".multiplexed == true and (.groups | length) > 1" $cpu-l3.data/meta.json
	'
done

# Zen 3 counts no dispatch slots: its table has info metrics and no tree.
# Without options, record measures those (and says why); an explicit -l is
# refused with a suggestion that works; the report says why there is no
# tree, never "no node above its threshold", and shows the info metrics.
test_expect_success 'zen3: no tree: record measures the info metrics, = formulas on the truth; the report says why' '
	emu_record zen3 z3 && emu_verify zen3 z3 &&
	test_grep "^tdperf: note: no Top-Down tree on this CPU (table zen3): measuring its 19 info metrics instead. The PMU has no dispatch-slot events" z3.out &&
	jq -e ".level == 0 and .analyses.topdown.status == \"impossible\" and (.analyses.topdown.reason | test(\"dispatch-slot\"))" z3.data/meta.json &&
	"$TDPERF" report z3.data >z3.txt &&
	test_grep "^  no Top-Down tree on this CPU. The PMU has no dispatch-slot events" z3.txt &&
	test_grep "^    IPC  *1.2 ratio" z3.txt &&
	! grep -q "no node above its threshold" z3.txt &&
	"$TDPERF" report --format json z3.data >z3.json &&
	jq -e ".scopes[0].nodes == [] and ([.scopes[0].metrics[] | .value | numbers] | length == 19)" z3.json &&
	"$TDPERF" report --html=z3.html z3.data >/dev/null 2>&1 &&
	test_grep "class=\"muted notree\">no Top-Down tree on this CPU" z3.html &&
	test_exit_code 2 "$EMU/pmu-emu" --cpu zen3 -- "$TDPERF" record -l 1 -o z3x.data -- true 2>err &&
	test ! -e z3x.data &&
	test_grep "(tdperf list --cpu zen3 --info shows them)" err &&
	"$TDPERF" list --cpu zen3 --info >list.txt &&
	test_grep "branch_misprediction_ratio" list.txt
'

# Meteor Lake's E-cores are Crestmont: their tree comes from Intel's
# E-core TMA spreadsheet (metrics/tables/meteorlake_atom.json), and perf's
# CSV alone, without the run's meta.json, names the part from the
# Crestmont-only events tdperf asked perf for.
test_expect_success 'meteorlake: the E-cores get the Crestmont tree; the CSV alone is inferred as Meteor Lake' '
	jq -e ".table.name == \"meteorlake\" and .table.cpu_atom.name == \"meteorlake_atom\"" \
		meteorlake-l2.data/meta.json &&
	"$TDPERF" report --format json meteorlake-l2.data/perf-stat-1.csv >csv.json &&
	jq -e ".run.cpu.name | test(\"Meteor Lake\")" csv.json &&
	jq -e ".run.cpu.confidence | test(\"TOPDOWN_RETIRING.ALL_P.* is a Crestmont or Skymont E-core event\")" csv.json &&
	test "$(jq -r "[.scopes[] | select(.pmu == \"cpu_atom\") | .nodes[] | select(.level == 2) | .id] | join(\",\")" csv.json)" = \
		"fetch_latency,fetch_bandwidth,branch_mispredicts,machine_clears,core_bound,resource_bound"
'

test_expect_success 'the report of an emulated run says so' '
	"$TDPERF" report icelakex-l1.data >report.txt &&
	test_grep "^CPU: .*(emulated by tests/pmu-emu)" report.txt
'

test_expect_success 'multiplexing as the kernel does it: groups rotated, time_running < time_enabled, scaled back' '
	awk "/^event .*comm=perf/ { split(\$0, a, \"running_ns=\"); split(\$0, b, \"enabled_ns=\"); \
		if (a[2] + 0 < b[2] + 0) short++; n++ } END { exit !(short > 0 && short == n) }" icelakex-l3.log &&
	awk -F, "!/^#/ && NF > 4 && \$5 + 0 < 100 { n++ } END { exit !n }" icelakex-l3.data/perf-stat-1.csv
'

test_expect_success '--no-multiplex: one perf per group, each count the truth of its run' '
	emu_record sapphirerapids nm -l 3 --no-multiplex &&
	test "$(jq ".runs | length" nm.data/meta.json)" -gt 1 &&
	jq -e ".multiplexed == false" nm.data/meta.json &&
	emu_verify sapphirerapids nm --counts-only &&
	! awk -F, "!/^#/ && NF > 4 && /cpu/ && \$5 != \"100.00\"" nm.data/perf-stat-*.csv | grep .
'

# With -I perf scales each interval by its own times, and an interval in
# which a group did not get on the counters is <not counted> and adds
# nothing: the sum of a multiplexed event's intervals may fall short of
# the truth by such intervals (about 0.5 % over 0.3 s and 4 ms rotations).
test_expect_success '-I 100: the intervals add up to the truth, the total report equals the formulas' '
	emu_record alderlake ivh -l 1 -I 100 && emu_verify alderlake ivh &&
	jq -e ".multiplexed == false" ivh.data/meta.json &&
	# Zen 4 -l 2 multiplexes: an interval in which a group never ran (the
	# last, partial one most often) is <not counted>, and that group loses
	# its share of it.  2 % was exceeded once (2.2 %, in the sanitizer build,
	# where tdperf starts more slowly), hence 5 %.
	emu_record zen4 iv -l 2 -I 100 && emu_verify zen4 iv --tolerance 0.05
'

test_expect_success '-r 3: three runs, each count the truth of its run' '
	emu_record icelakex rep -l 2 -r 3 &&
	test "$(jq ".runs | length" rep.data/meta.json)" = 3 &&
	emu_verify icelakex rep --counts-only
'

# With -a each CPU rotates its groups on its own, so a scaled per-CPU count
# can be off by a few 0.01 % under load; a node that is the difference of
# two large terms (core_bound = backend_bound - memory_bound) multiplies
# that, hence 1 % here.
test_expect_success '-a: per-CPU events, summed over the CPUs' '
	emu_record skylakex sys -l 2 -a && emu_verify skylakex sys --tolerance 0.01 &&
	grep "^event .*comm=perf .* pid=-1 cpu=1 " sys.log
'

test_expect_success '--per-thread and -p PID' '
	emu_record sapphirerapids pt -l 2 --per-thread && emu_verify sapphirerapids pt --counts-only &&
	sleep 0.6 & pid=$! &&
	rm -rf pid.data pid.log &&
	"$EMU/pmu-emu" --cpu zen4 --log pid.log -- "$TDPERF" record -l 1 -p $pid -o pid.data >pid.out 2>&1 &&
	"$TDPERF" record --dry-run --cpu zen4 -l 1 -p $pid >pid.dry 2>&1 &&
	emu_verify zen4 pid &&
	grep "^event .*comm=perf" pid.log >pid.events &&
	! grep -v "pid=$pid " pid.events
'

test_expect_success 'an impossible group is refused as the hardware refuses it' '
	# five general-counter events in one group on a Skylake thread (4 counters)
	"$EMU/pmu-emu" --cpu skylakex --log imp.log -- perf stat -x, -o imp.csv -e \
		"{cpu/event=0xc2,umask=0x2/,cpu/event=0xe,umask=0x1/,cpu/event=0x9c,umask=0x1/,cpu/event=0xd,umask=0x3/,cpu/event=0xa3,umask=0x4/}" \
		-- sleep 0.05 >/dev/null 2>&1;
	test_grep "^refused .*config=0x4a3 .*group does not fit on the counters" imp.log &&
	test_grep "<not supported>,,cpu/event=0xa3" imp.csv &&
	test "$(grep -c "<not counted>" imp.csv)" = 4 &&
	# two events only counter 0 can count (perfmon Counter "0": TOPDOWN.BAD_SPEC_SLOTS
	# and TOPDOWN.BR_MISPREDICT_SLOTS on Sapphire Rapids) in one group
	"$EMU/pmu-emu" --cpu sapphirerapids --log imp2.log -- perf stat -x, -o imp2.csv -e \
		"{cpu/event=0xa4,umask=0x4/,cpu/event=0xa4,umask=0x8/}" -- true >/dev/null 2>&1;
	grep "constraint 0x04a4 0x1$" "$EMU/cpus/sapphirerapids.cpu" &&
	test_grep "^refused .*config=0x8a4 .*group does not fit" imp2.log &&
	"$EMU/pmu-emu" --cpu sapphirerapids --log imp3.log -- perf stat -x, -o imp3.csv -e \
		"{cpu/event=0xa4,umask=0x4/,cpu/event=0xc0,umask=0x0/}" -- true >/dev/null 2>&1 &&
	! grep "^refused" imp3.log
'

test_expect_success 'NMI watchdog on: a group that needs every counter is never counted, and tdperf builds none' '
	# cycles + 4 general events: fits an empty Skylake PMU, not one whose fixed cycles counter
	# the watchdog holds; the kernel accepts it and never schedules it
	"$EMU/pmu-emu" --cpu skylakex --nmi-watchdog 1 --log wd.log -- perf stat -x, -o wd.csv -e \
		"{cpu/event=0x3c,umask=0x0/,cpu/event=0xc2,umask=0x2/,cpu/event=0xe,umask=0x1/,cpu/event=0x9c,umask=0x1/,cpu/event=0xd,umask=0x3/}" \
		-- sleep 0.05 >/dev/null 2>&1 &&
	! grep "^refused" wd.log &&
	test "$(grep -c "<not counted>" wd.csv)" = 5 &&
	rm -rf wdt.data wdt.log &&
	"$EMU/pmu-emu" --cpu skylakex --nmi-watchdog 1 --log wdt.log -- \
		"$TDPERF" record -l 1 -o wdt.data -- sleep 0.3 >wdt.out 2>&1 &&
	jq -e ".groups | length > 1" wdt.data/meta.json &&
	"$TDPERF" record --dry-run --cpu skylakex --nmi-watchdog on -l 1 -- true >wdt.dry &&
	emu_verify skylakex wdt
'

test_expect_success 'perf record of an emulated event: real IPs, threads and callchains from a cpu-clock underneath' '
	rm -f rec.log rec.data &&
	"$EMU/pmu-emu" --cpu zen4 --log rec.log -- perf record -e cpu/event=0xc1,umask=0x0/ -c 1000000 -g \
		-o rec.data -- "$TD_BUILDDIR/tests/workloads/tw-parallel" 1 1 >rec.out 2>&1 &&
	test_grep "^sampler .*config=0xc1 period=1000000 freq=0 clock_period_ns=[1-9]" rec.log &&
	perf script -i rec.data -F comm,event,ip,sym >script.txt 2>/dev/null &&
	test "$(grep -c "cpu/event=0xc1,umask=0x0/:" script.txt)" -gt 20 &&
	awk "/cpu\/event=0xc1/ { n++; if (\$1 == \"tw-worker\") w++ } END { exit !(w > n / 2) }" script.txt &&
	test_grep "worker" script.txt &&
	# a group whose members sample too (no :S, no READ values) is not emulated: refused, not faked
	"$EMU/pmu-emu" --cpu zen4 --log recg.log -- perf record -e "{cpu/event=0x76/,cpu/event=0xc1/}" \
		-o recg.data -- true >/dev/null 2>&1;
	test_grep "^refused .*config=0xc1 .*group leader is not an emulated event" recg.log
'

# profile_matches CPU FIXTURE SESSION LEVEL [pmu-emu options]: record
# under counts taken from a published perf stat output, and compare every
# Level 1-2 node perf printed in that session (as tdperf reads the fixture:
# perf_value) with the emulated run's report: within 0.06 points.
profile_matches() {
	cpu=$1 fix=$FIXTURES/perf-stat-published/$2 session=$3 level=$4
	shift 4
	rm -rf prof.data &&
	"$EMU/pmu-emu" --cpu "$cpu" --profile "$fix:$session" "$@" -- \
		"$TDPERF" record -l "$level" -o prof.data -- sleep 0.2 >prof.out 2>&1 &&
	"$TDPERF" report --format json prof.data >emu.json &&
	"$TDPERF" report --format json "$fix" >fix.json &&
	jq -r --arg s "s$session/" '.scopes[] | select((.id | startswith($s)) and (.id | contains("@") | not)) |
		(.pmu // "cpu") as $p | .nodes[] | select(.perf_value != null and .level <= 2) |
		"\($p) \(.id) \(.perf_value)"' fix.json >printed &&
	test -s printed &&
	while read -r pmu id want; do
		got=$(jq -r --arg p "$pmu" --arg id "$id" '.scopes[] | select((.pmu // "cpu") == $p and
			(.id | contains("@") | not)) | .nodes[] | select(.id == $id) | .value' emu.json | head -1)
		echo "$pmu $id perf $want emulated $got"
		awk -v a="$want" -v b="$got" "BEGIN { d = (a - b) * 100; exit !(b != \"null\" && d <= 0.06 && d >= -0.06) }" ||
			{ echo "$pmu $id: perf printed $want, the emulated run reports $got"; return 1; }
	done <printed >compared &&
	cat compared
}

test_expect_success 'profile: bad input is one line and exit 2' '
	test_exit_code 2 "$EMU/pmu-emu" --cpu zen4 --profile /nonexistent -- true 2>err &&
	test_line_count = 1 err &&
	echo "not perf output" >junk.txt &&
	test_exit_code 2 "$EMU/pmu-emu" --cpu zen4 --profile junk.txt -- true 2>err &&
	test_line_count = 1 err && test_grep "junk.txt: not a perf stat output" err &&
	test_exit_code 2 "$EMU/pmu-emu" --cpu zen4 \
		--profile "$FIXTURES/perf-stat-published/case-11-zen4-ckl-blog-pipelineL1-L2.txt:9" -- true 2>err &&
	test_line_count = 1 err && test_grep "no session 9" err
'

test_expect_success 'profile: emulated Sapphire Rapids reproduces the Level 1 perf printed' '
	profile_matches sapphirerapids case-01-spr-kanliang-default-metricgroup.txt 1 1 &&
	test_line_count = 4 compared
'

test_expect_success 'profile: emulated Alder Lake reproduces Level 1 on both PMUs' '
	profile_matches alderlake case-17-adl-hybrid-irogers-topdownL1-4runs.txt 1 1 &&
	test_line_count = 8 compared
'

test_expect_success 'profile: emulated Zen 4 reproduces Level 1 and Level 2' '
	profile_matches zen4 case-11-zen4-ckl-blog-pipelineL1-L2.txt 1 1 &&
	test_line_count = 4 compared &&
	profile_matches zen4 case-11-zen4-ckl-blog-pipelineL1-L2.txt 2 2 &&
	test_line_count = 4 compared
'

# The published Comet Lake output counted core clocks the way perf's
# Skylake metrics do (CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE / REF_XCLK) and
# not CPU_CLK_UNHALTED.THREAD_ANY, which tdperf's skylake table counts with
# SMT on: the profile gives THREAD_ANY the rate of perf's identity
# (tests/pmu-emu/profile-rates).
test_expect_success 'profile: emulated Comet Lake reproduces Level 1 and 2' '
	profile_matches cometlake case-23-cml-multidim-topdownL1-L2-L3.txt 1 1 &&
	profile_matches cometlake case-23-cml-multidim-topdownL1-L2-L3.txt 2 2
'

test_done
