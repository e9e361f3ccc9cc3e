// The etcd3 client as the fleet uses it: no hidden retries, short deadlines, quick reconnection.
import type { IBackoff } from 'cockatiel'
import type { Etcd3, IKeyValue } from 'etcd3'
import type { EtcdCredentials } from './etcd-access.ts'

/** A unary call to etcd gives up after this long (a watch or keep-alive stream has none). */
export const CALL_DEADLINE_MS = 3000

/**
 * Opens a client for `endpoints` (`http://host:port`, or `https://` with `credentials.tls`), as
 * `credentials.auth`'s user unless `auth` is false (etcd's authentication is not enabled yet).
 * etcd3 and its gRPC stack are loaded here, on first use, so that a controller without `--etcd`
 * never loads them. The client retries nothing by itself: the fleet link decides when to try
 * again, so that it can say when etcd is down; gRPC reconnects within a second of etcd's return
 * (its default backoff grows to 2 min).
 */
export async function openEtcd(
  endpoints: string[],
  credentials?: EtcdCredentials,
  { auth = true }: { auth?: boolean } = {},
): Promise<Etcd3> {
  const [etcd3, { ExponentialBackoff, noop }] = await Promise.all([
    import('etcd3'),
    import('./backoff.ts'),
  ])
  kindOf = (error) =>
    KINDS.find(([, name]) => error instanceof (etcd3[name] as new () => Error))?.[0]
  const tls = credentials?.tls
  return new etcd3.Etcd3({
    hosts: endpoints,
    // grpc-js takes no CA as the system's (its createSsl(null, ...)); etcd3's type asks for one.
    credentials: tls && {
      rootCertificate: tls.ca as Buffer,
      privateKey: tls.key,
      certChain: tls.cert,
    },
    auth: auth ? credentials?.auth : undefined,
    dialTimeout: CALL_DEADLINE_MS,
    defaultCallOptions: (context) =>
      context.isStream ? {} : { deadline: Date.now() + CALL_DEADLINE_MS },
    grpcOptions: {
      // A read of the whole fleet (ls, the page, apply --all) is one range: grpc-js would refuse
      // an answer over 4 MiB (about a thousand hosts); etcd's own limit is on requests.
      'grpc.max_receive_message_length': 256 * 1024 * 1024,
      'grpc.initial_reconnect_backoff_ms': 200,
      'grpc.max_reconnect_backoff_ms': 1000,
      // etcd refuses pings more often than every 5 s (--grpc-keepalive-min-time).
      'grpc.keepalive_time_ms': 10_000,
      'grpc.keepalive_timeout_ms': 5000,
    },
    faultHandling: {
      host: () => noop,
      global: noop,
      // etcd3 calls next() on it as on a backoff factory, which its option's type does not say.
      watchBackoff: new ExponentialBackoff({
        initialDelay: 100,
        maxDelay: 1000,
      }) as unknown as IBackoff<unknown>,
    },
  })
}

/**
 * etcd3's errors the fleet tells apart (not etcd3's isRecoverableError: it counts
 * RESOURCE_EXHAUSTED, a value too large, as well).
 */
const KINDS = [
  ['unavailable', 'GRPCUnavailableError'],
  ['deadline', 'GRPCDeadlineExceededError'],
  ['cancelled', 'GRPCCancelledError'],
  ['unauthenticated', 'GRPCUnauthenticatedError'],
  ['auth-failed', 'EtcdAuthenticationFailedError'],
  ['permission-denied', 'EtcdPermissionDeniedError'],
  ['invalid-token', 'EtcdInvalidAuthTokenError'],
] as const
export type EtcdErrorKind = (typeof KINDS)[number][0]

let kindOf = (_error: Error): EtcdErrorKind | undefined => undefined

/** Which of etcd3's errors this is; undefined for another, or before any client was opened. */
export const etcdErrorKind = (error: Error) => kindOf(error)

/** A key's value as text. */
export const text = (kv: IKeyValue) => kv.value.toString('utf8')

/** The comma-separated `--etcd` value as a list of URLs. */
export function parseEndpoints(value: string): string[] {
  const endpoints = value
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '')
  for (const url of endpoints)
    if (!/^https?:\/\/[^/\s]+\/?$/.test(url))
      throw new Error(`--etcd expects URLs like http://127.0.0.1:2379, got ${JSON.stringify(url)}`)
  if (endpoints.length === 0) throw new Error('--etcd needs at least one URL')
  return endpoints
}
