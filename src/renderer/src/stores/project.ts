// The whole wizard as one ProjectState (the project file and the autosave) and back.
import type { MachineChoice, ProjectState, WorkloadSummary } from '../../../shared/api'
import { useMachineStore } from './machine'
import { useWorkloadStore } from './workload'
import { useSplitStore, DEFAULT_RESAMPLE } from './split'
import { DEFAULTS } from '../../../core/defaults'
import { useCampaignStore } from './campaign'
import { useResultsStore } from './results'
import { stepIndex, useWizardStore } from './wizard'
import { useLearnStore } from './learn'

export function toProject(): ProjectState {
  const w = useWorkloadStore(), s = useSplitStore(), c = useCampaignStore(), r = useResultsStore(), z = useWizardStore(), m = useMachineStore()
  const log = w.summary ? { name: w.summary.name, sha256: w.summary.sha256 } : w.expectedLog
  return {
    version: 1,
    log: log ? { ...log } : null,
    importOptions: JSON.parse(JSON.stringify(w.options)),
    split: { ...s.spec },
    campaign: {
      resample: { ...s.resample }, candidates: JSON.parse(JSON.stringify(c.candidatesSpec)), thresholds: [...c.thresholds],
      objective: c.objective, tau: c.tau, maxWaitRatio: c.maxWaitRatio, workers: c.workers,
      minGain: c.minGain, confidence: c.confidence, minWeeks: c.minWeeks, criterion: c.criterion,
      ...(m.choice ? { machine: JSON.parse(JSON.stringify(m.choice)) as MachineChoice } : {}),
    },
    result: r.result,
    step: z.step,
    stepId: z.current.id,
    learned: useLearnStore().learned,
  }
}

/** Puts a project back into the stores. `workload` is the log the back end restored with it (null
 * when it must be imported again: the Import step then asks for the project's log). */
export function fromProject(p: ProjectState, workload: WorkloadSummary | null): void {
  if (p.version !== 1) throw new Error(`this project file has version ${String(p.version)}; this EasyTune reads version 1`)
  const w = useWorkloadStore(), s = useSplitStore(), c = useCampaignStore(), r = useResultsStore(), z = useWizardStore()
  w.restore(workload, p.importOptions ?? {}, p.log)
  s.spec = { ...p.split }
  s.resample = { ...DEFAULT_RESAMPLE, ...p.campaign.resample }
  s.preview = null
  c.restore(p.campaign)
  useMachineStore().restore(p.campaign.machine)
  r.setResult(p.result)
  useLearnStore().restore(p.learned)
  z.restore(stepIndex(p.step, p.stepId))
}

/** A fresh project (File > New): no log, the thesis's defaults everywhere. */
export function blankProject(): ProjectState {
  return {
    version: 1,
    log: null,
    importOptions: {},
    split: { ...DEFAULTS.split.value },
    campaign: {
      resample: { ...DEFAULT_RESAMPLE }, candidates: { preset: DEFAULTS.preset.value }, thresholds: [...DEFAULTS.thresholds.value],
      objective: DEFAULTS.objective.value, tau: DEFAULTS.tau.value, maxWaitRatio: DEFAULTS.maxWaitRatio.value, workers: DEFAULTS.workers.value,
      minGain: DEFAULTS.minGain.value, confidence: DEFAULTS.confidence.value, minWeeks: DEFAULTS.minWeeks.value, criterion: DEFAULTS.criterion.value,
    },
    result: null,
    step: 0,
    learned: null,
  }
}
