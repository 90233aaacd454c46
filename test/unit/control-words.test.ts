// The GUI speaks its own controls (issue #20): the flags are read from the sources themselves, so
// a new flag in a back-end or core message without its GUI words in the renderer's controlWords
// (src/renderer/src/format.ts) fails here. The DOM side is test/renderer/control-words.dom.test.ts.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { controlWords } from '../../src/renderer/src/format'

const FLAG = /(?<![\w-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)/g

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n)
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : []
  })
}
/** Flags named inside string literals of these sources (comments and code left out). */
function flagsInStrings(dirs: string[], skip: RegExp): Set<string> {
  const out = new Set<string>()
  for (const f of dirs.flatMap(files)) {
    if (skip.test(f)) continue
    for (const line of readFileSync(f, 'utf8').split('\n')) {
      if (/^\s*(\/\/|\*|\/\*)/.test(line)) continue
      for (const lit of line.match(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g) ?? []) {
        for (const m of lit.matchAll(FLAG)) out.add(m[1])
      }
    }
  }
  return out
}
const noFlag = (s: string) => expect(s, s).not.toMatch(/(?<![\w-])--[a-z]/)

describe('controlWords against the sources', () => {
  it('has GUI words of its own for every flag a back-end or core message names', () => {
    // The shell scripts the export writes (squeue --format …), the sacct command the Import step
    // shows (sacct --duplicates …, its fields' sbatch options) and a sharded campaign's sbatch
    // scripts and commands (sbatch --array …) are code for the cluster, not messages.
    const flags = flagsInStrings(['src/core', 'src/engine', 'src/backend', 'src/shared'], /src[\\/](core[\\/](export[\\/]scripts|workload[\\/]sacct-command)|backend[\\/]slurm-array-scripts)\.ts$/)
    expect([...flags]).toEqual(expect.arrayContaining(['procs', 'requested-fallback', 'format', 'current-conf', 'json']))
    for (const f of flags) {
      const words = controlWords(`set it with --${f} 2.`)
      noFlag(words)
      expect(words, f).not.toContain(`the ${f} setting`) // a named control, not the catch-all
    }
  })

  it('leaves no flag of the CLI in any message, even one without a named control', () => {
    const flags = flagsInStrings(['src/cli'], /^$/)
    expect(flags.size).toBeGreaterThan(20)
    for (const f of flags) noFlag(controlWords(`use --${f} or \`--${f}\`.`))
  })

})
