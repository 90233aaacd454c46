#!/usr/bin/env node
// The results of the learned priorities (docs/LEARN.md §Results, issue #23): for each log, learn on
// the training part (`easytune learn`, a fixed seed), then `easytune evaluate` the same log with the
// best learned fn: orders beside F1–F4, SPF and FCFS, and print the Markdown tables. Both commands
// cut the log at the same split (the default, the midpoint of the submit times, with the same import
// options), so a learned function never sees the test part it is judged on. Optionally the ranking's
// stability: the same log learned with a second seed, compared with the first.
// Runs the built CLI (node scripts/build-cli.mjs first), one log after another.
//
// Usage: node scripts/learn-results.mjs <out folder> [--logs kth,ctc,lublin256,aaroh] [--top 3]
//          [--seed 1] [--tuples K] [--trials N] [--workers 2] [--weeks 250]
//          [--stability kth,ctc,lublin256] [--stability-seed 2] [--data folder]
// The JSON of every run is written to <out folder> (not committed); the tables go to stdout.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'

const { values: o, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    logs: { type: 'string', default: 'kth,ctc,lublin256,aaroh' },
    top: { type: 'string', default: '3' },
    seed: { type: 'string', default: '1' },
    tuples: { type: 'string' },
    trials: { type: 'string' },
    workers: { type: 'string', default: '2' },
    weeks: { type: 'string', default: '250' },
    stability: { type: 'string', default: '' },
    'stability-seed': { type: 'string', default: '2' },
    data: { type: 'string' },
    'skip-evaluate': { type: 'boolean', default: false },
  },
})
if (positionals.length !== 1) {
  console.error('usage: node scripts/learn-results.mjs <out folder> [--logs kth,ctc,lublin256,aaroh] [--top 3] [--seed 1] [--tuples K] [--trials N] [--workers 2] [--weeks 250] [--stability kth,…] [--stability-seed 2] [--data folder]')
  process.exit(2)
}
const OUT = resolve(positionals[0])
mkdirSync(OUT, { recursive: true })
const DATA = resolve(o.data ?? process.env.EASYTUNE_DATA ?? '../shared/data')
const CLI = resolve('bin/easytune.js')
if (!existsSync(CLI)) { console.error(`${CLI} is missing: run node scripts/build-cli.mjs first`); process.exit(2) }

// The Lublin model logs have no requested time: the job's actual runtime stands for it (perfect
// estimates, as test/reallogs/learn-regression-sites.test.ts does), in learn AND evaluate.
const LOGS = {
  kth: { name: 'KTH-SP2', file: 'swf/KTH-SP2-1996-2.1-cln.swf.gz', extra: [] },
  ctc: { name: 'CTC-SP2', file: 'swf/CTC-SP2-1996-3.1-cln.swf.gz', extra: [] },
  lublin256: { name: 'Lublin model (lublin_256)', file: 'swf-model/lublin_256.swf', extra: ['--requested-fallback', 'runtime'] },
  aaroh: { name: 'Lublin model (lublin-aaroh)', file: 'swf-model/lublin-aaroh.swf', extra: ['--requested-fallback', 'runtime'] },
}
const BUILTINS = ['F1', 'F2', 'F3', 'F4', 'SPF', 'FCFS']
const top = Number(o.top)

function run(args, label) {
  const t0 = performance.now()
  process.stderr.write(`\n$ easytune ${args.join(' ')}\n`)
  const r = spawnSync(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'inherit'] })
  const s = (performance.now() - t0) / 1000
  if (r.status !== 0) throw new Error(`${label} failed (exit ${r.status ?? r.signal})`)
  process.stderr.write(`(${label}: ${s.toFixed(1)} s wall clock; tuples and cells already in the cache are not recomputed)\n`)
  return s
}

function learn(key, seed) {
  const log = LOGS[key]
  const out = join(OUT, `${key}-learn-seed${seed}.json`)
  const budget = [...(o.tuples ? ['--tuples', o.tuples] : []), ...(o.trials ? ['--trials', o.trials] : [])]
  const seconds = run(['learn', resolve(DATA, log.file), ...log.extra, '--seed', String(seed), ...budget, '--workers', o.workers, '--json', out], `learn ${key}`)
  return { json: JSON.parse(readFileSync(out, 'utf8')), seconds }
}

function evaluate(key, fns, objective, extra = []) {
  const log = LOGS[key]
  const out = join(OUT, `${key}-evaluate-${objective}${extra.length ? '-norisk' : ''}.json`)
  const primaries = [...fns.map((f) => `fn:${f.expression}`), ...BUILTINS].join(',')
  const seconds = run(['evaluate', resolve(DATA, log.file), ...log.extra, '--primaries', primaries, '--backfills', 'same', '--thresholds', 'none',
    '--objective', objective, '--weeks', o.weeks, '--seed', o.seed, '--workers', o.workers, ...extra, '--json', out], `evaluate ${key}`)
  return { json: JSON.parse(readFileSync(out, 'utf8')), seconds }
}

const sig = (x, d = 3) => (x === null || x === undefined || !Number.isFinite(x) ? 'n/a' : Number(x.toPrecision(d)).toLocaleString('en-US', { maximumSignificantDigits: d }))
const exp = (x) => (x === null || x === undefined || !Number.isFinite(x) ? 'n/a' : x.toExponential(2))
const pct = (x) => `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)} %`
const minutes = (s) => (s >= 3600 ? `${(s / 3600).toFixed(2)} h` : `${(s / 60).toFixed(1)} min`)
/** The plain words for a test-part gain interval (the candidate's own paired interval on the real weeks). */
const words = (ci) => (ci[0] > 0 ? 'better than FCFS' : ci[1] < 0 ? 'worse than FCFS' : 'no significant difference')

function learnTable(j) {
  const lines = [
    `${j.trainingJobs.toLocaleString('en-US')} training jobs on ${j.machineProcs} processors; ${j.options.tuples} tuples, ceiling ${j.options.trials.toLocaleString('en-US')} trials each, seed ${j.options.seed}: ${j.trials.toLocaleString('en-US')} trials in all (${j.tuples.filter((t) => t.stoppedEarly).length}/${j.tuples.length} tuples stopped early), ${j.regression.samples.toLocaleString('en-US')} samples.`,
    '',
    '| # | expression (lower runs first) | eq. 5 error | c1, c2, c3 | F1–F4 form (coefficient) | same form as |',
    '|---|---|---:|---|---|---|',
  ]
  for (const f of j.functions.slice(0, Math.max(top, 5))) {
    const c = f.coefficients
    const simp = f.simplified ? `${f.simplified.expression}${f.simplified.coefficient === null ? '' : ` (${exp(f.simplified.coefficient)})`}` : 'none'
    lines.push(`| ${f.position} | \`${f.expression}\` | ${exp(f.rank)} | ${exp(c.c1)}, ${exp(c.c2)}, ${exp(c.c3)} | ${simp} | ${f.sameFormAs ?? '—'} |`)
  }
  const f1 = j.functions.find((f) => f.sameFormAs === 'F1')
  if (f1) lines.push('', `The F1 form fitted here: position ${f1.position}, \`${f1.expression}\` (eq. 5 error ${exp(f1.rank)}; the paper's F1 has 870).`)
  return lines.join('\n')
}

function evaluateTable(bsld, wait, free) {
  const b = bsld.json, w = wait.json
  const waitOf = new Map(w.candidates.map((c) => [c.primary, c]))
  const lines = [
    `Test part: ${b.protocol.split.test.jobs.toLocaleString('en-US')} jobs from ${b.protocol.split.atIso ?? `${b.protocol.split.at} s`}, ${b.protocol.resample.testSamples} resampled weeks (${b.protocol.resample.method}), ${b.protocol.resample.testOriginalWeeks} real weeks; EASY backfilling in the same order, no threshold; gain = 1 − candidate/FCFS on the real weeks with its ${Math.round(100 * b.protocol.confidence)} % paired interval; AvgBsld and mean wait are the means over the resampled weeks; longest wait: the longest of any resampled week (its ratio to FCFS's is what the risk limit reads, on train).`,
    '',
    '| order | AvgBsld (test) | gain over FCFS, AvgBsld [interval] | | mean wait (test) | gain over FCFS, wait [interval] | | longest wait (test) |',
    '|---|---:|---|---|---:|---|---|---:|',
  ]
  for (const c of b.candidates) {
    const cw = waitOf.get(c.primary)
    const t = c.test, tw = cw?.test
    lines.push(`| ${c.primary.startsWith('fn:') ? `\`${c.primary}\`` : c.primary} | ${sig(t.mean)} | ${pct(t.real.gain)} [${pct(t.real.ci[0])}, ${pct(t.real.ci[1])}] | ${c.primary === 'FCFS' ? 'baseline' : words(t.real.ci)} | ${tw ? minutes(tw.mean) : 'n/a'} | ${tw ? `${pct(tw.real.gain)} [${pct(tw.real.ci[0])}, ${pct(tw.real.ci[1])}]` : 'n/a'} | ${c.primary === 'FCFS' || !tw ? (c.primary === 'FCFS' ? 'baseline' : '') : words(tw.real.ci)} | ${tw ? `${minutes(tw.maxMaxWait)} (${sig(tw.maxMaxWaitRatio, 2)}× FCFS)` : 'n/a'} |`)
  }
  lines.push('', `evaluate's verdict, objective AvgBsld: ${b.recommendation.verdict}. ${b.recommendation.sentence}`)
  lines.push('', `evaluate's verdict, objective mean wait: ${w.recommendation.verdict}. ${w.recommendation.sentence}`)
  lines.push('', `evaluate's verdict, objective AvgBsld without the risk limit (--max-wait-ratio none): ${free.json.recommendation.verdict}. ${free.json.recommendation.sentence}`)
  return lines.join('\n')
}

/** Spearman correlation of two rankings of the same ids (ranks over the ids both have), and the best-k overlaps. */
function compare(a, b) {
  const ids = a.functions.map((f) => f.id).filter((id) => b.functions.some((g) => g.id === id))
  const rank = (fs) => new Map(fs.filter((f) => ids.includes(f.id)).map((f, i) => [f.id, i + 1]))
  const ra = rank(a.functions), rb = rank(b.functions)
  const m = ids.length
  const d2 = ids.reduce((acc, id) => acc + (ra.get(id) - rb.get(id)) ** 2, 0)
  const shared = (k) => a.functions.slice(0, k).filter((f) => b.functions.slice(0, k).some((g) => g.id === f.id)).length
  // The fitted coefficient of the s term in the forms of F1–F4, seed by seed (the F1–F4 form's one coefficient).
  const forms = ['F1', 'F2', 'F3', 'F4'].map((id) => {
    const c = (j) => j.functions.find((f) => f.sameFormAs === id)?.simplified?.coefficient
    return `${id} ${exp(c(a))} / ${exp(c(b))}`
  }).join('; ')
  return { m, spearman: 1 - (6 * d2) / (m * (m * m - 1)), top5: shared(5), top10: shared(10), bestA: a.functions[0].expression, bestB: b.functions[0].expression, forms }
}

const started = new Date()
const stability = []
for (const key of o.logs.split(',').filter(Boolean)) {
  const log = LOGS[key]
  if (!log) throw new Error(`unknown log ${key}: one of ${Object.keys(LOGS).join(', ')}`)
  const l = learn(key, Number(o.seed))
  let text = `### ${log.name}\n\n${learnTable(l.json)}`
  if (!o['skip-evaluate']) {
    const fns = l.json.functions.slice(0, top)
    const bsld = evaluate(key, fns, 'avgBsld')
    const wait = evaluate(key, fns, 'avgWait')
    // The same cells (from the cache) selected without the risk limit: which order evaluate would pick on AvgBsld alone.
    const free = evaluate(key, fns, 'avgBsld', ['--max-wait-ratio', 'none'])
    text += `\n\n${evaluateTable(bsld, wait, free)}`
  }
  // Printed as soon as the log is done: a long run shows its tables one by one.
  console.log(`${text}\n`)
  if (o.stability.split(',').includes(key)) {
    const l2 = learn(key, Number(o['stability-seed']))
    stability.push({ name: log.name, tuples: l.json.options.tuples, trials: l.json.options.trials, ...compare(l.json, l2.json) })
  }
}
if (stability.length) {
  console.log(`\n### Ranking stability (seeds ${o.seed} and ${o['stability-seed']})\n`)
  console.log('| log | tuples | trial ceiling | best 5 shared | best 10 shared | Spearman (all forms) | best form, seed ' + o.seed + ' / ' + o['stability-seed'] + ' | coefficient of the F1–F4 forms, seed ' + o.seed + ' / ' + o['stability-seed'] + ' |')
  console.log('|---|---:|---:|---:|---:|---:|---|---|')
  for (const s of stability) console.log(`| ${s.name} | ${s.tuples} | ${s.trials.toLocaleString('en-US')} | ${s.top5} | ${s.top10} | ${s.spearman.toFixed(2)} (${s.m} forms) | \`${s.bestA}\` / \`${s.bestB}\` | ${s.forms} |`)
}
console.log(`\n(Run ${started.toISOString()} to ${new Date().toISOString()}; JSON in ${OUT}.)`)
