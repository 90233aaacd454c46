// The comparison with the recorded history, as lines of text (simulate and evaluate).
import type { Calibration } from '../core/tune/calibrate'
import { formatDuration } from '../core/util/duration'
import { int, pct } from './output'

export function fidelityLines(c: Calibration | null): string[] {
  if (!c) return []
  const lines = [`Fidelity (${int(c.jobs)} jobs with a recorded start): recorded mean wait ${formatDuration(c.recordedMean)}, simulated ${formatDuration(c.simulatedMean)}` +
    `${c.meanWaitRatio != null ? ` (${c.meanWaitRatio.toFixed(2)}×)` : ''}; medians ${formatDuration(c.recordedMedian)} vs ${formatDuration(c.simulatedMedian)}; rank correlation ${c.spearman.toFixed(2)}.`]
  if (c.within10m !== undefined) {
    const bf = c.backfilledShare
    const mape = c.movingWaitMape != null ? `two-week moving-average wait off by ${pct(c.movingWaitMape)} (MAPE over ${int(c.movingWaitDays ?? 0)} days)` : `no two-week moving average (${c.movingWaitReason ?? 'not measured'})`
    lines.push(`Starts within 10 min of the recorded start: ${pct(c.within10m)}, within 1 h: ${pct(c.within1h ?? 0)}; started by backfill: ${bf?.simulated == null ? 'not known' : pct(bf.simulated)} simulated, ${bf?.recorded == null ? 'not recorded in the log' : `${pct(bf.recorded)} recorded`}; ${mape}.`)
  }
  for (const [name, p] of Object.entries(c.partitions ?? {})) {
    lines.push(`  partition ${name}: ${int(p.jobs)} jobs, rank correlation ${p.spearman === null ? 'n/a' : p.spearman.toFixed(2)}, mean wait ${p.meanWaitRatio === null ? 'n/a' : `${p.meanWaitRatio.toFixed(2)}×`} the recorded, ${pct(p.within1h)} within 1 h`)
  }
  lines.push(c.verdict)
  return lines
}
