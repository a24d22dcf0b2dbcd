# slurm_single_node.sh — a private single-node Slurm cluster for a test: munged, slurmctld and
# slurmd started from Debian's slurm-wlm and munge packages in a scratch directory of their own
# (own key, socket, state, ports and slurm.conf), so nothing of the machine's configuration is
# used or changed. Source it, then:
#   slurm_start DIR     starts the cluster with its files under DIR and exports SLURM_CONF; on
#                       failure returns 1 with the reason in $slurm_unavailable
#   slurm_wait JOBID S  waits up to S seconds for every task of the job to leave the queue;
#                       prints each task's "ArrayTaskId=K JobState=S ExitCode=E" (from scontrol)
#   slurm_stop          stops the three daemons (also called on the test's exit)
# Needs root (slurmd runs jobs as their submitting user) and slurmctld, slurmd, munged on PATH
# or in /usr/sbin.
slurm_pids=()
slurm_unavailable=""

slurm_stop() {
    local pid
    for pid in "${slurm_pids[@]}"; do
        kill "$pid" 2>/dev/null
    done
    for pid in "${slurm_pids[@]}"; do
        for _ in 1 2 3 4 5 6 7 8 9 10; do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.5
        done
    done
    slurm_pids=()
}

# slurm_daemon PIDFILE: the daemon's pid once it has written PIDFILE (5 s at most)
slurm_daemon() {
    for _ in $(seq 1 50); do
        [ -s "$1" ] && { slurm_pids+=("$(cat "$1")"); return 0; }
        sleep 0.1
    done
    return 1
}

slurm_start() {
    local dir=$1 sbin=/usr/sbin
    if [ "$(id -u)" -ne 0 ]; then
        slurm_unavailable="not root (slurmd must run as root)"
        return 1
    fi
    local tool
    for tool in munged slurmctld slurmd; do
        command -v "$tool" >/dev/null || [ -x "$sbin/$tool" ] ||
            { slurm_unavailable="$tool is not installed (scripts/install-deps.sh with SYNCSCOPE_TEST_DEPS=1)"; return 1; }
    done
    command -v sbatch >/dev/null || { slurm_unavailable="sbatch is not installed"; return 1; }
    PATH="$PATH:$sbin"
    mkdir -p "$dir/state" "$dir/spool"
    chmod 755 "$dir"
    head -c 1024 /dev/urandom >"$dir/munge.key"
    chmod 600 "$dir/munge.key"
    munged --force --socket="$dir/munge.sock" --key-file="$dir/munge.key" --pid-file="$dir/munged.pid" \
        --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" 2>"$dir/munged.err" &&
        slurm_daemon "$dir/munged.pid" || { slurm_unavailable="munged did not start: $(cat "$dir/munged.err")"; return 1; }
    # Ports of our own, away from Slurm's defaults (6817/6818) and from each other's runs.
    local port=$((20000 + ($$ % 2000) * 2)) node
    node=$(hostname -s)
    cat >"$dir/slurm.conf" <<CONF
ClusterName=syncscope-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=600
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF="$dir/slurm.conf"
    slurmctld -f "$SLURM_CONF" 2>"$dir/slurmctld.err" && slurm_daemon "$dir/slurmctld.pid" ||
        { slurm_unavailable="slurmctld did not start: $(cat "$dir/slurmctld.err" "$dir/slurmctld.log" 2>/dev/null | tail -1)"; return 1; }
    slurmd -f "$SLURM_CONF" -N "$node" 2>"$dir/slurmd.err" && slurm_daemon "$dir/slurmd.pid" ||
        { slurm_unavailable="slurmd did not start: $(cat "$dir/slurmd.err" "$dir/slurmd.log" 2>/dev/null | tail -1)"; return 1; }
    for _ in $(seq 1 100); do   # the node registers with the controller
        sinfo -h -N -o %t 2>/dev/null | grep -qx idle && return 0
        sleep 0.2
    done
    slurm_unavailable="the node never became idle: $(tail -1 "$dir/slurmctld.log" 2>/dev/null)"
    return 1
}

slurm_wait() {
    local job=$1 limit=$2 waited=0
    while [ -n "$(squeue -h -j "$job" 2>/dev/null)" ]; do
        [ "$waited" -ge "$limit" ] && return 1
        sleep 1
        waited=$((waited + 1))
    done
    scontrol -o show job "$job" | tr ' ' '\n' | awk -F= '
        $1 == "ArrayTaskId" { task = $0 } $1 == "JobState" { state = $0 }
        $1 == "ExitCode" { print task, state, $0 }'
}
