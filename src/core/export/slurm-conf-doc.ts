// The "Merging into your slurm.conf" part of docs/POLICIES.md, from the declared values (catalog.ts
// renders the document; scripts/gen-policies-doc.mjs writes it).
import { fmtInt } from './expr'
import { APPROXIMATE } from './slurm'
import { MAX_CONF_CHARS, MAX_LINE_CHARS } from './slurm-conf'
import { BF_WINDOW_MAX_MIN, BF_WINDOW_MIN } from './slurm-plan'

export function slurmMergeDoc(): string[] {
  return [
    `- \`bf_window\` (minutes) is the longest requested time in the log (\`log.maxRequestedSeconds\` of the result, rounded up) and, when the current slurm.conf is given, at least its partitions' longest \`MaxTime\` and its own \`bf_window\`; ${fmtInt(BF_WINDOW_MIN)} (7 days) when nothing is known. It is capped at ${fmtInt(BF_WINDOW_MAX_MIN)}: Slurm's backfill plugin (\`backfill.c\`, \`MAX_BACKFILL_WINDOW\` = 30 days) logs "Invalid SchedulerParameters bf_window" for a larger value and falls back to one day. When requests exceed 30 days, or a partition has \`MaxTime=INFINITE\`, the export says so: such jobs get no reservation beyond the window.`,
    '',
    '#### Without the current slurm.conf: a fragment that says what it overrides',
    '',
    '`slurm.conf.easytune` is meant to be appended at the end of slurm.conf (later lines win). Its first lines list the site policies it overrides: fair-share, QOS and association weights set to 0, the partition, age, job-size and TRES weights replaced, `PriorityFlags` and `JobSubmitPlugins` replaced by the order\'s own lists, and `SchedulerParameters` replaced as a whole (every other option there is dropped).',
    '',
    '#### Merging into your slurm.conf',
    '',
    'With the current slurm.conf (`easytune export … --current-conf slurm.conf`, or the `currentConf` option of the `exportConfig` operation), the export writes the **whole merged file** (`slurm.conf`) and lists every change as `{setting, from, to, why}` (`from` is null when the file did not set it). It changes only what the order needs — `PriorityType`, `PriorityWeightPartition`, `PriorityWeightAge`, `PriorityWeightJobSize`, `PriorityWeightTRES`, `PriorityFlags` (NO_NORMAL_TRES), `PriorityMaxAge` and `PriorityCalcPeriod` for a wait term, `JobSubmitPlugins` (lua), `SchedulerType` and the backfill entries of `SchedulerParameters` — and keeps every other line verbatim: fair-share, QOS and association weights, `PriorityDecayHalfLife`, nodes, partitions, comments. The reader follows slurm.conf(5):',
    '',
    '- keys are case-insensitive (only node and partition names are not); a changed key keeps the spelling the site wrote, and its line ends with `# EasyTune: was …`;',
    '- `#` starts a comment (`\\#` is a literal `#`); a line ending in `\\` continues on the next, and Slurm joins the two as they are;',
    '- a key given twice keeps its last value. The merge rewrites the last occurrence and comments out the earlier copies of the keys it changes (so slurmctld does not log "specified more than once"); duplicates of other keys are only reported;',
    '- `PriorityFlags`, `SchedulerParameters` and `JobSubmitPlugins` are comma-separated sets: the order\'s entries are added, an entry with a value (`bf_window=…`) replaces the one of the same name, every other entry stays (`job_submit/lua` and `lua` are one plugin). A larger `bf_max_job_test` or `bf_window` of the site is kept;',
    '- `Include` lines are kept and **not read**: Slurm reads the included file in place, so if it sets one of the changed keys, its value wins there. Each Include is reported;',
    '- `NodeName`, `PartitionName`, `NodeSet`, `DownNodes`, `FrontendName` and `SlurmctldHost` lines are never changed (the partitions\' `MaxTime` and `PriorityJobFactor` are read);',
    `- the file is untrusted text: NUL or other control characters, lines over ${fmtInt(MAX_LINE_CHARS)} characters, files over ${fmtInt(MAX_CONF_CHARS, 1e9)} characters and anything that is not \`Key=Value\` are refused with the line named; nothing in it is evaluated.`,
    '',
    `Fair-share, QOS and association weights that stay non-zero act beside the order: the export compares their total (each factor lies in [0, 1], so together they move a priority by up to the sum of their weights) with the span of the order's own term (1 point per CPU for ±q, 1 per minute for ±p̃, about 10⁹ for the scaled mixtures and log-encoded scores, 0 for FCFS) and sets the bundle's \`approximate\` to "${APPROXIMATE}. …" with that comparison. It is a flag beside the items' fidelities, not a new fidelity value: it qualifies the whole export at this site, while the fidelity ranking (native < job_submit.lua < site factor < not exportable) stays about what Slurm can express. Different \`PriorityJobFactor\` values on the partitions are reported too: with the base priority on the partition factor, they outweigh the order.`,
    '',
    'A result whose verdict is `keep` (or, in a version 1 result, whose recommendation is the baseline) exports nothing: no file, `changes: []`, and a note saying so. `insufficient-data` is refused with the evaluation\'s reason (the CLI exits 2).',
    '',
    'The real-Slurm test (`test/slurm`) merges a site file with an Include, mixed-case keys, a continued line, multi-valued `PriorityFlags`, fair-share and QOS weights, several `SchedulerParameters` entries and two partitions, starts slurmctld 22.05 on it, reads the values back with `scontrol show config`, and finds no error or "Invalid" line in its log beyond those of the loopback cluster itself (a fresh state folder, the pmix MPI plugin without its library, fair-share without slurmdbd).',
  ]
}
