// etcd's credentials: where each comes from (flags, SPP_CTL_ETCD_*, ETCDCTL_*), how they are read
// and checked, and what each failure of a call means (the lines are etcd's and gRPC's own words).
import { writeFile } from 'node:fs/promises'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { accessFrom } from '../../src/cli/fleet/etcd-connect.ts'
import { readCredentials, type EtcdCredentials } from '../../src/fleet/etcd-access.ts'
import { openEtcd } from '../../src/fleet/etcd-client.ts'
import { failureOf } from '../../src/fleet/etcd-failure.ts'
import { fleetSettings } from '../../src/fleet/flags.ts'
import { makePki, OPENSSL } from '../helpers/etcd-secure.ts'
import { testNeeding } from '../helpers/needs.ts'
import { existsSync } from 'node:fs'

const TLS = ['https://10.0.0.1:2379']
const PLAIN = ['http://10.0.0.1:2379']

test('fleet commands: each credential from its flag, else SPP_CTL_ETCD_*, else ETCDCTL_*', () => {
  const env = {
    ETCDCTL_CACERT: '/etcdctl/ca.crt',
    ETCDCTL_CERT: '/etcdctl/me.crt',
    ETCDCTL_KEY: '/etcdctl/me.key',
    SPP_CTL_ETCD_CERT: '/ours/me.crt',
    SPP_CTL_ETCD_KEY: '/ours/me.key',
  }
  assert.equal(accessFrom({ 'etcd-key': '/flag/me.key' }, env, TLS), {
    ca: { value: '/etcdctl/ca.crt', from: '$ETCDCTL_CACERT' },
    cert: { value: '/ours/me.crt', from: '$SPP_CTL_ETCD_CERT' },
    key: { value: '/flag/me.key', from: '--etcd-key' },
  })
  const withUser = { ...env, SPP_CTL_ETCD_USER: 'ops', SPP_CTL_ETCD_PASSWORD_FILE: '/ops.pw' }
  assert.equal(accessFrom({}, withUser, TLS).user, { value: 'ops', from: '$SPP_CTL_ETCD_USER' })
})

test("etcdctl's variables are for https:// URLs only; ours and the flags are refused on http://", () => {
  const env = { ETCDCTL_CACERT: '/etcdctl/ca.crt', ETCDCTL_CERT: '/c', ETCDCTL_KEY: '/k' }
  assert.equal(accessFrom({}, env, PLAIN), {}, 'a shell set up for another etcd')
  assert.throws(
    () => accessFrom({}, { SPP_CTL_ETCD_CA: '/ca.crt' }, PLAIN),
    /\$SPP_CTL_ETCD_CA \(\/ca\.crt\) needs https:\/\/ URLs/,
  )
  assert.throws(() => accessFrom({ 'etcd-ca': '/ca.crt' }, {}, PLAIN), /--etcd-ca needs https/)
})

test('a certificate without its key, a user without a password file: refused, named', () => {
  assert.throws(() => accessFrom({ 'etcd-cert': '/c' }, {}, TLS), /--etcd-cert needs its key/)
  assert.throws(() => accessFrom({ 'etcd-key': '/k' }, {}, TLS), /--etcd-key needs its certificate/)
  assert.throws(
    () => accessFrom({ 'etcd-user': 'ops' }, {}, TLS),
    /--etcd-user needs --etcd-password-file/,
  )
  assert.throws(
    () => accessFrom({ 'etcd-password-file': '/pw' }, {}, PLAIN),
    /--etcd-password-file needs --etcd-user/,
  )
  assert.throws(
    () => accessFrom({}, {}, ['https://a:2379', 'http://b:2379']),
    /every URL is https:\/\/ or none is/,
  )
})

test("the controller's credential flags need --etcd, and https:// for the TLS files", async () => {
  const version = () => '0'
  let error: string = await fleetSettings({ 'etcd-ca': '/ca.crt' }, version).then(
    () => 'no error',
    (e: Error) => e.message,
  )
  assert.match(error, /--etcd-ca: etcd's credentials need --etcd/)
  error = await fleetSettings(
    { etcd: 'http://127.0.0.1:2379', 'etcd-ca': '/ca.crt' },
    version,
  ).then(
    () => 'no error',
    (e: Error) => e.message,
  )
  assert.match(error, /--etcd-ca needs https:\/\/ URLs/)
  error = await fleetSettings(
    { etcd: 'https://127.0.0.1:2379', 'etcd-ca': '/no/such/ca.crt' },
    version,
  ).then(
    () => 'no error',
    (e: Error) => e.message,
  )
  assert.match(error, /--etcd-ca: cannot read \/no\/such\/ca\.crt: ENOENT/)
})

const opensslMissing = existsSync(OPENSSL)
  ? undefined
  : `no ${OPENSSL} (apt-get install -y openssl)`

testNeeding(
  test,
  "credentials are read and checked: the key is the certificate's, the password file's last line break is not the password",
  opensslMissing,
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spp-pki-'))
    try {
      const pki = await makePki(dir)
      const pw = join(dir, 'pw')
      await writeFile(pw, 'sesame \n')
      const setting = (value: string, from: string) => ({ value, from })
      const read = await readCredentials({
        ca: setting(pki.ca, '--etcd-ca'),
        cert: setting(pki.users.left.cert, '--etcd-cert'),
        key: setting(pki.users.left.key, '--etcd-key'),
        user: setting('left', '--etcd-user'),
        passwordFile: setting(pw, '--etcd-password-file'),
      })
      assert.equal(read.auth, { username: 'left', password: 'sesame ' })
      assert.is(read.certificate?.cn, 'left')
      const mismatch = await readCredentials({
        cert: setting(pki.users.left.cert, '--etcd-cert'),
        key: setting(pki.users.right.key, '$ETCDCTL_KEY'),
      }).then(
        () => 'no error',
        (e: Error) => e.message,
      )
      assert.match(
        mismatch,
        /\$ETCDCTL_KEY: \S+right\.key is not the key of --etcd-cert \S+left\.crt/,
      )
      await writeFile(pw, '\n')
      const empty = await readCredentials({
        user: setting('left', '--etcd-user'),
        passwordFile: setting(pw, '--etcd-password-file'),
      }).then(
        () => 'no error',
        (e: Error) => e.message,
      )
      assert.match(empty, /--etcd-password-file: \S+pw is empty/)
      const notCert = await readCredentials({ ca: setting(pw, '--etcd-ca') }).then(
        () => 'no error',
        (e: Error) => e.message,
      )
      assert.match(notCert, /--etcd-ca: \S+pw holds no PEM certificate/)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  },
)

/** What gRPC and etcd said, as recorded against etcd 3.4 (Debian's), and what it means. */
const SAID: [string, string, string, RegExp][] = [
  [
    'GRPCUnavailableError',
    '14 UNAVAILABLE: No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:2379. Resolution note: ',
    'unreachable',
    /^connect ECONNREFUSED 127\.0\.0\.1:2379$/,
  ],
  [
    'GRPCUnavailableError',
    '14 UNAVAILABLE: No connection established. Last error: Failed to connect (2026-11-28T08:48:53.231Z). Resolution note: ',
    'unreachable',
    /^Failed to connect$/,
  ],
  [
    'GRPCDeadlineExceededError',
    '4 DEADLINE_EXCEEDED: Deadline exceeded after 3.001s',
    'unreachable',
    /Deadline exceeded/,
  ],
  [
    'GRPCUnavailableError',
    '14 UNAVAILABLE: No connection established. Last error: Error: unable to verify the first certificate. Resolution note: ',
    'refused',
    /^etcd at https:\/\/e:2379 presented a certificate that --etcd-ca \/ca\.crt does not trust \(unable to verify the first certificate\)/,
  ],
  [
    'GRPCUnavailableError',
    "14 UNAVAILABLE: No connection established. Last error: Error: Hostname/IP does not match certificate's altnames: IP: 10.0.0.9 is not in the cert's list: 127.0.0.1. Resolution note: ",
    'refused',
    /presented a certificate for other names/,
  ],
  [
    'GRPCUnavailableError',
    '14 UNAVAILABLE: No connection established. Last error: 80AC7FA9847F0000:error:0A000412:SSL routines:ssl3_read_bytes:sslv3 alert bad certificate:../deps/openssl/openssl/ssl/record/rec_layer_s3.c:1601:SSL alert number 42\n (2026-11-28T08:48:39.373Z). Resolution note: ',
    'refused',
    /^etcd at https:\/\/e:2379 refused the client certificate \(TLS alert: bad certificate\): --etcd-cert \/me\.crt expired on 2020-01-02T00:00:00\.000Z$/,
  ],
  [
    'GRPCUnavailableError',
    '14 UNAVAILABLE: No connection established. Last error: Error: 807CE1A77C7F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:350:\n. Resolution note: ',
    'refused',
    /does not speak TLS \(wrong version number\): use http:\/\//,
  ],
  [
    'EtcdAuthenticationFailedError',
    '3 INVALID_ARGUMENT: etcdserver: authentication failed, invalid user ID or password',
    'refused',
    /^etcd at https:\/\/e:2379 refused user ops: etcdserver: authentication failed, invalid user ID or password \(the password of --etcd-password-file \/pw\)$/,
  ],
  [
    'EtcdPermissionDeniedError',
    '7 PERMISSION_DENIED: etcdserver: permission denied',
    'refused',
    /^etcd at https:\/\/e:2379 refused user ops writing \/k: etcdserver: permission denied/,
  ],
  [
    'EtcdInvalidAuthTokenError',
    'Watcher canceled: rpc error: code = Unauthenticated desc = etcdserver: invalid auth token',
    'stale',
    /invalid auth token/,
  ],
  [
    'EtcdError',
    '9 FAILED_PRECONDITION: etcdserver: authentication is not enabled',
    'auth-off',
    /not enabled/,
  ],
  ['EtcdError', '3 INVALID_ARGUMENT: etcdserver: user name is empty', 'no-user', /empty/],
  [
    'GRPCResourceExhastedError',
    '8 RESOURCE_EXHAUSTED: trying to send message larger than max',
    'call',
    /larger than max/,
  ],
]

test('what a failed call means: not there, refused (one line with who and what to change), or its own', async () => {
  ;(await openEtcd(['http://127.0.0.1:1'])).close() // etcd3's error classes, loaded
  const etcd3 = (await import('etcd3')) as unknown as Record<string, new (m: string) => Error>
  const credentials: EtcdCredentials = {
    access: {
      ca: { value: '/ca.crt', from: '--etcd-ca' },
      cert: { value: '/me.crt', from: '--etcd-cert' },
      key: { value: '/me.key', from: '--etcd-key' },
      user: { value: 'ops', from: '--etcd-user' },
      passwordFile: { value: '/pw', from: '--etcd-password-file' },
    },
    auth: { username: 'ops', password: 'x' },
    certificate: { cn: 'me', validTo: new Date('2020-01-02T00:00:00Z') },
  }
  for (const [name, message, kind, said] of SAID) {
    const failure = failureOf(new etcd3[name]!(message), {
      endpoints: ['https://e:2379'],
      credentials,
      what: 'writing /k',
    })
    assert.is(failure.kind, kind, message)
    assert.match('line' in failure ? failure.line : failure.reason, said)
  }
  // A stream's error as gRPC made it (not etcd3's class): its code says.
  const raw = Object.assign(new Error('14 UNAVAILABLE: Connection dropped'), { code: 14 })
  assert.is(failureOf(raw, { endpoints: ['https://e:2379'] }).kind, 'unreachable')
  // Without a user, etcd asking for one is a refusal that says what to give.
  const noUser = failureOf(new etcd3.EtcdError!('etcdserver: user name is empty'), {
    endpoints: ['https://e:2379'],
  })
  assert.is(noUser.kind, 'refused')
  assert.match('line' in noUser ? noUser.line : '', /give --etcd-user and --etcd-password-file/)
})

test.run()
