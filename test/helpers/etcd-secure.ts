// An etcd as sites run it: TLS with a CA and certificates this helper makes with Debian's openssl
// (in a temporary directory removed afterwards), client certificates, and etcd's users and roles
// made by the etcdctl commands docs/fleet.md gives.
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { Test } from 'uvu'
import { ETCD, startEtcd, type Etcd } from './etcd.ts'
import { testNeeding } from './needs.ts'

const run = promisify(execFile)
export const OPENSSL = process.env.OPENSSL ?? '/usr/bin/openssl'
export const ETCDCTL = process.env.ETCDCTL ?? '/usr/bin/etcdctl'

/** Why these tests cannot run here (etcd, etcdctl or openssl missing), or undefined. */
export const secureEtcdMissing =
  [
    [ETCD, 'etcd-server'],
    [ETCDCTL, 'etcd-client'],
    [OPENSSL, 'openssl'],
  ]
    .filter(([path]) => !existsSync(path!))
    .map(([path, pkg]) => `no ${path} (apt-get install -y ${pkg})`)
    .join('; ') || undefined

/** A test that needs a secured etcd: without its tools, skipped with the reason (under CI: failed). */
export const secureEtcdTest = (suite: Test, name: string, body: () => Promise<void>) =>
  testNeeding(suite, name, secureEtcdMissing, body)

/** The hosts, users and roles of docs/fleet.md's commands. */
export const USERS = ['root', 'page', 'operator', 'left', 'right'] as const
export type User = (typeof USERS)[number]

/** A certificate and its key, as files. */
export type Pair = { cert: string; key: string }

/** The files a test hands out: the CA, each user's pair (CN = its name), and wrong ones. */
export type Pki = {
  dir: string
  ca: string
  /** A CA that signed nothing etcd knows. */
  otherCa: string
  server: Pair
  users: Record<User, Pair>
  /** CN left, expired the moment it was made. */
  expired: Pair
  /** CN left, signed by the other CA. */
  stranger: Pair
}

/** Makes the CAs and certificates in `dir` (elliptic-curve keys: quick to make). */
export async function makePki(dir: string): Promise<Pki> {
  const at = (name: string) => join(dir, name)
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
  const ca = async (name: string) =>
    run(OPENSSL, [
      ...['req', '-x509', ...newKey, '-keyout', at(`${name}.key`), '-out', at(`${name}.crt`)],
      ...['-days', '1', '-subj', `/CN=${name}`],
      ...['-addext', 'basicConstraints=critical,CA:TRUE'],
      ...['-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
    ])
  let serial = 1
  const pair = async (name: string, cn: string, extensions: string, signer = 'ca', days = '1') => {
    const csr = at(`${name}.csr`)
    const ext = at(`${name}.ext`)
    await run(OPENSSL, [
      'req',
      ...newKey,
      '-keyout',
      at(`${name}.key`),
      '-out',
      csr,
      '-subj',
      `/CN=${cn}`,
    ])
    await writeFile(ext, extensions)
    await run(OPENSSL, [
      ...['x509', '-req', '-in', csr, '-CA', at(`${signer}.crt`), '-CAkey', at(`${signer}.key`)],
      ...[
        '-set_serial',
        String(serial++),
        '-days',
        days,
        '-extfile',
        ext,
        '-out',
        at(`${name}.crt`),
      ],
    ])
    return { cert: at(`${name}.crt`), key: at(`${name}.key`) }
  }
  await Promise.all([ca('ca'), ca('other-ca')])
  const client = 'extendedKeyUsage=clientAuth\n'
  // etcd's own gateway connects to etcd with the server's certificate: it is a client's too.
  const server = await pair(
    'server',
    'etcd',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n',
  )
  const users = {} as Record<User, Pair>
  for (const user of USERS) users[user] = await pair(user, user, client)
  // -days -1: its end is before its start, as far past as openssl 3.0 lets one say.
  const expired = await pair('expired', 'left', client, 'ca', '-1')
  const stranger = await pair('stranger', 'left', client, 'other-ca')
  return { dir, ca: at('ca.crt'), otherCa: at('other-ca.crt'), server, users, expired, stranger }
}

/** The commands between `<!-- roles -->` and `<!-- /roles -->` in docs/fleet.md. */
export function documentedRoles(): string {
  const text = readFileSync(new URL('../../docs/fleet.md', import.meta.url), 'utf8')
  const block = /<!-- roles -->\s*```sh\n([\s\S]*?)```\s*<!-- \/roles -->/.exec(text)
  if (!block) throw new Error('docs/fleet.md has no <!-- roles --> block')
  return block[1]!
}

/** right's password, in `right.password` beside the certificates (the docs' commands read it). */
export const RIGHT_PASSWORD = 'sesame'

export type SecureEtcd = {
  etcd: Etcd
  pki: Pki
  /** The file holding right's password (RIGHT_PASSWORD). */
  rightPassword: string
  /** etcdctl as `as` (its certificate; root by default), `input` on its stdin; resolves stdout. */
  etcdctl(args: string[], options?: { as?: User; input?: string }): Promise<string>
  /**
   * Runs docs/fleet.md's commands that make the roles and users, then (unless `enable` is false,
   * as when moving an open fleet over) its last, `etcdctl auth enable`.
   */
  applyDocumentedRoles(options?: { enable?: boolean }): Promise<void>
  /** A file holding `text` (a password), in the temporary directory. */
  file(name: string, text: string): Promise<string>
}

export type SecureOptions = {
  /** etcd's --client-cert-auth (and --trusted-ca-file): clients show a certificate (default true). */
  clientCertAuth?: boolean
  /** docs/fleet.md's roles and users made, and etcd's authentication enabled (default true). */
  auth?: boolean
  /** etcd's --auth-token-ttl, seconds (default its own, 300). */
  authTokenTtl?: number
}

/** Runs `body` with an etcd secured as `options` say; its files and data removed afterwards. */
export async function withSecureEtcd(
  body: (secure: SecureEtcd) => Promise<void>,
  { clientCertAuth = true, auth = true, authTokenTtl }: SecureOptions = {},
) {
  const dir = await mkdtemp(join(tmpdir(), 'spp-etcd-pki-'))
  let etcd: Etcd | undefined
  try {
    const pki = await makePki(dir)
    etcd = await startEtcd({
      tls: true,
      args: [
        ...['--cert-file', pki.server.cert, '--key-file', pki.server.key],
        // etcd asks every client for a certificate once it has a CA to check them against.
        ...(clientCertAuth ? ['--trusted-ca-file', pki.ca, '--client-cert-auth'] : []),
        ...(authTokenTtl ? ['--auth-token-ttl', String(authTokenTtl)] : []),
      ],
    })
    const url = etcd.url
    const envOf = (as: User) => ({
      ...process.env,
      ETCDCTL_API: '3',
      ETCDCTL_ENDPOINTS: url,
      ETCDCTL_CACERT: pki.ca,
      ETCDCTL_CERT: pki.users[as].cert,
      ETCDCTL_KEY: pki.users[as].key,
    })
    const etcdctl: SecureEtcd['etcdctl'] = (args, { as = 'root', input } = {}) =>
      new Promise((resolve, reject) => {
        const child = execFile(ETCDCTL, args, { env: envOf(as) }, (error, stdout, stderr) =>
          error
            ? reject(new Error(`etcdctl ${args.join(' ')}: ${stderr || error.message}`))
            : resolve(stdout),
        )
        child.stdin!.end(input ?? '')
      })
    const rightPassword = join(dir, 'right.password')
    await writeFile(rightPassword, `${RIGHT_PASSWORD}\n`, { mode: 0o600 })
    const secure: SecureEtcd = {
      etcd,
      pki,
      rightPassword,
      etcdctl,
      async applyDocumentedRoles({ enable = true } = {}) {
        const commands = documentedRoles().trimEnd().split('\n')
        if (commands.at(-1) !== 'etcdctl auth enable')
          throw new Error("docs/fleet.md's roles no longer end with etcdctl auth enable")
        const script = (enable ? commands : commands.slice(0, -1)).join('\n')
        await run('bash', ['-euo', 'pipefail', '-c', script], { env: envOf('root'), cwd: dir })
      },
      async file(name, text) {
        const path = join(dir, name)
        await writeFile(path, text, { mode: 0o600 })
        return path
      },
    }
    if (auth) await secure.applyDocumentedRoles()
    await body(secure)
  } finally {
    await etcd?.close()
    await rm(dir, { recursive: true, force: true })
  }
}
