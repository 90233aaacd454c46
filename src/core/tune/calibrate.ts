// Simulated versus recorded waits: when the log records the waits its own scheduler produced
// (SWF field 3, SLURM/PBS start − submit), compare them with simulated EASY-FCFS on the same jobs,
// so the administrator sees how far to trust the simulator on this log.
import { percentile } from '../sim/metrics'
import type { JobTable } from '../workload/types'

export interface Calibration {
  /** Jobs with a recorded wait. */
  jobs: number
  share: number
  recordedMean: number
  simulatedMean: number
  recordedMedian: number
  simulatedMedian: number
  recordedP90: number
  simulatedP90: number
  /** Pearson correlation of per-job waits. */
  pearson: number
  /** Spearman rank correlation of per-job waits. */
  spearman: number
  /** Mean of simulated − recorded (seconds). */
  meanDifference: number
  verdict: string
}

export function calibrate(jobs: JobTable, simulatedStart: Float64Array): Calibration | null {
  const rec: number[] = [], sim: number[] = []
  for (let i = 0; i < jobs.count; i++) {
    const w = jobs.recordedWait[i]
    if (w === w && w >= 0) { rec.push(w); sim.push(simulatedStart[i] - jobs.submit[i]) }
  }
  const n = rec.length
  if (n < 2) return null
  const r = Float64Array.from(rec), s = Float64Array.from(sim)
  const rs = r.slice().sort(), ss = s.slice().sort()
  const recordedMean = mean(r), simulatedMean = mean(s)
  const p = pearson(r, s)
  const c: Calibration = {
    jobs: n, share: n / jobs.count,
    recordedMean, simulatedMean,
    recordedMedian: percentile(rs, 0.5), simulatedMedian: percentile(ss, 0.5),
    recordedP90: percentile(rs, 0.9), simulatedP90: percentile(ss, 0.9),
    pearson: p, spearman: pearson(ranks(r), ranks(s)),
    meanDifference: simulatedMean - recordedMean,
    verdict: '',
  }
  c.verdict = verdict(c)
  return c
}

function verdict(c: Calibration): string {
  const ratio = c.recordedMean > 0 ? c.simulatedMean / c.recordedMean : NaN
  const level = c.spearman >= 0.6 ? 'closely' : c.spearman >= 0.3 ? 'loosely' : 'poorly'
  const scale = !Number.isFinite(ratio) ? '' : ratio > 1.25 ? `, and waits ${ratio.toFixed(1)}× longer on average` : ratio < 0.8 ? `, and waits ${(1 / ratio).toFixed(1)}× shorter on average` : ', with similar average waits'
  return `Simulated EASY-FCFS follows the recorded waits ${level} (rank correlation ${c.spearman.toFixed(2)})${scale}. ` +
    'Real schedulers add priorities, partitions, reservations and node topology that the simulator leaves out; ' +
    'compare policies with each other rather than with the recorded numbers.'
}

function mean(a: Float64Array): number {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i]
  return s / a.length
}

function pearson(a: Float64Array, b: Float64Array): number {
  const ma = mean(a), mb = mean(b)
  let sab = 0, saa = 0, sbb = 0
  for (let i = 0; i < a.length; i++) {
    const x = a[i] - ma, y = b[i] - mb
    sab += x * y; saa += x * x; sbb += y * y
  }
  return saa > 0 && sbb > 0 ? sab / Math.sqrt(saa * sbb) : 0
}

/** Average ranks (ties share their mean rank). */
function ranks(a: Float64Array): Float64Array {
  const idx = Array.from(a.keys()).sort((x, y) => a[x] - a[y])
  const r = new Float64Array(a.length)
  for (let i = 0; i < idx.length;) {
    let j = i
    while (j + 1 < idx.length && a[idx[j + 1]] === a[idx[i]]) j++
    const rank = (i + j) / 2 + 1
    for (let k = i; k <= j; k++) r[idx[k]] = rank
    i = j + 1
  }
  return r
}
