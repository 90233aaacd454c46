// Browser mode's answer to "save this file": the content waits here under a random id until the
// page opens GET /download/<id>?token=… once (within TTL_MS), and the browser saves it.
import { randomBytes } from 'node:crypto'
import type { ServerResponse } from 'node:http'

const TTL_MS = 10 * 60 * 1000
/** Held at most this many bytes in total (the oldest are dropped first). */
const MAX_TOTAL_BYTES = 256 * 1024 * 1024

interface Pending { name: string; body: Buffer; mime: string; expires: number }

export class Downloads {
  private readonly items = new Map<string, Pending>()

  add(name: string, content: string | Uint8Array, mime: string): string {
    this.expire()
    const id = randomBytes(18).toString('base64url')
    this.items.set(id, { name, body: typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content), mime, expires: Date.now() + TTL_MS })
    let total = 0
    for (const p of this.items.values()) total += p.body.length
    for (const [k, p] of this.items) {
      if (total <= MAX_TOTAL_BYTES || k === id) break
      total -= p.body.length
      this.items.delete(k)
    }
    return id
  }

  /** Sends and forgets the download; false when the id is unknown or expired. */
  send(res: ServerResponse, id: string): boolean {
    this.expire()
    const p = this.items.get(id)
    if (!p) return false
    this.items.delete(id)
    const ascii = p.name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
    res.writeHead(200, {
      'Content-Type': /^text\/|json|xml|javascript/.test(p.mime) && !/charset/i.test(p.mime) ? `${p.mime}; charset=utf-8` : p.mime,
      'Content-Length': p.body.length,
      'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(p.name)}`,
      // Never rendered as a page of this origin, whatever the content.
      'Content-Security-Policy': 'sandbox',
    })
    res.end(p.body)
    return true
  }

  clear(): void {
    this.items.clear()
  }

  private expire(): void {
    const now = Date.now()
    for (const [k, p] of this.items) if (p.expires < now) this.items.delete(k)
  }
}
