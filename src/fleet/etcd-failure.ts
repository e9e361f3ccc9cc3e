// What a failed etcd call means: etcd is not there (retried), etcd refused us (a TLS handshake,
// authentication, a permission: one line an operator can act on), or it failed on its own.
import { identityOf, type EtcdCredentials } from './etcd-access.ts'
import { etcdErrorKind, type EtcdErrorKind } from './etcd-client.ts'

/** A failure, by what the fleet does about it. */
export type EtcdFailure =
  /** etcd did not answer (refused or timed-out connections, a deadline): try again. */
  | { kind: 'unreachable'; reason: string }
  /** etcd answered, and refused: `line` says who, what and what to do. */
  | { kind: 'refused'; reason: string; line: string }
  /** An auth token etcd no longer knows (expired, or etcd restarted): authenticate again. */
  | { kind: 'stale'; reason: string }
  /** etcd's authentication is not enabled: work without the user until it is. */
  | { kind: 'auth-off'; reason: string }
  /** etcd asks for a user: authentication was enabled since; authenticate. */
  | { kind: 'no-user'; reason: string }
  /** This call's own failure (a value over etcd's request limit, a compacted revision). */
  | { kind: 'call'; reason: string }

/** What the fleet was doing, for the line: `writing /spp-ctl/hosts/a/alive`. */
export type EtcdContext = { endpoints: string[]; credentials?: EtcdCredentials; what?: string }

/** A refusal at start: the controller and the fleet commands exit with this line. */
export class EtcdRefusedError extends Error {
  override name = 'EtcdRefusedError'
}

// grpc-js wraps what the socket said: `14 UNAVAILABLE: No connection established. Last error:
// Error: unable to verify the first certificate. Resolution note: ` (OpenSSL's own lines for alerts).
const LAST_ERROR =
  /Last error: (?:Error: )?([\s\S]*?)(?: \(\d{4}-\d\d-\d\dT[^)]*\))?\.?\s*(?:Resolution note:|$)/
const OPENSSL = /SSL routines:[^:]*:([^:]+):/
const ALERT = /alert ([a-z ]+)$/
const UNTRUSTED =
  /unable to verify|self[- ]signed certificate|unable to get (?:local )?issuer|certificate signature failure|unsupported certificate purpose/i
const SERVER_TIME = /certificate has expired|certificate is not yet valid/i
const SERVER_NAME = /Hostname\/IP does not match|altnames/i
const NOT_TLS = /wrong version number|packet length too long|unknown protocol|http request/i

/** gRPC's status codes the fleet tells apart, for an error etcd3 left as gRPC's. */
const GRPC_CODES: Record<number, EtcdErrorKind> = {
  1: 'cancelled',
  4: 'deadline',
  7: 'permission-denied',
  14: 'unavailable',
  16: 'unauthenticated',
}

/** Why a call failed, as the fleet acts on it. */
export function failureOf(error: unknown, context: EtcdContext): EtcdFailure {
  if (!(error instanceof Error)) return { kind: 'unreachable', reason: String(error) }
  const message = error.message
  // A stream's error reaches the watch as gRPC made it, not as etcd3's own class: its code says.
  const code = (error as { code?: unknown }).code ?? Number(/^(\d+) [A-Z_]+: /.exec(message)?.[1])
  const kind = etcdErrorKind(error) ?? GRPC_CODES[code as number]
  const at = `etcd at ${context.endpoints.join(',')}`
  const { credentials } = context
  const access = credentials?.access
  const who = identityOf(credentials)
  if (kind === 'unavailable' || kind === 'deadline' || kind === 'cancelled') {
    const said = LAST_ERROR.exec(message)?.[1]?.trim() ?? message
    const reason = OPENSSL.exec(said)?.[1] ?? said
    const refused = (line: string) => ({ kind: 'refused' as const, reason, line })
    const ca = access?.ca ? `${access.ca.from} ${access.ca.value} does` : "the system's CAs do"
    if (UNTRUSTED.test(reason))
      return refused(
        `${at} presented a certificate that ${ca} not trust (${reason}): give the CA that signed etcd's --cert-file (--etcd-ca)`,
      )
    if (SERVER_TIME.test(reason))
      return refused(`${at} presented a certificate that is not valid now (${reason})`)
    if (SERVER_NAME.test(reason))
      return refused(
        `${at} presented a certificate for other names (${reason}): use a URL with a name or address it lists`,
      )
    const alert = ALERT.exec(reason)?.[1]
    if (alert) {
      const cert = access?.cert
      if (!cert)
        return refused(
          `${at} asks for a client certificate (TLS alert: ${alert}): give --etcd-cert and --etcd-key`,
        )
      const valid = credentials?.certificate?.validTo
      const why =
        valid && valid.getTime() < Date.now()
          ? `${cert.from} ${cert.value} expired on ${valid.toISOString()}`
          : `${cert.from} ${cert.value} must be signed by a CA of etcd's --trusted-ca-file, and valid now`
      return refused(`${at} refused the client certificate (TLS alert: ${alert}): ${why}`)
    }
    if (NOT_TLS.test(reason))
      return refused(
        `${at} does not speak TLS (${reason}): use http://, or start etcd with --cert-file and --key-file`,
      )
    return { kind: 'unreachable', reason }
  }
  const reason = message.replace(/^\d+ [A-Z_]+: /, '')
  const refused = (line: string) => ({ kind: 'refused' as const, reason, line })
  if (kind === 'invalid-token') return { kind: 'stale', reason }
  if (/authentication is not enabled/.test(message))
    return credentials?.auth
      ? { kind: 'auth-off', reason }
      : refused(`${at} refused a request (${reason})`)
  if (/user name is empty/.test(message))
    return credentials?.auth
      ? { kind: 'no-user', reason }
      : refused(
          `${at} refused a request without a user (its authentication is enabled): give --etcd-user and --etcd-password-file, or a client certificate whose CN is an etcd user`,
        )
  // etcd 3.4 also says `auth: authentication failed, password was given for no password user`.
  if (kind === 'auth-failed' || /authentication failed/.test(message)) {
    const file = access?.passwordFile
    return refused(
      `${at} refused user ${who}: ${reason}${file ? ` (the password of ${file.from} ${file.value})` : ''}`,
    )
  }
  if (kind === 'permission-denied' || kind === 'unauthenticated') {
    const user = who
      ? `user ${who}${credentials?.auth ? '' : ` (the CN of ${access?.cert?.from} ${access?.cert?.value})`}`
      : 'a client without a user'
    return refused(
      `${at} refused ${user}${context.what ? ` ${context.what}` : ''}: ${reason} (the roles each part needs: docs/fleet.md)`,
    )
  }
  return { kind: 'call', reason }
}

/**
 * Whether a plain-HTTP URL is served with TLS: gRPC only says "Failed to connect" when an etcd
 * with TLS hangs up on it. Resolves false on any failure, within `timeoutMs`.
 */
export async function speaksTls(url: string, timeoutMs = 1000): Promise<boolean> {
  const { hostname, port } = new URL(url)
  const { connect } = await import('node:tls') // only a start that went wrong needs it
  return new Promise((resolve) => {
    const socket = connect({
      host: hostname.replace(/^\[|\]$/g, ''),
      port: Number(port || 2379),
      rejectUnauthorized: false,
      ALPNProtocols: ['h2'],
    })
    const done = (answer: boolean) => {
      clearTimeout(timer)
      socket.destroy()
      resolve(answer)
    }
    const timer = setTimeout(() => done(false), timeoutMs)
    socket.once('secureConnect', () => done(true))
    socket.once('error', () => done(false))
  })
}

/**
 * The failure as it stands at start: an etcd that hangs up on plain HTTP is asked whether it
 * speaks TLS, and is then refused with that line.
 */
export async function failureAtStart(error: unknown, context: EtcdContext): Promise<EtcdFailure> {
  const failure = failureOf(error, context)
  if (failure.kind !== 'unreachable' || !/Failed to connect/.test(failure.reason)) return failure
  const plain = context.endpoints.filter((url) => url.startsWith('http://'))
  for (const url of plain)
    if (await speaksTls(url))
      return {
        kind: 'refused',
        reason: failure.reason,
        line: `etcd at ${url} speaks TLS: use https:// in --etcd, with --etcd-ca (and --etcd-cert and --etcd-key where etcd asks for a client certificate)`,
      }
  return failure
}
