#!/bin/sh
# The nodes perf 6.1 has and Intel's current data lacks (issue 30 item 9):
# skylakex local/remote_dram; icelakex dram_bound, pmm_bound, lsd,
# local/remote_dram; sapphirerapids dram_bound, pmm_bound,
# local/remote_dram, fp_amx, int_amx, shuffles; alderlake (P-core)
# shuffles.  metrics/compat/perf-6.1/<table>.json adds them with perf's
# expression, marked perf_formula.perf_only.
#
# The oracle is perf 6.1 itself: the level of each of its metrics
# (tests/fixtures/perf-oracle/CPU/levels), its parent (the group
# tma_PARENT_group `perf list` prints it under, under tests/pmu-emu; the
# one `perf stat -M tma_PARENT_group` runs) and the values it
# printed in tests/fixtures/perf-oracle.
. "$(dirname "$0")/test-lib.sh"

. "$TD_SRCDIR/tests/e2e/pmu-emu-lib.sh"

emu_require

ORACLE=$FIXTURES/perf-oracle
TABLES=$TD_SRCDIR/metrics/tables

# perf_only TABLE: "ID LEVEL PARENT" of the table's perf-only nodes
perf_only() {
	jq -r '.metrics[] | select(.perf_formula.perf_only) | "\(.id) \(.level) \(.parent)"' \
		"$TABLES/$1.json"
}

test_expect_success 'the perf-only nodes are in the tables perf has them for' '
	for t in skylakex icelakex sapphirerapids alderlake; do
		echo $t $(perf_only $t | cut -d" " -f1 | sort)
	done >have &&
	cat >want <<-\EOF &&
	skylakex local_dram remote_dram
	icelakex dram_bound local_dram lsd pmm_bound remote_dram
	sapphirerapids dram_bound fp_amx int_amx local_dram pmm_bound remote_dram shuffles
	alderlake shuffles
	EOF
	cmp want have &&
	for t in cascadelakex icelake tigerlake rocketlake alderlake_atom; do
		test -z "$(perf_only $t)" || { echo "$t: perf-only nodes"; return 1; }
	done
'

test_expect_success 'each sits at perf 6.1'"'"'s level and under perf'"'"'s parent' '
	for t in skylakex icelakex sapphirerapids alderlake; do
		pmu=-
		test $t = alderlake && pmu=cpu_core
		perf_only $t >nodes.$t && test -s nodes.$t &&
		# "GROUP METRIC": perf list prints each metric under its groups
		"$EMU/pmu-emu" --cpu $t -- perf list 2>/dev/null |
			awk "/^[a-zA-Z0-9_]+_group:\$/ { g = substr(\$1, 1, length(\$1) - 1); next }
				/^[^ ]/ { g = \"\" } g != \"\" && /^  tma_/ { print g, \$1 }" >groups.$t &&
		grep -q "^tma_memory_bound_group tma_l1_bound\$" groups.$t &&
		while read -r id level parent; do
			# (levels names the PMU of the event perf printed the value
			# beside: cpu_atom for Alder Lake'"'"'s P-core shuffles, last test)
			grep -qx -e "$pmu tma_$id $level" "$ORACLE/$t/levels" ||
				grep -qx -e "cpu_atom tma_$id $level" "$ORACLE/$t/levels" ||
				{ echo "$t $id: perf has no level $level for it"; return 1; }
			grep -qx -e "tma_${parent}_group tma_$id" groups.$t ||
				{ echo "$t $id: not in perf'"'"'s tma_${parent}_group"; return 1; }
		done <nodes.$t || return 1
	done
'

# Every value perf printed for them, in the three formats: within perf's
# print rounding (perf-oracle "agree"), or within a thousandth of the value
# where perf printed six decimals (the latency nodes' frequency input,
# expected-differences; t0547), never n/a.
test_expect_success 'tdperf reproduces every value perf printed for them' '
	"$EMU/perf-oracle" compare "$ORACLE" skylakex icelakex sapphirerapids >rows 2>/dev/null &&
	for t in skylakex icelakex sapphirerapids; do
		cut -d" " -f1 nodes.$t | sed "s/^/$t tma_/"
	done >want &&
	awk "FNR == NR { want[\$1 \" \" \$2] = 1; next }
		\$1 == \"row\" && (\$2 \" \" \$6) in want {
			n++; seen[\$2 \" \" \$6]++
			p = \$8; v = \$9; d = p - v; if (d < 0) d = -d; a = p < 0 ? -p : p
			if (\$7 == \"agree\") ok++
			else if (\$7 == \"differ\" && d < a / 1000) near++
			else { print \"perf and tdperf differ:\", \$0; bad = 1 } }
		END { for (k in want) if (seen[k] < 3) { print k \": printed in\", seen[k] + 0, \"formats\"; bad = 1 }
			print n + 0, \"values,\", ok + 0, \"agree,\", near + 0, \"within 1e-3\"; exit bad }" want rows >result &&
	cat result &&
	grep -q "^42 values, " result
'

# Alder Lake: perf 6.1 prints its P-core tma_shuffles beside a cpu_atom
# event, computed on the E-core'"'"'s retiring slots (perf resolves
# tma_retiring and SLOTS to the cpu_atom metrics of those names):
# cpu_core INT_VEC_RETIRED.SHUFFLES / cpu_atom TOPDOWN_RETIRING.ALL, which
# is why expected-differences lists it; the P-core node is perf'"'"'s
# expression on the P-core'"'"'s counts.
test_expect_success 'alderlake: perf'"'"'s printed tma_shuffles is P-core shuffles over E-core retiring' '
	awk "/tma_shuffles/ { on = 1 }
		on && /cpu_atom\\/TOPDOWN_RETIRING.ALL\\// { r = \$1 }
		on && /cpu_core\\/INT_VEC_RETIRED.SHUFFLES\\// { s = \$1 }
		on && /tma_shuffles/ { match(\$0, /# +[0-9.]+ %/); p = substr(\$0, RSTART + 1, RLENGTH - 2) + 0 }
		on && /duration_time/ { on = 0 }
		END { v = 100 * s / r; printf \"perf %.1f, shuffles / atom retiring %.4f\\n\", p, v
			d = v - p; exit !(s > 0 && r > 0 && d < 0.05 && d > -0.05) }" "$ORACLE/alderlake/L4.txt" &&
	"$TDPERF" report --format json "$ORACLE/alderlake/L4.json" >adl.json &&
	jq -e "[.scopes[] | select(.pmu == \"cpu_core\") | .nodes[] | select(.id == \"shuffles\") |
		.level == 4 and .parent == \"int_operations\" and .perf_formula.perf_only] | any" adl.json
'

test_expect_success 'the report says the node is perf 6.1'"'"'s: JSON perf_formula.perf_only, text -v' '
	"$TDPERF" report --format json "$ORACLE/icelakex/all.json" >icx.json &&
	jq -e "[.scopes[0].nodes[] | select(.id == \"pmm_bound\") |
		.perf_formula.perf_only == true and .perf_formula.perf_version == \"6.1\" and
		.parent == \"memory_bound\" and .level == 3] | any" icx.json &&
	"$TDPERF" report -v --level 3 "$ORACLE/icelakex/all.json" >v.txt &&
	grep -A2 "PMM Bound" v.txt | grep -F "(a node of perf 6.1, computed with its formula:" &&
	"$TDPERF" report --level 3 "$ORACLE/icelakex/all.json" >plain.txt &&
	! grep -q "a node of perf 6.1" plain.txt
'

test_done
