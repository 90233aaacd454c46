// The cell cache on its own: exact round trip, keys that change with everything that determines a
// result (and only with that), atomic writes, corrupt entries read as missing, streamed file hash.
import { createHash } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import type { CellResult, CellSpec } from '../../src/core/tune/campaign'
import { CACHE_FORMAT_VERSION, CellCache, canonicalJson, decodeCell, encodeCell, hashFile, type CacheScope } from '../../src/engine/cache'

const tmp = mkdtempSync(join(tmpdir(), 'easytune-cache-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const result: CellResult = {
  avgWait: Float64Array.from([1.5, 0, NaN]), maxWait: Float64Array.from([-0, Infinity, 3]),
  avgBsld: Float64Array.from([1, 2, 3]), maxBsld: Float64Array.from([4, 5, 1e300]), jobs: Int32Array.from([7, 0, 2147483647]),
  p99Wait: Float64Array.from([-0, 2.5, NaN]),
}
const K = 'c'.repeat(64)
const raw = (r: CellResult) => Object.values(r).map((a: Float64Array | Int32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex'))
const cell: CellSpec = { candidate: { primary: 'SPF', backfill: 'same' }, threshold: 72000, part: 'train' }
const scope: CacheScope = {
  workloadHash: 'a'.repeat(64), engine: 'b'.repeat(64),
  setup: { logPath: '/x/log.swf', importOptions: { overrun: 'drop' }, split: { kind: 'midpoint' }, resample: { method: 'user-weeks', weeks: 6, seed: 1 }, tau: 10 },
}

describe('encoding', () => {
  test('round-trips every bit (NaN, -0, Infinity, int32 max)', () => {
    expect(raw(decodeCell(encodeCell(result, K), K)!)).toEqual(raw(result))
  })

  test('a flipped byte, a truncated file or garbage decode as missing', () => {
    const b = encodeCell(result, K)
    for (let i = 0; i < b.length; i += 7) {
      const c = Buffer.from(b)
      c[i] ^= 0x01
      expect(decodeCell(c, K)).toBeNull()
    }
    expect(decodeCell(b.subarray(0, b.length - 1), K)).toBeNull()
    expect(decodeCell(Buffer.from('{"not":"a cell"}'), K)).toBeNull()
  })

  test('per-sample weights (a trailing partial week) round-trip; a result without them stays without', () => {
    const weighted: CellResult = { ...result, weight: Float64Array.from([1, 1, 0.5]) }
    const back = decodeCell(encodeCell(weighted, K), K)!
    expect(Array.from(back.weight!)).toEqual([1, 1, 0.5])
    const { weight: _w, ...rest } = back
    expect(raw(rest)).toEqual(raw(result))
    expect(decodeCell(encodeCell(result, K), K)!.weight).toBeUndefined()
    const b = encodeCell(weighted, K)
    for (let i = 0; i < b.length; i += 5) {
      const c = Buffer.from(b)
      c[i] ^= 0x01
      expect(decodeCell(c, K)).toBeNull()
    }
    expect(() => encodeCell({ ...result, weight: Float64Array.from([1]) }, K)).toThrow(/1 weights for 3 samples/)
  })

  test('an entry of format version 1 (no weights, computed without the partial week) is never read', () => {
    // Version 1 layout: 'EASYTUNE' | u32 1 | u32 n | 4 f64 arrays | i32 jobs | sha256.
    const n = 3
    const body = Buffer.alloc(16 + n * 36)
    body.write('EASYTUNE', 0, 'ascii')
    body.writeUInt32LE(1, 8)
    body.writeUInt32LE(n, 12)
    const v1 = Buffer.concat([body, createHash('sha256').update(body).digest()])
    expect(decodeCell(v1, K)).toBeNull()
    expect(encodeCell(result, K).readUInt32LE(8)).toBe(CACHE_FORMAT_VERSION)
    expect(CACHE_FORMAT_VERSION).toBeGreaterThan(3)
  })
})

describe('keys', () => {
  const c = new CellCache(tmp)
  const k = c.key(scope, cell)
  test.each([
    ['the log content', { ...scope, workloadHash: 'c'.repeat(64) }, cell],
    ['the engine build', { ...scope, engine: 'd'.repeat(64) }, cell],
    ['a cleaning option', { ...scope, setup: { ...scope.setup, importOptions: { overrun: 'keep' as const } } }, cell],
    ['the split', { ...scope, setup: { ...scope.setup, split: { kind: 'fraction' as const, fraction: 0.4 } } }, cell],
    ['the seed', { ...scope, setup: { ...scope.setup, resample: { ...scope.setup.resample, seed: 2 } } }, cell],
    ['the weeks', { ...scope, setup: { ...scope.setup, resample: { ...scope.setup.resample, weeks: 7 } } }, cell],
    ['tau', { ...scope, setup: { ...scope.setup, tau: 60 } }, cell],
    ['the threshold', scope, { ...cell, threshold: null }],
    ['the part', scope, { ...cell, part: 'test' as const }],
    ['the compatibility mode (ocst)', { ...scope, setup: { ...scope.setup, compat: 'ocst' as const } }, cell],
    ['the real weeks instead of the resampled ones', scope, { ...cell, samples: 'real' as const }],
  ])('change with %s', (_what, s, cl) => {
    expect(c.key(s, cl)).not.toBe(k)
  })

  test('compat none is the default: the same key as no compat at all', () => {
    expect(c.key({ ...scope, setup: { ...scope.setup, compat: 'none' } }, cell)).toBe(k)
  })

  test('do not change with the log path, the display name, key order or undefined options', () => {
    const same: CacheScope = {
      ...scope,
      setup: { tau: 10, resample: { seed: 1, weeks: 6, method: 'user-weeks' }, split: { kind: 'midpoint' }, logPath: '/elsewhere/copy.swf', importOptions: { name: 'copy.swf', format: undefined, overrun: 'drop' } },
    }
    expect(c.key(same, cell)).toBe(k)
    expect(k).toMatch(/^[0-9a-f]{64}$/)
    expect(canonicalJson({ b: 1, a: [1, { d: undefined, c: null }] })).toBe('{"a":[1,{"c":null}],"b":1}')
  })
})

describe('store', () => {
  test('put then get returns the same bits; only the final file remains', async () => {
    const c = new CellCache(join(tmp, 'store'))
    const key = c.key(scope, cell)
    expect(await c.get(key)).toBeNull()
    await c.put(key, result)
    expect(raw((await c.get(key))!)).toEqual(raw(result))
    expect(readdirSync(c.dir)).toEqual([`${key}.cell`])
  })

  test('a corrupt entry reads as missing and is replaced by the next put', async () => {
    const c = new CellCache(join(tmp, 'corrupt'))
    const key = c.key(scope, cell)
    await c.put(key, result)
    writeFileSync(c.path(key), readFileSync(c.path(key)).subarray(0, 40))
    expect(await c.get(key)).toBeNull()
    await c.put(key, result)
    expect(raw((await c.get(key))!)).toEqual(raw(result))
  })
})

describe('each entry records its own key', () => {
  const other: CellResult = { ...result, avgWait: Float64Array.from([9, 9, 9]) }
  test('two swapped entries are both refused (read as missing, counted) and recomputed by the next put', async () => {
    const c = new CellCache(join(tmp, 'swapped'))
    const k1 = c.key(scope, cell)
    const k2 = c.key(scope, { ...cell, threshold: null })
    await c.put(k1, result)
    await c.put(k2, other)
    renameSync(c.path(k1), join(c.dir, 'x'))
    renameSync(c.path(k2), c.path(k1))
    renameSync(join(c.dir, 'x'), c.path(k2))
    expect(await c.get(k1)).toBeNull()
    expect(await c.get(k2)).toBeNull()
    expect(c.rejected).toEqual([
      { path: c.path(k1), reason: 'foreign' },
      { path: c.path(k2), reason: 'foreign' },
    ])
    await c.put(k1, result)
    expect(raw((await c.get(k1))!)).toEqual(raw(result))
  })

  test('decodeCell checks the key: the right key reads, any other key does not', () => {
    const k1 = 'e'.repeat(64), k2 = 'f'.repeat(64)
    const b = encodeCell(result, k1)
    expect(raw(decodeCell(b, k1)!)).toEqual(raw(result))
    expect(decodeCell(b, k2)).toBeNull()
  })
})

describe('a FIFO or device named like an entry never hangs', () => {
  test('a FIFO as an entry reads as missing, quickly', async () => {
    const c = new CellCache(join(tmp, 'fifo'))
    const key = c.key(scope, cell)
    await c.put(c.key(scope, { ...cell, part: 'test' }), result) // creates the folder
    execFileSync('mkfifo', [c.path(key)])
    const t0 = Date.now()
    expect(await c.get(key)).toBeNull()
    expect(Date.now() - t0).toBeLessThan(2000)
    expect(c.rejected).toEqual([{ path: c.path(key), reason: 'not-a-file' }])
  }, 5000)

  test('the cache folder itself being a FIFO or a device: reads are missing, writes fail, nothing hangs', async () => {
    const fifo = join(tmp, 'dir-fifo')
    execFileSync('mkfifo', [fifo])
    for (const dir of [fifo, '/dev/zero', '/dev/null']) {
      const c = new CellCache(dir)
      const key = c.key(scope, cell)
      expect(await c.get(key)).toBeNull()
      await expect(c.put(key, result)).rejects.toThrow()
    }
  }, 5000)
})

test('hashFile is the sha256 of the bytes, streamed over several chunks', async () => {
  const path = join(tmp, 'big.bin')
  const bytes = Buffer.alloc(3 * (1 << 20) + 123, 0)
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) & 0xff
  writeFileSync(path, bytes)
  expect(await hashFile(path)).toBe(createHash('sha256').update(bytes).digest('hex'))
  await expect(hashFile(join(tmp, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' })
})
