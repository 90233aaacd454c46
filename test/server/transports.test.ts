// The transports are derived from the contract: none of them names an operation. Adding an
// operation is its declaration (src/shared/contract.ts), its implementation (the Backend method of
// the same name) and its callers — no transport file changes. (The desktop services table,
// src/main/services.ts, names the few operations the desktop app implements in main.)
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { OPERATION_NAMES } from '../../src/shared/contract'

const TRANSPORTS = ['src/main/ipc.ts', 'src/preload/index.ts', 'src/server/api.ts', 'src/server/server.ts', 'src/renderer/src/api/browser.ts']

describe('the transports', () => {
  it.each(TRANSPORTS)('%s names no operation of the contract', (file) => {
    const text = readFileSync(file, 'utf8')
    const named = OPERATION_NAMES.filter((name) => new RegExp(`\\b${name}\\b`).test(text))
    expect(named).toEqual([])
  })

  it('the check can fail: it finds the operations the contract names', () => {
    const text = readFileSync('src/shared/contract.ts', 'utf8')
    expect(OPERATION_NAMES.filter((name) => !new RegExp(`\\b${name}\\b`).test(text))).toEqual([])
    expect(OPERATION_NAMES.length).toBeGreaterThan(15)
  })
})
