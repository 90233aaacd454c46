// What Help > About and getAppInfo() show: versions and the citations of the research EasyTune
// implements and of the bundled log. The Backend's own list (the log and the archive) is kept and
// the research papers are added in front (duplicates dropped), so the desktop app always cites both.
import type { AppInfo } from '../shared/api'

export const RESEARCH_CITATIONS = [
  'V. Reis, "Learning to control large-scale parallel platforms", PhD thesis, Université Grenoble Alpes, 2018 (HAL tel-01965150).',
  'J. Lelong, V. Reis, D. Trystram, "Tuning EASY-Backfilling Queues", JSSPP 2017, LNCS 10773, pp. 43-61.',
  'É. Gaussier, J. Lelong, V. Reis, D. Trystram, "Online Tuning of EASY-Backfilling using Queue Reordering Policies", IEEE TPDS, 2018.',
  'D. Carastan-Santos, R. Y. de Camargo, "Obtaining Dynamic Scheduling Policies with Simulation and Machine Learning", SC 2017.',
  'A. Legrand, D. Trystram, S. Zrigui, Inria research report RR-9212, 2018.',
]

export const LOG_CITATIONS = [
  'Bundled log KTH-SP2 (IBM SP2, 100 processors, Sep 1996 - Aug 1997): courtesy of Lars Malinowsky, KTH (Swedish Royal Institute of Technology).',
  'D. G. Feitelson, D. Tsafrir, D. Krakov, "Experience with using the Parallel Workloads Archive", Journal of Parallel and Distributed Computing 74(10):2967-2982, 2014.',
]

export const ARCHIVE_URL = 'https://www.cs.huji.ac.il/labs/parallel/workload/'

/** The Backend's AppInfo with the research and log citations guaranteed (no duplicates). */
export function desktopAppInfo(base: AppInfo): AppInfo {
  const citations = [...new Set([...RESEARCH_CITATIONS, ...base.citations, ...(base.citations.some((c) => /Malinowsky/.test(c)) ? [] : LOG_CITATIONS)])]
  return { ...base, mode: 'desktop', citations }
}

/** The About box's text. */
export function aboutText(info: AppInfo): { message: string; detail: string } {
  const names: Record<string, string> = { easytune: 'EasyTune', electron: 'Electron', chrome: 'Chromium', node: 'Node.js', v8: 'V8' }
  const versions = Object.entries(info.versions).map(([k, v]) => `${names[k] ?? k} ${v}`).join('\n')
  return {
    message: `EasyTune ${info.version}`,
    detail: `A better queue order for EASY backfilling, found on your own job logs.\n\n${versions}\n\nPlease cite:\n${info.citations.map((c) => `• ${c}`).join('\n')}`,
  }
}
