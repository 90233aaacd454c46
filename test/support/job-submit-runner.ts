// A Lua runner for the generated job_submit.lua (export and as-deployed tests): loads the script
// with a stub `slurm` table and a settable clock, submits one job per line of a jobs file
// ("cpus time_limit_minutes submit_epoch") and prints each job's site factor. A line
// "modify time_limit_minutes recorded_submit_epoch" changes the time limit of the job submitted
// last, as `scontrol update TimeLimit=` does (slurm_job_modify with the job's record: its CPUs, old
// limit and the submit time Slurm recorded, "-" for none as on Slurm 19.05), and prints the site
// factor the script sets, or "kept" when it sets none.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Writes the runner into `dir`; run it as `lua runner job_submit.lua jobs.txt`. */
export function writeJobSubmitRunner(dir: string): string {
  const runner = join(dir, 'run.lua')
  writeFileSync(runner, ['slurm = { SUCCESS = 0, NO_VAL = 4294967294, INFINITE = 4294967295, log_info = function() end }',
    'local NO_VAL = 4294967294',
    'local now = 0', 'os.time = function() return now end', 'dofile(arg[1])',
    'local last = nil',
    'for line in io.lines(arg[2]) do',
    '  local a, b, c = line:match("(%S+) (%S+) (%S+)")',
    '  if a == "modify" then',
    '    -- unset fields of a request read as NO_VAL in Slurm (job_submit_lua.c)',
    '    local d = { time_limit = tonumber(b), min_cpus = NO_VAL, site_factor = NO_VAL }',
    '    local rec = { job_id = 1, min_cpus = last.min_cpus, time_limit = last.time_limit, submit_time = tonumber(c) }',
    '    slurm_job_modify(d, rec, {}, 0)',
    '    if d.site_factor == NO_VAL then print("kept") else print(string.format("%.0f", d.site_factor)); last.time_limit = d.time_limit end',
    '  else',
    '    now = tonumber(c)',
    '    local j = { min_cpus = tonumber(a), time_limit = tonumber(b) }', '    slurm_job_submit(j, {}, 0)',
    '    print(string.format("%.0f", j.site_factor))',
    '    last = j',
    '  end',
    'end'].join('\n'))
  return runner
}
