// Browser mode's front door: loopback only, and a random token on every request.
// - The server refuses to listen anywhere but the loopback interface (127.0.0.0/8, ::1,
//   localhost): an administrator reaches it from another machine through an SSH tunnel.
// - The token (32 random bytes) is compared in constant time. Where it is carried:
//     the page           GET /?token=T           (printed by `easytune serve`)
//     the page's files   GET /s/T/<file>         (the page's <base href>, so no cookie is needed)
//     the API            POST /api/<method>      header x-easytune-token: T
//     downloads          GET /download/<id>?token=T
//     the event socket   GET /ws?token=T         (WebSocket upgrade)
//   No token: 401; a wrong token: 403; both with a plain-text body.
// - Host and Origin headers must name a loopback host (DNS-rebinding defence; any port, because
//   an SSH tunnel changes it).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { isIPv4, isIPv6 } from 'node:net'
import type { IncomingMessage } from 'node:http'

export const TOKEN_HEADER = 'x-easytune-token'

export function newToken(): string {
  return randomBytes(32).toString('base64url')
}

/** Is `host` (an address or name to listen on) a loopback one? */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1')
  if (h === 'localhost') return true
  if (isIPv4(h)) return h.split('.')[0] === '127'
  if (isIPv6(h)) {
    if (h === '::1' || /^(0{1,4}:){7}0{0,3}1$/.test(h)) return true
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h)
    return mapped !== null && mapped[1].split('.')[0] === '127'
  }
  return false
}

export class NotLoopbackError extends Error {
  constructor(host: string) {
    super(`refusing to listen on "${host}": browser mode only listens on the loopback interface (127.0.0.1, ::1 or localhost), ` +
      'so that nobody else on the network can reach it. To use it from another machine, forward the port over SSH: ssh -L 8080:127.0.0.1:PORT login-node')
    this.name = 'NotLoopbackError'
  }
}

/** The address to bind: `localhost` becomes 127.0.0.1 (a hosts file could point it elsewhere). */
export function bindAddress(host: string): string {
  if (!isLoopbackHost(host)) throw new NotLoopbackError(host)
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1')
  return h === 'localhost' ? '127.0.0.1' : h
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest()

/** Constant-time comparison (of digests, so the lengths never leak either). */
export function tokenMatches(given: string, token: string): boolean {
  return timingSafeEqual(digest(given), digest(token))
}

export type TokenCheck = { ok: true } | { ok: false; status: 401 | 403; message: string }

export function checkToken(given: string | null | undefined, token: string): TokenCheck {
  if (given === null || given === undefined || given === '') {
    return { ok: false, status: 401, message: 'EasyTune: this address needs its access token. Open the full URL that `easytune serve` printed (it ends with ?token=...).\n' }
  }
  if (!tokenMatches(given, token)) return { ok: false, status: 403, message: 'EasyTune: wrong access token. Open the URL that the running `easytune serve` printed.\n' }
  return { ok: true }
}

/** The host name of a Host header or Origin ("127.0.0.1:8080", "http://[::1]:80"), or null. */
function hostName(value: string): string | null {
  try {
    return new URL(value.includes('://') ? value : `http://${value}`).hostname
  } catch {
    return null
  }
}

/** Host (and Origin, when present) must be loopback names; null when fine, else the problem. */
export function checkHeaders(req: IncomingMessage): string | null {
  const host = req.headers.host
  const hn = host ? hostName(host) : null
  if (!hn || !isLoopbackHost(hn)) return `EasyTune: requests must be addressed to 127.0.0.1, ::1 or localhost (Host: ${String(host ?? 'none').slice(0, 80)}).\n`
  const origin = req.headers.origin
  if (origin !== undefined && origin !== 'null') {
    const on = hostName(origin)
    if (!on || !isLoopbackHost(on) || !/^https?:\/\//.test(origin)) return 'EasyTune: requests from other web sites are refused.\n'
  } else if (origin === 'null') {
    return 'EasyTune: requests from other web sites are refused.\n'
  }
  return null
}
