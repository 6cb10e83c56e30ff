#!/bin/sh
# A real MPI job recorded rank by rank under Open MPI's mpirun, as users
# type it: "mpirun -np 4 tdperf record -o JOB -- ./app".  The program
# (tests/workloads/mpi-imbalance.c) gives rank 3 five times the work of
# the others, by construction; the merged report must name rank 3 and
# show the imbalance in CPU time (not wall time, which the machine's load
# and the barrier make equal for all ranks).
. "$(dirname "$0")/test-lib.sh"
. "$TD_SRCDIR/tests/e2e/job-lib.sh"

APP=$TD_BUILDDIR/tests/workloads/mpi-imbalance
if ! have_prog mpirun || ! test -x "$APP"; then
	why="Open MPI missing: mpirun $(command -v mpirun || echo 'not found'), $APP $(test -x "$APP" && echo built || echo 'not built (configure found no mpicc)'); apt-get install openmpi-bin libopenmpi-dev"
	job_missing "$why" 'mpirun job'
	test_done
fi
MPIRUN="mpirun --allow-run-as-root --oversubscribe -np 4"

test_expect_success 'mpirun -np 4 tdperf record writes one run directory per rank' '
	$MPIRUN "$TDPERF" record --threads -o JOB -- "$APP" 6 3 5 2>err &&
	jq -e ".format == \"tdperf-job\" and .launcher == \"openmpi\" and .ranks == 4" JOB/meta.json &&
	for r in 0 1 2 3; do
		d=$(echo JOB/rank-0000$r.*) &&
		test -f "$d/summary.json" &&
		jq -e ".job.rank == $r and .job.size == 4 and .job.scope == \"process\"" "$d/meta.json" || exit 1
	done &&
	test $(ls -d JOB/rank-* | wc -l) = 4
'

test_expect_success 'the merged JSON report: every rank, its node and times' '
	"$TDPERF" report --format json JOB >job.json &&
	jq -e "[.ranks[].rank] == [0,1,2,3]" job.json &&
	jq -e "[.ranks[] | (.host|type) == \"string\" and .node == 0 and .elapsed_s > 0 and .cpu_s > 0 and .scope == \"process\"] | all" job.json &&
	jq -e ".job.missing == [] and .job.incomplete == [] and (.nodes|length) == 1" job.json
'

test_expect_success 'each rank CPU time is perf own task-clock of that rank' '
	for r in 0 3; do
		d=$(echo JOB/rank-0000$r.*) &&
		perf_ms=$(grep ",task-clock," "$d/perf-stat-1.csv" | cut -d, -f1) &&
		jq -e --argjson p "$perf_ms" ".ranks[$r].cpu_s * 1000 - \$p | fabs < 0.001" job.json || exit 1
	done
'

test_expect_success 'rank 3 is the outlier and its running time grows (5x the work by construction)' '
	outliers_follow_rule job.json &&
	rank3_running_grows job.json &&
	# max over mean of 1,1,1,5 units is 2.5; the MPI start-up time of every rank lowers it
	rank3_work_shows job.json 5
'

test_expect_success 'text, CSV and HTML name the outlier' '
	"$TDPERF" report JOB >job.txt &&
	grep "^Job .* (openmpi): 4 ranks of 4 on 1 node" job.txt &&
	grep "^Outlier: rank 3 " job.txt &&
	"$TDPERF" report --format csv JOB >job.csv &&
	test $(grep -c "^rank,[0-3],.*,cpu_s," job.csv) = 4 &&
	grep "^max_over_mean,,,,cpu_s," job.csv &&
	"$TDPERF" report --html job.html JOB >/dev/null &&
	grep "class=\"outlier\">rank <b>3</b>" job.html &&
	test $(grep -c "^<tr><th>[0-3]</th>" job.html) = 4 &&
	! grep "{{" job.html
'

CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
TMPDIR=$TEST_DIR
export CHROMIUM TMPDIR
if test -x "$CHROMIUM" && have_prog node; then
	test_expect_success 'the job page loads in Chromium: heat map, outlier, node table' '
		node "$TD_SRCDIR/tests/e2e/browser-check.js" job.html job.png \
			"document.querySelectorAll(\".heatmap tbody tr\").length" \
			"[...document.querySelectorAll(\".outlier b\")].map(b => b.textContent).includes(\"3\")" \
			"document.querySelectorAll(\"#nodes tbody tr\").length" >res &&
		cat res &&
		grep "^console-errors 0$" res && grep "^requests 0$" res &&
		grep -F "eval document.querySelectorAll(\".heatmap tbody tr\").length => 4" res &&
		grep -F "eval [...document.querySelectorAll(\".outlier b\")].map(b => b.textContent).includes(\"3\") => true" res &&
		grep -F "eval document.querySelectorAll(\"#nodes tbody tr\").length => 1" res
	'
else
	job_missing "chromium or node not installed" 'the job page in Chromium'
fi

test_expect_success 'a rank whose tdperf is killed is named incomplete; the others are reported' '
	cp -r JOB JOBK && rm -rf JOBK/rank-00002.* &&
	id=$(jq -r .job_id JOB/meta.json) &&
	OMPI_COMM_WORLD_RANK=2 OMPI_COMM_WORLD_SIZE=4 OMPI_COMM_WORLD_LOCAL_RANK=2 \
		OMPI_MCA_ess_base_jobid=$id "$TDPERF" record -o JOBK -- sleep 5 2>/dev/null &
	pid=$! && i=0 &&
	while ! ls -d JOBK/rank-00002.*.tmp-* >/dev/null 2>&1 && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done &&
	kill -9 $pid &&
	ls -d JOBK/rank-00002.*.tmp-* &&
	"$TDPERF" report --format json JOBK >k.json &&
	jq -e "[.ranks[].rank] == [0,1,3] and .job.missing == [] and .job.incomplete[0].rank == 2" k.json &&
	"$TDPERF" report JOBK >k.txt &&
	grep "warning: rank 2 is incomplete" k.txt &&
	rm -rf JOBK/rank-00002.* &&
	"$TDPERF" report JOBK | grep "warning: missing ranks (no directory): 2"
'

test_expect_success 'a rank whose workload fails makes mpirun abort the job: each rank says what it got' '
	test_must_fail $MPIRUN "$TDPERF" record -o JOBE -- \
		sh -c "if [ \$OMPI_COMM_WORLD_RANK = 1 ]; then exit 3; fi; sleep 2" 2>/dev/null &&
	"$TDPERF" report --format json JOBE >e.json &&
	jq -e ".ranks[] | select(.rank == 1) | .exit_status == 3" e.json &&
	"$TDPERF" report JOBE >e.txt &&
	grep "warning: rank 1.s workload exited with status 3" e.txt &&
	# the others: interrupted by mpirun, or killed before they could write (incomplete)
	for r in 0 2 3; do
		grep -E "warning: rank $r (was interrupted|is incomplete)" e.txt || exit 1
	done
'

test_expect_success 'an unreadable rank is named with its error; an absurd job size is refused' '
	cp -r JOB JOBU && d=$(echo JOBU/rank-00001.*) && printf "{" >"$d/meta.json" && rm "$d/summary.json" &&
	"$TDPERF" report --format json JOBU >u.json &&
	jq -e "[.ranks[].rank] == [0,2,3] and .job.missing == [] and .job.unreadable[0].rank == 1" u.json &&
	"$TDPERF" report JOBU | grep "warning: JOBU/rank-00001\..*/meta.json:" &&
	jq ".ranks = 99999999999" JOB/meta.json >JOBU/meta.json &&
	test_exit_code 2 "$TDPERF" report JOBU 2>err &&
	grep "^tdperf: JOBU/meta.json: ranks: 99999999999 is not a job.s size" err
'

test_expect_success 'a rank directory of another job is left out and named' '
	$MPIRUN "$TDPERF" record -o JOB2 -- true 2>/dev/null &&
	cp -r JOB JOBF && rm -rf JOBF/rank-00001.* &&
	cp -r JOB2/rank-00001.* JOBF/ &&
	"$TDPERF" report --format json JOBF >f.json &&
	jq -e "[.ranks[].rank] == [0,2,3] and .job.missing == [[1, 1]] and .job.foreign[0].rank == 1" f.json &&
	"$TDPERF" report JOBF | grep "warning: rank-00001.* belongs to another job"
'

test_expect_success 'tdperf diff JOB1 JOB2 compares the two jobs metric by metric, in text, JSON and HTML' '
	"$TDPERF" diff --format json JOB JOB2 >d.json &&
	jq -e ".schema == \"tdperf-job-diff\" and .a.ranks == 4 and .b.ranks == 4 and (.a.outliers | index(3)) != null" d.json &&
	jq -e ".metrics[] | select(.id == \"cpu_s\") | .a.mean > .b.mean and .mean_change < 0" d.json &&
	"$TDPERF" diff JOB JOB2 >d.txt &&
	grep "^cpu_s " d.txt &&
	"$TDPERF" diff --html d.html JOB JOB2 >/dev/null &&
	test $(grep -c "^<tr><th>[AB]</th>" d.html) = 2 &&
	grep "<tr><th>A</th>.*<td class=\"outliers\">.*<b>3</b>" d.html &&
	test $(grep -c "^<tr><td>" d.html) = $(jq ".metrics | length" d.json) &&
	grep "^<tr><td>cpu_s</td>" d.html &&
	! grep "{{" d.html &&
	test_exit_code 2 "$TDPERF" diff --plot pd JOB JOB2 2>err &&
	grep "diff of two jobs: no --plot" err &&
	"$TDPERF" record -o one -- true 2>/dev/null &&
	test_exit_code 2 "$TDPERF" diff JOB one 2>err &&
	grep "JOB is a job directory and one is not" err
'

if test -x "$CHROMIUM" && have_prog node; then
	test_expect_success 'the job diff page loads in Chromium: both jobs, every metric' '
		node "$TD_SRCDIR/tests/e2e/browser-check.js" d.html d.png \
			"document.querySelectorAll(\".jobs tbody tr\").length" \
			"document.querySelectorAll(\".metrics tbody tr\").length" >res &&
		cat res &&
		grep "^console-errors 0$" res && grep "^requests 0$" res &&
		grep -F "eval document.querySelectorAll(\".jobs tbody tr\").length => 2" res &&
		grep -F "eval document.querySelectorAll(\".metrics tbody tr\").length => $(jq ".metrics | length" d.json)" res
	'
else
	job_missing "chromium or node not installed" 'the job diff page in Chromium'
fi

test_expect_success 'an ordinary run directory is not taken as a job directory' '
	"$TDPERF" record -o single -- true 2>/dev/null &&
	test_exit_code 2 env OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=1 "$TDPERF" record -o single -- true 2>err &&
	grep "single: a run directory of one process, not a job directory" err &&
	test $(wc -l <err) = 1
'

test_expect_success '--gather copies node-local ranks into a shared job directory' '
	$MPIRUN "$TDPERF" record -o local --gather shared -- true 2>/dev/null &&
	test -f shared/meta.json &&
	test $(ls -d shared/rank-* | wc -l) = 4 &&
	"$TDPERF" report --format json shared | jq -e "(.ranks|length) == 4 and .job.missing == []"
'

test_expect_success '-a under mpirun: one rank per node counts system-wide' '
	$MPIRUN "$TDPERF" record -a -o JOBA -- true 2>/dev/null &&
	test $(jq -r .job.scope JOBA/rank-*/meta.json | grep -c system-wide) = 1 &&
	test $(jq -r .job.scope JOBA/rank-*/meta.json | grep -c process) = 3 &&
	jq -e ".job.local_rank == 0 and .target.cpus == \"all\"" $(grep -l system-wide JOBA/rank-*/meta.json)
'

# --hotspots: the ranks wait in MPI_Barrier ("spin"), and Open MPI is told
# to poll without yielding (as it does on a node that is not oversubscribed),
# so the waiting ranks' time lies in the MPI library; rank 3, which the
# others wait for (five times their work), spends almost none there.
test_expect_success '--hotspots: the ranks that wait spend their time in the MPI library, rank 3 does not' '
	$MPIRUN --mca mpi_yield_when_idle 0 "$TDPERF" record --hotspots -g -o JOBH -- "$APP" 2 3 5 spin 2>err &&
	"$TDPERF" report --format json JOBH >jobh.json &&
	jq -c "[.ranks[] | .mpi_share]" jobh.json &&
	jq -e "[.ranks[0,1,2].mpi_share > 0.25] | all" jobh.json &&
	jq -e ".ranks[3].mpi_share < 0.05 and .ranks[3].mpi_share_with_callees >= .ranks[3].mpi_share" jobh.json &&
	jq -e ".job.mpi_share.min_rank == 3 and .job.mpi_share.ranks == 4" jobh.json &&
	jq -e "[.ranks[].mpi_dsos | any(test(\"libmpi|libopen-pal|mca_\"))] | all" jobh.json &&
	"$TDPERF" report JOBH >jobh.txt &&
	grep "^MPI library: [0-9.]* % (rank 3) to " jobh.txt
'

# mpi_dso_share FILE: the percentage perf report gives the MPI libraries'
# own functions in FILE (their DSOs by name, as docs/report-schema.md lists them)
mpi_dso_share() {
	"$PERF" report -i "$1" --stdio --no-children --sort dso -g none 2>/dev/null |
		awk '/^ *[0-9.]+%/ && $2 ~ /^(libmpi|libmpich|libmpl\.|libpmi|libopen-pal|libopen-rte|libpmix|libprrte|mca_|libmca_|libucp|libucs|libuct|libfabric|libpsm)/ {
			sub("%", "", $1); s += $1 } END { printf "%.4f\n", s }'
}

test_expect_success '--hotspots: each rank'"'"'s MPI share is perf report'"'"'s share of the MPI libraries' '
	PERF=${TDPERF_PERF:-perf} &&
	for r in 0 3; do
		d=$(echo JOBH/rank-0000$r.*) &&
		want=$(mpi_dso_share "$d/hotspots.data") &&
		got=$(jq ".ranks[$r].mpi_share * 100" jobh.json) &&
		echo "rank $r: perf $want, tdperf $got" &&
		test "$(calc "($got - $want) ^ 2 < 0.1 * 0.1")" = 1 || exit 1
	done
'

test_done
