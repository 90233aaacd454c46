// `npm run bench`: speed of import and simulation on real logs (a benchmark, not a timed test).
// Targets (issue #2, 2-core machine): CEA-Curie EASY-FCFS ≤ 1 s of simulation and ≤ 2 s end to end
// in a fresh process; 1M SWF lines import at ≥ 1M lines/s below 300 MB RSS. Results go to
// docs/PERFORMANCE.md by hand, with what changed them.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { simulate } from '../src/core/sim/easy'
import { computeMetrics } from '../src/core/sim/metrics'
import { CH6_POLICIES } from '../src/core/sim/policies'
import { Importer } from '../src/core/workload/import'
import { readLog } from '../src/node/read-log'

const DATA = resolve(process.env.EASYTUNE_DATA ?? '../shared/data')
const CURIE = resolve(DATA, 'swf/CEA-Curie-2011-2.1-cln.swf.gz')
const KTH = resolve('resources/KTH-SP2-1996-2.1-cln.swf.gz')
const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`
const rate = (n: number, s: number) => `${Math.round(n / s).toLocaleString('en-US')}/s`

function peakRss(): number {
  return process.resourceUsage().maxRSS * 1024
}

async function timeLog(path: string, label: string, policies: readonly string[]): Promise<void> {
  if (!existsSync(path)) { console.log(`${label}: ${path} not found, skipped`); return }
  let t = performance.now()
  const w = await readLog(path)
  const importS = (performance.now() - t) / 1000
  console.log(`${label}: ${w.jobs.count.toLocaleString('en-US')} jobs after cleaning (${w.report.jobsRead.toLocaleString('en-US')} read), ${w.machineProcs} procs; import ${importS.toFixed(2)} s (${rate(w.report.linesRead, importS)} lines)`)
  for (const p of policies) {
    simulate(w.jobs, w.machineProcs, { primary: p, backfill: 'same', threshold: null }) // warm-up
    t = performance.now()
    const start = simulate(w.jobs, w.machineProcs, { primary: p, backfill: 'same', threshold: null })
    const s = (performance.now() - t) / 1000
    const m = computeMetrics(w.jobs, w.machineProcs, start)
    console.log(`  EASY-${p.padEnd(5)} sim ${s.toFixed(3)} s  ${rate(w.jobs.count, s).padStart(12)} jobs  avgWait ${m.avgWait.toFixed(0).padStart(7)} s  maxWait ${m.maxWait.toFixed(0).padStart(8)} s`)
  }
}

function endToEnd(path: string, label: string): void {
  if (!existsSync(path)) return
  const runs: number[] = []
  for (let i = 0; i < 3; i++) {
    const t = performance.now()
    execFileSync(process.execPath, ['bin/easytune.js', 'simulate', path, '--json'], { stdio: ['ignore', 'ignore', 'ignore'] })
    runs.push((performance.now() - t) / 1000)
  }
  console.log(`${label} end to end (fresh process: start, gunzip, parse, clean, simulate FCFS, metrics): best ${Math.min(...runs).toFixed(2)} s of ${runs.map((r) => r.toFixed(2)).join(', ')}`)
}

/** Imports a synthetic 1M-line SWF from memory (chunks generated first, then timed). */
function importMillion(): void {
  const lines = 1_000_000
  const enc = new TextEncoder()
  const chunks: Uint8Array[] = [enc.encode('; MaxProcs: 100000\n')]
  let seed = 42
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
  let submit = 0
  for (let done = 0; done < lines;) {
    let chunk = ''
    for (let k = 0; k < 10000; k++, done++) {
      submit += Math.floor(rnd() * 30)
      const req = 60 + Math.floor(rnd() * 86400)
      const run = Math.floor(rnd() * req)
      const q = 1 + Math.floor(rnd() * 512)
      chunk += `${done + 1} ${submit} ${Math.floor(rnd() * 1000)} ${run} ${q} -1 -1 ${q} ${req} -1 1 ${Math.floor(rnd() * 500)} 1 1 1 -1 -1 -1\n`
    }
    chunks.push(enc.encode(chunk))
  }
  const bytes = chunks.reduce((a, c) => a + c.length, 0)
  const t = performance.now()
  const imp = new Importer({ name: 'synthetic-1M' })
  for (const c of chunks) imp.feed(c)
  const w = imp.end()
  const s = (performance.now() - t) / 1000
  console.log(`synthetic SWF in memory (${mb(bytes)}): ${lines.toLocaleString('en-US')} lines imported in ${s.toFixed(2)} s (${rate(lines, s)} lines), ${w.jobs.count.toLocaleString('en-US')} jobs kept, peak RSS ${mb(peakRss())} (text included)`)
}

console.log(`node ${process.version}, ${new Date().toISOString()}`)
importMillion()
await timeLog(CURIE, 'CEA-Curie', ['FCFS'])
await timeLog(KTH, 'KTH-SP2', CH6_POLICIES)
endToEnd(CURIE, 'CEA-Curie')
console.log(`peak RSS of this process: ${mb(peakRss())}`)
