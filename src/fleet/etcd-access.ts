// etcd's credentials as the fleet takes them: a CA, a client certificate and key, a user and its
// password file; read, checked against each other, and named by the flag or variable that gave them.
import { createPrivateKey, X509Certificate } from 'node:crypto'
import { readFile } from 'node:fs/promises'

/** One setting and where it came from (`--etcd-ca`, `$ETCDCTL_CACERT`): messages name both. */
export type Setting = { value: string; from: string }

/** Where etcd's credentials are: file paths and a user name. */
export type EtcdAccess = {
  ca?: Setting
  cert?: Setting
  key?: Setting
  user?: Setting
  passwordFile?: Setting
}

/** The credentials as read from their files. */
export type EtcdCredentials = {
  access: EtcdAccess
  /** etcd3's `credentials` (https:// URLs): the CA (none: the system's) and a client certificate. */
  tls?: { ca?: Buffer; cert?: Buffer; key?: Buffer }
  /** etcd3's `auth`: the user and the password its file holds. */
  auth?: { username: string; password: string }
  /** The client certificate: its CN (etcd's user with --client-cert-auth and no password), its end. */
  certificate?: { cn?: string; validTo: Date }
}

/** The flags and variables as named when nothing says otherwise (the daemon's flags). */
export const ACCESS_FLAGS = {
  ca: '--etcd-ca',
  cert: '--etcd-cert',
  key: '--etcd-key',
  user: '--etcd-user',
  passwordFile: '--etcd-password-file',
} as const

const said = (setting: Setting) =>
  setting.from.startsWith('$') ? `${setting.from} (${setting.value})` : setting.from

/** Checks that the settings fit each other and the URLs; throws the reason. */
export function checkAccess(endpoints: string[], access: EtcdAccess): void {
  const secure = endpoints.filter((url) => url.startsWith('https://')).length
  if (secure > 0 && secure < endpoints.length)
    throw new Error('--etcd: either every URL is https:// or none is')
  const file = access.ca ?? access.cert ?? access.key
  if (secure === 0 && file)
    throw new Error(`${said(file)} needs https:// URLs: etcd speaks TLS on those only`)
  if (access.cert && !access.key) throw new Error(`${said(access.cert)} needs its key: --etcd-key`)
  if (access.key && !access.cert)
    throw new Error(`${said(access.key)} needs its certificate: --etcd-cert`)
  if (access.user && !access.passwordFile)
    throw new Error(
      `${said(access.user)} needs --etcd-password-file (with etcd's --client-cert-auth, the certificate's CN names the user: give neither)`,
    )
  if (access.passwordFile && !access.user)
    throw new Error(`${said(access.passwordFile)} needs --etcd-user`)
  if (access.user?.value === '') throw new Error(`${said(access.user)} is empty`)
}

async function readSetting(setting: Setting): Promise<Buffer> {
  try {
    return await readFile(setting.value)
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException
    throw new Error(`${setting.from}: cannot read ${setting.value}: ${code ?? message}`)
  }
}

function certificateOf(setting: Setting, pem: Buffer) {
  try {
    return new X509Certificate(pem)
  } catch {
    throw new Error(`${setting.from}: ${setting.value} holds no PEM certificate`)
  }
}

/** Reads every file `access` names and checks it: the key is the certificate's. Throws the reason. */
export async function readCredentials(access: EtcdAccess): Promise<EtcdCredentials> {
  const read = (setting?: Setting) => (setting ? readSetting(setting) : undefined)
  const [ca, cert, key, password] = await Promise.all([
    read(access.ca),
    read(access.cert),
    read(access.key),
    read(access.passwordFile),
  ])
  if (access.ca && ca) certificateOf(access.ca, ca)
  let certificate: EtcdCredentials['certificate']
  if (access.cert && access.key && cert && key) {
    const x509 = certificateOf(access.cert, cert)
    let privateKey
    try {
      privateKey = createPrivateKey(key)
    } catch {
      throw new Error(
        `${access.key.from}: ${access.key.value} holds no private key etcd3 can use (PEM, without a passphrase)`,
      )
    }
    if (!x509.checkPrivateKey(privateKey))
      throw new Error(
        `${access.key.from}: ${access.key.value} is not the key of ${access.cert.from} ${access.cert.value}`,
      )
    const cn = /(?:^|\n)CN=([^\n]*)/.exec(x509.subject)?.[1]
    certificate = { cn, validTo: new Date(x509.validTo) }
  }
  let auth: EtcdCredentials['auth']
  if (access.user && access.passwordFile && password) {
    // The file's last line break is not the password's (echo and editors add one).
    const text = password.toString('utf8').replace(/\r?\n$/, '')
    if (text === '')
      throw new Error(`${access.passwordFile.from}: ${access.passwordFile.value} is empty`)
    auth = { username: access.user.value, password: text }
  }
  const tls = ca || cert ? { ca, cert, key } : undefined
  return { access, tls, auth, certificate }
}

/** Who etcd takes this client for: its user, else its certificate's CN; undefined for nobody. */
export const identityOf = (credentials?: EtcdCredentials) =>
  credentials?.auth?.username ?? credentials?.certificate?.cn

const sameBuffer = (a?: Buffer, b?: Buffer) => (a && b ? a.equals(b) : a === b)

/** Whether two readings of the same access hold the same credentials (SIGHUP: nothing changed). */
export function sameCredentials(a?: EtcdCredentials, b?: EtcdCredentials): boolean {
  return (
    sameBuffer(a?.tls?.ca, b?.tls?.ca) &&
    sameBuffer(a?.tls?.cert, b?.tls?.cert) &&
    sameBuffer(a?.tls?.key, b?.tls?.key) &&
    a?.auth?.username === b?.auth?.username &&
    a?.auth?.password === b?.auth?.password
  )
}
