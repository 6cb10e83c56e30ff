#!/bin/sh
# tdperf report --hotspots on perf.data that perf records here: the
# per-function self and children shares equal perf report's, and the
# known hot functions of tw-hot are found wherever they live (executable,
# shared library, kernel, JIT map, stripped binary with a separate debug
# file, perf's build-id cache).
. "$(dirname "$0")/test-lib.sh"
. "$TD_SRCDIR/tests/e2e/perfdata-lib.sh"
. "$TD_SRCDIR/tests/e2e/hotspots-lib.sh"


require_cpu_clock_record 'hotspot tests'

# record NAME CMD...: perf record -e cpu-clock -g into NAME
record() {
	name=$1; shift
	"$PERF" record -q -e cpu-clock -g -o "$name" -- "$@" >"$name.log" 2>&1
}

# perf_self FILE: "PERCENT NAME" per symbol of perf report --no-children
# (unknown addresses, which perf lists one by one as hex, left out)
perf_self() {
	"$PERF" report -i "$1" --stdio --no-children --sort sym -g none 2>/dev/null |
		awk '/^ *[0-9.]+%/ && $2 ~ /^\[[.k]\]$/ && $3 !~ /^0x/ { sub("%", "", $1); print $1, $3 }'
}
# perf_children FILE: "PERCENT NAME" of perf report --children
perf_children() {
	"$PERF" report -i "$1" --stdio --children --sort sym -g none 2>/dev/null |
		awk '/^ *[0-9.]+%/ && $3 ~ /^\[[.k]\]$/ && $4 !~ /^0x/ { sub("%", "", $1); print $1, $4 }'
}
# ours FILE COLUMN: "PERCENT NAME" from tdperf's report (5: self, 7:
# children, the columns of its CSV), read from the JSON: the CSV quotes a
# name that starts with @ (a spreadsheet formula guard), as a PLT stub's
# "@plt" does
ours() {
	case $2 in 5) field=percent ;; 7) field=children_percent ;; *) return 1 ;; esac
	"$TDPERF" report --hotspots --format json "$1" |
		jq -r ".hotspots[] | select(.symbol != \"[unknown]\") | \"\(.$field) \(.symbol)\""
}
# agree A B TOL: every name in A has the same percentage in B within TOL,
# and every name of B at or above TOL is in A
agree() {
	awk -v tol="$3" '
		FNR == NR { a[$2] += $1; next }
		{ b[$2] += $1 }
		END {
			bad = 0
			for (n in a) {
				d = a[n] - b[n]; if (d < 0) d = -d
				if (d > tol) { printf "%s: perf %.2f, tdperf %.2f\n", n, a[n], b[n]; bad = 1 }
			}
			for (n in b) if (!(n in a) && b[n] >= tol) { printf "%s: tdperf %.2f, not in perf\n", n, b[n]; bad = 1 }
			exit bad
		}' "$1" "$2"
}

record hot.data "$W/tw-hot" 2 "$W/libtwhot.so"

test_expect_success 'self percentages equal perf report --no-children within 0.1' '
	perf_self hot.data >perf.self && ours hot.data 5 >td.self &&
	test_line_count -ge 5 perf.self &&
	agree perf.self td.self 0.1
'
test_expect_success 'children percentages equal perf report --children within 0.5' '
	perf_children hot.data >perf.children && ours hot.data 7 >td.children &&
	test_line_count -ge 5 perf.children &&
	agree perf.children td.children 0.5
'
test_expect_success 'the hot functions of the executable come first, a before b' '
	"$TDPERF" report --hotspots --format csv hot.data >hot.csv &&
	sed -n 2p hot.csv | test_grep -q "^tw_hot_a,.*/tw-hot," &&
	sed -n 3p hot.csv | test_grep -q "^tw_hot_b,.*/tw-hot,"
'
test_expect_success 'a function of a shared library is found in the library' '
	test_grep -q "^tw_lib_spin,.*/libtwhot.so,,[1-9]" hot.csv
'
test_expect_success 'JIT code is named from /tmp/perf-PID.map' '
	test_grep -q "^tw_jit_loop,/tmp/perf-[0-9]*.map,,[1-9]" hot.csv
'
test_expect_success 'kernel functions are named from kallsyms' '
	awk -F, "\$2 == \"[kernel.kallsyms]\" && \$1 != \"[unknown]\" && \$4 > 0" hot.csv >kernel &&
	test_line_count -ge 1 kernel
'
test_expect_success 'source lines come from the debug info' '
	test_grep -q "^tw_hot_a,.*,tests/workloads/tw-hot.c:[0-9]*$" hot.csv
'
# perf_lines FILE: "PERCENT SYMBOL FILE:LINE" of perf report --sort sym,srcline
perf_lines() {
	"$PERF" report -i "$1" --stdio --no-children --sort sym,srcline -g none 2>/dev/null |
		awk '/^ *[0-9.]+%/ && $2 ~ /^\[\.\]$/ && $3 ~ /^tw_/ { sub("%", "", $1); print $1, $3 "@" $4 }'
}
test_expect_success 'source lines of the hot functions equal perf report --sort sym,srcline within 0.1' '
	perf_lines hot.data >perf.lines && test_line_count -ge 4 perf.lines &&
	"$TDPERF" report --hotspots --format json hot.data >lines.json &&
	jq -r ".hotspots[] | select(.symbol | startswith(\"tw_\")) | .symbol as \$f |
		.lines[]? | \"\(.percent) \(\$f)@\(.source | split(\"/\") | last)\"" lines.json >td.lines &&
	awk "FNR == NR { a[\$2] = \$1; next } (\$2 in a) { seen++ }
	     END { exit !(seen >= 4) }" td.lines perf.lines &&
	awk "FNR == NR { a[\$2] = \$1; next } (\$2 in a) { d = a[\$2] - \$1; if (d < 0) d = -d
	     if (d > 0.1) { print \$2, \$1, a[\$2]; bad = 1 } } END { exit bad }" td.lines perf.lines
'
# The samples of tw_hot_inl whose address perf's srcline puts in the lines
# of tw_inl_step (inlined there) are the ones tdperf must give the inlined
# function: where the timer lands is the machine's business, the count is
# perf's.
test_expect_success 'an always-inlined function is named inside its caller, with the samples perf puts in its lines' '
	first=$(grep -n "tw_inl_step(uint64_t x, uint64_t i)" "$TD_SRCDIR/tests/workloads/tw-hot.c" | cut -d: -f1) &&
	last=$(awk -v f="$first" "NR > f && /^}/ { print NR; exit }" "$TD_SRCDIR/tests/workloads/tw-hot.c") &&
	"$PERF" script -i hot.data -F ip,sym,srcline -G 2>/dev/null |
	awk -v f="$first" -v l="$last" "/ tw_hot_inl\$/ { getline s; n++; sub(/.*:/, \"\", s);
		if (s + 0 >= f && s + 0 <= l) k++ } END { print n + 0, k + 0 }" >perf.inl &&
	read n k <perf.inl && test "$k" -gt 10 &&
	{ jq -e --argjson n "$n" --argjson k "$k" ".hotspots[] | select(.symbol == \"tw_hot_inl\") |
		.samples == \$n and .inlined[0].symbol == \"tw_inl_step\" and .inlined[0].samples == \$k" lines.json ||
	  { echo "perf: $n samples, $k in tw_inl_step"; jq -c ".hotspots[] | select(.symbol == \"tw_hot_inl\") | del(.lines)" lines.json; false; }; } &&
	"$TDPERF" report --hotspots hot.data | test_grep -q "inlined: tw_inl_step"
'

test_expect_success 'JSON: a hotspots array with symbol, dso, samples, percent, children_percent' '
	"$TDPERF" report --hotspots --format json hot.data >hot.json &&
	jq -e ".hotspots[0] | .symbol == \"tw_hot_a\" and (.dso | endswith(\"/tw-hot\")) and .samples > 0
		and .percent > 0 and .children_percent >= .percent and (.source | test(\"tw-hot.c:\"))" hot.json &&
	jq -e "[.hotspots[].samples] | add == $(jq .profile.samples hot.json)" hot.json
'
test_expect_success 'text says Top-Down per function needs hardware counters' '
	"$TDPERF" report --hotspots hot.data >hot.txt &&
	test_grep -q "tw_hot_a" hot.txt &&
	test_grep -q "Top-Down per function needs hardware counters" hot.txt
'

# a stripped copy with its symbols in a separate debug file (.gnu_debuglink)
mkdir -p strip
objcopy --only-keep-debug "$W/tw-hot" strip/tw-hot.debug
objcopy --strip-all --add-gnu-debuglink=strip/tw-hot.debug "$W/tw-hot" strip/tw-hot
record strip.data ./strip/tw-hot 1
test_expect_success 'stripped binary: names come from its separate debug file' '
	nm strip/tw-hot 2>&1 | test_grep -q "no symbols" &&
	"$TDPERF" report --hotspots --format csv strip.data >strip.csv &&
	sed -n 2p strip.csv | test_grep -q "^tw_hot_a,.*/strip/tw-hot," &&
	perf_self strip.data >perf.strip && ours strip.data 5 >td.strip && agree perf.strip td.strip 0.1
'

# the recorded binary is gone: perf's build-id cache (~/.debug) has a copy
mkdir -p moved
cp "$W/tw-hot" moved/tw-hot
record moved.data ./moved/tw-hot 1
rm moved/tw-hot
test_expect_success 'a binary gone since the recording is read from the build-id cache' '
	ls "$HOME"/.debug/.build-id/*/*/elf >/dev/null &&
	"$TDPERF" report --hotspots --format csv moved.data >moved.csv &&
	sed -n 2p moved.csv | test_grep -q "^tw_hot_a,.*/moved/tw-hot,"
'
test_expect_success 'an address without a symbol is kept as [unknown] with its DSO and offset' '
	"$PERF" record -q -e cpu-clock -g -o nosym.data -- ./strip/tw-hot 0.2 >/dev/null 2>&1 &&
	rm strip/tw-hot.debug &&
	"$TDPERF" report --hotspots nosym.data >nosym.txt &&
	test_grep -q "\[unknown\] in .*/strip/tw-hot+0x[0-9a-f]*" nosym.txt
'

# A sample in a PLT stub, named as perf names it: synthetic samples
# (tests/tools/perfdata-synth) at chosen stubs of this machine's libc, whose
# .plt holds named entries and entries of IRELATIVE relocations (perf:
# "@plt").  The second sample, in a thread perf leaves without maps, is at
# the PLT's header, which neither names.
test_expect_success 'samples in PLT stubs are named NAME@plt or @plt, as perf script names them' '
	libc=$(ldd "$W/tw-hot" | awk "\$1 ~ /^libc\\.so/ { print \$3 }") && test -f "$libc" &&
	plt=$(readelf -SW "$libc" | awk "{ for (i = 1; i < NF; i++) if (\$i == \".plt\") print \$(i + 3) }") &&
	test -n "$plt" &&
	irel=$(readelf -rW "$libc" | sed -n "/.rela.plt/,\$p" | awk "/R_X86_64_IRELATIVE/ { print NR - 3; exit }") &&
	test -n "$irel" &&
	for entries in "0 1" "2 $irel"; do
		set -- $entries &&
		a=$(printf "%x" $((0x$plt + 16 + 16 * $1))) && b=$(printf "%x" $((0x$plt + 16 + 16 * $2))) &&
		SYNTH=$TD_BUILDDIR/tests/tools/perfdata-synth &&
		"$SYNTH" --little-endian --mmap "$libc" --file-offsets "$a,$plt,$b" plt.data &&
		"$PERF" script -i plt.data -F ip,sym -G 2>/dev/null | awk "NF == 2 && \$2 != \"[unknown]\" { print \$2 }" | sort -u >perf.plt &&
		"$TDPERF" report --hotspots --format json plt.data |
			jq -r ".hotspots[] | select(.symbol != \"[unknown]\") | .symbol" | sort -u >td.plt &&
		test_line_count = 2 perf.plt && diff perf.plt td.plt && cat td.plt >>all.plt || exit 1
	done &&
	test_grep "^@plt$" all.plt && test_grep "^[a-z_].*@plt$" all.plt
'

# a leader-sampled group of software events: real PERF_SAMPLE_READ samples
"$PERF" record -q -e '{cpu-clock,task-clock,page-faults}:S' -g -o grp.data -- "$W/tw-hot" 1 "$W/libtwhot.so" >grp.log 2>&1
test_expect_success 'group samples: per-function deltas of every member equal perf script'"'"'s' '
	"$PERF" script -i grp.data -F event,period,ip,sym -G 2>/dev/null |
		awk "NF == 4 && \$4 !~ /^\[unknown\]/ { sub(\":\", \"\", \$2); s[\$4 \" \" \$2] += \$1 }
		     END { for (k in s) print k, s[k] }" | sort >perf.grp &&
	"$TDPERF" report --hotspots --format json grp.data >grp.json &&
	jq -r ".hotspots[] | select(.symbol != \"[unknown]\") | .symbol as \$f |
		.counts | to_entries[] | select(.value > 0) | \"\(\$f) \(.key) \(.value)\"" grp.json | sort >td.grp &&
	test_line_count -ge 10 perf.grp &&
	diff perf.grp td.grp
'
test_expect_success 'group samples: self percentages equal perf report'"'"'s leader column within 0.1' '
	"$PERF" report -i grp.data --stdio --no-children --sort sym -g none 2>/dev/null |
		awk "/^ *[0-9.]+%/ && \$4 ~ /^\[[.k]\]\$/ && \$5 !~ /^0x/ { sub(\"%\", \"\", \$1); print \$1, \$5 }" >perf.gself &&
	ours grp.data 5 >td.gself && test_line_count -ge 5 perf.gself &&
	agree perf.gself td.gself 0.1
'
test_expect_success 'group samples: the group is named and Top-Down needs its events' '
	jq -e ".profile.group == [\"cpu-clock\", \"task-clock\", \"page-faults\"]" grp.json
'

# Top-Down per function through the whole path, on real group samples: a
# table whose two "Level 1" nodes are formulas of the software members
cat >sw-table.json <<'TABLE'
{"tdperf_table": 1, "name": "software-group", "slots_per_cycle": 1,
 "metrics": [
  {"id": "faulting", "name": "Faulting", "level": 1, "domain": "slots",
   "formula": "page\\-faults * 100000 / cpu\\-clock", "threshold": "faulting > 0.2"},
  {"id": "computing", "name": "Computing", "level": 1, "domain": "slots",
   "formula": "1 - faulting", "threshold": "computing > 0.2"}
 ]}
TABLE
test_expect_success 'group samples: per-function Level 1 from the function'"'"'s own counts, with an interval' '
	"$TDPERF" report --hotspots --table sw-table.json --format json grp.data >td.json &&
	jq -r ".hotspots[] | select(.topdown.nodes) | [.symbol, .counts[\"page-faults\"], .counts[\"cpu-clock\"],
		(.topdown.nodes[] | select(.id == \"faulting\") | .value, .low, .high)] | @tsv" td.json >fault.tsv &&
	test_line_count -ge 3 fault.tsv &&
	awk -F"\t" "{ want = \$2 * 100000 / \$3; d = \$4 - want; if (d < 0) d = -d
		if (d > 1e-9 || \$5 > \$4 || \$6 < \$4) { print; bad = 1 } } END { exit bad }" fault.tsv
'
test_expect_success 'group samples: functions with too few samples say so instead of a number' '
	jq -e "[.hotspots[] | select(.topdown and .samples < 40)] | length > 0 and
		all(.topdown.note | test(\"too few samples\"))" td.json &&
	jq -e "all(.hotspots[] | select(.topdown.nodes); .samples >= 40)" td.json
'
test_expect_success 'group samples: text shows Level 1 bars and marks the bottleneck' '
	"$TDPERF" report --hotspots --table sw-table.json grp.data >td.txt &&
	sed -n "/ tw_hot_a /,/^ *[0-9]/p" td.txt >a.txt &&
	test_grep -q "Computing .*#.*<== bottleneck" a.txt &&
	test_grep -q "Faulting" a.txt
'
test_expect_success 'group samples: without a table holding the events, said once' '
	"$TDPERF" report --hotspots --cpu skylake grp.data >sky.txt &&
	test_grep -q "^Top-Down per function: the recorded group holds none" sky.txt
'

test_expect_success 'a perf.data without samples: one line, exit 2' '
	"$PERF" record -q -e cpu-clock -c 1000000000 -o empty.data -- true >/dev/null 2>&1 &&
	test_exit_code 2 "$TDPERF" report --hotspots empty.data 2>err &&
	test_line_count = 1 err && test_grep -q "empty.data: no samples" err
'
test_expect_success 'a truncated perf.data: one line, exit 2' '
	size=$(wc -c <hot.data) && head -c $((size / 2)) hot.data >cut.data &&
	test_exit_code 2 "$TDPERF" report --hotspots cut.data 2>err >out &&
	test_line_count = 1 err && test_grep -q "cut.data" err && test_line_count = 0 out
'
# C++: hot-cxx built here with the C++ compiler the README installs
# (build-essential).  perf report -v prints names with their parameters, as
# tdperf does; without -v perf drops them, and overloads look the same.
cxx=${CXX:-g++}
# perf_user_syms FILE [PERF OPTIONS]: "PERCENT<TAB>NAME" of each user-space
# function of perf report --no-children
perf_user_syms() {
	f=$1; shift
	"$PERF" report "$@" -i "$f" --stdio --no-children --sort sym -g none 2>/dev/null |
		sed -n 's/^ *\([0-9.]*\)%.* \[\.\] \(.*[^ ]\) *$/\1	\2/p'
}
# td_user_syms FILE [TDPERF OPTIONS]: the same from tdperf's JSON, for hot-cxx
td_user_syms() {
	f=$1; shift
	"$TDPERF" report --hotspots --format json "$@" "$f" |
		jq -r '.hotspots[] | select((.dso | endswith("/twc")) and .samples > 0) | "\(.percent)\t\(.symbol)"'
}
# same_shares PERF TD: each function of TD has perf's percentage within 0.1
same_shares() {
	awk -F'\t' 'FNR == NR { p[$2] = $1; next }
		!($2 in p) || (p[$2] - $1) ^ 2 > 0.01 { print "tdperf " $1 " " $2 ", perf " p[$2]; bad = 1 }
		END { exit bad }' "$1" "$2"
}
if ! have_prog "$cxx"; then
	test_skip 'C++ names' "no C++ compiler ($cxx): apt-get install build-essential"
else
	"$cxx" -O2 -g -fno-omit-frame-pointer -fno-inline -o twc "$TD_SRCDIR/tests/workloads/hot-cxx.cc" &&
	record cxx.data ./twc 1
	test_expect_success 'C++: names demangled as perf report -v prints them, the same self percentages' '
		perf_user_syms cxx.data -v >perf.cxx && td_user_syms cxx.data >td.cxx &&
		cat td.cxx &&
		grep -q "	tw::Grid<double>::sum(int) const$" td.cxx &&
		same_shares perf.cxx td.cxx
	'
	test_expect_success 'C++: two overloads of one name stay two functions' '
		grep "	tw::spin(int)$" td.cxx && grep "	tw::spin(double)$" td.cxx &&
		test $(grep -c "	tw::spin(" td.cxx) = 2
	'
	test_expect_success 'C++: --no-demangle keeps the names perf report --no-demangle shows' '
		perf_user_syms cxx.data --no-demangle >perf.raw && td_user_syms cxx.data --no-demangle >td.raw &&
		grep "	_ZN2tw4spinEd$" td.raw && grep "	_ZN2tw4spinEi$" td.raw &&
		same_shares perf.raw td.raw &&
		test_exit_code 2 "$TDPERF" report --no-demangle cxx.data 2>err &&
		test_grep -q "no-demangle is an option of --hotspots" err
	'
fi

# A label in .text (an STT_NOTYPE symbol without a size, as hand-written
# assembly and the dynamic loader's _start in its debug file have) names
# the code up to the next symbol, as perf report names it; tdperf used to
# show those samples as [unknown] (t0640's group and debug-file cases
# failed whenever a sample fell on ld.so's _start).
cat >label.c <<'EOF2'
__asm__(".text\n.globl tw_label_loop\ntw_label_loop:\n1: dec %rdi\n jnz 1b\n ret\n");
extern void tw_label_loop(long n);
int main(void) { tw_label_loop(600000000L); return 0; }
EOF2
test_expect_success 'a label in .text names its samples as perf report does' '
	cc -O1 -o label label.c && readelf -sW label | grep -q "NOTYPE .* tw_label_loop$" &&
	record label.data ./label &&
	perf_self label.data >perf.label && ours label.data 5 >td.label &&
	grep " tw_label_loop$" perf.label && grep " tw_label_loop$" td.label &&
	agree perf.label td.label 0.1
'

test_done
