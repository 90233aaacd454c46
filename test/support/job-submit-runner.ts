// A Lua runner for the generated job_submit.lua (export and as-deployed tests): loads the script
// with a stub `slurm` table and a settable clock, submits one job per line of a jobs file
// ("cpus time_limit_minutes submit_epoch") and prints each job's site factor.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Writes the runner into `dir`; run it as `lua runner job_submit.lua jobs.txt`. */
export function writeJobSubmitRunner(dir: string): string {
  const runner = join(dir, 'run.lua')
  writeFileSync(runner, ['slurm = { SUCCESS = 0, NO_VAL = 4294967294, INFINITE = 4294967295, log_info = function() end }',
    'local now = 0', 'os.time = function() return now end', 'dofile(arg[1])',
    'for line in io.lines(arg[2]) do', '  local q, tl, t = line:match("(%S+) (%S+) (%S+)")', '  now = tonumber(t)',
    '  local j = { min_cpus = tonumber(q), time_limit = tonumber(tl) }', '  slurm_job_submit(j, {}, 0)',
    '  print(string.format("%.0f", j.site_factor))', 'end'].join('\n'))
  return runner
}
