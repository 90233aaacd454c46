// The desktop side of projects: which file the open project lives in (main only; the page never
// sees the path), the recent list, and queued opens from the File > Recent menu. Saving and
// reading (atomic temp + rename, validation) are the Backend's (src/backend/project.ts).
// Autosaves are serialized, latest wins: the renderer debounces, main never writes two at once
// and skips states that were superseded while a write was in flight.
import { basename } from 'node:path'
import type { ProjectState } from '../shared/api'
import type { Dialogs } from './dialogs'

/** How long a queued open waits for the page to ask for it. */
export const QUEUE_MS = 30_000

export interface ProjectBackend {
  saveProjectFile(path: string, state: ProjectState): Promise<void>
  readProjectFile(path: string): Promise<ProjectState>
  autosave(state: ProjectState): Promise<void>
}
export interface RecentList {
  addRecent(path: string): string[]
  removeRecent(path: string): string[]
}

export interface DesktopProjectOptions {
  backend: ProjectBackend
  recent: RecentList
  dialogs: Pick<Dialogs, 'openProject' | 'saveProject'>
  /** Called when the recent list changed (to rebuild the menu). */
  onRecentChanged?: () => void
}

export class DesktopProject {
  private path: string | null = null
  private pendingOpen: { path: string; at: number } | null = null
  private autosaving: Promise<void> | null = null
  private nextAutosave: ProjectState | null = null

  constructor(private readonly opts: DesktopProjectOptions) {}

  get currentPath(): string | null { return this.path }

  /** File > New: the next save asks where. */
  reset(): void {
    this.path = null
  }

  /** File > Recent: the next openProject() call (within QUEUE_MS) opens this file, no dialog. */
  queueOpen(path: string, now: number = Date.now()): void {
    this.pendingOpen = { path, at: now }
  }

  /** Saves to the current file, or asks where (first save, or Save As). False when cancelled. */
  async save(state: ProjectState, options: { saveAs?: boolean } = {}): Promise<boolean> {
    let target = options.saveAs ? null : this.path
    if (!target) {
      target = await this.opts.dialogs.saveProject(`${projectName(state)}.easytune`)
      if (!target) return false
    }
    await withPathsHidden(target, () => this.opts.backend.saveProjectFile(target, state))
    this.path = target
    this.remember(target)
    return true
  }

  /** Opens a project: a dropped file (its path), a queued recent file, or the open dialog. */
  async open(arg: { path: string } | null): Promise<ProjectState | null> {
    const queued = this.pendingOpen && Date.now() - this.pendingOpen.at <= QUEUE_MS ? this.pendingOpen.path : null
    this.pendingOpen = null
    const path = arg?.path ?? queued ?? (await this.opts.dialogs.openProject())
    if (!path) return null
    let state: ProjectState
    try {
      state = await withPathsHidden(path, () => this.opts.backend.readProjectFile(path))
    } catch (e) {
      // A recent entry that is gone or broken leaves the list.
      if (path === queued) { this.opts.recent.removeRecent(path); this.opts.onRecentChanged?.() }
      throw e
    }
    this.path = path
    this.remember(path)
    return state
  }

  /** Writes the autosave; concurrent calls collapse to the latest state. */
  autosave(state: ProjectState): Promise<void> {
    this.nextAutosave = state
    if (!this.autosaving) {
      this.autosaving = (async () => {
        try {
          while (this.nextAutosave) {
            const s = this.nextAutosave
            this.nextAutosave = null
            await this.opts.backend.autosave(s)
          }
        } finally {
          this.autosaving = null
        }
      })()
    }
    return this.autosaving
  }

  private remember(path: string): void {
    this.opts.recent.addRecent(path)
    this.opts.onRecentChanged?.()
  }
}

function projectName(state: ProjectState): string {
  const log = state.log?.name.replace(/(\.(gz|swf|log|txt|csv))+$/i, '')
  return (log ? `${log} tuning` : 'EasyTune project').replace(/[/\\:*?"<>|\u0000-\u001f]/g, '_').slice(0, 100)
}

/** Runs `fn`; an error's message names the file by its base name, never by its full path. */
async function withPathsHidden<T>(path: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (e) {
    if (e instanceof Error && e.message.includes(path)) e.message = e.message.split(path).join(basename(path))
    throw e
  }
}
