// The app:// protocol serves out/renderer only: no path escapes its folder, every response
// carries the CSP and nosniff headers, unknown files are 404.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

vi.mock('electron', async () => (await import('./fake-electron')).electronModule())

const { resolveAppPath, serveApp } = await import('../../src/main/app-protocol')
const { cspHeader } = await import('../../src/main/security/csp')

let root: string
beforeAll(() => {
  const base = mkdtempSync(join(tmpdir(), 'easytune-proto-'))
  root = join(base, 'renderer')
  mkdirSync(join(root, 'assets'), { recursive: true })
  writeFileSync(join(root, 'index.html'), '<!doctype html><p>hi</p>')
  writeFileSync(join(root, 'assets', 'a.js'), 'console.log(1)')
  writeFileSync(join(base, 'secret.txt'), 'secret')
})
afterAll(() => { rmSync(join(root, '..'), { recursive: true, force: true }) })

describe('app:// paths', () => {
  it('maps app://easytune/... into the renderer folder', () => {
    expect(resolveAppPath('app://easytune/', root)).toBe(join(root, 'index.html'))
    expect(resolveAppPath('app://easytune/index.html?sample=1#x', root)).toBe(join(root, 'index.html'))
    expect(resolveAppPath('app://easytune/assets/a.js', root)).toBe(join(root, 'assets', 'a.js'))
  })
  it('refuses other hosts, schemes and anything escaping the folder', () => {
    for (const u of ['app://evil/index.html', 'file:///etc/passwd', 'https://easytune/index.html', 'app://easytune/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      'app://easytune/..%5csecret.txt', 'app://easytune/a%00.js', 'app://easytune/%E0%A4%A', 'nonsense'])
      expect(resolveAppPath(u, root), u).toBeNull()
    // The URL parser already folds "..", plain or as %2e%2e: it stays inside the folder.
    expect(resolveAppPath('app://easytune/../../secret.txt', root)).toBe(join(root, 'secret.txt'))
    expect(resolveAppPath('app://easytune/%2e%2e/secret.txt', root)).toBe(join(root, 'secret.txt'))
  })
})

describe('app:// responses', () => {
  it('serve files with their type, the CSP and nosniff', async () => {
    const r = await serveApp({ url: 'app://easytune/assets/a.js', method: 'GET' }, root)
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toMatch(/text\/javascript/)
    expect(r.headers.get('content-security-policy')).toBe(cspHeader())
    expect(r.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await r.text()).toBe('console.log(1)')
  })
  it('answer 404 (with the CSP) for what is not there or not ours, 405 for other methods', async () => {
    for (const url of ['app://easytune/missing.js', 'app://easytune/%2e%2e/secret.txt', 'app://other/index.html']) {
      const r = await serveApp({ url, method: 'GET' }, root)
      expect(r.status, url).toBe(404)
      expect(r.headers.get('content-security-policy')).toBe(cspHeader())
    }
    expect((await serveApp({ url: 'app://easytune/index.html', method: 'POST' }, root)).status).toBe(405)
  })
})
