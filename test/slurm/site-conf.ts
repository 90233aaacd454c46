// A realistic site slurm.conf for the merge tests (unit and real slurmctld): an Include, mixed-case
// keys, continued lines (one the merge changes, one it keeps), multi-valued PriorityFlags, fair-share and QOS weights, several
// SchedulerParameters entries, PriorityDecayHalfLife, node and partition lines, comments.

export interface SiteConfOptions {
  /** Folder of the cluster's files (state, logs, the included file). */
  dir: string
  ctldPort: number
  nodePorts: number[]
}

/** The lines the order changes in this file (lower-case keys), with their original text. */
export const SITE_CHANGED: Record<string, string> = {
  priorityweightpartition: 'PriorityWeightPartition=1000',
  priorityweightage: 'priorityweightage=1000   # favour old jobs',
  priorityweightjobsize: 'PRIORITYWEIGHTJOBSIZE=500',
  priorityflags: 'PriorityFlags=SMALL_RELATIVE_TO_TIME,CALCULATE_RUNNING',
  schedulerparameters: 'SchedulerParameters=bf_interval=30,bf_window=1440,default_queue_depth=200,\\',
}

export function siteConf(o: SiteConfOptions): string {
  const d = o.dir
  const nodes = o.nodePorts.map((p, i) => `NodeName=n${String(i + 1).padStart(2, '0')} NodeAddr=127.0.0.1 NodeHostname=localhost Port=${p} CPUs=1 RealMemory=1000 State=UNKNOWN`)
  const all = `n[01-${String(o.nodePorts.length).padStart(2, '0')}]`
  return [
    '# slurm.conf of the "easytune" test site (Slurm 22.05)',
    '#',
    'ClusterName=easytune',
    'SlurmctldHost=localhost(127.0.0.1)',
    'SlurmUser=root',
    'SlurmdUser=root',
    `SlurmctldPort=${o.ctldPort}`,
    `Include ${d}/etc/auth.conf`,
    `StateSaveLocation=${d}/state`,
    `SlurmdSpoolDir=${d}/spool/%n`,
    `SlurmctldPidFile=${d}/run/slurmctld.pid`,
    `SlurmdPidFile=${d}/run/slurmd.%n.pid`,
    `SlurmctldLogFile=${d}/log/slurmctld.log`,
    `SlurmdLogFile=${d}/log/slurmd.%n.log`,
    'slurmctlddebug=info',
    'SlurmdDebug=info',
    'MailProg=/bin/true',
    'ProctrackType=proctrack/linuxproc',
    'TaskPlugin=task/none',
    'JobAcctGatherType=jobacct_gather/none',
    'MpiDefault=none',
    'ReturnToService=2',
    'SlurmdParameters=config_overrides',
    'AccountingStorageType=accounting_storage/none',
    'JobCompType=jobcomp/filetxt',
    `JobCompLoc=${d}/log/jobcomp.txt`,
    'MinJobAge=600',
    '# a list continued on the next line: Slurm joins the two as they are (no space added)',
    'PrivateData=jobs,\\',
    'usage',
    'SelectType=select/cons_tres',
    'SelectTypeParameters=CR_CPU',
    '',
    '# --- priorities: the site policy ---',
    'PriorityType=priority/multifactor',
    'PriorityDecayHalfLife=7-0',
    'PriorityUsageResetPeriod=NONE',
    'PriorityWeightFairshare=100000  # fair share first',
    'priorityweightqos=20000',
    'PriorityWeightAssoc=0',
    SITE_CHANGED.priorityweightpartition,
    SITE_CHANGED.priorityweightage,
    SITE_CHANGED.priorityweightjobsize,
    'PriorityMaxAge=14-0',
    SITE_CHANGED.priorityflags,
    '',
    '# --- scheduling ---',
    'SchedulerType=sched/backfill',
    SITE_CHANGED.schedulerparameters,
    'bf_max_job_test=5000,bf_resolution=120',
    `Include ${d}/etc/extra.conf`,
    '',
    '# --- nodes and partitions ---',
    ...nodes,
    `PartitionName=short Nodes=${all} Default=YES MaxTime=2-00:00:00 DefaultTime=10 State=UP`,
    `PartitionName=long Nodes=${all} MaxTime=4-00:00:00 DefaultTime=60 State=UP`,
    '',
  ].join('\n')
}

/** The small included file: unrelated settings only (so it overrides nothing the merge changes). */
export const EXTRA_CONF = '# site extras\nKillWait=30\nMessageTimeout=20\n'
