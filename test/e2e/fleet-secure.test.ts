// The fleet on an etcd as sites run it: TLS, client certificates, etcd's users and the roles of
// docs/fleet.md; each host confined to its own keys, and what etcd refuses said in one line.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { startFleetServer } from '../../src/cli/fleet/serve.ts'
import { parseEvents } from '../../src/cli/sse-client.ts'
import type { Etcd3 } from 'etcd3'
import { readCredentials } from '../../src/fleet/etcd-access.ts'
import { openEtcd } from '../../src/fleet/etcd-client.ts'
import { fleetKeys } from '../../src/fleet/keys.ts'
import { browserMissing, cuttableProxy, withPage } from '../helpers/browser.ts'
import {
  addPort,
  etcdUp,
  reached,
  startChildController,
  type ChildController,
  type LogLine,
} from '../helpers/controllers.ts'
import { revisionNow, waitForKey } from '../helpers/etcd.ts'
import {
  secureEtcdMissing,
  secureEtcdTest,
  withSecureEtcd,
  type Pair,
  type SecureEtcd,
} from '../helpers/etcd-secure.ts'
import { fleetCli } from '../helpers/fleet-cli.ts'
import { freePort } from '../helpers/free-port.ts'
import { testNeeding } from '../helpers/needs.ts'

const CLI = new URL('../../src/spp-ctl.ts', import.meta.url).pathname
const SIMS = [{ kind: 'primary' as const }, { kind: 'nfv' as const, clientId: 1 }]
const keys = fleetKeys()
const ERROR = 50
const CHAIN = { nfvs: { 1: { ports: ['phy:0', 'ring:0'] } } }

/** The controller's flags for `pair` (and a password file), against the secured etcd's CA. */
const tlsArgs = (s: SecureEtcd, pair?: Pair, ca = s.pki.ca) => [
  ...['--etcd-ca', ca],
  ...(pair ? ['--etcd-cert', pair.cert, '--etcd-key', pair.key] : []),
]
const passwordArgs = (file: string, user = 'right') => [
  ...['--etcd-user', user, '--etcd-password-file', file],
]

/** `spp-ctl fleet` with `pair`'s certificate and the CA, as the environment gives them. */
const fleetAs = (s: SecureEtcd, pair: Pair, args: string[], stdin?: string) =>
  fleetCli(s.etcd.url, args, {
    stdin,
    env: { ETCDCTL_CACERT: s.pki.ca, SPP_CTL_ETCD_CERT: pair.cert, SPP_CTL_ETCD_KEY: pair.key },
  })

const hasPort = (port: string) => (e: { value?: string }) =>
  e.value !== undefined &&
  (JSON.parse(e.value) as typeof CHAIN).nfvs['1']?.ports.includes(port) === true

type Snapshot = { etcd: string; refused?: string; hosts: { host: string; alive: boolean }[] }

/** The first snapshot of the fleet page's feed that `match` takes (the page's own view of etcd). */
async function snapshotWhere(base: string, match: (snapshot: Snapshot) => boolean) {
  const abort = new AbortController()
  const failsafe = setTimeout(() => abort.abort(), 20_000)
  try {
    const response = await fetch(`${base}/v1/fleet/events`, { signal: abort.signal })
    for await (const event of parseEvents(response.body!.pipeThrough(new TextDecoderStream()))) {
      const snapshot = event.data as unknown as Snapshot
      if (match(snapshot)) return snapshot
    }
    throw new Error('the feed ended')
  } finally {
    clearTimeout(failsafe)
    abort.abort()
  }
}

/**
 * Resolves once `key` holds a value `accept` takes, now or later; reads only `key` (a host's
 * user may read nothing else).
 */
async function until(client: Etcd3, key: string, accept: (e: { value?: string }) => boolean) {
  const now = await client.get(key).exec()
  const [kv] = now.kvs
  if (kv && accept({ value: kv.value.toString() })) return
  await waitForKey(client, key, accept, { fromRevision: Number(now.header.revision) + 1 })
}

/**
 * Resolves once `host` has written an observed key showing its nfv 1 as read (what `fleet plan`
 * and `apply` plan against: a process not read yet is refused).
 */
async function observedBy(s: SecureEtcd, host: string) {
  const root = await rootClient(s)
  type Observed = { topology?: { nfvs?: Record<string, { error?: string }> } }
  const nfvRead = (e: { value?: string }) => {
    const nfv = e.value && (JSON.parse(e.value) as Observed).topology?.nfvs?.['1']
    return nfv !== undefined && nfv !== '' && nfv.error === undefined
  }
  try {
    await until(root, keys.observed(host), nfvRead)
  } finally {
    root.close()
  }
}

/** A root client of the test's own (its certificate's CN is root). */
async function rootClient(s: SecureEtcd) {
  const { users, ca } = s.pki
  const access = {
    ca: { value: ca, from: 'test' },
    cert: { value: users.root.cert, from: 'test' },
    key: { value: users.root.key, from: 'test' },
  }
  return openEtcd([s.etcd.url], await readCredentials(access))
}

/** Runs the controller until it exits on its own; resolves its status and stderr. */
async function startExpectingExit(etcd: string, name: string, args: string[]) {
  const stateDir = mkdtempSync(join(tmpdir(), `spp-ctl-${name}-`))
  try {
    const child = spawn(
      process.execPath,
      [
        ...['--import', 'tsx', CLI, '-b', '127.0.0.1', '-p', '0', '-s', '0', '-a', '0'],
        ...['--etcd', etcd, '--host-name', name, '--log-format', 'json', '--state-dir', stateDir],
        ...args,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    )
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text))
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
    const [code] = (await once(child, 'exit')) as [number | null]
    clearTimeout(timer)
    // What a person reads: the lines that are not the JSON log.
    const said = stderr.split('\n').filter((line) => line && !line.startsWith('{'))
    return {
      code,
      said: said.filter((line) => !/DeprecationWarning|--trace-deprecation/.test(line)),
    }
  } finally {
    rmSync(stateDir, { recursive: true, force: true })
  }
}

/** The controllers started in `body`, stopped afterwards. */
async function withControllers(body: (start: typeof startChildController) => Promise<void>) {
  const started: ChildController[] = []
  try {
    await body(async (...args) => {
      const controller = await startChildController(...args)
      started.push(controller)
      return controller
    })
  } finally {
    await Promise.all(started.map((c) => c.stop()))
  }
}

secureEtcdTest(
  test,
  'TLS, client certificates, users: a host joins by its certificate, one by its password; ls and the page read with the page role; the operator applies',
  () =>
    withSecureEtcd((s) =>
      withControllers(async (start) => {
        const { users } = s.pki
        const left = await start(s.etcd.url, 'left', SIMS, tlsArgs(s, users.left))
        const right = await start(s.etcd.url, 'right', SIMS, [
          ...tlsArgs(s, users.right),
          ...passwordArgs(s.rightPassword),
        ])
        await Promise.all([left.waitForLog(reached), right.waitForLog(reached)])
        assert.is(await etcdUp(left.base), '1')
        assert.is(await etcdUp(right.base), '1')

        const ls = await fleetAs(s, users.page, ['ls', '--json'])
        assert.is(ls.code, 0, ls.stderr)
        const rows = JSON.parse(ls.stdout) as { host: string; alive: boolean }[]
        assert.equal(
          rows.map((r) => [r.host, r.alive]),
          [
            ['left', true],
            ['right', true],
          ],
        )

        const pageCredentials = await readCredentials({
          ca: { value: s.pki.ca, from: 'test' },
          cert: { value: users.page.cert, from: 'test' },
          key: { value: users.page.key, from: 'test' },
        })
        const server = await startFleetServer({
          ...{ endpoints: [s.etcd.url], keys, host: '127.0.0.1', port: 0 },
          credentials: pageCredentials,
        })
        try {
          const shown = await snapshotWhere(
            `http://127.0.0.1:${server.port}`,
            (s) => s.etcd === 'up' && s.hosts.length === 2,
          )
          assert.equal(
            shown.hosts.map((h) => [h.host, h.alive]),
            [
              ['left', true],
              ['right', true],
            ],
          )
        } finally {
          await server.close()
        }

        // The page's role reads only; the operator's writes any host's desired key.
        await observedBy(s, 'right')
        const document = JSON.stringify(CHAIN)
        const refused = await fleetAs(s, users.page, ['apply', 'right', '-f', '-'], document)
        assert.is(refused.code, 1)
        assert.match(
          refused.stderr,
          /refused user page \(the CN of \$SPP_CTL_ETCD_CERT \S+page\.crt\) writing \/spp-ctl\/hosts\/right\/desired: etcdserver: permission denied/,
          refused.stderr,
        )
        const applied = await fleetAs(s, users.operator, ['apply', 'right', '-f', '-'], document)
        assert.is(applied.code, 0, applied.stderr)
      }),
    ),
)

secureEtcdTest(
  test,
  "a host's credentials cannot write another host's desired key: fleet apply says so in one line; a controller named for another host does not start",
  () =>
    withSecureEtcd((s) =>
      withControllers(async (start) => {
        const { users } = s.pki
        const right = await start(s.etcd.url, 'right', SIMS, tlsArgs(s, users.right))
        await right.waitForLog(reached)
        await observedBy(s, 'right')
        const apply = await fleetAs(
          s,
          users.left,
          ['apply', 'right', '-f', '-'],
          JSON.stringify(CHAIN),
        )
        assert.is(apply.code, 1)
        const lines = apply.stderr.trim().split('\n')
        assert.is(lines.length, 1, apply.stderr)
        assert.match(
          lines[0]!,
          /^spp-ctl fleet: etcd at https:\/\/127\.0\.0\.1:\d+ refused user left \(the CN of \$SPP_CTL_ETCD_CERT \S+left\.crt\) writing \/spp-ctl\/hosts\/right\/desired: etcdserver: permission denied/,
          lines[0],
        )
        // The prefix ends in a slash: left's role does not reach a host named left2.
        const client = await openEtcd(
          [s.etcd.url],
          await readCredentials({
            ca: { value: s.pki.ca, from: 'test' },
            cert: { value: users.left.cert, from: 'test' },
            key: { value: users.left.key, from: 'test' },
          }),
        )
        try {
          await client.put(keys.desired('left')).value('{}').exec()
          const other = await client
            .put(keys.desired('left2'))
            .value('{}')
            .exec()
            .then(
              () => 'written',
              (error: Error) => error.message,
            )
          assert.match(other, /permission denied/)
        } finally {
          client.close()
        }

        const impostor = await startExpectingExit(s.etcd.url, 'right', tlsArgs(s, users.left))
        assert.is(impostor.code, 1)
        assert.equal(impostor.said.length, 1, impostor.said.join('\n'))
        assert.match(
          impostor.said[0]!,
          /^spp-ctl: cannot start: etcd at https:\/\/127\.0\.0\.1:\d+ refused user left .*writing \/spp-ctl\/hosts\/right\/(alive|observed): etcdserver: permission denied/,
        )
      }),
    ),
)

secureEtcdTest(
  test,
  'at start, what etcd refuses is one line and exit 1 (a wrong CA, an expired or strange certificate, none, a bad password, plain HTTP); an etcd not there is retried',
  () =>
    withSecureEtcd(async (s) => {
      const { pki } = s
      const bad = await s.file('bad.password', 'wrong\n')
      const plain = s.etcd.url.replace('https://', 'http://')
      const cases: [string, string, string[], RegExp][] = [
        [
          'a CA that did not sign etcd',
          s.etcd.url,
          tlsArgs(s, pki.users.left, pki.otherCa),
          /presented a certificate that --etcd-ca \S+other-ca\.crt does not trust/,
        ],
        [
          'an expired certificate',
          s.etcd.url,
          tlsArgs(s, pki.expired),
          /refused the client certificate \(TLS alert: [a-z ]+\): --etcd-cert \S+expired\.crt expired on \d{4}-/,
        ],
        [
          'a certificate of another CA',
          s.etcd.url,
          tlsArgs(s, pki.stranger),
          /refused the client certificate \(TLS alert: [a-z ]+\): --etcd-cert \S+stranger\.crt must be signed by a CA of etcd's --trusted-ca-file/,
        ],
        [
          'no certificate',
          s.etcd.url,
          tlsArgs(s),
          /asks for a client certificate \(TLS alert: [a-z ]+\): give --etcd-cert and --etcd-key/,
        ],
        [
          'a bad password',
          s.etcd.url,
          [...tlsArgs(s, pki.users.right), ...passwordArgs(bad)],
          /refused user right: etcdserver: authentication failed, invalid user ID or password \(the password of --etcd-password-file \S+bad\.password\)/,
        ],
        [
          'plain HTTP',
          plain,
          [],
          /etcd at http:\/\/127\.0\.0\.1:\d+ speaks TLS: use https:\/\/ in --etcd, with --etcd-ca/,
        ],
      ]
      for (const [what, url, args, line] of cases) {
        const { code, said } = await startExpectingExit(url, 'left', args)
        assert.is(code, 1, what)
        assert.is(said.length, 1, `${what}: ${said.join('\n')}`)
        const endpoint = url.replace(/[/.]/g, '\\$&')
        assert.match(said[0]!, new RegExp(`^spp-ctl: cannot start: etcd at ${endpoint}`), what)
        assert.match(said[0]!, line, what)
      }
      // The client commands say the same lines.
      const wrongCa = await fleetCli(s.etcd.url, ['ls'], { env: { ETCDCTL_CACERT: pki.otherCa } })
      assert.is(wrongCa.code, 1)
      assert.match(
        wrongCa.stderr,
        /^spp-ctl fleet: etcd at https:\S+ presented a certificate that \$ETCDCTL_CACERT \S+other-ca\.crt does not trust/,
      )
      const http = await fleetCli(plain, ['ls'])
      assert.match(http.stderr, /^spp-ctl fleet: etcd at http:\S+ speaks TLS/)

      // Nobody on the port: the controller starts, and keeps trying.
      const nowhere = `https://127.0.0.1:${await freePort()}`
      const waiting = await startChildController(nowhere, 'left', [], tlsArgs(s, pki.users.left))
      try {
        await waiting.waitForLog((l) => l.msg.startsWith('etcd unreachable'))
        assert.is(await etcdUp(waiting.base), '0')
      } finally {
        await waiting.stop()
      }
    }),
)

secureEtcdTest(
  test,
  'a permission etcd denies at run time: the host keeps serving, spp_etcd_up 0, one error line; granted again, its change lands',
  () =>
    withSecureEtcd((s) =>
      withControllers(async (start) => {
        const left = await start(s.etcd.url, 'left', SIMS, [
          ...tlsArgs(s, s.pki.users.left),
          ...['--log-level', 'debug'],
        ])
        await left.waitForLog(reached)
        const root = await rootClient(s)
        try {
          const from = (await revisionNow(root)) + 1
          const own = ['spp-ctl-host-left', '/spp-ctl/hosts/left/', '--prefix=true']
          await s.etcdctl(['role', 'revoke-permission', ...own])
          assert.is(await addPort(left.base, 'ring:0'), 204, 'the REST API answers')
          const refusal = (l: LogLine) => l.level === ERROR && / refused user left /.test(l.msg)
          const line = await left.waitForLog(refusal)
          assert.match(
            line.msg,
            /writing \/spp-ctl\/hosts\/left\/(desired|observed): etcdserver: permission denied/,
          )
          assert.is(await etcdUp(left.base), '0')
          // It asks again; a read it may still make does not count as working.
          await left.waitForLog((l) => l.msg === 'etcd still refuses')
          assert.is(await etcdUp(left.base), '0')
          assert.is(left.logs.filter(refusal).length, 1, 'one error line for the refusal')
          await s.etcdctl([
            'role',
            'grant-permission',
            'spp-ctl-host-left',
            '--prefix=true',
            'readwrite',
            '/spp-ctl/hosts/left/',
          ])
          await waitForKey(root, keys.desired('left'), hasPort('ring:0'), { fromRevision: from })
          await left.waitForLog((l) => l.msg === 'etcd is back')
          assert.is(await etcdUp(left.base), '1')
        } finally {
          root.close()
        }
      }),
    ),
)

secureEtcdTest(
  test,
  'a controller outlives a short --auth-token-ttl: its token expires, its watch is cut, it authenticates again',
  () =>
    withSecureEtcd(
      async (s) => {
        const proxy = await cuttableProxy(Number(new URL(s.etcd.url).port))
        const root = await rootClient(s)
        try {
          await withControllers(async (start) => {
            const expired = s.etcd.waitForLog(/deleted a simple token.*"user-name":"right"/)
            expired.catch(() => undefined) // awaited below; a failure before must not crash uvu
            const right = await start(`https://127.0.0.1:${proxy.port}`, 'right', SIMS, [
              ...tlsArgs(s, s.pki.users.right),
              ...passwordArgs(s.rightPassword),
            ])
            await right.waitForLog(reached)
            await expired
            // The watch's stream is made again with the token etcd has forgotten.
            proxy.down()
            await right.waitForLog((l) => l.msg.startsWith('etcd unreachable'))
            proxy.up()
            await right.waitForLog((l) => l.msg === 'etcd is back')
            const put = await root.put(keys.desired('right')).value(JSON.stringify(CHAIN)).exec()
            const revision = Number(put.header.revision)
            await waitForKey(
              root,
              keys.observed('right'),
              (e) => {
                const apply = (
                  JSON.parse(e.value ?? '{}') as { apply?: { revision: number; state: string } }
                ).apply
                return (
                  apply !== undefined && apply.revision >= revision && apply.state === 'converged'
                )
              },
              { fromRevision: revision },
            )
            assert.is(await addPort(right.base, 'ring:1'), 204)
            await waitForKey(root, keys.desired('right'), hasPort('ring:1'), {
              fromRevision: revision + 1,
            })
            assert.is(await etcdUp(right.base), '1')
          })
        } finally {
          root.close()
          await proxy.close()
        }
      },
      { authTokenTtl: 2 },
    ),
)

secureEtcdTest(
  test,
  'SIGHUP reads the credentials again: a password changed in etcd is refused, the new file lets the host back in',
  () =>
    withSecureEtcd((s) =>
      withControllers(async (start) => {
        const passwd = (password: string) =>
          s.etcdctl(['user', 'passwd', 'right', '--interactive=false'], { input: `${password}\n` })
        const password = s.rightPassword
        const right = await start(s.etcd.url, 'right', SIMS, [
          ...tlsArgs(s, s.pki.users.right),
          ...passwordArgs(password),
        ])
        await right.waitForLog(reached)
        await passwd('open-sesame') // etcd forgets right's token as well
        assert.is(await addPort(right.base, 'ring:0'), 204)
        await right.waitForLog(
          (l) => l.level === ERROR && /refused user right: .*authentication failed/.test(l.msg),
        )
        assert.is(await etcdUp(right.base), '0')
        await writeFile(password, 'open-sesame\n')
        right.child.kill('SIGHUP')
        await right.waitForLog((l) => l.msg === 'etcd is back')
        assert.is(await etcdUp(right.base), '1')
        const root = await rootClient(s)
        try {
          await until(root, keys.desired('right'), hasPort('ring:0'))
        } finally {
          root.close()
        }
      }),
    ),
)

secureEtcdTest(
  test,
  'spp-ctl fleet serve reads its credentials again on SIGHUP: refused with the page role, served with the new certificate',
  () =>
    withSecureEtcd(async (s) => {
      const { users } = s.pki
      const cert = await s.file('serve.crt', await readFile(users.page.cert, 'utf8'))
      const key = await s.file('serve.key', await readFile(users.page.key, 'utf8'))
      await s.etcdctl(['role', 'revoke-permission', 'spp-ctl-page', '/spp-ctl/', '--prefix=true'])
      let page: (url: string) => void
      const url = new Promise<string>((resolve) => (page = resolve))
      const serving = fleetCli(s.etcd.url, ['serve', '--bind', '127.0.0.1', '--port', '0'], {
        env: { ETCDCTL_CACERT: s.pki.ca, SPP_CTL_ETCD_CERT: cert, SPP_CTL_ETCD_KEY: key },
        onOutput: (text) => {
          const found = /^Fleet page: (http:\S+)\/$/m.exec(text)
          if (found) page(found[1]!)
        },
      })
      try {
        const base = await Promise.race([
          url,
          serving.then(({ stderr }) => Promise.reject(new Error(`fleet serve ended: ${stderr}`))),
        ])
        await snapshotWhere(base, (shown) => shown.refused !== undefined)
        // The files now hold the operator's certificate (it reads /spp-ctl/): read on SIGHUP.
        await writeFile(cert, await readFile(users.operator.cert))
        await writeFile(key, await readFile(users.operator.key))
        process.emit('SIGHUP')
        const shown = await snapshotWhere(
          base,
          (shown) => shown.etcd === 'up' && shown.refused === undefined,
        )
        assert.is(shown.etcd, 'up')
      } finally {
        process.emit('SIGTERM')
        const { code, stderr } = await serving
        assert.is(code, 0, stderr)
      }
    }),
)

secureEtcdTest(
  test,
  'moving an open fleet over: a host given a user works before auth enable, and after it, by itself',
  () =>
    withSecureEtcd(
      (s) =>
        withControllers(async (start) => {
          const password = s.rightPassword
          const right = await start(s.etcd.url, 'right', SIMS, [
            ...tlsArgs(s),
            ...passwordArgs(password),
          ])
          await right.waitForLog(reached)
          assert.ok(right.logs.some((l) => /authentication is not enabled/.test(l.msg)))
          // docs/fleet.md's users and roles, less `auth enable`; then enabled.
          await s.applyDocumentedRoles({ enable: false })
          await s.etcdctl(['auth', 'enable'])
          assert.is(await addPort(right.base, 'ring:0'), 204)
          await right.waitForLog((l) => /authentication is enabled now/.test(l.msg))
          const client = await openEtcd(
            [s.etcd.url],
            await readCredentials({
              ca: { value: s.pki.ca, from: 'test' },
              user: { value: 'right', from: 'test' },
              passwordFile: { value: password, from: 'test' },
            }),
          )
          try {
            await until(client, keys.desired('right'), hasPort('ring:0'))
          } finally {
            client.close()
          }
          assert.is(await etcdUp(right.base), '1')
        }),
      { clientCertAuth: false, auth: false },
    ),
)

const pageName =
  'the fleet page shows what etcd refuses it in place of "unreachable", and comes back when allowed; refused at start, it does not serve'
testNeeding(test, pageName, secureEtcdMissing ?? browserMissing, () =>
  withSecureEtcd(async (s) => {
    const { users, stranger } = s.pki
    const credentialsOf = (pair: Pair) =>
      readCredentials({
        ca: { value: s.pki.ca, from: '--etcd-ca' },
        cert: { value: pair.cert, from: '--etcd-cert' },
        key: { value: pair.key, from: '--etcd-key' },
      })
    const serve = async (pair: Pair) =>
      startFleetServer({
        ...{ endpoints: [s.etcd.url], keys, host: '127.0.0.1', port: 0 },
        credentials: await credentialsOf(pair),
      })
    const refusedAtStart = await serve(stranger).then(
      async (server) => (await server.close(), 'served'),
      (error: Error) => error.message,
    )
    assert.match(refusedAtStart, /refused the client certificate \(TLS alert: [a-z ]+\)/)

    const readAll = ['spp-ctl-page', '--prefix=true', 'read', '/spp-ctl/']
    await s.etcdctl(['role', 'revoke-permission', 'spp-ctl-page', '/spp-ctl/', '--prefix=true'])
    const server = await serve(users.page)
    const base = `http://127.0.0.1:${server.port}`
    try {
      const refused = await snapshotWhere(base, (shown) => shown.refused !== undefined)
      assert.is(refused.etcd, 'down')
      assert.match(
        refused.refused!,
        /^etcd at https:\S+ refused user page \(the CN of --etcd-cert \S+page\.crt\) reading \/spp-ctl\/hosts\/: etcdserver: permission denied/,
      )
      await withPage(async ({ page }) => {
        await page.goto(`${base}/`)
        const line = page.locator('#connection[data-connection="etcd-refused"]')
        await line.waitFor()
        assert.match(
          (await line.textContent()) ?? '',
          /refused user page .*: showing the last known state$/,
        )
        await s.etcdctl(['role', 'grant-permission', ...readAll])
        await page.waitForSelector('#connection[data-connection="live"]')
      })
    } finally {
      await server.close()
    }
  }),
)

test.run()
