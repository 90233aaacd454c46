// The research EasyTune implements, one entry per reference tag used in the policy declarations
// ("[001] ch. 5–6") and the GUI's "why" links: docs/POLICIES.md lists them (generated).
export interface Reference {
  /** The tag the declarations cite, e.g. "[001]". */
  tag: string
  short: string
  title: string
  url: string
  /** What EasyTune takes from it. */
  use: string
}

export const REFERENCES = {
  '[000]': {
    tag: '[000]', short: 'Gaussier et al., TPDS 2018',
    title: 'É. Gaussier, J. Lelong, V. Reis, D. Trystram, Online Tuning of EASY-Backfilling using Queue Reordering Policies, IEEE TPDS 2018',
    url: 'https://hal.science/hal-01963216',
    use: 'online selection among the 12 pure policies; [000] is its early draft, "Online (Bandit) Policy Selection for EASY-Backfilling", and the journal form of thesis ch. 6',
  },
  '[001]': {
    tag: '[001]', short: 'Reis, PhD thesis, 2018',
    title: 'V. Reis, Learning to control large-scale parallel platforms, Univ. Grenoble Alpes, 2018 (PhD thesis)',
    url: 'https://theses.hal.science/tel-01965150',
    use: 'ch. 5: the 7 policies and 49 primary × backfill pairs, the threshold; ch. 6: the 12 pure policies and online selection',
  },
  '[002]': {
    tag: '[002]', short: 'Carastan-Santos & de Camargo, SC 2017',
    title: 'D. Carastan-Santos, R. Y. de Camargo, Obtaining Dynamic Scheduling Policies with Simulation and Machine Learning, SC 2017',
    url: 'https://hal.science/hal-01618940',
    use: 'Table 2: WFP3 and UNICEF (after Tang et al.); Table 3: the learned functions F1–F4',
  },
  '[003]': {
    tag: '[003]', short: 'Lelong, Reis & Trystram, JSSPP 2017',
    title: 'J. Lelong, V. Reis, D. Trystram, Tuning EASY-Backfilling Queues, JSSPP 2017, LNCS 10773',
    url: 'https://doi.org/10.1007/978-3-319-77398-8_3',
    use: 'the same framework as thesis ch. 5 (the expansion factor is its eq. 1)',
  },
  '[004]': {
    tag: '[004]', short: 'Legrand, Trystram & Zrigui, Inria RR-9212, 2018',
    title: 'A. Legrand, D. Trystram, S. Zrigui, Adaptation de « Batch Scheduling » aux caractéristiques de la charge de travail, Inria research report RR-9212, 2018',
    url: 'https://inria.hal.science/search/index/?q=RR-9212',
    use: 'the 12 pure policies with SPF backfilling, mixed (linear) policies over six features, the bounded slowdown with τ = 10 s',
  },
} as const satisfies Record<string, Reference>

/** Works cited by name rather than by tag. */
export const OTHER_REFERENCES: readonly { cite: string; title: string }[] = [
  { cite: 'Lifka (EASY)', title: 'D. A. Lifka, The ANL/IBM SP scheduling system, JSSPP 1995, LNCS 949: EASY backfilling, whose queue is first-come first-served' },
  { cite: 'Tang et al.', title: 'W. Tang, Z. Lan, N. Desai, D. Buettner, Fault-aware, utility-based job scheduling on Blue Gene/P systems, IEEE Cluster 2009: WFP3 and UNICEF, as given in [002] Table 2' },
]
