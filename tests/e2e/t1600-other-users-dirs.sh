#!/bin/sh
# Root's tdperf against another local user (nobody, through setpriv) who
# can write where root writes: /tmp, a job directory, a --gather target.
# Nothing of theirs is removed or renamed, no link of theirs is written
# through, a run is never written into a directory they control, --gather
# copies regular files only, and neither a missing HOME nor an odd host
# name puts files where they do not belong (issue 29, items 2, 3, 4, 11).
. "$(dirname "$0")/test-lib.sh"

IN=$FIXTURES/perf-stat-published/case-23-cml-multidim-topdownL1-L2-L3.txt
NOBODY=65534

if [ "$(id -u)" != 0 ] || ! setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups true 2>/dev/null; then
	test_skip 'another user against root' 'not root, or setpriv cannot become nobody here'
	test_done
fi

# as_nobody CMD...: run CMD as the other user
as_nobody() {
	setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups "$@"
}

# Another user must be able to run tdperf, but the build tree may lie
# in root's 0700 home (CI's fresh root builds in /root/tdperf): a copy
# of the binary and its data in a directory everyone can read.
mkdir -p shared-bin/data && cp "$TDPERF" shared-bin/tdperf &&
cp -R "$TD_SRCDIR/metrics/tables" "$TD_SRCDIR/templates" shared-bin/data/ &&
chmod -R a+rX shared-bin && chmod a+rx . || exit 1
TDPERF_SHARED="env TDPERF_DATADIR=$PWD/shared-bin/data $PWD/shared-bin/tdperf"

# dead_pid: a process id that no process has now
dead_pid() {
	pid=$(sh -c 'echo $$')
	while kill -0 "$pid" 2>/dev/null; do
		pid=$((pid + 1))
	done
	echo "$pid"
}

# A root-only directory: 0700, its files 0600, holding "secret".
mkdir rootonly && chmod 700 rootonly &&
echo "root's secret" >rootonly/secret && chmod 600 rootonly/secret

# The deletion race (issue 29 item 2).  nobody plants, in a sticky
# world-writable directory (a /tmp of the test's own), a stale
# "tdperf.data.tmp-PID" whose subdirectory a/ holds NFILES files; the
# root-only directory "victim" holds files of the same names.  The
# attacker, the same each try, waits until a/ loses its first file (root
# is deleting inside it) and then swaps a/ for a link to "victim": a walk
# by path names then deletes in victim.  Every file of victim must
# survive every try, and tdperf must say it left the other user's
# directory.
NFILES=3000
TRIES=5
mkdir victim && chmod 700 victim &&
(cd victim && seq 1 $NFILES | sed 's/^/f/' | xargs touch) &&
mkdir tmp && chmod 1777 tmp

# shellcheck disable=SC2016
ATTACKER='
	my ($dir, $n, $target, $ready, $secs) = @ARGV;
	my $end = time + $secs;
	open(my $r, ">", $ready) and close($r);
	while (time < $end) {
		opendir(my $d, "$dir/a") or last;
		my $c = () = readdir($d);
		closedir($d);
		if ($c < $n + 2) {
			rename("$dir/a", "$dir/b");
			symlink($target, "$dir/a");
			last;
		}
	}
'

test_expect_success "a stale NAME.tmp-PID of another user is left, whatever they swap in it ($TRIES tries)" '
	try=1 &&
	while [ $try -le $TRIES ]; do
		pid=$(dead_pid) &&
		stale=tmp/tdperf.data.tmp-$pid &&
		rm -rf tmp/tdperf.data tmp/tdperf.data.old tmp/ready &&
		as_nobody sh -c "mkdir -p $stale/a && cd $stale/a && seq 1 $NFILES | sed s/^/f/ | xargs touch" &&
		{ setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups \
			perl -e "$ATTACKER" "$stale" $NFILES "$TEST_DIR/victim" tmp/ready 30 & } &&
		attacker=$! &&
		n=0 && while [ ! -e tmp/ready ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done &&
		rc=0 && { (cd tmp && "$TDPERF" import "$IN") >out 2>err || rc=$?; } &&
		{ kill $attacker 2>/dev/null; wait $attacker || :; } &&
		echo "try $try: exit $rc, $(ls victim | wc -l) of $NFILES files of victim left" &&
		cat err &&
		test $rc = 0 &&
		test "$(ls victim | wc -l)" = $NFILES &&
		grep -q "^tdperf: warning: tdperf.data.tmp-$pid: owned by uid $NOBODY, not removing it$" err &&
		test -d "$stale" && test -d tmp/tdperf.data &&
		rm -rf "$stale" &&
		try=$((try + 1)) || exit 1
	done
'

test_expect_success 'a stale NAME.tmp-PID of our own is still removed' '
	pid=$(dead_pid) &&
	mkdir -p tmp/mine.tmp-$pid/sub && touch tmp/mine.tmp-$pid/sub/file &&
	ln -s "$TEST_DIR/rootonly" tmp/mine.tmp-$pid/link &&
	"$TDPERF" import -o tmp/mine "$IN" >/dev/null 2>err &&
	test ! -e tmp/mine.tmp-$pid && test -d tmp/mine && test -f rootonly/secret &&
	test_line_count = 0 err
'

# A directory nobody owns (0755), holding their link meta.json -> a 0600
# file in a 0700 root directory (issue 29 item 3).
as_nobody mkdir tmp/theirs &&
as_nobody ln -s "$TEST_DIR/rootonly/secret" tmp/theirs/meta.json

test_expect_success 'a run or job directory in, or of, another user is refused; their link is not written through' '
	test_exit_code 2 "$TDPERF" import -o tmp/theirs "$IN" 2>err &&
	test_line_count = 1 err &&
	grep -q "^tdperf: tmp/theirs: owned by uid $NOBODY; refusing" err &&
	test_exit_code 2 "$TDPERF" import -o tmp/theirs/run "$IN" 2>err &&
	test_line_count = 1 err &&
	grep -q "^tdperf: tmp/theirs: owned by uid $NOBODY; refusing to write a run into another user" err &&
	test_exit_code 2 env OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=1 \
		"$TDPERF" record -o tmp/theirs -- true 2>err &&
	test_line_count = 1 err &&
	grep -q "^tdperf: tmp/theirs: owned by uid $NOBODY; refusing" err &&
	test "$(cat rootonly/secret)" = "root'"'"'s secret" &&
	test "$(ls tmp/theirs)" = meta.json && test -h tmp/theirs/meta.json
'

test_expect_success 'a directory other users can write (not sticky) is refused; a sticky one is not' '
	mkdir open && chmod 777 open &&
	test_exit_code 2 "$TDPERF" import -o open/run "$IN" 2>err &&
	test_line_count = 1 err &&
	grep -q "^tdperf: open: other users can write it (mode 0777, not sticky); refusing" err &&
	test_exit_code 2 env OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=1 \
		"$TDPERF" record -o open -- true 2>err &&
	test_line_count = 1 err && test ! -e open/meta.json &&
	"$TDPERF" import -o tmp/run "$IN" >/dev/null &&
	test -f tmp/run/meta.json
'

test_expect_success 'NAME or NAME.old of another user is neither renamed nor removed' '
	as_nobody mkdir tmp/old-theirs.old && as_nobody touch tmp/old-theirs.old/keep &&
	mkdir tmp/old-theirs &&
	test_exit_code 2 "$TDPERF" import -o tmp/old-theirs "$IN" 2>err &&
	test_line_count = 1 err &&
	grep -q "^tdperf: tmp/old-theirs.old: owned by uid $NOBODY; refusing to replace" err &&
	test -f tmp/old-theirs.old/keep && test -d tmp/old-theirs &&
	! ls tmp | grep -q "old-theirs.tmp-"
'

# Outputs named with -o and --html, in a root-owned sticky directory where
# nobody made a link of the output's name.
echo "root's other file" >rootonly/other && chmod 600 rootonly/other

test_expect_success 'an output link another user made is refused; the file it names is unchanged' '
	as_nobody ln -s "$TEST_DIR/rootonly/other" tmp/report.txt &&
	test_exit_code 2 "$TDPERF" report -o tmp/report.txt "$IN" 2>err &&
	test_line_count = 1 err &&
	grep -q "^tdperf: tmp/report.txt: a symbolic link owned by uid $NOBODY; refusing to write through it" err &&
	test_exit_code 2 "$TDPERF" report --html=tmp/report.txt "$IN" >/dev/null 2>err &&
	test_line_count = 1 err &&
	test "$(cat rootonly/other)" = "root'"'"'s other file" && test -h tmp/report.txt
'

test_expect_success 'an output link of our own is followed' '
	echo old >mine.txt && ln -s ../mine.txt tmp/ours.txt &&
	"$TDPERF" report -o tmp/ours.txt "$IN" &&
	test -h tmp/ours.txt && ! grep -q "^old$" mine.txt && test -s mine.txt
'

test_expect_success 'where a FIFO was expected, another user'"'"'s link (to a FIFO or a file) is refused' '
	mkfifo fifo &&
	as_nobody ln -s "$TEST_DIR/fifo" tmp/pipe &&
	test_exit_code 2 timeout -k 5 20 "$TDPERF" report -o tmp/pipe "$IN" 2>err &&
	test_line_count = 1 err && grep -q "tmp/pipe: a symbolic link owned by uid $NOBODY" err &&
	as_nobody ln -s "$TEST_DIR/rootonly/other" tmp/pipe2 &&
	test_exit_code 2 timeout -k 5 20 "$TDPERF" report -o tmp/pipe2 "$IN" 2>err &&
	test_line_count = 1 err &&
	test "$(cat rootonly/other)" = "root'"'"'s other file" && test -p fifo
'

# --gather (issue 29 item 4): the rank's committed directory holds a link
# to a root-only file and a FIFO (its workload put them there, as one a
# user swapped in would be); the gathered copy holds neither.
test_expect_success '--gather copies regular files only: no link followed, no FIFO opened' '
	# the workload runs while its rank directory is JOB/rank-N.HOST.tmp-PID
	plant="d=\$(echo job/rank-00000.*.tmp-*) && ln -s $TEST_DIR/rootonly/secret \$d/stolen.txt &&
		mkfifo \$d/pipe" &&
	timeout -k 5 60 env OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=1 \
		"$TDPERF" record -o job --gather gathered -- sh -c "$plant" 2>err &&
	test -h job/rank-00000.*/stolen.txt &&
	d=$(echo gathered/rank-00000.*) && test -d "$d" && test -f "$d/meta.json" &&
	test ! -e "$d/stolen.txt" && test ! -e "$d/pipe" &&
	! grep -rq "root.s secret" gathered &&
	grep -q "^tdperf: warning: job/rank-00000.[^/]*/stolen.txt: a symbolic link, not copied$" err &&
	grep -q "^tdperf: warning: job/rank-00000.[^/]*/pipe: not a regular file, not copied$" err &&
	test -f gathered/meta.json &&
	test "$(stat -c %a job/rank-00000.*/perf.data)" = "$(stat -c %a "$d/perf.data")"
'

test_expect_success '--gather into another user'"'"'s directory is refused' '
	as_nobody mkdir tmp/shared &&
	test_exit_code 2 env OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=1 \
		"$TDPERF" record -o job2 --gather tmp/shared -- true 2>err &&
	grep -q "^tdperf: tmp/shared: owned by uid $NOBODY; refusing" err &&
	test -z "$(ls tmp/shared)" && test -d job2/rank-00000.*
'

# HOME unset (issue 29 item 11): the calibration cache is the passwd
# entry's home (nobody's is /nonexistent), never ./.cache here.
test_expect_success 'HOME unset: calibrate neither writes nor reads ./.cache' '
	mkdir cwd && chmod 777 cwd && cd cwd &&
	key=$(env XDG_CACHE_HOME="$TEST_DIR/none" "$TDPERF" calibrate --show 2>&1 |
	      sed -n "s|.*/tdperf/\(calibration-[^:]*\.json\):.*|\1|p") &&
	test -n "$key" &&
	as_nobody mkdir -p .cache/tdperf && as_nobody sh -c "echo planted >.cache/tdperf/$key" &&
	test_must_fail as_nobody env -u HOME -u XDG_CACHE_HOME $TDPERF_SHARED calibrate --show >out 2>err &&
	cat err && ! grep -q planted out err && grep -q "^tdperf: /" err &&
	test_must_fail as_nobody env -u XDG_CACHE_HOME HOME=rel $TDPERF_SHARED calibrate --show >out 2>err &&
	! grep -q planted out err && grep -q "^tdperf: /" err &&
	rm -rf .cache &&
	as_nobody env -u HOME -u XDG_CACHE_HOME timeout 120 $TDPERF_SHARED calibrate --quick >out 2>err || :
	cat err && test ! -e .cache && ! grep -q "^tdperf: \.cache" err
'

test_expect_success 'HOME unset and no passwd entry: calibrate says so and caches nothing' '
	cd cwd &&
	test_exit_code 2 setpriv --reuid=54321 --regid=54321 --clear-groups \
		env -u HOME -u XDG_CACHE_HOME $TDPERF_SHARED calibrate --show 2>err &&
	test_line_count = 1 err &&
	grep -q "^tdperf: no calibration cache: HOME is unset and uid 54321 has no home directory" err &&
	test ! -e .cache
'

# A host name starting with "." (or holding "/" or control characters)
# still gives a rank directory the job reader accepts (issue 29 item 11).
test_expect_success 'a host name ".node" or with "/" and ESC gives a usable rank directory' '
	for host in ".node" "$(printf "a/b\033]0;x\007c")"; do
		rm -rf hj &&
		unshare --uts sh -c "printf %s \"\$1\" >/proc/sys/kernel/hostname &&
			env OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=1 \"\$2\" record -o hj -- true" sh "$host" "$TDPERF" 2>/dev/null &&
		ls hj &&
		ls hj | grep -qx "rank-00000\.[A-Za-z0-9_-][A-Za-z0-9_-]*" &&
		"$TDPERF" report --format json hj >hj.json &&
		jq -e ".ranks | length == 1" hj.json || exit 1
	done &&
	test -d hj/rank-00000.a_b__0_x_c
'

test_done
