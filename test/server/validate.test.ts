// Every API method's argument validator (src/shared/validate.ts) turns good input into clean typed
// data and rejects hostile input with an ApiInputError whose message says what is wrong.
import { describe, expect, it } from 'vitest'
import { ApiInputError, isApiMethod, parseProjectText, validateCall, VALIDATORS, type ApiMethod } from '../../src/shared/validate'
import { projectState, request } from './support'

const ok = <K extends ApiMethod>(m: K, args: unknown[]) => validateCall(m, args)
function rejects(m: ApiMethod, args: unknown, message: RegExp): void {
  let err: unknown
  try { validateCall(m, args) } catch (e) { err = e }
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

describe('API argument validators', () => {
  it('cover every EasyTuneApi method that crosses a process boundary', () => {
    expect(Object.keys(VALIDATORS).sort()).toEqual(['addLogFile', 'autosave', 'cancel', 'estimateCampaign', 'exportConfig', 'generateReport', 'getAppInfo', 'getImportReport',
      'getSettings', 'importLog', 'openProject', 'previewSplit', 'restoreLastProject', 'saveProject', 'saveText', 'setSettings', 'startAnalysis', 'startCampaign'])
    expect(isApiMethod('__proto__')).toBe(false)
    expect(isApiMethod('toString')).toBe(false)
    expect(isApiMethod('constructor')).toBe(false)
    expect(() => validateCall('toString' as ApiMethod, [])).toThrow(/unknown method/)
  })

  it('accept analysis requests within bounds and reject hostile ones', () => {
    const online = { workloadId: 'w1', kind: 'online', options: { strategies: ['full', 'egreedy'], period: 'week', weeks: 26, traces: 3, seed: 1 } }
    const mixed = { workloadId: 'w1', kind: 'mixed', options: { features: 3, method: 'xnes', budget: 60, weeks: 20, objective: 'avgWait', seed: 1 }, split: { kind: 'fraction', fraction: 0.5 } }
    expect(ok('startAnalysis', [online])).toEqual([online])
    expect(ok('startAnalysis', [mixed])).toEqual([mixed])
    const bad = (req: unknown, re: RegExp) => expect(() => validateCall('startAnalysis', [req])).toThrow(re)
    bad({ ...online, kind: 'evaluate' }, /online or mixed/)
    bad({ ...online, options: { ...online.options, weeks: 261 } }, /between 1 and 260/)
    bad({ ...online, options: { ...online.options, traces: 21 } }, /between 1 and 20/)
    bad({ ...online, options: { ...online.options, traces: 2.5 } }, /whole number/)
    bad({ ...online, options: { ...online.options, strategies: ['full', 'full'] } }, /twice/)
    bad({ ...online, options: { ...online.options, strategies: ['ucb'] } }, /strategy must be one of/)
    bad({ ...online, options: { ...online.options, strategies: [] } }, /at least 1/)
    bad({ ...online, options: { ...online.options, period: 'month' } }, /period must be one of/)
    bad({ ...online, options: { ...online.options, seed: -1 } }, /seed/)
    bad({ ...online, split: { kind: 'midpoint' } }, /no split/)
    bad({ ...mixed, options: { ...mixed.options, budget: 1001 } }, /between 1 and 1000/)
    bad({ ...mixed, options: { ...mixed.options, weeks: 501 } }, /between 1 and 500/)
    bad({ ...mixed, options: { ...mixed.options, budget: Infinity } }, /finite/)
    bad({ ...mixed, options: { ...mixed.options, features: 4 } }, /3 or 6/)
    bad({ ...mixed, options: { ...mixed.options, method: 'cma' } }, /search method/)
    bad({ ...mixed, options: { ...mixed.options, tau: 1 } }, /unknown field "tau"/)
    bad({ ...mixed, split: undefined }, /split must be an object/)
    bad({ ...mixed, workloadId: '../x' }, /not a valid id/)
    bad(JSON.parse('{"__proto__": {}, "workloadId": "w1", "kind": "online"}'), /forbidden key/)
  })

  it('accept good input and return clean copies (canonical policy ids, nulls as absent)', () => {
    const req = request('w_1', { candidates: { list: [{ primary: 'spt', backfill: 'same' }, { primary: 'EXP', backfill: 'sqf' }] } })
    const [r] = ok('startCampaign', [req])
    expect(r.candidates).toEqual({ list: [{ primary: 'SPF', backfill: 'same' }, { primary: 'LEXP', backfill: 'SQF' }] })
    expect(r).not.toBe(req)
    expect(ok('importLog', [{ kind: 'sample' }, { format: null, procs: 100, overrun: 'clamp', requestedFallback: { seconds: 3600 } }]))
      .toEqual([{ kind: 'sample' }, { procs: 100, overrun: 'clamp', requestedFallback: { seconds: 3600 } }])
    expect(ok('importLog', [{ kind: 'handle', handle: 'hAbC-_1' }])).toEqual([{ kind: 'handle', handle: 'hAbC-_1' }, {}])
    expect(ok('previewSplit', ['w1', { kind: 'fraction', fraction: 0.7 }])).toEqual(['w1', { kind: 'fraction', fraction: 0.7 }])
    expect(ok('saveProject', [projectState(), null])[1]).toEqual({})
    expect(ok('openProject', [])).toEqual([null])
    expect(ok('openProject', [{ path: '/home/a/p.json' }])).toEqual([{ path: '/home/a/p.json' }])
    expect(ok('exportConfig', [result, 'slurm', { slurmVersion: '23.11' }])[2]).toEqual({ slurmVersion: '23.11' })
    expect(ok('exportConfig', [result, 'pbs'])[2]).toEqual({})
    expect(ok('saveText', ['slurm.conf', 'x', 'text/plain; charset=utf-8'])).toEqual(['slurm.conf', 'x', 'text/plain; charset=utf-8'])
    expect(ok('setSettings', [{ theme: 'dark', workers: null }])).toEqual([{ theme: 'dark', workers: null }])
    expect(parseProjectText(JSON.stringify(projectState({ result: result as never })))).toMatchObject({ version: 1, step: 2 })
  })

  it('take importLog\'s optional tracking: an import id like the other ids, nothing else', () => {
    const id = '0b8f9c4e-1d2a-4c3b-9e8f-7a6b5c4d3e2f' // crypto.randomUUID()
    expect(ok('importLog', [{ kind: 'sample' }, {}, { importId: id }])).toEqual([{ kind: 'sample' }, {}, { importId: id }])
    expect(ok('importLog', [{ kind: 'sample' }, null, { importId: 'i_1' }])).toEqual([{ kind: 'sample' }, {}, { importId: 'i_1' }])
    expect(ok('importLog', [{ kind: 'sample' }, {}, null])).toEqual([{ kind: 'sample' }, {}]) // no trailing undefined either
    expect(ok('importLog', [{ kind: 'sample' }, {}, undefined])).toHaveLength(2)
    rejects('importLog', [{ kind: 'sample' }, {}, { importId: 'a/b' }], /the import id is not a valid id/)
    rejects('importLog', [{ kind: 'sample' }, {}, { importId: 'x'.repeat(65) }], /the import id is too long/)
    rejects('importLog', [{ kind: 'sample' }, {}, { importId: 7 }], /the import id must be a text/)
    rejects('importLog', [{ kind: 'sample' }, {}, {}], /the import id must be a text/)
    rejects('importLog', [{ kind: 'sample' }, {}, { importId: 'i1', path: '/etc' }], /unknown field "path"/)
    rejects('importLog', [{ kind: 'sample' }, {}, 'i1'], /the import tracking must be an object/)
    rejects('importLog', [{ kind: 'sample' }, {}, JSON.parse('{"__proto__": {"x": 1}}')], /forbidden key/)
    rejects('importLog', [{ kind: 'sample' }, {}, { importId: 'i1' }, 4], /takes 1 to 3 arguments/)
    expect(ok('cancel', [id])).toEqual([id])
  })

  it('reject wrong types, wrong argument counts and extra keys', () => {
    rejects('getAppInfo', ['x'], /takes 0 arguments/)
    rejects('getAppInfo', 'not a list', /must be a list/)
    rejects('cancel', [], /takes 1 argument/)
    rejects('cancel', [42], /must be a text/)
    rejects('importLog', [{ kind: 'sample', extra: 1 }, {}], /unknown field "extra"/)
    rejects('importLog', [{ kind: 'path', path: '/etc/passwd' }, {}], /unknown field "path"/)
    rejects('importLog', [{ kind: 'file' }, {}], /sample, dialog or handle/)
    rejects('importLog', [{ kind: 'sample' }, { procs: '100' }], /finite number/)
    rejects('importLog', [{ kind: 'sample' }, { procs: 1.5 }], /whole number/)
    rejects('importLog', [{ kind: 'sample' }, { format: 'csv' }], /swf, sacct, jobcomp, pbs/)
    rejects('startCampaign', [[]], /must be an object, got a list/)
    rejects('startCampaign', [{ ...request('w1'), sneaky: true }], /unknown field "sneaky"/)
    rejects('startCampaign', [{ ...request('w1'), objective: 'fastest' }], /avgWait, avgBsld/)
    rejects('previewSplit', ['w1', { kind: 'midpoint', fraction: 0.5 }], /no "fraction"/)
    rejects('saveProject', [projectState(), { saveAs: 'yes' }], /true or false/)
    rejects('openProject', [{ path: '/a', text: 'b' }], /either a path or a text/)
    rejects('setSettings', [{ theme: 'pink' }], /system, light, dark/)
  })

  it('reject NaN, Infinity and out-of-range numbers', () => {
    rejects('startCampaign', [request('w1', { resample: { method: 'user-weeks', weeks: NaN, seed: 1 } })], /finite number, got NaN/)
    rejects('startCampaign', [request('w1', { resample: { method: 'user-weeks', weeks: 0, seed: 1 } })], /weeks must be between 1 and 5000/)
    rejects('startCampaign', [request('w1', { resample: { method: 'user-weeks', weeks: 5001, seed: 1 } })], /between 1 and 5000/)
    rejects('startCampaign', [request('w1', { workers: 0 })], /workers must be between 1 and 64/)
    rejects('startCampaign', [request('w1', { workers: 65 })], /between 1 and 64/)
    rejects('startCampaign', [request('w1', { workers: Infinity })], /finite number/)
    rejects('startCampaign', [request('w1', { thresholds: [-1] })], /threshold 1 .* between 0 and/)
    rejects('startCampaign', [request('w1', { thresholds: [Infinity] })], /finite number/)
    rejects('startCampaign', [request('w1', { maxWaitRatio: -2 })], /longest-wait limit/)
    rejects('startCampaign', [request('w1', { tau: 0 })], /tau/)
    rejects('previewSplit', ['w1', { kind: 'fraction', fraction: 1 }], /strictly between 0 and 1/)
    rejects('previewSplit', ['w1', { kind: 'time', at: NaN }], /finite number/)
    expect(ok('startCampaign', [request('w1', { thresholds: [0, null, 72000] })])[0].thresholds).toEqual([0, null, 72000])
  })

  it('reject unknown policies, bad ids and handles', () => {
    rejects('startCampaign', [request('w1', { candidates: { list: [{ primary: 'FASTEST', backfill: 'same' }] } })], /"FASTEST" is not a known policy/)
    rejects('startCampaign', [request('w1', { candidates: { list: [{ primary: 'same', backfill: 'same' }] } })], /not a known policy/)
    rejects('startCampaign', [request('w1', { candidates: { preset: 'ch7' as 'ch5' } })], /ch5, ch6/)
    rejects('startCampaign', [request('w1', { candidates: { list: [] } })], /at least 1 entry/)
    rejects('startCampaign', [request('../../etc')], /not a valid id/)
    rejects('importLog', [{ kind: 'handle', handle: 'a/b' }, {}], /not a valid id/)
    rejects('importLog', [{ kind: 'handle', handle: 'x'.repeat(65) }, {}], /too long/)
    rejects('addLogFile', ['relative/path.swf'], /absolute path/)
    rejects('addLogFile', ['/tmp/a\0b'], /NUL/)
  })

  it('reject huge arrays and over-long strings', () => {
    const many = Array.from({ length: 501 }, () => ({ primary: 'SPF', backfill: 'same' }))
    rejects('startCampaign', [request('w1', { candidates: { list: many } })], /too many entries \(501, at most 500\)/)
    rejects('startCampaign', [request('w1', { thresholds: new Array(65).fill(null) })], /too many entries/)
    rejects('saveText', ['a.txt', 'x'.repeat(64 * 1024 * 1024 + 1), 'text/plain'], /too long/)
    rejects('saveText', ['../../.bashrc', 'x', 'text/plain'], /plain file name/)
    rejects('saveText', ['a.txt', 'x', 'text/html\r\nX-Evil: 1'], /not a valid MIME type/)
    rejects('setSettings', [{ recentProjects: new Array(21).fill('/a') }], /too many entries/)
    rejects('generateReport', [{ ...result, candidates: new Array(200_000).fill(result.candidates[0]) }], /too many entries|too large/)
    let deep: unknown = 1
    for (let i = 0; i < 40; i++) deep = { d: deep }
    rejects('generateReport', [{ ...result, weekly: [deep] }], /nested too deeply/)
  })

  it('reject prototype-pollution keys anywhere', () => {
    const polluted = JSON.parse('{"kind":"sample","__proto__":{"admin":true}}')
    rejects('importLog', [polluted, {}], /forbidden key "__proto__"/)
    rejects('setSettings', [JSON.parse('{"constructor":{"prototype":{"x":1}}}')], /forbidden key "constructor"/)
    rejects('generateReport', [{ ...result, log: JSON.parse(`{"name":"x","__proto__":{"polluted":1}}`) }], /forbidden key/)
    rejects('autosave', [{ ...projectState(), importOptions: JSON.parse('{"__proto__":{"procs":1}}') }], /forbidden key/)
    expect(({} as Record<string, unknown>).admin).toBeUndefined()
    rejects('startCampaign', [Object.create({ workloadId: 'w1' })], /plain object/)
  })

  it('reject results and projects that are not ours', () => {
    rejects('generateReport', [{ ...result, kind: 'something-else' }], /not an EasyTune evaluation result/)
    rejects('generateReport', [{ ...result, schemaVersion: 2 }], /schema version 2/)
    rejects('generateReport', [{ ...result, recommended: 5 }], /recommended index must be between 0 and 0/)
    rejects('generateReport', [{ ...result, candidates: [null] }], /must be an object/)
    rejects('generateReport', [{ ...result, log: { ...result.log, name: () => 1 } }], /not plain data/)
    rejects('autosave', [{ ...projectState(), version: 2 }], /version 2/)
    rejects('autosave', [{ ...projectState(), log: { name: 'x', sha256: 'XYZ' } }], /64 lowercase hexadecimal/)
    rejects('autosave', [{ ...projectState(), step: -1 }], /wizard step/)
    expect(() => parseProjectText('{"version":1')).toThrow(/not JSON/)
    // Fields are only ever added within a schema version: a newer result still passes.
    expect(ok('generateReport', [{ ...result, addedLater: { x: 1 }, log: { ...result.log, alsoNew: true } }])[0]).toMatchObject({ addedLater: { x: 1 } })
  })
})
