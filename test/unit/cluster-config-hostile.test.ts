// Cluster files are untrusted input (docs/CLUSTER.md §Configuration files): whatever they hold, the
// readers end with a ClusterConfigError that names the file and the line (or the whole file), and
// never allocate past their bounds (a million nodes, 64 kB lines, 2 MB files).
import { describe, expect, it } from 'vitest'
import { ClusterConfigError, inferCluster, MAX_NODES, parseScontrol, parseSlurmConf } from '../../src/core/cluster/config/index'

/** The error a call throws (fails the test when it throws none, or another kind). */
function errorOf(f: () => unknown): ClusterConfigError {
  try { f() } catch (e) {
    if (e instanceof ClusterConfigError) return e
    throw e
  }
  throw new Error('expected a ClusterConfigError, got none')
}

const PART = 'PartitionName=p Nodes=ALL'

describe('hostile slurm.conf', () => {
  const cases: [string, string, number, RegExp][] = [
    ['unclosed bracket', `ClusterName=x\nNodeName=a[1-4 CPUs=4\n${PART}`, 2, /NodeName="a\[1-4": "\[" not closed/],
    ['giant range', `NodeName=a[1-2000000] CPUs=4\n${PART}`, 1, /expands to more than 1000000 hosts/],
    ['range too large for a number', `NodeName=a[1-99999999999999999999] CPUs=4\n${PART}`, 1, /too large|more than/],
    ['negative CPUs', `NodeName=a1 CPUs=-4\n${PART}`, 1, /CPUs=-4 is out of range \(1 to 1000000\)/],
    ['CPUs not a number', `NodeName=a1 CPUs=lots\n${PART}`, 1, /CPUs="lots" is not a whole number/],
    ['zero CPUs', `NodeName=a1 CPUs=0\n${PART}`, 1, /CPUs=0 is out of range/],
    ['NUL byte', `NodeName=a1 CPUs=4\nPartitionName=p Nodes=a\u00001`, 2, /NUL character at column 24/],
    ['duplicate node', `NodeName=a[1-3] CPUs=4\nNodeName=a2 CPUs=8\n${PART}`, 2, /node "a2" is declared twice/],
    ['partition naming an undeclared node', 'NodeName=a1 CPUs=4\nPartitionName=p Nodes=a1,b7', 2, /partition p lists node "b7", which no NodeName line declares/],
    ['duplicate partition', 'NodeName=a1\nPartitionName=p Nodes=a1\nPartitionName=p Nodes=a1', 3, /partition "p" is declared twice/],
    ['bad OverSubscribe', 'NodeName=a1\nPartitionName=p Nodes=a1 OverSubscribe=EXCLUSIVE:4', 2, /OverSubscribe="EXCLUSIVE:4" is not NO/],
    ['bad State', 'NodeName=a1\nPartitionName=p Nodes=a1 State=MAYBE', 2, /State="MAYBE" of partition p/],
    ['bad Default', 'NodeName=a1\nPartitionName=p Nodes=a1 Default=perhaps', 2, /Default="perhaps" is neither YES nor NO/],
    ['negative weight', `NodeName=a1\n${PART}\nPriorityWeightAge=-5`, 3, /PriorityWeightAge=-5 is out of range/],
    ['weight above 32 bits', `NodeName=a1\n${PART}\nPriorityWeightQOS=4294967296`, 3, /PriorityWeightQOS=4294967296 is out of range/],
    ['bad TRES weight', `NodeName=a1\n${PART}\nPriorityWeightTRES=CPU=abc`, 3, /PriorityWeightTRES: "CPU=abc" is not TRES=weight/],
    ['bad PriorityType', `NodeName=a1\n${PART}\nPriorityType=priority/magic`, 3, /PriorityType="priority\/magic"/],
    ['zero dampening', `NodeName=a1\n${PART}\nFairShareDampeningFactor=0`, 3, /FairShareDampeningFactor=0 is out of range/],
    ['not Key=Value', 'NodeName=a1\nhello world', 2, /"hello" is not a Key=Value setting/],
    ['unclosed quote', 'NodeName=a1 Features="x y\nPartitionName=p Nodes=a1', 1, /quote after Features= is never closed/],
    ['bad Gres', `NodeName=a1 Gres=gpu:a100:many\n${PART}`, 1, /Gres="gpu:a100:many": the count of "gpu:a100:many" is not a number/],
    ['GPUs out of range', `NodeName=a1 Gres=gpu:99999999999\n${PART}`, 1, /out of range/],
    ['error on a continued line names its first line', `ClusterName=x\nNodeName=a1 \\\n  CPUs=-1\n${PART}`, 2, /CPUs=-1/],
  ]
  for (const [what, text, line, message] of cases) {
    it(what, () => {
      const e = errorOf(() => parseSlurmConf(text, 'site/slurm.conf'))
      expect(e.file).toBe('site/slurm.conf')
      expect(e.line).toBe(line)
      expect(e.message).toMatch(new RegExp(`^site/slurm\\.conf line ${line}: `))
      expect(e.message).toMatch(message)
    })
  }

  it('a 1 MB line', () => {
    const e = errorOf(() => parseSlurmConf(`NodeName=a1\nFeatures=${'x'.repeat(1_000_000)}\n${PART}`, 'big.conf'))
    expect([e.file, e.line]).toEqual(['big.conf', 2])
    expect(e.message).toMatch(/^big\.conf line 2: the line is 1000009 characters long \(at most 65536\)/)
  })

  it('a file too large, or without nodes or partitions: the whole file is named', () => {
    const big = errorOf(() => parseSlurmConf('#'.repeat(2_000_001), 'huge.conf'))
    expect([big.file, big.line]).toEqual(['huge.conf', null])
    expect(big.message).toMatch(/^huge\.conf: the file is 2000001 characters long/)
    expect(errorOf(() => parseSlurmConf('ClusterName=x\nInclude nodes.conf', 'a.conf')).message).toMatch(/^a\.conf: no NodeName line declares a node/)
    expect(errorOf(() => parseSlurmConf('NodeName=a1', 'a.conf')).message).toMatch(/^a\.conf: no PartitionName line/)
  })

  it('more than a million nodes over several lines', () => {
    const e = errorOf(() => parseSlurmConf(`NodeName=a[1-600000]\nNodeName=b[1-600000]\n${PART}`, 'many.conf'))
    expect(e.line).toBe(2)
    expect(e.message).toMatch(new RegExp(`more than ${MAX_NODES - 600000} hosts`))
  })

  it('an error in an included file names that file and its line; cycles and bombs are refused', () => {
    const main = `NodeName=a1\n${PART}\nInclude /etc/slurm/prio.conf`
    const e = errorOf(() => parseSlurmConf(main, 'slurm.conf', undefined, () => ({ text: '# weights\nPriorityWeightAge=-1', file: '/etc/slurm/prio.conf' })))
    expect([e.file, e.line]).toEqual(['/etc/slurm/prio.conf', 2])
    expect(e.message).toMatch(/^\/etc\/slurm\/prio\.conf line 2: PriorityWeightAge=-1 is out of range/)
    const loop = errorOf(() => parseSlurmConf(main, 'slurm.conf', undefined, () => ({ text: 'Include /etc/slurm/prio.conf', file: '/etc/slurm/prio.conf' })))
    expect([loop.file, loop.line]).toEqual(['/etc/slurm/prio.conf', 1])
    expect(loop.message).toMatch(/includes itself/)
    // every file includes the next, ten deep
    let n = 0
    const deep = errorOf(() => parseSlurmConf(main, 'slurm.conf', undefined, () => ({ text: 'Include next.conf', file: `f${n++}.conf` })))
    expect(deep.message).toMatch(/nested more than 8 deep/)
    // a file that includes a 1.9 MB file five times: more than 8,000,000 characters in all
    const big = `${'#'.repeat(99)}\n`.repeat(19_000) // 1,900,000 characters of comments
    const bomb = errorOf(() => parseSlurmConf(`${main}\n${'Include big.conf\n'.repeat(5)}`, 'slurm.conf', undefined, (p) => (p === 'big.conf' ? { text: big, file: 'big.conf' } : { text: '', file: 'prio.conf' })))
    expect(bomb.message).toMatch(/more than 8000000 characters/)
  })

  it('a hostile gres.conf names its own file and line', () => {
    const gres = (text: string) => errorOf(() => parseSlurmConf(`NodeName=g1\n${PART}`, 'slurm.conf', { text, file: 'gres.conf' }))
    const e = gres('AutoDetect=off\nNodeName=g1 Name=gpu File=/dev/nvidia[0-9999999]')
    expect([e.file, e.line]).toEqual(['gres.conf', 2])
    expect(e.message).toMatch(/File="\/dev\/nvidia\[0-9999999\]": .*more than/)
    expect(gres('NodeName=g1 Name=gpu Count=-2').message).toMatch(/^gres\.conf line 1: Count/)
    expect(gres('Name=gpu\u0000').line).toBe(1)
  })
})

describe('hostile scontrol output', () => {
  const cases: [string, string, number | null, RegExp][] = [
    ['text before any record', 'hello\nNodeName=a CPUTot=4', 1, /"hello" is not Key=Value/],
    ['a setting before any record', 'CPUTot=4\nNodeName=a CPUTot=4', 1, /"CPUTot=4" comes before any NodeName=/],
    ['negative CPUs', 'NodeName=a CPUTot=-4', 1, /CPUTot=-4 is out of range/],
    ['no CPUs', 'NodeName=a Arch=x86_64\n   RealMemory=1000', 1, /node a has no CPUTot=/],
    ['a node name that is a list', 'NodeName=a[1-2] CPUTot=4', 1, /NodeName="a\[1-2\]" is not one node name/],
    ['NUL byte', 'NodeName=a CPUTot=4\n   Real\u0000Memory=1', 2, /NUL character at column 8/],
    ['duplicate node', 'NodeName=a CPUTot=4\n\nNodeName=a CPUTot=4', 3, /node "a" appears twice/],
    ['unclosed bracket in a partition', 'NodeName=a1 CPUTot=4\nPartitionName=p Nodes=a[1-', 2, /"\[" not closed/],
    ['giant range in a partition', 'NodeName=a1 CPUTot=4\nPartitionName=p Nodes=a[1-5000000]', 2, /more than/],
    ['bad MaxTime', 'NodeName=a1 CPUTot=4\nPartitionName=p Nodes=a1 MaxTime=soon', 2, /MaxTime="soon" is not a Slurm time/],
    ['nothing', '\n\n', null, /no NodeName= record/],
  ]
  for (const [what, text, line, message] of cases) {
    it(what, () => {
      const e = errorOf(() => parseScontrol(text, 'scontrol.out'))
      expect([e.file, e.line]).toEqual(['scontrol.out', line])
      expect(e.message).toMatch(message)
    })
  }
  it('a 1 MB line', () => {
    const e = errorOf(() => parseScontrol(`NodeName=a CPUTot=4 Reason=${'x'.repeat(1_000_000)}`, 's.out'))
    expect([e.file, e.line]).toEqual(['s.out', 1])
    expect(e.message).toMatch(/characters long \(at most 65536\)/)
  })
})

describe('hostile inference input', () => {
  it('a machine of more than a million single-CPU nodes is refused, not built', () => {
    const e = errorOf(() => inferCluster({ count: 1, procs: [2_000_000], logName: 'x.swf' }))
    expect([e.file, e.line]).toEqual(['x.swf', null])
  })
  it('node counts that would need more than a million nodes', () => {
    expect(() => inferCluster({ count: 2, procs: [4, 8_000_000], nodes: [2, -1] })).toThrow(ClusterConfigError)
  })
  it('unknown values (-1, NaN) in the columns are skipped', () => {
    const c = inferCluster({ count: 3, procs: [8, NaN, -1], nodes: [2, -1, NaN], gpus: [-1, NaN, 2] })
    expect(c.nodes.map((n) => [n.cpus, n.gpus])).toEqual([[4, 0], [4, 0]])
  })
})
