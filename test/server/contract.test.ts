// The API contract's schemas (src/shared/contract.ts, src/shared/schemas.ts) turn good input into
// clean typed data and refuse hostile input with an ApiInputError whose message names the field
// and says what is wrong, in plain words. parseArgs is what every transport runs first.
import { describe, expect, it } from 'vitest'
import { CONTRACT, isOperation, OPERATION_NAMES, parseArgs, type OperationName } from '../../src/shared/contract'
import { ApiInputError } from '../../src/shared/errors'
import { parseProjectText } from '../../src/shared/schemas'
import { projectState, request } from './support'

const ok = (m: OperationName, args: unknown[]): unknown[] => parseArgs(m, args)
function rejects(m: OperationName, args: unknown, message: RegExp): void {
  let err: unknown
  try { parseArgs(m, args) } catch (e) { err = e }
  expect(err, `${m}(${JSON.stringify(args)?.slice(0, 80)}) should be refused`).toBeInstanceOf(ApiInputError)
  expect((err as Error).message).toMatch(message)
}

const result = {
  schemaVersion: 1, kind: 'easytune-evaluation', generator: 'easytune 0.1.0',
  log: { name: 'x.swf', sha256: 'a'.repeat(64), format: 'swf', machineProcs: 100, machineSource: 'given', jobsRead: 1, jobsKept: 1, unixStartTime: null, importReport: {} },
  protocol: { split: {}, resample: {}, objective: 'avgWait', tau: 10, thresholds: [null], candidates: [], risk: { maxWaitRatio: null }, cells: 2 },
  calibration: null, candidates: [{ label: 'EASY-FCFS', train: { gain: 0 }, test: { gain: 0 } }],
  recommended: 0, bestOnTest: 0, bestOnTrain: 0, ranking: [0], recommendation: { label: 'EASY-FCFS', sentence: 'Keep FCFS.', testDisagrees: false }, weekly: [],
}

describe('the contract', () => {
  it('declares every operation with a kind and looks names up safely', () => {
    for (const name of OPERATION_NAMES) expect(['call', 'file-in', 'save']).toContain(CONTRACT[name].kind)
    expect(isOperation('__proto__')).toBe(false)
    expect(isOperation('toString')).toBe(false)
    expect(isOperation('constructor')).toBe(false)
    expect(isOperation('importLog')).toBe(true)
  })

  it('says which calls report on which stream (the id they answer or are given names the events)', () => {
    const reporting = Object.fromEntries(OPERATION_NAMES.flatMap((n) => { const d = CONTRACT[n]; return d.kind === 'call' && d.events ? [[n, d.events]] : [] }))
    expect(reporting).toEqual({ importLog: 'import', startCampaign: 'campaign', startAnalysis: 'analysis' })
  })

  it('names each argument of each operation (messages name the field by them)', () => {
    for (const name of OPERATION_NAMES) {
      const d = CONTRACT[name]
      expect(d.names, name).toHaveLength(d.args.def.items.length)
    }
  })
})

describe('API argument schemas', () => {
  it('accept analysis requests within bounds and reject hostile ones', () => {
    const online = { workloadId: 'w1', kind: 'online', options: { strategies: ['full', 'egreedy'], period: 'week', weeks: 26, traces: 3, seed: 1 } }
    const mixed = { workloadId: 'w1', kind: 'mixed', options: { features: 3, method: 'xnes', budget: 60, weeks: 20, objective: 'avgWait', seed: 1 }, split: { kind: 'fraction', fraction: 0.5 } }
    expect(ok('startAnalysis', [online])).toEqual([online])
    expect(ok('startAnalysis', [mixed])).toEqual([mixed])
    const bad = (req: unknown, re: RegExp) => rejects('startAnalysis', [req], re)
    bad({ ...online, kind: 'evaluate' }, /startAnalysis: request's kind must be online, mixed, walltimes, predicted-order, learn or machine/)
    // The Time limits what-if: nothing to choose (yet), so any option is refused, and the workload id is checked like the others.
    const walltimes = { workloadId: 'w1', kind: 'walltimes', options: {} }
    expect(ok('startAnalysis', [walltimes])).toEqual([walltimes])
    bad({ ...walltimes, options: { scenarios: ['eloss'] } }, /unknown field "scenarios"/)
    bad({ ...walltimes, options: null }, /options must be an object/)
    bad({ ...walltimes, workloadId: '../../etc' }, /workloadId is not a valid id/)
    bad({ ...walltimes, split: { kind: 'midpoint' } }, /unknown field "split"/)
    bad({ ...online, options: { ...online.options, weeks: 261 } }, /request's options\.weeks must be at most 260, got 261/)
    bad({ ...online, options: { ...online.options, traces: 21 } }, /options\.traces must be at most 20/)
    bad({ ...online, options: { ...online.options, traces: 2.5 } }, /options\.traces must be a whole number, got 2\.5/)
    bad({ ...online, options: { ...online.options, strategies: ['full', 'full'] } }, /lists a strategy twice/)
    bad({ ...online, options: { ...online.options, strategies: ['ucb'] } }, /strategies\[0\] must be one of full, noisy, egreedy, random, got "ucb"/)
    bad({ ...online, options: { ...online.options, strategies: [] } }, /needs at least 1 entry/)
    bad({ ...online, options: { ...online.options, period: 'month' } }, /period must be one of day, week/)
    bad({ ...online, options: { ...online.options, seed: -1 } }, /seed must be at least 0/)
    bad({ ...online, split: { kind: 'midpoint' } }, /unknown field "split"/)
    bad({ ...mixed, options: { ...mixed.options, budget: 1001 } }, /budget must be at most 1000/)
    bad({ ...mixed, options: { ...mixed.options, weeks: 501 } }, /weeks must be at most 500/)
    bad({ ...mixed, options: { ...mixed.options, budget: Infinity } }, /budget must be a finite number, got Infinity/)
    bad({ ...mixed, options: { ...mixed.options, features: 4 } }, /features must be 3 or 6/)
    bad({ ...mixed, options: { ...mixed.options, method: 'cma' } }, /method must be one of xnes, grid/)
    bad({ ...mixed, options: { ...mixed.options, tau: 1 } }, /unknown field "tau"/)
    bad({ ...mixed, split: undefined }, /request's split must be an object \(it is missing\)|split must be midpoint, fraction or time/)
    bad({ ...mixed, workloadId: '../x' }, /workloadId is not a valid id/)
    bad(JSON.parse('{"__proto__": {}, "workloadId": "w1", "kind": "online"}'), /forbidden key "__proto__"/)
  })

  it('accept good input and return clean copies (canonical policy ids)', () => {
    const req = request('w_1', { candidates: { list: [{ primary: 'spt', backfill: 'same' }, { primary: 'EXP', backfill: 'sqf' }] } })
    const [r] = ok('startCampaign', [req]) as [typeof req]
    expect(r.candidates).toEqual({ list: [{ primary: 'SPF', backfill: 'same' }, { primary: 'LEXP', backfill: 'SQF' }] })
    expect(r).not.toBe(req)
    expect(ok('importLog', [{ kind: 'sample' }, { procs: 100, overrun: 'clamp', requestedFallback: { seconds: 3600 } }]))
      .toEqual([{ kind: 'sample' }, { procs: 100, overrun: 'clamp', requestedFallback: { seconds: 3600 } }])
    expect(ok('importLog', [{ kind: 'handle', handle: 'hAbC-_1' }])).toEqual([{ kind: 'handle', handle: 'hAbC-_1' }])
    expect(ok('previewSplit', ['w1', { kind: 'fraction', fraction: 0.7 }])).toEqual(['w1', { kind: 'fraction', fraction: 0.7 }])
    expect(ok('saveProject', [projectState()])[1]).toBeUndefined()
    expect(ok('openProject', [])).toEqual([])
    expect(ok('openProject', [null])).toEqual([null])
    expect(ok('openProject', [{ path: '/home/a/p.json' }])).toEqual([{ path: '/home/a/p.json' }])
    expect(ok('addLogFile', [{ path: 'C:\\logs\\a.swf' }])).toEqual([{ path: 'C:\\logs\\a.swf' }])
    expect(ok('exportConfig', [result, 'slurm', { slurmVersion: '23.11' }])[2]).toEqual({ slurmVersion: '23.11' })
    expect(ok('exportConfig', [result, 'pbs'])[2]).toBeUndefined()
    expect(ok('exportConfig', [result, 'slurm', { currentConf: 'ClusterName=x\n' }])[2]).toEqual({ currentConf: 'ClusterName=x\n' })
    rejects('exportConfig', [result, 'slurm', { currentConf: 'x'.repeat(2_000_001) }], /currentConf/)
    expect(ok('saveText', ['slurm.conf', 'x', 'text/plain; charset=utf-8'])).toEqual(['slurm.conf', 'x', 'text/plain; charset=utf-8'])
    expect(ok('saveReportPdf', [result])[0]).toMatchObject({ kind: 'easytune-evaluation' })
    expect(ok('setSettings', [{ theme: 'dark', workers: null }])).toEqual([{ theme: 'dark', workers: null }])
    expect(parseProjectText(JSON.stringify(projectState({ result: result as never })))).toMatchObject({ version: 1, step: 2 })
  })

  it('take importLog\'s optional tracking: an import id like the other ids, nothing else', () => {
    const id = '0b8f9c4e-1d2a-4c3b-9e8f-7a6b5c4d3e2f' // crypto.randomUUID()
    expect(ok('importLog', [{ kind: 'sample' }, {}, { importId: id }])).toEqual([{ kind: 'sample' }, {}, { importId: id }])
    expect(ok('importLog', [{ kind: 'sample' }, undefined, { importId: 'i_1' }])).toEqual([{ kind: 'sample' }, undefined, { importId: 'i_1' }])
    rejects('importLog', [{ kind: 'sample' }, {}, { importId: 'a/b' }], /importLog: tracking's importId is not a valid id/)
    rejects('importLog', [{ kind: 'sample' }, {}, { importId: 'x'.repeat(65) }], /importId is too long \(65 characters, at most 64\)/)
    rejects('importLog', [{ kind: 'sample' }, {}, { importId: 7 }], /importId must be a text, got 7/)
    rejects('importLog', [{ kind: 'sample' }, {}, {}], /importId must be a text \(it is missing\)/)
    rejects('importLog', [{ kind: 'sample' }, {}, { importId: 'i1', path: '/etc' }], /unknown field "path"/)
    rejects('importLog', [{ kind: 'sample' }, {}, 'i1'], /importLog: tracking must be an object, got "i1"/)
    rejects('importLog', [{ kind: 'sample' }, {}, JSON.parse('{"__proto__": {"x": 1}}')], /forbidden key "__proto__"/)
    rejects('importLog', [{ kind: 'sample' }, {}, { importId: 'i1' }, 4], /takes 1 to 3 arguments, got 4/)
    expect(ok('cancel', [id])).toEqual([id])
  })

  it('reject wrong types, wrong argument counts and extra keys', () => {
    rejects('getAppInfo', ['x'], /getAppInfo takes 0 arguments, got 1/)
    rejects('getAppInfo', 'not a list', /must be a list/)
    rejects('cancel', [], /cancel takes 1 argument, got 0/)
    rejects('cancel', [42], /cancel: id must be a text, got 42/)
    rejects('importLog', [{ kind: 'sample', extra: 1 }, {}], /source has an unknown field "extra"/)
    rejects('importLog', [{ kind: 'path', path: '/etc/passwd' }, {}], /source's kind must be sample, dialog, handle or handles/)
    rejects('importLog', [{ kind: 'handles', handles: [] }, {}], /handles/)
    rejects('importLog', [{ kind: 'handles', handles: ['/etc/passwd'] }, {}], /handles/)
    rejects('importLog', [{ kind: 'sample' }, { procs: '100' }], /options' procs must be a finite number, got "100"/)
    rejects('importLog', [{ kind: 'sample' }, { procs: 1.5 }], /procs must be a whole number/)
    rejects('importLog', [{ kind: 'sample' }, { format: 'csv' }], /format must be one of swf, sacct, jobcomp, pbs/)
    rejects('importLog', [{ kind: 'sample' }, { requestedFallback: 'guess' }], /requestedFallback must be drop, runtime or \{ seconds \}/)
    rejects('startCampaign', [[]], /request must be an object, got a list/)
    rejects('startCampaign', [{ ...request('w1'), sneaky: true }], /unknown field "sneaky"/)
    rejects('startCampaign', [{ ...request('w1'), objective: 'fastest' }], /objective must be one of avgWait, avgBsld/)
    rejects('previewSplit', ['w1', { kind: 'midpoint', fraction: 0.5 }], /split has an unknown field "fraction"/)
    rejects('saveProject', [projectState(), { saveAs: 'yes' }], /saveAs must be true or false/)
    rejects('openProject', [{ path: '/a', text: 'b' }], /unknown field "text"/)
    rejects('openProject', [{ text: 'b' }], /unknown field "text"|path must be a text/)
    rejects('setSettings', [{ theme: 'pink' }], /theme must be one of system, light, dark/)
    rejects('setSettings', [{ colour: 'pink' }], /unknown field "colour"/)
  })

  it('reject NaN, Infinity and out-of-range numbers', () => {
    rejects('startCampaign', [request('w1', { resample: { method: 'user-weeks', weeks: NaN, seed: 1 } })], /resample\.weeks must be a finite number, got NaN/)
    rejects('startCampaign', [request('w1', { resample: { method: 'user-weeks', weeks: 0, seed: 1 } })], /weeks must be at least 1/)
    rejects('startCampaign', [request('w1', { resample: { method: 'user-weeks', weeks: 5001, seed: 1 } })], /at most 5000/)
    rejects('startCampaign', [request('w1', { workers: 0 })], /workers must be at least 1/)
    rejects('startCampaign', [request('w1', { workers: 65 })], /workers must be at most 64/)
    rejects('startCampaign', [request('w1', { workers: Infinity })], /finite number/)
    rejects('startCampaign', [request('w1', { thresholds: [-1] })], /thresholds\[0\] .*a threshold must be positive/)
    rejects('startCampaign', [request('w1', { thresholds: [Infinity] })], /finite number|a threshold must be a number/)
    rejects('startCampaign', [request('w1', { maxWaitRatio: -2 })], /maxWaitRatio must be at least 0/)
    rejects('startCampaign', [request('w1', { tau: 0 })], /tau must be at least/)
    rejects('previewSplit', ['w1', { kind: 'fraction', fraction: 1 }], /strictly between 0 and 1/)
    rejects('previewSplit', ['w1', { kind: 'fraction', fraction: 0 }], /strictly between 0 and 1/)
    rejects('previewSplit', ['w1', { kind: 'time', at: NaN }], /finite number/)
    expect((ok('startCampaign', [request('w1', { thresholds: [3600, null, 72000] })])[0] as { thresholds: unknown }).thresholds).toEqual([3600, null, 72000])
  })

  it('apply the one threshold rule (thresholdProblem): 0 is refused, none is null', () => {
    rejects('startCampaign', [request('w1', { thresholds: [0] })], /thresholds\[0\] a threshold of 0 s promotes every waiting job at once/)
    rejects('startCampaign', [request('w1', { thresholds: [1e12] })], /thresholds\[0\] a threshold must be at most/)
    rejects('autosave', [projectState({ campaign: { ...projectState().campaign, thresholds: [0] } })], /state's campaign\.thresholds\[0\] a threshold of 0 s/)
  })

  it('reject unknown policies, bad ids, handles, paths and file names', () => {
    rejects('startCampaign', [request('w1', { candidates: { list: [{ primary: 'FASTEST', backfill: 'same' }] } })], /candidates\.list\[0\]\.primary "FASTEST" is not a known policy/)
    rejects('startCampaign', [request('w1', { candidates: { list: [{ primary: 'same', backfill: 'same' }] } })], /not a known policy/)
    rejects('startCampaign', [request('w1', { candidates: { preset: 'ch7' as 'ch5' } })], /candidates\.preset must be one of slurm, ch5, ch6, got "ch7"/)
    rejects('startCampaign', [request('w1', { candidates: { list: [] } })], /at least 1 entry/)
    rejects('startCampaign', [request('../../etc')], /workloadId is not a valid id/)
    rejects('importLog', [{ kind: 'handle', handle: 'a/b' }, {}], /handle is not a valid id/)
    rejects('importLog', [{ kind: 'handle', handle: 'x'.repeat(65) }, {}], /too long/)
    rejects('addLogFile', [{ path: 'relative/path.swf' }], /addLogFile: file's path must be an absolute path/)
    rejects('addLogFile', [{ path: '/tmp/a\0b' }], /NUL/)
    rejects('addLogFile', ['/tmp/a.swf'], /file must be an object/)
    rejects('addLogFile', [null], /file must be an object, got null/)
    rejects('addLogFile', [], /takes 1 argument/)
  })

  it('reject huge arrays and over-long strings', () => {
    const many = Array.from({ length: 501 }, () => ({ primary: 'SPF', backfill: 'same' }))
    rejects('startCampaign', [request('w1', { candidates: { list: many } })], /candidates\.list has too many entries \(501, at most 500\)/)
    rejects('startCampaign', [request('w1', { thresholds: new Array(65).fill(null) })], /thresholds has too many entries/)
    rejects('saveText', ['a.txt', 'x'.repeat(64 * 1024 * 1024 + 1), 'text/plain'], /too long/)
    rejects('saveText', ['../../.bashrc', 'x', 'text/plain'], /saveText: name must be a plain file name/)
    rejects('saveText', ['a\u0007.txt', 'x', 'text/plain'], /plain file name/)
    rejects('saveText', ['a.txt', 'x', 'text/html\r\nX-Evil: 1'], /mime is not a valid MIME type/)
    rejects('setSettings', [{ recentProjects: new Array(21).fill('/a') }], /too many entries/)
    rejects('generateReport', [{ ...result, candidates: new Array(200_000).fill(result.candidates[0]) }], /too many entries|too large/)
    rejects('generateReport', [{ ...result, log: { ...result.log, name: 'x'.repeat((1 << 20) + 1) } }], /too long/)
    let deep: unknown = 1
    for (let i = 0; i < 40; i++) deep = { d: deep }
    rejects('generateReport', [{ ...result, weekly: [deep] }], /nested too deeply/)
    let deeper: unknown = 1
    for (let i = 0; i < 100; i++) deeper = [deeper]
    rejects('setSettings', [{ recentProjects: deeper }], /nested too deeply/)
  })

  it('reject prototype-pollution keys anywhere, and anything but plain data', () => {
    const polluted = JSON.parse('{"kind":"sample","__proto__":{"admin":true}}')
    rejects('importLog', [polluted, {}], /forbidden key "__proto__"/)
    rejects('setSettings', [JSON.parse('{"constructor":{"prototype":{"x":1}}}')], /forbidden key "constructor"/)
    rejects('setSettings', [{ theme: 'dark', prototype: 1 }], /forbidden key "prototype"/)
    rejects('generateReport', [{ ...result, log: JSON.parse(`{"name":"x","__proto__":{"polluted":1}}`) }], /forbidden key/)
    rejects('autosave', [{ ...projectState(), importOptions: JSON.parse('{"__proto__":{"procs":1}}') }], /forbidden key/)
    expect(({} as Record<string, unknown>).admin).toBeUndefined()
    rejects('startCampaign', [Object.create({ workloadId: 'w1' })], /not a plain object/)
    rejects('startCampaign', [new Map()], /not a plain object/)
    rejects('generateReport', [{ ...result, log: { ...result.log, name: () => 1 } }], /function, which is not plain data/)
  })

  it('reject results and projects that are not ours', () => {
    rejects('generateReport', [{ ...result, kind: 'something-else' }], /result's kind is not an EasyTune evaluation result/)
    rejects('generateReport', [{ ...result, schemaVersion: 4 }], /schemaVersion must be 1, 2 or 3/)
    rejects('generateReport', [{ ...result, schemaVersion: 2, recommendation: { sentence: 'x' } }], /recommendation\.verdict is required in version 2/)
    rejects('generateReport', [{ ...result, recommended: 5 }], /recommended must be a candidate's index, between 0 and 0, got 5/)
    rejects('generateReport', [{ ...result, ranking: [0, 3] }], /ranking has more entries|ranking\[1\] must be a candidate's index/)
    rejects('generateReport', [{ ...result, candidates: [null] }], /candidates\[0\] must be an object/)
    rejects('autosave', [{ ...projectState(), version: 2 }], /version must be 1/)
    rejects('autosave', [{ ...projectState(), log: { name: 'x', sha256: 'XYZ' } }], /log\.sha256 must be 64 lowercase hexadecimal digits/)
    rejects('autosave', [{ ...projectState(), step: -1 }], /step must be at least 0/)
    expect(() => parseProjectText('{"version":1')).toThrow(/not JSON/)
    expect(() => parseProjectText('{"version":3}')).toThrow(/the project's version must be 1/)
    // Fields are only ever added within a schema version: a newer result still passes.
    expect(ok('generateReport', [{ ...result, addedLater: { x: 1 }, log: { ...result.log, alsoNew: true } }])[0]).toMatchObject({ addedLater: { x: 1 } })
  })
})

describe('the Cluster panel\'s machine choice (MachineChoiceSchema)', () => {
  const conf = { name: 'slurm.conf', text: 'NodeName=n[1-4] CPUs=8\nPartitionName=p Nodes=n[1-4] Default=YES\n' }
  it('is accepted in a campaign, a machine analysis and a project, and absent in older project files', () => {
    const machine = { source: 'current', file: conf, gres: { name: 'gres.conf', text: 'NodeName=n1 Name=gpu Count=2\n' }, scheduler: 'slurm', qosPriority: { normal: 10, high: 4294967295 } }
    expect((ok('startCampaign', [request('w1', { machine: machine as never })]) as [{ machine: unknown }])[0].machine).toEqual(machine)
    const other = { source: 'conf', file: conf, scheduler: 'easy' } // a slurm.conf with its scheduling, not today's
    expect((ok('startCampaign', [request('w1', { machine: other as never })]) as [{ machine: unknown }])[0].machine).toEqual(other)
    expect(ok('startAnalysis', [{ workloadId: 'w1', kind: 'machine', options: { source: 'inferred' } }])).toEqual([{ workloadId: 'w1', kind: 'machine', options: { source: 'inferred' } }])
    const p = projectState()
    expect(parseProjectText(JSON.stringify(p)).campaign.machine).toBeUndefined()
    expect(parseProjectText(JSON.stringify({ ...p, campaign: { ...p.campaign, machine } })).campaign.machine).toEqual(machine)
  })
  it('refuses hostile input: unknown sources, oversized or empty files, paths as names, wrong types, bad QOS', () => {
    const bad = (machine: unknown, re: RegExp) => rejects('startCampaign', [{ ...request('w1'), machine }], re)
    bad({ source: 'path', file: conf }, /machine\.source must be inferred, file, conf or current/)
    bad({ source: 'conf' }, /machine\.file must be an object \(it is missing\)/)
    bad({ source: 'file' }, /machine\.file must be an object \(it is missing\)/)
    bad({ source: 'file', file: { name: 'slurm.conf', text: 'x'.repeat(2_000_001) } }, /machine\.file\.text must be a file of at most 2000000 characters/)
    bad({ source: 'file', file: { name: 'slurm.conf', text: '' } }, /machine\.file\.text is empty/)
    bad({ source: 'current', file: { name: '/etc/slurm/slurm.conf', text: conf.text } }, /machine\.file\.name must be a plain file name/)
    bad({ source: 'current', file: { name: '..', text: conf.text } }, /machine\.file\.name must be a plain file name/)
    bad({ source: 'current', file: { ...conf, path: '/etc/passwd' } }, /unknown field "path"/)
    bad({ source: 'current', file: { name: 'slurm.conf', text: 42 } }, /machine\.file\.text must be a text, got 42/)
    bad({ source: 'inferred', scheduler: 'pbs' }, /machine\.scheduler must be one of easy, slurm/)
    bad({ source: 'inferred', qosPriority: { normal: -1 } }, /qosPriority\.normal must be at least 0/)
    bad({ source: 'inferred', qosPriority: { normal: 4294967296 } }, /must be at most 4294967295/)
    bad({ source: 'inferred', qosPriority: { normal: 1.5 } }, /must be a whole number/)
    bad({ source: 'inferred', qosPriority: { 'no spaces': 1 } }, /qosPriority has "no spaces", which is not a QOS name/)
    bad({ source: 'inferred', qosPriority: Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`q${i}`, 1])) }, /at most 1000 QOS/)
    rejects('startCampaign', [JSON.parse(`{"workloadId":"w1","machine":{"source":"inferred","qosPriority":{"__proto__":1}}}`)], /forbidden key "__proto__"/)
    rejects('startAnalysis', [{ workloadId: 'w1', kind: 'machine', options: { source: 'file', file: conf, extra: 1 } }], /unknown field "extra"/)
  })
})
