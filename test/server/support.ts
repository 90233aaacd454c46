// Shared by the browser-mode and back-end tests: a project state, temp folders, and an event
// collector for campaigns.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Backend } from '../../src/backend/backend'
import type { CampaignEvent, CampaignRequest, ProjectState } from '../../src/shared/api'

export function tempDir(prefix = 'easytune-test-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

export function request(workloadId: string, over: Partial<CampaignRequest> = {}): CampaignRequest {
  return {
    workloadId, split: { kind: 'midpoint' }, resample: { method: 'user-weeks', weeks: 3, seed: 1 },
    candidates: { list: [{ primary: 'SPF', backfill: 'same' }, { primary: 'LQF', backfill: 'same' }] },
    thresholds: [null], objective: 'avgWait', tau: 10, maxWaitRatio: null, workers: 1,
    minGain: 0.05, confidence: 0.95, minWeeks: 8, criterion: 'ratio-of-means', ...over,
  }
}

export function projectState(over: Partial<ProjectState> = {}): ProjectState {
  const { workloadId: _w, split, ...campaign } = request('w1')
  return { version: 1, log: null, importOptions: {}, split, campaign, result: null, step: 2, ...over }
}

/** Collects a campaign's events until its final one (done, error or cancelled). */
export function collect(backend: Backend, onEvent?: (e: CampaignEvent, all: CampaignEvent[]) => void): { events: CampaignEvent[]; finished: Promise<CampaignEvent> } {
  const events: CampaignEvent[] = []
  let off = () => {}
  const finished = new Promise<CampaignEvent>((resolve) => {
    off = backend.subscribe('campaign', (e) => {
      events.push(e)
      onEvent?.(e, events)
      if (e.kind === 'done' || e.kind === 'error' || e.kind === 'cancelled') resolve(e)
    })
  })
  return { events, finished: finished.finally(() => off()) }
}
