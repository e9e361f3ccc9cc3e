// How `spp-ctl fleet` reaches etcd: its credentials from the flags, then SPP_CTL_ETCD_*, then the
// variables etcdctl's users already set (ETCDCTL_CACERT...); a client that etcd has let in.
import type { Etcd3 } from 'etcd3'
import {
  ACCESS_FLAGS,
  checkAccess,
  readCredentials,
  type EtcdAccess,
  type EtcdCredentials,
} from '../../fleet/etcd-access.ts'
import { openEtcd } from '../../fleet/etcd-client.ts'
import { failureAtStart, failureOf, type EtcdFailure } from '../../fleet/etcd-failure.ts'

/** The variables each credential may come from, ours first; etcdctl's name TLS files only. */
export const ACCESS_ENV: Record<keyof EtcdAccess, { ours: string; etcdctl?: string }> = {
  ca: { ours: 'SPP_CTL_ETCD_CA', etcdctl: 'ETCDCTL_CACERT' },
  cert: { ours: 'SPP_CTL_ETCD_CERT', etcdctl: 'ETCDCTL_CERT' },
  key: { ours: 'SPP_CTL_ETCD_KEY', etcdctl: 'ETCDCTL_KEY' },
  user: { ours: 'SPP_CTL_ETCD_USER' },
  passwordFile: { ours: 'SPP_CTL_ETCD_PASSWORD_FILE' },
}

type Flags = Partial<
  Record<'etcd-ca' | 'etcd-cert' | 'etcd-key' | 'etcd-user' | 'etcd-password-file', string>
>

/**
 * Each credential from its flag, else `$SPP_CTL_ETCD_*`, else etcdctl's variable. etcdctl's are
 * taken for https:// URLs only: a shell set up for another etcd must not break an open one.
 */
export function accessFrom(flags: Flags, env: NodeJS.ProcessEnv, endpoints: string[]): EtcdAccess {
  const secure = endpoints.every((url) => url.startsWith('https://'))
  const access: EtcdAccess = {}
  for (const field of Object.keys(ACCESS_ENV) as (keyof EtcdAccess)[]) {
    const flag = ACCESS_FLAGS[field]
    const { ours, etcdctl } = ACCESS_ENV[field]
    const fromEnv = (name?: string) => (name ? env[name]?.trim() || undefined : undefined)
    const value = flags[flag.slice(2) as keyof Flags]
    if (value !== undefined) access[field] = { value, from: flag }
    else if (fromEnv(ours)) access[field] = { value: fromEnv(ours)!, from: `$${ours}` }
    else if (secure && fromEnv(etcdctl))
      access[field] = { value: fromEnv(etcdctl)!, from: `$${etcdctl}` }
  }
  checkAccess(endpoints, access)
  return access
}

/** The credentials `access` names, read; undefined when it names none. */
export const credentialsOf = async (access: EtcdAccess) =>
  Object.keys(access).length > 0 ? readCredentials(access) : undefined

/** What a failure says to whoever ran the command: one line, with etcd's URLs. */
export function failureLine(failure: EtcdFailure, urls: string): string | undefined {
  if (failure.kind === 'refused') return failure.line
  if (failure.kind === 'unreachable') return `cannot reach etcd at ${urls}: ${failure.reason}`
  return undefined
}

/**
 * A client that etcd answered and let in (its TLS handshake and its authentication went through),
 * or the line saying why not: `refused` with what etcd refused, or `unreachable`. With a user and
 * etcd's authentication not enabled (yet), the client goes without the user, as etcdctl does.
 */
export async function connectEtcd(
  endpoints: string[],
  credentials: EtcdCredentials | undefined,
): Promise<{ client: Etcd3; authenticating: boolean } | { failure: EtcdFailure }> {
  const client = await openEtcd(endpoints, credentials)
  try {
    // Status asks no permission: what fails is the TLS handshake or the authentication.
    await client.maintenance.status()
    return { client, authenticating: true }
  } catch (error) {
    client.close()
    const failure = await failureAtStart(error, { endpoints, credentials })
    if (failure.kind === 'auth-off')
      return {
        client: await openEtcd(endpoints, credentials, { auth: false }),
        authenticating: false,
      }
    return { failure }
  }
}

/** What a failed call says: etcd's refusal or absence in one line; undefined for anything else. */
export const lineOfError = (
  error: unknown,
  endpoints: string[],
  credentials: EtcdCredentials | undefined,
  urls: string,
  what?: string,
) => failureLine(failureOf(error, { endpoints, credentials, what }), urls)

/** A failed call, with what the command was doing: `writing /spp-ctl/hosts/a/desired`. */
export class EtcdCallError extends Error {
  override name = 'EtcdCallError'
  readonly what: string
  constructor(what: string, cause: unknown) {
    super(`${what}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
    this.what = what
  }
}

/** Runs `call`; its failure says what it was doing. */
export const doing = <T>(what: string, call: Promise<T>): Promise<T> =>
  call.catch((error: unknown) => {
    throw new EtcdCallError(what, error)
  })
