// Settings: theme (system / light / dark, applied as a data attribute the CSS variables follow),
// default worker count, and what the back end says about itself (mode, version, citations).
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { AppInfo, Settings } from '../../../shared/api'
import { DEFAULT_SETTINGS } from '../../../shared/settings'
import { errorMessage, useApi } from '../apiRef'

export type Theme = Settings['theme']

function prefersDark(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches
}

export function applyTheme(theme: Theme): void {
  if (typeof document === 'undefined') return
  if (theme === 'system') delete document.documentElement.dataset.theme
  else document.documentElement.dataset.theme = theme
}

export const useSettingsStore = defineStore('settings', () => {
  const theme = ref<Theme>(DEFAULT_SETTINGS.theme)
  const workers = ref<number | null>(DEFAULT_SETTINGS.workers)
  const recentProjects = ref<string[]>([...DEFAULT_SETTINGS.recentProjects])
  const appInfo = ref<AppInfo | null>(null)
  const systemDark = ref(prefersDark())
  const error = ref<string | null>(null)

  const effectiveTheme = computed<'light' | 'dark'>(() => (theme.value === 'system' ? (systemDark.value ? 'dark' : 'light') : theme.value))
  const mode = computed(() => appInfo.value?.mode ?? 'browser')

  function apply(s: Settings): void {
    theme.value = s.theme
    workers.value = s.workers
    recentProjects.value = [...s.recentProjects]
    applyTheme(s.theme)
  }

  /** Reads settings and app info; follows the system's colour scheme while the theme is "system". */
  async function load(): Promise<void> {
    const api = useApi()
    try {
      const [s, info] = await Promise.all([api.getSettings(), api.getAppInfo()])
      apply(s)
      appInfo.value = info
    } catch (e) {
      error.value = `Could not read the settings: ${errorMessage(e)}`
    }
    if (typeof window !== 'undefined' && typeof window.matchMedia === 'function') {
      window.matchMedia('(prefers-color-scheme: dark)').addEventListener?.('change', (ev) => { systemDark.value = ev.matches })
    }
  }

  async function setTheme(t: Theme): Promise<void> {
    theme.value = t
    applyTheme(t)
    try { apply(await useApi().setSettings({ theme: t })) } catch (e) { error.value = `Could not save the theme: ${errorMessage(e)}` }
  }

  /** Light → dark → system → light: one button cycles through the three. */
  function nextTheme(): Theme {
    return theme.value === 'light' ? 'dark' : theme.value === 'dark' ? 'system' : 'light'
  }

  async function setWorkers(n: number | null): Promise<void> {
    workers.value = n
    try { apply(await useApi().setSettings({ workers: n })) } catch (e) { error.value = `Could not save the worker count: ${errorMessage(e)}` }
  }

  return { theme, workers, recentProjects, appInfo, systemDark, error, effectiveTheme, mode, load, setTheme, nextTheme, setWorkers }
})
