#!/usr/bin/env node
// Fidelity of the simulation against each real Slurm log's recorded history (docs/PERFORMANCE.md
// §Fidelity): every log, with the machine inferred and with a cluster file when we have one, under
// the research's EASY and under Slurm's scheduling. Runs the built CLI (npm run build:cli first)
// and prints a Markdown table. Usage: node scripts/fidelity.mjs [data folder]
import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'

const DATA = resolve(process.argv[2] ?? process.env.EASYTUNE_DATA ?? '../shared/data')
const logs = [
  { name: 'Rackham (2 days of jobcomp)', files: ['slurm/rackham-uppmax-jobcomp/2021-05-30.anon.gz', 'slurm/rackham-uppmax-jobcomp/2021-06-15.anon.gz'], cluster: 'test/fixtures/clusters/rackham.conf', extra: [] },
  { name: 'Cirrus (sacct, CPU partition)', files: ['slurm/cirrus-epcc/2024_Q1_CPU-sacct-subset.csv'], cluster: 'test/fixtures/clusters/cirrus.conf', extra: ['--requested-fallback', 'runtime'] },
  { name: 'Kabré (sacct)', files: ['slurm/kabre-cenat/sacct.csv.gz'], cluster: null, extra: [] },
]
const pct = (x) => (x === null || x === undefined ? 'n/a' : `${(100 * x).toFixed(1)} %`)
const num = (x, d = 2) => (x === null || x === undefined ? 'n/a' : x.toFixed(d))
const rows = []
for (const log of logs) {
  for (const machine of [null, ...(log.cluster ? [log.cluster] : [])]) {
    for (const scheduler of ['easy', 'slurm']) {
      const args = ['bin/easytune.js', 'simulate', ...log.files.map((f) => resolve(DATA, f)), ...log.extra, '--scheduler', scheduler, '--json', ...(machine ? ['--cluster', machine] : [])]
      const t0 = performance.now()
      let j
      try {
        j = JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] }))
      } catch (e) {
        rows.push(`| ${log.name} | ${machine ? 'cluster file' : 'inferred'} | ${scheduler} | failed: ${String(e.message).split('\n')[0].slice(0, 80)} |||||||`)
        continue
      }
      const s = ((performance.now() - t0) / 1000).toFixed(1)
      const c = j.calibration
      rows.push(`| ${log.name} | ${machine ? 'cluster file' : 'inferred'} (${j.machine.nodes} nodes, ${j.machine.cpus} CPUs) | ${scheduler} | ${c ? c.jobs : 0} | ${c ? num(c.spearman) : 'n/a'} | ${c ? num(c.meanWaitRatio) : 'n/a'} | ${c ? pct(c.within10m) : 'n/a'} | ${c ? pct(c.within1h) : 'n/a'} | ${c ? pct(c.movingWaitMape) : 'n/a'} | ${s} s |`)
    }
  }
}
console.log('| log | machine | scheduling | jobs compared | rank correlation | mean wait sim/rec | within 10 min | within 1 h | 2-week moving-wait MAPE | run |')
console.log('|---|---|---|---:|---:|---:|---:|---:|---:|---:|')
for (const r of rows) console.log(r)
