#!/bin/sh
# The shape of every Intel table's Top-Down tree (each node's level and
# parent) against Intel's own data, read independently of tdperf's importer
# (tests/fixtures/intel-tma-tree: intel-tma-tree.py over Intel perfmon's
# metrics JSON and TMA spreadsheets).  Where Intel's metrics JSON contradicts
# itself (icelakex MEM_Bandwidth/MEM_Latency without a ParentCategory;
# skylakex, cascadelakex, rocketlake Nop_Instructions and
# Serializing_Operation whose ParentCategory is not one level up), the
# spreadsheet decides, and the table must say so in a tree_note.
. "$(dirname "$0")/test-lib.sh"

TABLES=$TD_SRCDIR/metrics/tables
TREE=$FIXTURES/intel-tma-tree/tree.tsv
REF=${TD_REFERENCE:-$TD_SRCDIR/../shared/reference}

# shape TABLE: "ID LEVEL PARENT" of the table's tree nodes (a fourth column
# "perf" for a node that is perf 6.1's, named so by perf_formula.perf_only:
# Intel's current data lacks it, tests/e2e/t0212 places it), and of the
# nodes it keeps as helpers ("ID 0 aux") or leaves out ("ID 0 left-out")
shape() {
	jq -r '(.left_out // "") as $lo |
		(.metrics[] | select(.level >= 1) | "\(.id)\t\(.level)\t\(.parent // "-")" +
			(if .perf_formula.perf_only then "\tperf" else "" end)),
		(.metrics[] | select(.level == 0 and .area == "Info.Aux_View") | "\(.id)\t0\taux"),
		($lo | capture(": (?<l>.*)$").l // "" | split(", ")[] | "\(.)\t0\tleft-out")' \
		"$TABLES/$1.json"
}

test_expect_success 'the fixture covers every Intel table' '
	for f in "$TABLES"/*.json; do
		[ "$(jq -r .vendor "$f")" = GenuineIntel ] || continue
		t=$(basename "$f" .json)
		grep -q "^$t	" "$TREE" || { echo "no Intel tree for $t"; exit 1; }
	done
'

test_expect_success 'every node sits where Intel puts it, in every Intel table' '
	bad=0 n=0
	for t in $(cut -f1 "$TREE" | sort -u); do
		shape "$t" >have
		awk -F"\t" -v t="$t" "\$1 == t { print \$2 \"\t\" \$3 \"\t\" \$4 }" "$TREE" >want
		# a node Intel has must be in the table at its place, or be named
		# as left out / kept as a helper of the auxiliary view
		r=$(awk -F"\t" -v t="$t" "
			NR == FNR { have[\$1] = \$2 \"\t\" \$3; next }
			{ n++; w = \$2 \"\t\" \$3
			  if (!(\$1 in have)) { print t \": \" \$1 \": not in the table, not named as left out\"; bad++ }
			  else if (have[\$1] !~ /^0\t/ && have[\$1] != w) {
				print t \": \" \$1 \": level, parent \" have[\$1] \"; Intel: \" w; bad++ } }
			END { print \"#\", n + 0, bad + 0 }" have want)
		echo "$r" | grep -v "^#" || :
		set -- $(echo "$r" | sed -n "s/^# //p")
		n=$((n + $1)) bad=$((bad + $2))
		# and every tree node of the table is one of Intel'\''s, or perf'\''s
		awk -F"\t" -v t="$t" "NR == FNR { w[\$1] = 1; next }
			\$2 != 0 && !(\$1 in w) && \$4 != \"perf\" { print t \": \" \$1 \": not in Intel'\''s tree\"; e++ }
			END { exit e > 0 }" want have || bad=$((bad + 1))
	done
	echo "$n nodes compared, $bad wrong"
	test "$n" -gt 1900 && test "$bad" = 0
'

test_expect_success 'the nodes placed against Intel'\''s metrics JSON say why' '
	awk -F"\t" "\$5 == \"csv\" && \$1 !~ /^(sandybridge|ivybridge|.*_atom)\$/ { print \$1, \$2 }" "$TREE" >placed &&
	test_line_count = 8 placed &&
	while read -r t id; do
		jq -e --arg id "$id" ".metrics[] | select(.id == \$id) | .tree_note |
			test(\"TMA_Metrics-full.csv\")" "$TABLES/$t.json" >/dev/null ||
			{ echo "$t $id: no tree_note"; exit 1; }
	done <placed &&
	jq -e "[.metrics[] | select(.id == \"mem_bandwidth\" or .id == \"mem_latency\") |
		.level == 4 and .parent == \"l3_miss_bound\"] | all" "$TABLES/icelakex.json"
'

# With the reference data at hand (not on CI's clean clone), the fixture
# must be what Intel's files say now.
if [ -d "$REF/intel-perfmon" ] && have_prog python3; then
	test_expect_success 'the fixture is a fresh reading of the reference data' '
		python3 "$FIXTURES/intel-tma-tree/intel-tma-tree.py" "$REF" >fresh &&
		cmp fresh "$TREE"
	'
fi

test_done
