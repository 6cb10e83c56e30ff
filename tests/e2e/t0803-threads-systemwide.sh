#!/bin/sh
# Per-thread stacks of system-wide recordings ('tdperf record --threads -a')
# against perf's own decoding of the same file.
#
# The reference is 'perf script --show-switch-events': the switch records
# (PERF_RECORD_SWITCH_CPU_WIDE, written for every switch-in and switch-out
# of a thread, with "preempt" on an involuntary switch-out) and the
# sched_waking / sched_wakeup_new tracepoints, reduced per thread by a few
# lines of awk (below):
#   run      = switch-in to switch-out
#   runnable = preempted switch-out, or waking, to the next switch-in
#   off-CPU  = voluntary switch-out to the waking (sync, I/O, sleep for us)
# These must equal tdperf's running, runnable and sync+io+sleep+unknown
# within 0.5 ms + 0.5 % of the thread's life.
#
# Why not sched_switch alone (or 'perf sched timehist', which reads only
# sched_switch)?  A switch away from the idle task is often not traced (the
# CPU was idle), so the switch-in of a thread woken on an idle CPU is missing
# from sched_switch; timehist then credits the idle time as run time.  The
# switch records have it.
. "$(dirname "$0")/test-lib.sh"

W=$TD_BUILDDIR/tests/workloads
PERF=${TDPERF_PERF:-perf}

if ! have_prog "$PERF" || ! have_prog jq; then
	test_skip 'system-wide thread stacks against perf script' 'perf or jq is not installed'
	test_done
fi
if ! "$PERF" record -q -a --switch-events -e sched:sched_switch -o probe.data -- true 2>perf.err ||
   ! "$PERF" script -i probe.data --show-switch-events >/dev/null 2>&1; then
	test_skip 'system-wide thread stacks against perf script' \
		"perf cannot record sched tracepoints system wide here ($(head -n 1 perf.err 2>/dev/null)): needs tracefs and root or perf_event_paranoid <= -1"
	test_done
fi

cat >reference.awk <<'EOF'
# the workload's threads (created during the recording by the workload's
# process, pid given as -v pid=: other programs, other tests' workloads of
# the same name among them, run too): run, runnable and off-CPU ms
function settle(t, now) {
	if (st[t] == "run") run[t] += now - since[t]
	else if (st[t] == "R" || st[t] == "W") rq[t] += now - since[t]
	else if (st[t] == "S") off[t] += now - since[t]
	since[t] = now
}
{
	tid = $1; now = $2 + 0
	if ($0 ~ /PERF_RECORD_SWITCH/) {
		if (!(tid in want)) next
		if ($0 ~ / IN /) { settle(tid, now); st[tid] = "run" }
		else if ($0 ~ / OUT / && st[tid] == "run") { settle(tid, now); st[tid] = ($0 ~ /preempt/) ? "R" : "S" }
		next
	}
	if ($0 ~ /sched:sched_wakeup_new:|sched:sched_waking:/) {
		match($0, /pid=[0-9]+/); t = substr($0, RSTART + 4, RLENGTH - 4)
		if ($0 ~ /wakeup_new/) { if (tid == pid) { want[t] = 1; st[t] = "W"; since[t] = now } }
		else if ((t in want) && st[t] == "S") { settle(t, now); st[t] = "W" }
		next
	}
	if ($0 ~ /sched:sched_process_exit:/ && (tid in want)) { settle(tid, now); st[tid] = "dead" }
}
END { for (t in want) printf "%s %.6f %.6f %.6f\n", t, run[t] * 1000, rq[t] * 1000, off[t] * 1000 }
EOF

for w in lock:tw-lock barrier:tw-barrier imbalance:tw-imbalance; do
	name=${w%%:*} prog=${w#*:}
	test_expect_success "$name: record system wide, analyse, and reduce perf script's records" "
		ASAN_OPTIONS=detect_leaks=0 \"\$TDPERF\" record --threads -a -o $name.data -- \\
			sh -c 'echo \$\$ >$name.pid; exec \"\$0\" 2' \"$W/$prog\" >/dev/null 2>$name.err &&
		\"\$TDPERF\" report --format json $name.data >$name.json &&
		\"\$PERF\" script -i $name.data/perf.data --show-switch-events -F tid,time,event,trace 2>/dev/null |
			awk -v pid=\$(cat $name.pid) -f reference.awk >$name.ref &&
		test \$(wc -l <$name.ref) -ge 2
	"
	test_expect_success "$name: each thread's run, runnable and off-CPU time equal perf's records" "
		checked=0 &&
		while read -r tid run rq off; do
			jq -r --argjson t \$tid '.threads.threads[] | select(.tid == \$t) |
				\"\\(.life.running * 1000) \\(.life.runnable * 1000) \\((.life.sync + .life.io + .life.sleep + .life.unknown) * 1000) \\((.end - .start) * 1000)\"' \\
				$name.json >ours || exit 1
			test -s ours || { echo \"thread \$tid: not in the analysis\"; exit 1; }
			read -r orun orq ooff life <ours
			awk -v t=\$tid -v life=\$life -v a1=\$orun -v b1=\$run -v a2=\$orq -v b2=\$rq \\
			    -v a3=\$ooff -v b3=\$off 'BEGIN {
				tol = 0.5 + 0.005 * life
				printf \"thread %s (life %.1f ms): run %.3f/%.3f runnable %.3f/%.3f off-CPU %.3f/%.3f ms (tdperf/perf)\\n\",
					t, life, a1, b1, a2, b2, a3, b3
				d1 = a1 - b1; d2 = a2 - b2; d3 = a3 - b3
				exit (d1 < -tol || d1 > tol || d2 < -tol || d2 > tol || d3 < -tol || d3 > tol) }' || exit 1
			checked=\$((checked + 1))
		done <$name.ref &&
		test \$checked -ge 2
	"
done

test_done
