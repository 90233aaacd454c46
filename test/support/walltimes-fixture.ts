// The tiny sacct log of the time-limits tests (test/unit/walltimes*.test.ts), worked by hand in
// test/unit/walltimes.test.ts.

/** Six jobs of three users, two accounts, two partitions (TimelimitRaw in minutes). */
export const TINY_SACCT = [
  'JobID|User|Account|Partition|Submit|Start|End|ElapsedRaw|TimelimitRaw|AllocCPUS|NNodes|State',
  '1|alice|acctA|short|1000|1000|1600|600|60|4|1|COMPLETED',
  '2|alice|acctA|short|1100|1100|2900|1800|60|4|2|COMPLETED',
  '3|alice|acctA|long|1200|1200|1200|0|120|8|2|FAILED',
  '4|bob|acctB|short|1300|1300|4900|3600|60|2|1|COMPLETED',
  '5|bob|acctB|long|1400|1400|1430|30|1|1|1|COMPLETED',
  '6|carol|acctB|long|1500|1500|5100|3600|240|16|4|COMPLETED',
].join('\n') + '\n'
