#!/bin/sh
# The same MPI job under a real Slurm: the test starts a private
# single-node cluster (munged with a generated key, slurmctld and slurmd
# with a generated slurm.conf, private state, spool, log and socket
# directories and free ports), runs "srun -n 4 tdperf record ...", and
# stops every daemon at the end, also when a test fails.  The merged
# report must say what the mpirun job's says (t0850): rank 3 does five
# times the work of the others.
. "$(dirname "$0")/test-lib.sh"
. "$TD_SRCDIR/tests/e2e/job-lib.sh"

APP=$TD_BUILDDIR/tests/workloads/mpi-imbalance
missing=
for p in munged slurmctld slurmd srun sinfo; do
	have_prog "$p" || missing="$missing $p"
done
test -x "$APP" || missing="$missing $APP"
if [ -n "$missing" ]; then
	why="missing:$missing (apt-get install munge slurmctld slurmd slurm-client libopenmpi-dev)"
	job_missing "$why" 'srun job'
	test_done
fi

C=$TEST_DIR/cluster
HOST=$(hostname -s)
SLURM_CONF=$C/slurm.conf
export SLURM_CONF

# Stop what this test started, by the pids the daemons wrote.
stop_cluster() {
	for f in "$C/slurmd.pid" "$C/slurmctld.pid" "$C/munge/pid"; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	for f in "$C/slurmd.pid" "$C/slurmctld.pid" "$C/munge/pid"; do
		i=0
		while [ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.1; i=$((i + 1))
		done
	done
}
trap 'stop_cluster; rm -rf "$TEST_DIR"' EXIT

# Two free TCP ports next to each other (slurmctld, slurmd).
free_ports() {
	while :; do
		p=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 30000))
		if ! ss -Htln "( sport = :$p or sport = :$((p + 1)) )" 2>/dev/null | grep -q .; then
			echo $p
			return
		fi
	done
}

# A daemon that does not come up fails the test with its log's last lines.
fail_with_log() {
	echo "$1 did not start; $2:"
	tail -n 5 "$2"
	return 1
}

test_expect_success 'munged starts with a generated key in a private socket directory' '
	mkdir -p "$C/munge" "$C/sock" "$C/state" "$C/spool" "$C/log" &&
	chmod 700 "$C/munge" && chmod 755 "$C/sock" &&
	dd if=/dev/urandom of="$C/munge/key" bs=1024 count=1 2>/dev/null && chmod 400 "$C/munge/key" &&
	munged --key-file="$C/munge/key" --socket="$C/sock/munge.sock" --pid-file="$C/munge/pid" \
		--log-file="$C/munge/log" --seed-file="$C/munge/seed" ||
		fail_with_log munged "$C/munge/log" &&
	munge -S "$C/sock/munge.sock" -n | unmunge -S "$C/sock/munge.sock" | grep "STATUS: *Success"
'

test_expect_success 'slurmctld and slurmd start on a generated slurm.conf' '
	port=$(free_ports) &&
	cat >"$SLURM_CONF" <<-EOT &&
	ClusterName=tdperftest
	SlurmctldHost=$HOST(127.0.0.1)
	SlurmUser=root
	SlurmctldPort=$port
	SlurmdPort=$((port + 1))
	AuthType=auth/munge
	CredType=cred/munge
	AuthInfo=socket=$C/sock/munge.sock
	StateSaveLocation=$C/state
	SlurmdSpoolDir=$C/spool
	SlurmctldPidFile=$C/slurmctld.pid
	SlurmdPidFile=$C/slurmd.pid
	SlurmctldLogFile=$C/log/slurmctld.log
	SlurmdLogFile=$C/log/slurmd.log
	MailProg=/bin/true
	ProctrackType=proctrack/linuxproc
	TaskPlugin=task/none
	SelectType=select/cons_tres
	SelectTypeParameters=CR_CPU
	MpiDefault=none
	ReturnToService=2
	JobAcctGatherType=jobacct_gather/none
	AccountingStorageType=accounting_storage/none
	SlurmdParameters=config_overrides
	NodeName=$HOST NodeAddr=127.0.0.1 CPUs=4 State=UNKNOWN
	PartitionName=test Nodes=$HOST Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
	EOT
	slurmctld -f "$SLURM_CONF" || fail_with_log slurmctld "$C/log/slurmctld.log" &&
	slurmd -f "$SLURM_CONF" || fail_with_log slurmd "$C/log/slurmd.log" &&
	i=0 &&
	# "idle" alone: "idle*" is a node slurmctld knows but whose slurmd does
	# not answer (slurmd forks before it initialises, and may then fail)
	until sinfo -h -o %t 2>/dev/null | grep -qx idle; do
		i=$((i + 1))
		if [ $i -gt 60 ]; then
			sinfo; fail_with_log slurmd "$C/log/slurmd.log"; exit 1
		fi
		sleep 0.5
	done
'

test_expect_success 'srun -n 4 tdperf record writes one run directory per rank' '
	# bounded: a job the cluster cannot place would wait for ever
	timeout 300 srun --mpi=pmix -n 4 "$TDPERF" record --threads -o JOB -- "$APP" 6 3 5 2>err &&
	jq -e ".format == \"tdperf-job\" and .launcher == \"slurm\" and .ranks == 4 and (.job_id | test(\"^[0-9]+\\\\.[0-9]+$\"))" JOB/meta.json &&
	for r in 0 1 2 3; do
		jq -e ".job.rank == $r and .job.node == 0 and .job.local_rank == $r and .job.launcher == \"slurm\"" JOB/rank-0000$r.$HOST/meta.json || exit 1
	done
'

test_expect_success 'the merged report: rank 3 is the outlier, the imbalance matches the construction' '
	"$TDPERF" report --format json JOB >job.json &&
	jq -e "[.ranks[].rank] == [0,1,2,3] and .job.missing == [] and .nodes[0].host == \"$HOST\"" job.json &&
	outliers_follow_rule job.json &&
	rank3_running_grows job.json &&
	rank3_work_shows job.json 5 &&
	"$TDPERF" report JOB >job.txt &&
	grep "^Job [0-9]*\.[0-9]* (slurm): 4 ranks of 4 on 1 node" job.txt &&
	grep "^Outlier: rank 3 " job.txt
'

test_expect_success 'the cluster stops' '
	stop_cluster &&
	! kill -0 "$(cat "$C/slurmctld.pid")" 2>/dev/null &&
	! kill -0 "$(cat "$C/slurmd.pid")" 2>/dev/null
'

test_done
