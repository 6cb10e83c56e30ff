# Helpers for the perf.data end-to-end tests (t04xx): record with perf here
# and compare tdperf's reading with perf's own.  Sourced after test-lib.sh.

PERF=${TDPERF_PERF:-perf}

# perf_can_record: perf is installed and may record sched tracepoints
# (root or a permissive perf_event_paranoid, and tracefs mounted).
perf_can_record() {
	have_prog "$PERF" || { skip_reason="perf is not installed"; return 1; }
	if ! "$PERF" record -q -e sched:sched_switch -a -o probe.data -- true >probe.log 2>&1; then
		skip_reason="perf cannot record sched:sched_switch here (no tracefs or no permission): $(head -n1 probe.log)"
		return 1
	fi
	rm -f probe.data probe.log
	return 0
}

# A small workload that switches and wakes up tasks.
workload() {
	sh -c 'for i in 1 2 3 4 5 6 7 8; do sleep 0.01; done'
}

# perf_counts FILE OUT: the "Aggregated stats" of perf report -D as
# "TYPE N" lines (zero counts dropped), plus "event NAME SAMPLE N" per
# tracepoint event.
perf_counts() {
	"$PERF" report -D -i "$1" 2>/dev/null | awk '
		/^Aggregated stats:/ { on = 1; next }
		on && /^[^ ].* stats:$/ { ev = $1; sub(/:$/, "", ev); next }
		on && / events:/ {
			sub(/:/, "", $0)
			if ($3 == 0) next
			if (ev == "") print $1, $3
			else if ($1 == "SAMPLE" && ev ~ /:/) print "event", ev, "SAMPLE", $3
		}' >"$2"
}

# td_counts FILE OUT: the same from tdperf dump --summary (tracepoint
# events only in the per-event lines, as perf prints per-evsel stats for
# group members differently).
td_counts() {
	"$TDPERF" dump --summary "$1" >td.summary &&
	sed -n 's/^summary: //p' td.summary | grep -v '^event ' | grep -v '^TOTAL' >"$2.tmp" &&
	{ sed -n 's/^summary: TOTAL /TOTAL /p' td.summary; cat "$2.tmp"; } >"$2" &&
	sed -n 's/^summary: \(event [a-z_0-9]*:[a-z_0-9]* SAMPLE [0-9]*\)$/\1/p' td.summary >>"$2" &&
	rm -f "$2.tmp"
}

# compare_counts FILE: record counts per type equal perf report -D's.
compare_counts() {
	perf_counts "$1" perf.counts &&
	td_counts "$1" td.counts &&
	sort perf.counts >a && sort td.counts >b &&
	test -s a && diff -u a b
}

# compare_trace FILE: every tracepoint sample decodes to perf script's text,
# in the same (time) order.
compare_trace() {
	"$PERF" script -F trace -i "$1" 2>/dev/null | sed 's/^ *//' >perf.trace &&
	"$TDPERF" dump --time-order "$1" | sed -n 's/^  raw: size=[0-9]* //p' >td.trace &&
	test -s perf.trace && diff -u perf.trace td.trace >trace.diff || {
		head -n 20 trace.diff; return 1; }
}

# perf_stat_lines FILE OUT: perf stat report's counts as
# "TIME SCOPE EVENT VALUE" lines (TIME "-" and SCOPE "total" when absent;
# VALUE as printed, separators removed, "NS"/"NC" for <not supported> and
# <not counted>), and "elapsed S".
perf_stat_lines() {
	LC_ALL=C "$PERF" stat report -i "$1" 2>&1 | awk '
		{ sub(/#.*/, "") }
		/seconds time elapsed/ { print "elapsed", $1; next }
		/Performance counter stats/ || NF == 0 { next }
		{
			time = "-"; scope = "total"; i = 1
			if ($1 ~ /^[0-9]+\.[0-9]+$/ && NF > 2 && ($2 ~ /^[0-9,.]+$/ || $2 ~ /^</)) { time = $1; i = 2 }
			if ($i ~ /^CPU[0-9]+$/) { scope = $i; i++ }
			if ($i == "<not") { v = ($(i + 1) == "supported>") ? "NS" : "NC"; i += 2 }
			else { v = $i; gsub(/,/, "", v); i++; if ($i == "msec") i++ }
			print time, scope, $i, v
		}' >"$2"
}

# td_stat_lines FILE OUT: the same from tdperf dump --stat, rounded as perf
# prints (2 decimals for msec, integers otherwise).
td_stat_lines() {
	"$TDPERF" dump --stat "$1" | awk '
		/^session:/ { for (i = 1; i <= NF; i++) if ($i ~ /^elapsed=/) { e = substr($i, 9) } next }
		/^count / {
			v = $5
			if (v == "<not-supported>") v = "NS"
			else if (v == "<not-counted>") v = "NC"
			else if ($6 == "msec") v = sprintf("%.2f", v)
			else v = sprintf("%.0f", v)
			print $2, $3, $4, v
		}
		END { if (e != "nan") print "elapsed", e }' >"$2"
}

# compare_stat FILE: counts, intervals and elapsed time equal perf stat report's.
compare_stat() {
	perf_stat_lines "$1" perf.stat &&
	td_stat_lines "$1" td.stat &&
	sort perf.stat >a && sort td.stat >b &&
	test -s a && diff -u a b
}

# FIELDS_AWK: awk functions for compare_fields.  fields(S) turns the
# "name=value ..." text of a tracepoint into " name=value" items, numbers
# as numbers, prev_state left out (perf prints it as letters).  A value
# runs up to the next " name=": task names may hold spaces ("dconf
# worker"), so splitting on blanks would compare half a name.
FIELDS_AWK='
function fields(s,    out, k, v) {
	gsub(/ ==> /, " ", s)
	out = ""
	while (match(s, /^[A-Za-z_][A-Za-z_0-9]*=/)) {
		k = substr(s, 1, RLENGTH - 1)
		s = substr(s, RLENGTH + 1)
		if (match(s, / [A-Za-z_][A-Za-z_0-9]*=/)) {
			v = substr(s, 1, RSTART - 1)
			s = substr(s, RSTART + 1)
		} else {
			v = s
			s = ""
		}
		if (k == "prev_state") continue
		if (v ~ /^-?[0-9]+$/) v = v + 0
		out = out " " k "=" v
	}
	return out
}'

# compare_fields FILE: the tracepoint fields read through the reader API
# (tests/tools/perfdata-fields) equal perf script's, sample by sample:
# pid, tid, cpu, time (to the microsecond perf prints) and every
# "name=value" field perf prints (not prev_state, which perf prints as
# letters), numbers compared as numbers.
compare_fields() {
	"$PERF" script -F pid,tid,cpu,time,event,trace -i "$1" 2>/dev/null | awk "$FIELDS_AWK"'
		{
			split($1, pt, "/"); cpu = $2; gsub(/[][]/, "", cpu)
			t = $3; sub(/:$/, "", t); ev = $4; sub(/:$/, "", ev)
			rest = $0
			sub(/^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ */, "", rest)
			print ev " " pt[1] " " pt[2] " " cpu + 0 " " t fields(rest)
		}' >perf.fields &&
	"$TD_BUILDDIR/tests/tools/perfdata-fields" "$1" | awk "$FIELDS_AWK"'
		{
			ev = $1; split($2, a, "="); split($3, b, "="); split($4, c, "=")
			split($5, d, "="); ns = d[2]
			t = sprintf("%d.%06d", int(ns / 1e9), int(ns / 1000) % 1000000)
			rest = $0
			sub(/^[^ ]+ [^ ]+ [^ ]+ [^ ]+ [^ ]+ ?/, "", rest)
			print ev " " a[2] " " b[2] " " c[2] " " t fields(rest)
		}' >td.fields &&
	test -s perf.fields && diff -u perf.fields td.fields >fields.diff || {
		head -n 20 fields.diff; return 1; }
}

# compare_reads FILE: every SAMPLE's offset, time, pid/tid, ip, period and
# READ values (enabled, running, and id/value/lost of each group member)
# equal what perf report -D prints.
compare_reads() {
	"$PERF" report -D -i "$1" 2>/dev/null | awk '
		function flush() { if (cur != "") print cur extra; cur = ""; extra = "" }
		/^[0-9]+ 0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_SAMPLE/ {
			flush()
			split($0, w, " ")
			for (i = 1; i <= NF; i++) if ($i ~ /^-?[0-9]+\/-?[0-9]+:$/) { pt = $i; ip = $(i + 1) }
			sub(/:$/, "", pt); split(pt, p, "/")
			for (i = 1; i <= NF; i++) if ($i == "period:") per = $(i + 1)
			cur = $2 " " $1 " " p[1] " " p[2] " " ip " " per
			next
		}
		/^\.\.\.\.\.\. time enabled/ { extra = extra " ena=" sprintf("%.0f", ("0x" $4) + 0); next }
		/^\.\.\.\.\.\. time running/ { extra = extra " run=" sprintf("%.0f", ("0x" $4) + 0); next }
		/^\.\.\.\.\. id / {
			id = $3; sub(/,$/, "", id); v = $5; sub(/,$/, "", v)
			extra = extra " " sprintf("%.0f", ("0x" id) + 0) "=" sprintf("%.0f", ("0x" v) + 0) "/" $7
			next
		}
		END { flush() }' >perf.reads &&
	"$TDPERF" dump "$1" | awk '
		function flush() { if (cur != "") print cur extra; cur = ""; extra = "" }
		/^@/ { flush() }
		/^@0x[0-9a-f]+ SAMPLE / {
			for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
			cur = substr($1, 2) " " f["time"] " " f["pid"] " " f["tid"] " " f["ip"] " " f["period"]
			next
		}
		/^  read:/ {
			for (i = 2; i <= NF; i++) {
				if ($i ~ /^enabled=/) extra = extra " ena=" substr($i, 9)
				else if ($i ~ /^running=/) extra = extra " run=" substr($i, 9)
				else if ($i ~ /^value=/) v = substr($i, 7)
				else if ($i ~ /^id=/) id = substr($i, 4)
				else if ($i ~ /^lost=/) { l = substr($i, 6); sub(/\]$/, "", l); extra = extra " " id "=" v "/" l }
			}
		}
		END { flush() }' >td.reads &&
	# perf report -D prints samples as it delivers them (time order)
	sort perf.reads >a && sort td.reads >b &&
	test -s a && diff -u a b >reads.diff || {
		head -n 20 reads.diff; return 1; }
}
