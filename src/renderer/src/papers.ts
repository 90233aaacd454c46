// The research behind each decision, for the "why" sentences next to every control. One short
// citation and one stable link per source (docs/SIMULATOR.md §References).
export interface Paper {
  short: string
  title: string
  url: string
}

export const PAPERS = {
  thesis: {
    short: 'Reis, PhD thesis, 2018',
    title: 'V. Reis, Learning to control large-scale parallel platforms, Univ. Grenoble Alpes, 2018',
    url: 'https://theses.hal.science/tel-01965150',
  },
  jsspp17: {
    short: 'Lelong, Reis & Trystram, JSSPP 2017',
    title: 'J. Lelong, V. Reis, D. Trystram, Tuning EASY-Backfilling Queues, JSSPP 2017, LNCS 10773',
    url: 'https://doi.org/10.1007/978-3-319-77398-8_3',
  },
  tpds18: {
    short: 'Gaussier et al., TPDS 2018',
    title: 'É. Gaussier, J. Lelong, V. Reis, D. Trystram, Online Tuning of EASY-Backfilling using Queue Reordering Policies, IEEE TPDS 2018',
    url: 'https://hal.science/hal-01963216',
  },
  sc17: {
    short: 'Carastan-Santos & de Camargo, SC 2017',
    title: 'D. Carastan-Santos, R. Y. de Camargo, Obtaining Dynamic Scheduling Policies with Simulation and Machine Learning, SC 2017',
    url: 'https://hal.science/hal-01618940',
  },
  rr9212: {
    short: 'Legrand, Trystram & Zrigui, Inria RR-9212, 2018',
    title: 'A. Legrand, D. Trystram, S. Zrigui, Adaptation de « Batch Scheduling » aux caractéristiques de la charge de travail, Inria research report RR-9212, 2018',
    url: 'https://inria.hal.science/search/index/?q=RR-9212',
  },
  pwa: {
    short: 'Parallel Workloads Archive',
    title: 'D. G. Feitelson, D. Tsafrir, D. Krakov, Experience with using the Parallel Workloads Archive, JPDC 74(10), 2014',
    url: 'https://www.cs.huji.ac.il/labs/parallel/workload/',
  },
} as const satisfies Record<string, Paper>

export type PaperKey = keyof typeof PAPERS
