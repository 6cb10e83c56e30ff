#!/bin/sh
# An MPI job recorded with --regions under mpirun: each rank's library
# writes its regions, and the job report merges them over the ranks by
# region name (min / mean / max and the rank farthest from the median).
# Rank 2 gives region A three times the others' iterations (by
# construction); each statistic must be the one the ranks' own region
# reports ('tdperf report RANKDIR': the kernel's task-clock and the
# monotonic clock per region) make.
. "$(dirname "$0")/test-lib.sh"
. "$TD_SRCDIR/tests/e2e/job-lib.sh"

CC=${TD_CC:-cc}
if ! have_prog mpirun; then
	job_missing "Open MPI missing: mpirun not found; apt-get install openmpi-bin" 'mpirun job with regions'
	test_done
fi

test_expect_success 'mpirun -np 3 tdperf record --regions: three rank directories with their regions' '
	$CC -O1 -I"$TD_SRCDIR/regions" -o app "$TD_SRCDIR/tests/regions/regions-app.c" \
		-L"$TD_BUILDDIR" -ltdperf -Wl,-rpath,"$TD_BUILDDIR" -pthread &&
	mpirun --allow-run-as-root --oversubscribe -np 3 sh -c "exec \"$TDPERF\" record --regions -o JOB -- \
		./app work \$((OMPI_COMM_WORLD_RANK == 2 ? 6000000 : 2000000)) 2000000" 2>err &&
	for r in 0 1 2; do
		d=$(echo JOB/rank-0000$r.*) &&
		ls "$d"/regions-*.json &&
		jq -e "[.regions[].name] | sort == [\"(root)\", \"A\", \"B\"]" "$d/summary.json" &&
		"$TDPERF" report --format json "$d" >rank$r.json || exit 1
	done
'

test_expect_success 'the job report: per region, min / mean / max of each rank'"'"'s own region report' '
	"$TDPERF" report --format json JOB >job.json &&
	jq -e "[.job.regions[].name] | sort == [\"(root)\", \"A\", \"B\"]" job.json &&
	for r in "(root)" A B; do
		for k in calls time_s "counts[\"task-clock\"]"; do
			case $k in
			counts*) m=cpu_s scale=1e9 ;;
			*) m=$k scale=1 ;;
			esac &&
			jq -r -s --arg n "$r" "[.[] | .regions[] | select(.name == \$n) | .$k / $scale] |
				\"\\(min) \\(add / length) \\(max)\"" rank0.json rank1.json rank2.json >want &&
			jq -r --arg n "$r" ".job.regions[] | select(.name == \$n) | .stats.$m |
				\"\\(.min) \\(.mean) \\(.max)\"" job.json >got &&
			paste -d" " want got | awk "{ for (i = 1; i <= 3; i++) { d = \$i - \$(i + 3); if (d < 0) d = -d;
				if (d > 1e-9 * (\$i < 0 ? -\$i : \$i) + 1e-12) exit 1 } }" ||
			{ echo "$r $m: $(cat got) want $(cat want)"; exit 1; }
		done
	done
'

test_expect_success 'rank 2, with three times the work in A, is region A'"'"'s outlier; each rank'"'"'s CPU time is its root region' '
	jq -c ".job.regions[] | {name, outlier}" job.json &&
	jq -e ".job.regions[] | select(.name == \"A\") | .outlier.rank == 2 and .outlier.ratio_to_median > 1.5 and .outlier.imbalanced" job.json &&
	jq -e ".job.regions[] | select(.name == \"A\") | .stats.cpu_s.max_rank == 2 and .ranks == 3 and .missing_in == []" job.json &&
	for r in 0 1 2; do
		jq -e --slurpfile s rank$r.json ".ranks[$r].cpu_s - (\$s[0].regions[0].counts[\"task-clock\"] / 1e9) | fabs < 1e-9" job.json || exit 1
	done
'

test_expect_success 'text: the regions over ranks, with the outlier named' '
	"$TDPERF" report JOB >job.txt &&
	test_grep "^Regions over ranks" job.txt &&
	test_grep "^A  *3 .* rank 2 (x[0-9.]* the median CPU time) imbalanced" job.txt
'

test_expect_success 'CSV: each rank'"'"'s own region values, and the statistics of the job document' '
	"$TDPERF" report --format csv JOB >job.csv &&
	for r in 0 1 2; do
		for k in calls time_s; do
			for n in "(root)" A B; do
				want=$(jq -r --arg n "$n" ".regions[] | select(.name == \$n) | .$k" rank$r.json) &&
				got=$(awk -F, -v r=$r -v m="$n:$k" "\$1 == \"region\" && \$2 == r && \$5 == m { print \$6 }" job.csv) &&
				awk -v a="$want" -v b="$got" "BEGIN { d = a - b; if (d < 0) d = -d; exit !(b != \"\" && d <= 1e-9 * a + 1e-12) }" ||
				{ echo "rank $r $n:$k: $got want $want"; exit 1; }
			done
		done
	done &&
	test "$(grep -c "^region_mean,,,,A:cpu_s," job.csv)" = 1 &&
	jq -r ".job.regions[] | select(.name == \"A\") | .stats.cpu_s | \"\(.min_rank) \(.min) \(.max_rank) \(.max)\"" job.json >want &&
	{ awk -F, "\$1 == \"region_min\" && \$5 == \"A:cpu_s\" { printf \"%s %s \", \$2, \$6 }
		  \$1 == \"region_max\" && \$5 == \"A:cpu_s\" { print \$2, \$6 }" job.csv; } >got &&
	paste -d" " want got | awk "{ exit !(\$1 == \$5 && \$3 == \$7 && (\$2 - \$6) ^ 2 < 1e-18 && (\$4 - \$8) ^ 2 < 1e-18) }" &&
	test_grep "^region_outlier_imbalanced,2,,,A:cpu_s,[0-9.]*$" job.csv
'

test_expect_success 'HTML: the job page has the regions over ranks, with the outlier' '
	"$TDPERF" report --html=job.html JOB &&
	test_grep "<h2>Regions over ranks</h2>" job.html &&
	test "$(grep -c "^<tr><td>\((root)\|A\|B\)</td><td class=\"num\">3</td>" job.html)" = 3 &&
	test_grep "<strong>rank 2, x[0-9.]* the median CPU time (imbalanced)</strong>" job.html
'

test_done
