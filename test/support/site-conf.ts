// A site's slurm.conf for the bundled KTH-SP2 sample: its 100 processors as 100 one-CPU nodes in
// one partition, with the site's own scheduling — multifactor priority with fair-share and QOS
// weights the export must keep, EASY-like backfill. The suites that evaluate "the configuration
// that runs today" (--current-conf, the Cluster panel's choice) share it.
export const KTH_SITE_CONF = [
  'ClusterName=kth', 'SelectType=select/cons_tres', 'SelectTypeParameters=CR_CPU',
  'PriorityType=priority/multifactor', 'PriorityWeightFairshare=10000', 'PriorityWeightQOS=5000', 'PriorityWeightAge=100',
  'SchedulerType=sched/backfill', 'SchedulerParameters=bf_job_part_count_reserve=1,bf_window=4320',
  'NodeName=k[001-100] CPUs=1', 'PartitionName=sp2 Nodes=k[001-100] Default=YES MaxTime=INFINITE',
].join('\n') + '\n'
