#!/bin/sh
# bench/hostile-probe.sh [SEED]: throw mutated and hostile inputs at every
# reading command and count what went wrong.  A probe, not a test: the
# fault suite (tests/e2e/t15*.sh) asserts each case; this counts many
# random ones and reports peak memory.
#
# Inputs: the published perf stat fixtures, a perf.data and a run
# directory recorded here (when perf works), each mutated: cut at random
# offsets, random bytes flipped, lines dropped or repeated, and hostile
# strings (shell and gnuplot command syntax, terminal escapes, printf
# formats, 100-digit counts) put into random lines.  Plus the endless and
# special inputs: /dev/zero, a 3 GB sparse file, a FIFO, stdin, and
# /dev/full as stdout.
#
# Commands: report (text, JSON, CSV, --html, --plot), diff, explain, dump.
# Counted: runs; crashes (a signal, or an exit status other than 0, 1, 2);
# hangs (no end within 20 s); failures (exit 2) without exactly one
# "tdperf: " error line; runs that left a half-written output after
# failing; marker files (an injected command that ran); raw ESC or BEL
# bytes on stdout; CSV text cells that start a spreadsheet formula; the
# attacks of another local user that won (as root: a script run by
# gnuplot, a root-only file deleted or overwritten); peak resident
# memory over all runs.  Ends with one summary line; exit 1 when any count
# but runs and memory is not 0.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
seed=${1:-1}
tdperf=${TDPERF:-$top/tdperf}
work=$(mktemp -d "${TMPDIR:-/tmp}/tdperf-probe.XXXXXX")
trap 'rm -rf "$work"' EXIT
mark=$work/MARK
fixtures=$top/tests/fixtures/perf-stat-published
[ -x /usr/bin/time ] || { echo "hostile-probe: needs /usr/bin/time (Debian package 'time')" >&2; exit 2; }

runs=0 crashes=0 hangs=0 badmsg=0 partial=0 peak=0 rawctl=0 formulas=0
log=$work/problems

# probe OUT WHAT CMD...: run one command under a 20 s limit and judge it.
# OUT is the output path the command may write ("" for none): after a
# failure it must not exist.
probe() {
	out=$1 what=$2
	shift 2
	rm -rf "$work/o" "$work/o.html" "$work/err"
	rc=0
	timeout 20 /usr/bin/time -f %M -o "$work/rss" "$@" >"$work/stdout" 2>"$work/err" </dev/null || rc=$?
	runs=$((runs + 1))
	rss=$(tail -n 1 "$work/rss" 2>/dev/null || echo 0)
	case $rss in *[!0-9]*|'') rss=0 ;; esac
	[ "$rss" -le "$peak" ] || peak=$rss
	if [ $rc = 124 ]; then
		hangs=$((hangs + 1)); echo "hang: $what" >>"$log"
	elif [ $rc -gt 2 ]; then
		crashes=$((crashes + 1)); echo "crash ($rc): $what" >>"$log"
	elif [ $rc = 2 ]; then
		n=$(grep -avc "^tdperf: \(warning\|note\): " "$work/err" || true)
		if [ "$n" != 1 ] || ! grep -av "^tdperf: \(warning\|note\): " "$work/err" | grep -aq "^tdperf: "; then
			badmsg=$((badmsg + 1)); echo "not one error line: $what" >>"$log"
		fi
		if [ -n "$out" ] && [ -e "$out" ]; then
			partial=$((partial + 1)); echo "half-written $out: $what" >>"$log"
		fi
	fi
	judge_output "$what" "$@"
}

# judge_output WHAT COMMAND...: what a run printed must not act on the reader's
# tools: no raw ESC or BEL reaches a terminal (a thread name can retitle
# and clear it), and no CSV text cell starts a spreadsheet formula.
judge_output() {
	jwhat=$1 csv=no prev=
	shift
	if LC_ALL=C grep -aq "$(printf '[\033\007]')" "$work/stdout"; then
		rawctl=$((rawctl + 1)); echo "raw ESC/BEL on stdout: $jwhat" >>"$log"
	fi
	# a CSV report: "--format csv" among the arguments (not a file name holding "csv")
	for a; do
		[ "$prev" = --format ] && [ "$a" = csv ] && csv=yes
		prev=$a
	done
	case $csv in
	yes)
		if LC_ALL=C grep -aEq '(^|,)([=@+]|-[^0-9.])' "$work/stdout"; then
			formulas=$((formulas + 1)); echo "CSV cell starting a formula: $jwhat" >>"$log"
		fi ;;
	esac
}

# mutate IN OUT K: write the K-th mutation of IN (deterministic per seed)
mutate() {
	awk -v seed="$seed$3" -v mark="$mark" '
	BEGIN { srand(seed); hostile[0] = "`touch " mark "`"; hostile[1] = "$(touch " mark ")";
		hostile[2] = "\"; system(\"touch " mark "\"); \""; hostile[3] = "@x\\\\n";
		hostile[4] = "\033[31m\033]0;t\007"; hostile[5] = "%s%n%s%n";
		hostile[6] = "1234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890";
		hostile[7] = "\x27 . system(\x27touch " mark "\x27) . \x27";
		hostile[8] = "=HYPERLINK(\"http://x\")"; hostile[9] = "@SUM(1+1)" }
	{ line[NR] = $0 }
	END {
		kind = int(rand() * 4)
		for (i = 1; i <= NR; i++) {
			l = line[i]
			if (kind == 0 && rand() < 0.05) continue                    # drop lines
			if (kind == 1 && rand() < 0.05) print l                     # repeat lines
			if (kind == 2 && rand() < 0.10 && length(l) > 0) {          # flip bytes
				p = int(rand() * length(l)) + 1
				l = substr(l, 1, p - 1) sprintf("%c", int(rand() * 94) + 33) substr(l, p + 1)
			}
			if (kind == 3 && rand() < 0.15) {                           # hostile strings
				p = int(rand() * (length(l) + 1))
				l = substr(l, 1, p) hostile[int(rand() * 10)] substr(l, p + 1)
			}
			print l
		}
	}' "$1" >"$2"
	# a third of the mutations are also cut at a random byte
	if [ $(($3 % 3)) = 0 ]; then
		size=$(wc -c <"$2")
		cut=$(awk -v s="$seed$3" -v n="$size" 'BEGIN { srand(s); print int(rand() * n) }')
		head -c "$cut" "$2" >"$2.cut" && mv "$2.cut" "$2"
	fi
}

# Every fixture, 12 mutations each, through every reading command.
for f in "$fixtures"/case-*.txt; do
	name=$(basename "$f" .txt)
	k=0
	while [ $k -lt 12 ]; do
		in=$work/$name.$k.txt
		mutate "$f" "$in" $k
		probe "" "report $name mutation $k" "$tdperf" report "$in"
		probe "" "report --format json $name $k" "$tdperf" report --format json "$in"
		probe "" "report --format csv $name $k" "$tdperf" report --format csv "$in"
		probe "$work/o.html" "report --html $name $k" "$tdperf" report --html "$work/o.html" "$in"
		probe "" "diff $name $k" "$tdperf" diff "$f" "$in"
		probe "" "explain $name $k" "$tdperf" explain backend_bound "$in"
		# gnuplot runs for the charts: every fourth mutation keeps the probe short
		[ $((k % 4)) != 0 ] || probe "$work/o" "report --plot $name $k" "$tdperf" report --plot "$work/o" "$in"
		rm -f "$in"
		k=$((k + 1))
	done
done

# perf.data and a run directory recorded here, mutated the same way
# (bytes flipped and cut, as text mutations would be meaningless).
if perf stat record --quiet -e task-clock,context-switches -o "$work/stat.data" true 2>/dev/null &&
   perf record -q -e cpu-clock -g -o "$work/rec.data" -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' 2>/dev/null &&
   "$tdperf" record -o "$work/run" -- true >/dev/null 2>&1; then
	for f in stat.data rec.data; do
		size=$(wc -c <"$work/$f")
		k=0
		while [ $k -lt 40 ]; do
			cp "$work/$f" "$work/m.data"
			awk -v s="$seed$k" -v n="$size" 'BEGIN { srand(s); for (i = 0; i < 8; i++)
				printf "%d %d\n", int(rand() * n), int(rand() * 256) }' |
			while read -r off byte; do
				printf "$(printf '\\%03o' "$byte")" |
				dd of="$work/m.data" bs=1 seek="$off" conv=notrunc 2>/dev/null
			done
			[ $((k % 2)) = 0 ] || { head -c $((size * k / 40)) "$work/m.data" >"$work/c.data" && mv "$work/c.data" "$work/m.data"; }
			probe "" "dump $f mutation $k" "$tdperf" dump "$work/m.data"
			[ $f = rec.data ] || probe "" "report $f mutation $k" "$tdperf" report "$work/m.data"
			k=$((k + 1))
		done
	done
	for file in meta.json $(ls "$work/run" | grep -v '^meta.json$'); do
		k=0
		while [ $k -lt 6 ]; do
			rm -rf "$work/mrun" && cp -r "$work/run" "$work/mrun"
			[ -f "$work/mrun/$file" ] || break
			mutate "$work/run/$file" "$work/mrun/$file" $k
			probe "" "report run/$file mutation $k" "$tdperf" report "$work/mrun"
			probe "$work/o.html" "report --html run/$file $k" "$tdperf" report --html "$work/o.html" "$work/mrun"
			k=$((k + 1))
		done
	done
else
	echo "hostile-probe: perf cannot record here: the perf.data and run-directory part is left out" >&2
fi

# Endless, huge and special inputs, and a full disk's stdout.
case23=$fixtures/case-23-cml-multidim-topdownL1-L2-L3.txt
probe "" "report /dev/zero" "$tdperf" report /dev/zero
probe "" "diff /dev/zero /dev/zero" "$tdperf" diff /dev/zero /dev/zero
probe "" "explain backend_bound /dev/zero" "$tdperf" explain backend_bound /dev/zero
probe "" "report /dev/urandom" "$tdperf" report /dev/urandom
truncate -s 3G "$work/sparse"
probe "" "report of a 3 GB sparse file" "$tdperf" report "$work/sparse"
probe "" "dump of a 3 GB sparse file" "$tdperf" dump "$work/sparse"
rm -f "$work/sparse"
mkfifo "$work/fifo"
(cat "$case23" >"$work/fifo" &)
probe "" "report FIFO" "$tdperf" report "$work/fifo"
probe "" "report - from a pipe" sh -c "cat '$case23' | '$tdperf' report -"
for c in "report" "report --format json" "report --format csv" "diff $case23" "explain backend_bound"; do
	probe "" "$c >/dev/full" sh -c "exec '$tdperf' $c '$case23' >/dev/full"
done

# Numbers perf cannot print: a negative count in CSV and in JSON must be
# refused (exit 2), never turned into an IPC or a CPI stack.
invented=0
sed '0,/^[0-9. ]*,[0-9]/s/^\([0-9. ]*\),\([0-9]\)/\1,-\2/' "$fixtures"/case-27-*.txt >"$work/neg.csv"
sed '0,/"counter-value" : "[0-9]/s/"counter-value" : "/"counter-value" : "-/' "$fixtures"/case-26-*.txt >"$work/neg.json"
for f in neg.csv neg.json; do
	probe "" "report of a negative count ($f)" "$tdperf" report "$work/$f"
	[ $rc = 2 ] || { invented=$((invented + 1)); echo "a negative count accepted: $f" >>"$log"; }
done

# Attacks by another local user (docs/security.md).  The probe runs as
# root; nobody plays the other user, in a sticky world-writable directory
# of the probe's own that stands for /tmp.  Each attack is the same every
# time and bounded in time; what it would have won is counted.
attacks=0 won=0
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	chmod 711 "$work"
	shared=$work/shared
	mkdir -m 1777 "$shared"
	mkdir -m 700 "$work/secret"
	echo root-only >"$work/secret/file"
	cp "$work/secret/file" "$work/secret/file.orig"

	# 1. --plot into the other user's directory, a script renamed over
	# each .gp as soon as it appears: gnuplot must never run it.
	as_nobody mkdir "$shared/plots"
	as_nobody sh -c 'end=$(($(date +%s) + 12)); while [ $(date +%s) -lt $end ]; do
		for f in "$1"/*.gp; do [ -e "$f" ] || continue
			printf "system(\"touch %s\")\n" "$2" >"$1/.evil" && mv -f "$1/.evil" "$f"; done; done' \
		sh "$shared/plots" "$mark" &
	attacker=$!
	for k in 1 2 3; do
		attacks=$((attacks + 1))
		"$tdperf" report --plot "$shared/plots" "$case23" >/dev/null 2>&1 || true
	done
	wait $attacker || true

	# 2. a stale run directory of the other user's, its subdirectory
	# swapped for a link to a root-only directory while it is removed:
	# the planted names include the root-only directory's.
	for k in 1 2 3; do
		attacks=$((attacks + 1))
		seq 1 100 | sed "s|^|$work/secret/s|" | xargs touch
		as_nobody sh -c 'mkdir -p "$1/tdperf.data.tmp-999999/a" && cd "$1/tdperf.data.tmp-999999/a" &&
			seq 1 3000 | xargs touch && seq 1 100 | sed s/^/s/ | xargs touch' sh "$shared"
		as_nobody sh -c 'd=$1/tdperf.data.tmp-999999; end=$(($(date +%s) + 8))
			while [ -d "$d" ] && [ $(date +%s) -lt $end ]; do
				mv "$d/a" "$d/b" 2>/dev/null && ln -s "$2" "$d/a" 2>/dev/null; rm -f "$d/a" && mv "$d/b" "$d/a" 2>/dev/null
			done' sh "$shared" "$work/secret" &
		attacker=$!
		(cd "$shared" && "$tdperf" import -q "$case23" >/dev/null 2>&1) || true
		wait $attacker || true
		rm -rf "$shared/tdperf.data" "$shared/tdperf.data.old" "$shared/tdperf.data.tmp-999999"
		[ "$(ls "$work/secret" | grep -c '^s')" = 100 ] ||
			{ won=$((won + 1)); echo "a root-only file was deleted through a swapped link" >>"$log"; }
	done

	# 3. links planted where tdperf writes: meta.json in the other user's
	# job directory, an -o file that is the other user's link.
	as_nobody mkdir "$shared/job"
	as_nobody ln -s "$work/secret/file" "$shared/job/meta.json"
	as_nobody ln -s "$work/secret/file" "$shared/report.txt"
	attacks=$((attacks + 2))
	"$tdperf" import -q -o "$shared/job" "$case23" >/dev/null 2>&1 || true
	"$tdperf" report -o "$shared/report.txt" "$case23" >/dev/null 2>&1 || true
	cmp -s "$work/secret/file" "$work/secret/file.orig" ||
		{ won=$((won + 1)); echo "a root-only file was overwritten through a planted link" >>"$log"; }
else
	echo "hostile-probe: not root or no setpriv: the other-user attacks are left out" >&2
fi

markers=0
[ ! -e "$mark" ] || { markers=1; echo "an injected command ran (marker file)" >>"$log"; }
[ ! -s "$log" ] || { echo "problems:"; sort "$log" | uniq -c | sort -rn | head -40; }
echo "hostile-probe (seed $seed): $runs runs, $crashes crashes, $hangs hangs," \
	"$badmsg failures without exactly one line, $partial half-written, $markers marker files," \
	"$rawctl with raw ESC/BEL, $formulas with CSV formula cells," \
	"$invented negative counts accepted, $attacks other-user attacks of which $won won, peak $((peak / 1024)) MB"
[ $((crashes + hangs + badmsg + partial + markers + rawctl + formulas + invented + won)) = 0 ]
