// Generated code for Slurm: job_submit.lua (a site factor set at submission) and, for orders that
// change while jobs wait or use a threshold, a periodic `scontrol update … SiteFactor=` script.
// Both are rendered from the formula tree and from numbers only (expr.ts). Also the periodic
// script that orders the queue by predicted runtime from sacct (predicted.ts).
import { AWK, fmtInt, fmtNum, LUA, render, usesVar, type Expr } from './expr'
import { PREDICTION_FLOOR } from '../predict/types'
import { ENC_CAP, ENC_SCALE, EPOCH0, LIMIT_IF_UNSET_MIN, PROMOTE, PROMOTE_CAP, SF_OFFSET, type Encoding, type SlurmPlan } from './slurm-plan'

export const LUA_FILE = 'job_submit.lua'
export const SITE_FACTOR_FILE = 'easytune-site-factor.sh'
export const PREDICTED_SCRIPT_FILE = 'easytune-predicted-order.sh'
/** Ordering by predicted runtime (docs/PREDICTIONS.md §Deployment): site factor = PRED_OFFSET −
 * PRED_UNITS × prediction (seconds). Two points per second, so the mean of two whole-second
 * runtimes is exact and no two predictions that the simulator orders apart tie. */
export const PRED_OFFSET = 1_000_000_000
export const PRED_UNITS = 2

function luaEncode(enc: Encoding): string {
  if (enc.kind === 'linear') {
    return [
      `  local s = math.floor(x * ${fmtNum(enc.scale)} + 0.5) + ${fmtInt(enc.offset)}`,
      `  if s > ${fmtInt(enc.max)} then return ${fmtInt(enc.max)} end`,
      '  if s < 0 then return 0 end',
      '  return s',
    ].join('\n')
  }
  return [
    `  local a = math.floor(math.log(1 + math.abs(x)) * ${fmtInt(ENC_SCALE)} + 0.5)`,
    `  if a > ${fmtInt(ENC_CAP)} then a = ${fmtInt(ENC_CAP)} end`,
    `  if x < 0 then return ${fmtInt(SF_OFFSET)} - a end`,
    `  return ${fmtInt(SF_OFFSET)} + a`,
  ].join('\n')
}

/** job_submit.lua for a plan that needs one ('lua', 'linear' with p terms, 'sitefactor'). */
export function jobSubmitLua(plan: SlurmPlan, title: string[]): string {
  let expr: Expr, enc: Encoding
  if (plan.mode === 'lua') { expr = plan.expr; enc = plan.enc }
  else if (plan.mode === 'linear' && plan.lua !== null) { expr = plan.lua; enc = plan.enc }
  else if (plan.mode === 'sitefactor') { expr = plan.expr; enc = { kind: 'log' } }
  else throw new Error(`internal: no job_submit.lua for a ${plan.mode} plan`)
  const score = render(expr, LUA)
  if (score === null) throw new Error('internal: the formula has no Lua form')
  // slurm_job_modify recomputes a static score that reads the time limit or the CPUs when either
  // changes (scontrol update TimeLimit= or NumCPUs=, by the user or an admin); the submit time t
  // then comes from the job record (docs/LEARN.md §Export). The periodic script follows the others.
  const follow = plan.mode !== 'sitefactor' && (usesVar(expr, 'p') || usesVar(expr, 'q'))
  const withT = follow && usesVar(expr, 't')
  const what = plan.mode === 'sitefactor'
    ? [`-- It sets each job's initial site factor (its score with no wait yet); ${SITE_FACTOR_FILE},`, '-- run periodically, then keeps every pending job\'s site factor up to date.']
    : !follow
      ? ['-- It sets each job\'s site factor once, at submission: the order reads neither the time limit', '-- nor the CPUs, so no later change of the job can move it.']
      : ['-- It sets each job\'s site factor at submission, and again when its time limit or CPU count', '-- is changed (slurm_job_modify, for a change by the user or by an admin).',
          ...(withT ? ['-- There t is the submit time Slurm recorded (job_rec.submit_time, Slurm 20.02 and later; within', '-- a second of os.time() at submission). On Slurm 19.05, which does not pass it, a change of', '-- time limit or CPUs keeps the site factor given at submission (logged).'] : [])]
  return [
    ...title.map((l) => `-- ${l}`),
    '-- Install next to slurm.conf and set JobSubmitPlugins=lua (see slurm.conf.easytune). If you',
    '-- already have a job_submit.lua, merge these functions into yours.',
    ...what,
    '-- Generated from numbers only: nothing read from a job log is pasted into this file.',
    '',
    `${'local NO_VAL = 4294967294'.padEnd(36)}-- slurm.h: unset (INFINITE is 4294967295)`,
    `${`local LIMIT_IF_UNSET = ${fmtInt(LIMIT_IF_UNSET_MIN)}`.padEnd(36)}-- minutes assumed for a job without a time limit`,
    `${`local EPOCH0 = ${fmtInt(EPOCH0)}`.padEnd(36)}-- origin of submit times (seconds since 1970)`,
    '',
    'local function valid(x) return type(x) == "number" and x < NO_VAL end',
    '',
    '-- q: CPUs requested (a job that asks only for nodes, -N, counts one CPU per node here)',
    'local function cpus(job_desc)',
    '  if valid(job_desc.min_cpus) and job_desc.min_cpus > 0 then return job_desc.min_cpus end',
    '  if valid(job_desc.num_tasks) and job_desc.num_tasks > 0 then return job_desc.num_tasks end',
    '  if valid(job_desc.min_nodes) and job_desc.min_nodes > 0 then return job_desc.min_nodes end',
    '  return 1',
    'end',
    '',
    '-- p: requested time in seconds (Slurm time limits are minutes)',
    'local function seconds(time_limit)',
    '  if valid(time_limit) and time_limit > 0 then return time_limit * 60 end',
    '  return LIMIT_IF_UNSET * 60',
    'end',
    '',
    '-- Higher runs first. q = CPUs, p = requested seconds, w = wait (seconds), t = submit time.',
    'local function score(q, p, w, t)',
    `  return ${score}`,
    'end',
    '',
    '-- The score as a whole number in [0, 2147483645]: never negative, because Slurm reads the',
    '-- site factor as an unsigned number and -2 would mean "unset".',
    'local function encode(x)',
    `  if x ~= x then return ${fmtInt(enc.kind === 'log' ? SF_OFFSET : enc.offset)} end`,
    luaEncode(enc),
    'end',
    '',
    'function slurm_job_submit(job_desc, part_list, submit_uid)',
    '  job_desc.site_factor = encode(score(cpus(job_desc), seconds(job_desc.time_limit), 0, os.time() - EPOCH0))',
    '  return slurm.SUCCESS',
    'end',
    '',
    'function slurm_job_modify(job_desc, job_rec, part_list, modify_uid)',
    ...(follow ? [
      '  if valid(job_desc.time_limit) or valid(job_desc.min_cpus) then',
      '    local q = valid(job_desc.min_cpus) and job_desc.min_cpus or job_rec.min_cpus',
      '    local tl = valid(job_desc.time_limit) and job_desc.time_limit or job_rec.time_limit',
      '    if not valid(q) or q < 1 then q = 1 end',
      ...(withT ? [
        '    local st = job_rec.submit_time',
        '    if type(st) ~= "number" or st <= 0 then',
        '      slurm.log_info("job_submit.lua: no submit time for job %s (Slurm before 20.02): site factor kept", tostring(job_rec.job_id))',
        '      return slurm.SUCCESS',
        '    end',
        '    job_desc.site_factor = encode(score(q, seconds(tl), 0, st - EPOCH0))',
      ] : ['    job_desc.site_factor = encode(score(q, seconds(tl), 0, 0))']),
      '  end',
    ] : []),
    '  return slurm.SUCCESS',
    'end',
    '',
    'return slurm.SUCCESS',
    '',
  ].join('\n')
}

/** awk: a time limit as squeue prints it (%l) in seconds; `unset` (an awk variable both scripts
 * set) for UNLIMITED, NOT_SET or anything else. Shared by the site-factor and predicted-order scripts. */
const AWK_SECONDS = [
  '# time limit: [days-]hours:minutes:seconds, minutes:seconds, minutes, or UNLIMITED/NOT_SET',
  'function seconds(s,   d, n, f) {',
  '  if (s !~ /^[0-9:-]+$/) return unset',
  '  d = 0',
  '  if (index(s, "-") > 0) { d = substr(s, 1, index(s, "-") - 1) + 0; s = substr(s, index(s, "-") + 1) }',
  '  n = split(s, f, ":")',
  '  if (n == 3) return d * 86400 + f[1] * 3600 + f[2] * 60 + f[3]',
  '  if (n == 2) return d * 86400 + f[1] * 60 + f[2]',
  '  return d * 86400 + f[1] * 60',
  '}',
]

/** The periodic site-factor script: POSIX sh + awk, needs root (SiteFactor is privileged). */
export function siteFactorScript(plan: Extract<SlurmPlan, { mode: 'sitefactor' }>, title: string[]): string {
  const score = render(plan.expr, AWK)
  if (score === null) throw new Error('internal: the formula has no awk form')
  const t = plan.threshold
  const rule = t === null
    ? `  sf = encode(${score})`
    : [`  if (w > ${fmtNum(t)}) sf = ${fmtInt(PROMOTE)} + (w < ${fmtInt(PROMOTE_CAP)} ? w : ${fmtInt(PROMOTE_CAP)})`, `  else sf = encode(${score})`].join('\n')
  return [
    '#!/bin/sh',
    ...title.map((l) => `# ${l}`),
    '# Recomputes the site factor of every pending job from its CPUs, time limit and wait, so that',
    '# Slurm\'s priority follows an order that changes while jobs wait' + (t === null ? '.' : ' (and the threshold).'),
    '# Run as root (SiteFactor is privileged), e.g. every minute from cron:',
    `#   * * * * * root /usr/local/sbin/${SITE_FACTOR_FILE}`,
    `# or as a service loop: ${SITE_FACTOR_FILE} 60`,
    '# Between runs the order is that of the last run; new jobs get their initial value from',
    '# job_submit.lua. Cost: one `scontrol update` per pending job per run.',
    '# Generated from numbers only: nothing read from a job log is pasted into this file.',
    'set -u',
    'update() {',
    '  now=$(date +%s)',
    "  SLURM_TIME_FORMAT=%s squeue --noheader --states=PENDING --format='%A %V %l %C' |",
    `  awk -v now="$now" -v unset=${fmtInt(LIMIT_IF_UNSET_MIN * 60)} '`,
    'function max2(a, b) { return a > b ? a : b }',
    ...AWK_SECONDS,
    'function encode(x,   a) {',
    `  if (x != x) return ${fmtInt(SF_OFFSET)}`,
    `  a = int(log(1 + (x < 0 ? -x : x)) * ${fmtInt(ENC_SCALE)} + 0.5)`,
    `  if (a > ${fmtInt(ENC_CAP)}) a = ${fmtInt(ENC_CAP)}`,
    `  return x < 0 ? ${fmtInt(SF_OFFSET)} - a : ${fmtInt(SF_OFFSET)} + a`,
    '}',
    '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && $4 ~ /^[0-9]+$/ {',
    '  q = $4 + 0; if (q < 1) q = 1',
    '  p = seconds($3); if (p <= 0) p = unset',
    '  w = now - $2; if (w < 0) w = 0',
    rule,
    '  printf "%s %.0f\\n", $1, sf',
    "}' |",
    '  while read -r id sf; do',
    '    scontrol update JobId="$id" SiteFactor="$sf" > /dev/null 2>&1 ||',
    `      echo "${SITE_FACTOR_FILE}: could not update job $id" >&2`,
    '  done',
    '}',
    'interval=${1:-}',
    'if [ -z "$interval" ]; then update; exit 0; fi',
    `case $interval in ''|*[!0-9]*) echo "usage: ${SITE_FACTOR_FILE} [seconds between runs]" >&2; exit 2 ;; esac`,
    'while :; do update; sleep "$interval"; done',
    '',
  ].join('\n')
}

/** The periodic script: POSIX sh + awk, needs root (SiteFactor is privileged) and sacct (slurmdbd). */
export function predictedOrderScript(title: string[], historyDays: number, threshold: number | null = null): string {
  const unset = LIMIT_IF_UNSET_MIN * 60
  const theta = threshold === null ? null : fmtInt(Math.round(threshold), PROMOTE_CAP)
  return [
    '#!/bin/sh',
    ...title.map((l) => `# ${l}`),
    '# Orders the queue by PREDICTED runtime, shortest first, through each pending job\'s site factor:',
    `#   site factor = ${fmtInt(PRED_OFFSET)} - ${PRED_UNITS} x prediction (seconds)`,
    '# The prediction is AVE2: the mean elapsed time of the user\'s last two jobs that ended at or',
    '# before the job\'s submission (by end time, then job id); with one such job its elapsed time;',
    '# with none the time limit. It is at most the job\'s time limit and at least 1 second. A job',
    `# without a time limit counts ${fmtInt(LIMIT_IF_UNSET_MIN)} minutes (7 days).`,
    '# History: sacct, allocations only, of the users with pending jobs, over the last',
    `# EASYTUNE_HISTORY_DAYS days (default ${fmtInt(historyDays)}); jobs that never started are skipped.`,
    ...(theta === null ? [] : [
      `# Threshold: a job that has waited longer than ${theta} s gets ${fmtInt(PROMOTE)} + its wait (at most`,
      `# ${fmtInt(PROMOTE_CAP)}), above every prediction: such jobs run first, oldest first.`,
    ]),
    '# Reservations and backfill stay on the time limits: Slurm plans on them.',
    '# Run as root (SiteFactor is privileged), e.g. every minute from cron:',
    `#   * * * * * root /usr/local/sbin/${PREDICTED_SCRIPT_FILE}`,
    `# or as a service loop: ${PREDICTED_SCRIPT_FILE} 60`,
    `# Between runs a new job has the site factor ${LUA_FILE} gave it (its time limit's value).`,
    '# If squeue or sacct fails, nothing is updated (every site factor stays as the last run left',
    '# it) and the run exits 1. Cost per run: one squeue, one sacct, one scontrol per pending job.',
    '# Generated from numbers only: nothing read from a job log is pasted into this file.',
    'set -u',
    `HISTORY_DAYS=\${EASYTUNE_HISTORY_DAYS:-${fmtInt(historyDays)}}`,
    `case $HISTORY_DAYS in ''|*[!0-9]*) echo "${PREDICTED_SCRIPT_FILE}: EASYTUNE_HISTORY_DAYS must be a whole number of days" >&2; exit 2 ;; esac`,
    'update() {',
    "  queue=$(SLURM_TIME_FORMAT=%s squeue --noheader --states=PENDING --format='%A|%V|%l|%u') ||",
    `    { echo "${PREDICTED_SCRIPT_FILE}: squeue failed: nothing updated" >&2; return 1; }`,
    "  users=$(printf '%s\\n' \"$queue\" | awk -F'|' '$4 ~ /^[A-Za-z0-9._-]+$/ { print $4 }' | sort -u | paste -s -d, -)",
    '  [ -n "$users" ] || return 0',
    '  hist=$(SLURM_TIME_FORMAT=%s sacct --noheader --parsable2 --allocations --user="$users" \\',
    '    --starttime="now-${HISTORY_DAYS}days" --endtime=now --format=JobIDRaw,User,Start,End,ElapsedRaw,State) ||',
    `    { echo "${PREDICTED_SCRIPT_FILE}: sacct failed: nothing updated" >&2; return 1; }`,
    ...(theta === null ? [] : ['  now=$(date +%s) || { echo "' + PREDICTED_SCRIPT_FILE + ': date failed: nothing updated" >&2; return 1; }']),
    "  { printf '%s\\n' \"$hist\"; echo '#queue'; printf '%s\\n' \"$queue\"; } |",
    `  awk -F'|' -v unset=${fmtInt(unset)} -v offset=${fmtInt(PRED_OFFSET)} -v units=${PRED_UNITS} -v floor=${PREDICTION_FLOOR}${theta === null ? '' : ` -v now="$now" -v theta=${theta}`} '`,
    ...AWK_SECONDS,
    '# history entry k of user u ended later than entry b (end time, then job id)',
    'function later(u, k, b) { return E[u, k] > E[u, b] || (E[u, k] == E[u, b] && I[u, k] > I[u, b]) }',
    '$0 == "#queue" { queue = 1; next }',
    '# sacct: JobIDRaw|User|Start|End|ElapsedRaw|State; a job that started and ended',
    '!queue {',
    '  if ($1 !~ /^[0-9]+$/ || $2 == "" || $3 !~ /^[0-9]+$/ || $4 !~ /^[0-9]+$/ || $5 !~ /^[0-9]+$/) next',
    '  if ($6 ~ /^(PENDING|RUNNING|REQUEUED|RESIZING|SUSPENDED)/) next',
    '  k = ++n[$2]; E[$2, k] = $4 + 0; R[$2, k] = $5 + 0; I[$2, k] = $1 + 0',
    '  next',
    '}',
    '# squeue: JobId|SubmitTime|TimeLimit|User',
    '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ {',
    '  u = $4; st = $2 + 0',
    '  lim = seconds($3); if (lim <= 0) lim = unset',
    '  b1 = 0; b2 = 0',
    '  for (k = 1; k <= n[u]; k++) {',
    '    if (E[u, k] > st) continue',
    '    if (b1 == 0 || later(u, k, b1)) { b2 = b1; b1 = k }',
    '    else if (b2 == 0 || later(u, k, b2)) b2 = k',
    '  }',
    '  # units x prediction: the sum of the two runtimes is exactly 2 x their mean',
    '  if (b2 > 0) x = R[u, b1] + R[u, b2]; else if (b1 > 0) x = 2 * R[u, b1]; else x = 2 * lim',
    '  x = x * units / 2',
    '  if (x > units * lim) x = units * lim',
    '  if (x < units * floor) x = units * floor',
    '  sf = offset - x; if (sf < 0) sf = 0',
    ...(theta === null ? [] : [
      '  w = now - st',
      `  if (w > theta) sf = ${fmtInt(PROMOTE)} + (w < ${fmtInt(PROMOTE_CAP)} ? w : ${fmtInt(PROMOTE_CAP)})`,
    ]),
    '  printf "%s %.0f\\n", $1, sf',
    "}' |",
    '  while read -r id sf; do',
    '    scontrol update JobId="$id" SiteFactor="$sf" > /dev/null 2>&1 ||',
    `      echo "${PREDICTED_SCRIPT_FILE}: could not update job $id" >&2`,
    '  done',
    '}',
    'interval=${1:-}',
    'if [ -z "$interval" ]; then update; exit $?; fi',
    `case $interval in ''|*[!0-9]*) echo "usage: ${PREDICTED_SCRIPT_FILE} [seconds between runs]" >&2; exit 2 ;; esac`,
    'while :; do update; sleep "$interval"; done',
    '',
  ].join('\n')
}
