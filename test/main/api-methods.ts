// Every EasyTuneApi method, checked against the type: adding a method to src/shared/api.ts without
// listing it here fails the type check (and so do the preload and IPC tests that use the list).
import type { EasyTuneApi } from '../../src/shared/api'

const ALL: Record<keyof EasyTuneApi, true> = {
  getAppInfo: true, addLogFile: true, importLog: true, getImportReport: true, previewSplit: true, estimateCampaign: true, startCampaign: true, startAnalysis: true,
  cancel: true, onCampaignEvent: true, exportConfig: true, saveText: true, generateReport: true, saveProject: true, openProject: true,
  autosave: true, restoreLastProject: true, getSettings: true, setSettings: true,
}

export const API_METHODS = Object.keys(ALL) as (keyof EasyTuneApi)[]
