#!/bin/bash
# A single-host Slurm 22.05 test cluster on loopback, no systemd (test/slurm/README.md says how it
# is laid out). usage: cluster.sh start | stop | status
# env: RUN_DIR (scratch folder, required), CTLD_PORT, NODE_PORTS (space separated, one per node),
#      CPUS_PER_NODE (default 1), SITE_CONF (optional: a whole slurm.conf to use instead of the one
#      written here; it must use RUN_DIR's paths and ports), GRES_CONF (optional: a gres.conf copied
#      next to slurm.conf, for the fake GPUs of the agreement test), DBD_PORT and DB_PORT (optional:
#      also start MariaDB on DB_PORT and slurmdbd on DBD_PORT before slurmctld, register the cluster
#      CLUSTER_NAME and the accounts DBD_ACCOUNTS (space separated, user root in each): the
#      slurm.conf must then say AccountingStorageType=accounting_storage/slurmdbd with that port
#      and AccountingStoragePass=<the munge socket>; test/slurm/README.md §slurmdbd). The test writes $RUN_DIR/etc/policy.conf (the exported fragment),
#      $RUN_DIR/etc/test.conf (test-only overrides) and $RUN_DIR/etc/job_submit.lua before start.
# Daemons run in the foreground (-D/-F) as background children; their PIDs are recorded in
# $RUN_DIR/run/*.bgpid and stop() kills exactly those PIDs (never by name).
set -u
B=${RUN_DIR:?RUN_DIR is required}
export SLURM_CONF=$B/etc/slurm.conf
SOCK=$B/munge/run/munge.socket.2
RUN=$B/run
t0=$(date +%s.%N)
ts() { awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "[%6.2fs] ", b-a}'; echo "$*"; }

alive() {  # alive PID : true if running and not a zombie
    local st; st=$(ps -p "$1" -o stat= 2>/dev/null); [ -n "$st" ] && [ "${st#Z}" = "$st" ]
}
dead() { ! alive "$1"; }
wait_for() {  # wait_for <tries> <sleep> <cmd...>
    local n=$1 s=$2; shift 2
    for ((i = 0; i < n; i++)); do "$@" >/dev/null 2>&1 && return 0; sleep "$s"; done
    return 1
}

write_conf() {
    local ports=(${NODE_PORTS:?NODE_PORTS is required}) cpus=${CPUS_PER_NODE:-1} i=1
    printf 'AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket=%s\n' "$SOCK" > $B/etc/auth.conf
    if [ -n "${GRES_CONF:-}" ]; then cp "$GRES_CONF" $B/etc/gres.conf; else rm -f $B/etc/gres.conf; fi
    if [ -n "${SITE_CONF:-}" ]; then cp "$SITE_CONF" $B/etc/slurm.conf; return; fi
    cat > $B/etc/slurm.conf <<EOF
# Loopback test cluster written by cluster.sh (Slurm 22.05, Debian 12). All paths under RUN_DIR.
ClusterName=easytune
SlurmctldHost=localhost(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=${CTLD_PORT:?CTLD_PORT is required}
Include $B/etc/auth.conf
StateSaveLocation=$B/state
SlurmdSpoolDir=$B/spool/%n
SlurmctldPidFile=$B/run/slurmctld.pid
SlurmdPidFile=$B/run/slurmd.%n.pid
SlurmctldLogFile=$B/log/slurmctld.log
SlurmdLogFile=$B/log/slurmd.%n.log
SlurmctldDebug=info
SlurmdDebug=info
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$B/log/jobcomp.txt
MinJobAge=600
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
# the exported fragment, verbatim; then the test's overrides (latest value wins)
Include $B/etc/policy.conf
Include $B/etc/test.conf
EOF
    for p in "${ports[@]}"; do
        printf 'NodeName=n%02d NodeAddr=127.0.0.1 NodeHostname=localhost Port=%s CPUs=%s RealMemory=1000 State=UNKNOWN\n' \
            "$i" "$p" "$cpus" >> $B/etc/slurm.conf
        i=$((i + 1))
    done
    printf 'PartitionName=main Nodes=n[01-%02d] Default=YES MaxTime=INFINITE DefaultTime=10 State=UP\n' \
        "${#ports[@]}" >> $B/etc/slurm.conf
}

# MariaDB and slurmdbd on loopback (test/slurm/README.md §slurmdbd), all under $B.
# sacctmgr and slurmctld reach slurmdbd through the munge socket named by AccountingStoragePass in
# slurm.conf (the AuthInfo socket is not used for the slurmdbd connection).
start_dbd() {
    local db=$B/mysql
    rm -rf "$db"; mkdir -p $db/data
    mariadb-install-db --no-defaults --user=root --datadir=$db/data --auth-root-authentication-method=socket \
        --skip-test-db > $B/log/mariadb-install.log 2>&1 || { ts "mariadb-install-db failed"; tail -5 $B/log/mariadb-install.log; return 1; }
    mariadbd --no-defaults --user=root --datadir=$db/data --socket=$db/mysqld.sock --pid-file=$RUN/mariadbd.pid \
        --bind-address=127.0.0.1 --port=${DB_PORT:?DB_PORT is required with DBD_PORT} --skip-name-resolve \
        --log-error=$B/log/mariadbd.err --innodb-buffer-pool-size=32M > $B/log/mariadbd.stdout 2>&1 &
    echo $! > $RUN/mariadbd.bgpid
    wait_for 100 0.1 mariadb --no-defaults -S $db/mysqld.sock -u root -e 'select 1' || { ts "mariadbd did not come up"; tail -5 $B/log/mariadbd.err; return 1; }
    mariadb --no-defaults -S $db/mysqld.sock -u root -e "CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY 'slurmpw'; GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';" || return 1
    printf '%s\n' AuthType=auth/munge "AuthInfo=socket=$SOCK" DbdHost=localhost DbdAddr=127.0.0.1 "DbdPort=$DBD_PORT" \
        SlurmUser=root "LogFile=$B/log/slurmdbd.log" "PidFile=$RUN/slurmdbd.pid" StorageType=accounting_storage/mysql \
        StorageHost=127.0.0.1 "StoragePort=$DB_PORT" StorageUser=slurm StoragePass=slurmpw StorageLoc=slurm_acct_db > $B/etc/slurmdbd.conf
    chmod 600 $B/etc/slurmdbd.conf   # slurmdbd reads it beside $SLURM_CONF and refuses it readable by others
    slurmdbd -D > $B/log/slurmdbd.stdout 2>&1 &
    echo $! > $RUN/slurmdbd.bgpid
    wait_for 200 0.1 sacctmgr -n list cluster || { ts "slurmdbd not up"; tail -10 $B/log/slurmdbd.log; return 1; }
    sacctmgr -i add cluster "${CLUSTER_NAME:?CLUSTER_NAME is required with DBD_PORT}" > /dev/null || return 1
    if [ -n "${DBD_ACCOUNTS:-}" ]; then
        sacctmgr -i add account "${DBD_ACCOUNTS// /,}" Cluster="$CLUSTER_NAME" > /dev/null || return 1
        sacctmgr -i add user root Account="${DBD_ACCOUNTS// /,}" Cluster="$CLUSTER_NAME" > /dev/null || return 1
    fi
    ts "mariadbd and slurmdbd up: cluster $CLUSTER_NAME, accounts ${DBD_ACCOUNTS:-none}"
}

start() {
    mkdir -p $B/munge/etc $B/munge/run $B/munge/log $B/munge/lib $B/etc \
             $B/state $B/spool $B/log $B/out $RUN
    chmod 755 $B $B/munge $B/munge/run            # munged: socket dir must be o+x
    chmod 700 $B/munge/etc $B/munge/log $B/munge/lib
    rm -rf $B/state/* $B/spool/* $B/out/*          # fresh cluster, job ids from 1
    : > $B/log/jobcomp.txt
    for f in $B/log/slurm*.log; do [ -s "$f" ] && mv "$f" "$f.prev"; done
    write_conf
    [ -s $B/munge/etc/munge.key ] || mungekey --create --keyfile=$B/munge/etc/munge.key
    munged -F --key-file=$B/munge/etc/munge.key --socket=$SOCK \
           --pid-file=$B/munge/run/munged.pid --seed-file=$B/munge/lib/munged.seed \
           > $B/log/munged.log 2>&1 &
    echo $! > $RUN/munged.bgpid
    wait_for 50 0.1 munge -S $SOCK -n || { ts "munged did not come up"; return 1; }
    if [ -n "${DBD_PORT:-}" ]; then start_dbd || return 1; fi
    slurmctld -D -i > $B/log/slurmctld.stdout 2>&1 &
    echo $! > $RUN/slurmctld.bgpid
    wait_for 100 0.1 bash -c 'scontrol ping | grep -q "is UP"' || { ts "slurmctld not up"; tail -20 $B/log/slurmctld.log; return 1; }
    for n in $(sinfo -h -N -o %N | sort -u); do
        mkdir -p $B/spool/$n
        slurmd -D -N "$n" > $B/log/slurmd.$n.stdout 2>&1 &
        echo $! > $RUN/slurmd.$n.bgpid
    done
    wait_for 300 0.1 bash -c '[ -z "$(sinfo -h -N -o %T | grep -vx idle)" ]' || { ts "nodes not idle"; sinfo; return 1; }
    ts "munged, slurmctld and $(ls $RUN/slurmd.*.bgpid | wc -l) slurmd up: $(sinfo -h -o '%P %a %D %T %C')"
}

stop() {
    # 1. let running jobs go away (their slurmstepd would otherwise outlive slurmd)
    if [ -f $RUN/slurmctld.bgpid ] && scontrol ping 2>/dev/null | grep -q 'is UP'; then
        scancel --user=root 2>/dev/null
        wait_for 50 0.2 bash -c '[ -z "$(squeue -h -o %i)" ]' || ts "jobs still in queue: $(squeue -h -o %i | tr '\n' ' ')"
    fi
    # 2. TERM the daemons we started, by recorded PID; KILL after 10 s
    local pids=() f d pid
    # in groups: the nodes and slurmctld, then slurmdbd (slurmctld sends it its last records), then
    # MariaDB (slurmdbd writes into it), munged last (everyone authenticates through it)
    local group gp
    for group in "$RUN/slurmd.*.bgpid $RUN/slurmctld.bgpid" "$RUN/slurmdbd.bgpid" "$RUN/mariadbd.bgpid" "$RUN/munged.bgpid"; do
        gp=()
        for f in $group; do
            [ -f "$f" ] || continue
            d=$(basename "$f" .bgpid); pid=$(cat "$f"); rm -f "$f"
            alive "$pid" || continue
            kill -TERM "$pid"; gp+=("$pid"); pids+=("$pid")
        done
        for pid in "${gp[@]}"; do
            wait_for 100 0.1 dead "$pid" || { ts "$pid ignored TERM, sending KILL"; kill -KILL "$pid"; }
        done
    done
    ts "stopped ${#pids[@]} daemons by PID"
}

status() {
    # read-only: Slurm/munge processes still alive (zombies only wait for PID 1 to reap them)
    local left
    left=$(ps -eo pid=,stat=,comm= | awk '$3 ~ /^(slurmctld|slurmd|slurmstepd|slurmscriptd|munged|slurmdbd|mariadbd)$/ && $2 !~ /^Z/')
    if [ -n "$left" ]; then echo "still running:"; echo "$left"; return 1; fi
    echo "no live slurmctld/slurmd/slurmstepd/slurmscriptd/munged/slurmdbd/mariadbd process"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    status) status ;;
    *) echo "usage: $0 start | stop | status"; exit 2 ;;
esac
