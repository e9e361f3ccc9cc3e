// The auth file: named clients, each a scope and the SHA-256 of its token (never the token).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import * as v from 'valibot'
import { isRecord } from '../protocol/text.ts'

/** Why a request was refused for its token: none, one no client has, or too small a scope. */
export type AuthRefusal = 'TOKEN_MISSING' | 'TOKEN_UNKNOWN' | 'SCOPE_MISSING'

export const SCOPES = ['read', 'write'] as const
export type Scope = (typeof SCOPES)[number]

/** Names the journal uses for requests without a token: a client may not take them. */
export const RESERVED_NAMES = ['local', 'anonymous', 'apply', 'restore']

/** A client's name: short, printable, safe in a log line and a YAML file as it is. */
export const ClientName = v.pipe(
  v.string(),
  v.regex(
    /^[A-Za-z0-9][\w.-]{0,63}$/,
    'letters, digits, _ . - (up to 64, a letter or digit first)',
  ),
  v.check((name) => !RESERVED_NAMES.includes(name), `reserved: ${RESERVED_NAMES.join(', ')}`),
)

/** The file as written: strict, so that a misspelt key or a plain `token:` is an error. */
export const AuthFile = v.strictObject({
  clients: v.array(
    v.strictObject({
      name: ClientName,
      scope: v.picklist(SCOPES),
      sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, '64 lowercase hex digits')),
    }),
  ),
})
export type AuthFile = v.InferOutput<typeof AuthFile>

/** A client as the controller holds it: its token's digest as bytes. */
export type Client = { name: string; scope: Scope; digest: Buffer }

/** Why an auth file cannot be used, fit to print (the file, the entry and the key). */
export class AuthFileError extends Error {
  override name = 'AuthFileError'
}

/** The SHA-256 of a token, as bytes. */
export const digestOf = (token: string) => createHash('sha256').update(token, 'utf8').digest()

/** A new random token: 32 bytes, base64url (43 characters). */
export const newToken = () => randomBytes(32).toString('base64url')

/** Checks a parsed document (the file's YAML) and returns its clients. */
export function clientsOf(document: unknown, file: string): Client[] {
  const entries = (document as { clients?: unknown } | null)?.clients
  const plain = Array.isArray(entries) ? entries.findIndex((e) => isRecord(e) && 'token' in e) : -1
  if (plain >= 0)
    throw new AuthFileError(`${file}: clients.${plain}.token: the file keeps a token's sha256 only`)
  const parsed = v.safeParse(AuthFile, document ?? { clients: [] })
  if (!parsed.success) {
    const issue = parsed.issues[0]
    const where = v.getDotPath(issue) ?? 'the document'
    const why = issue.input === undefined ? 'missing' : issue.message
    throw new AuthFileError(`${file}: ${where}: ${why}`)
  }
  const seen = new Set<string>()
  for (const { name } of parsed.output.clients) {
    if (seen.has(name)) throw new AuthFileError(`${file}: two clients are named ${name}`)
    seen.add(name)
  }
  return parsed.output.clients.map(({ name, scope, sha256 }) => ({
    name,
    scope,
    digest: Buffer.from(sha256, 'hex'),
  }))
}

/**
 * The client whose token this is. Every entry is compared, each in constant time, whether or not
 * one matched already: the time taken says nothing about the token or which entry is near it.
 */
export function findClient(clients: readonly Client[], token: string): Client | undefined {
  const digest = digestOf(token)
  let found: Client | undefined
  for (const client of clients) if (timingSafeEqual(digest, client.digest)) found ??= client
  return found
}
