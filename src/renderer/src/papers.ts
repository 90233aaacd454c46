// The research behind each decision, for the "why" sentences next to every control. One short
// citation and one stable link per source, taken from the references the policy declarations
// cite (src/core/research.ts, listed in docs/POLICIES.md).
import { REFERENCES } from '../../core/research'

export interface Paper {
  short: string
  title: string
  url: string
}

const paper = (r: Paper): Paper => ({ short: r.short, title: r.title, url: r.url })

export const PAPERS = {
  thesis: paper(REFERENCES['[001]']),
  jsspp17: paper(REFERENCES['[003]']),
  tpds18: paper(REFERENCES['[000]']),
  sc17: paper(REFERENCES['[002]']),
  rr9212: paper(REFERENCES['[004]']),
  pwa: {
    short: 'Parallel Workloads Archive',
    title: 'D. G. Feitelson, D. Tsafrir, D. Krakov, Experience with using the Parallel Workloads Archive, JPDC 74(10), 2014',
    url: 'https://www.cs.huji.ac.il/labs/parallel/workload/',
  },
} as const satisfies Record<string, Paper>

export type PaperKey = keyof typeof PAPERS
