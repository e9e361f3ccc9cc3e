// Where the client commands find the controller: --url, else $SPP_CTL_URL, else the default; over
// TCP or the controller's API socket (unix:PATH), as a user runs the built command.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { digestOf, newToken } from '../../src/auth/clients.ts'
import { buildDist } from '../helpers/build.ts'
import { freePort } from '../helpers/free-port.ts'
import { withHarness } from '../helpers/harness.ts'
import { runCli } from '../helpers/run-cli.ts'

test.before(buildDist)

const NFV = [{ kind: 'nfv' as const, clientId: 1 }]

async function withDir(body: (dir: string) => Promise<void>) {
  const dir = await mkdtemp(join(tmpdir(), 'spp-url-'))
  try {
    await body(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

test('$SPP_CTL_URL is where topology and journal go without --url; --url wins over it', () =>
  withHarness(NFV, async (h) => {
    const env = { SPP_CTL_URL: `http://127.0.0.1:${h.controller.apiPort}` }
    const got = await runCli(['topology', 'get'], env)
    assert.is(got.code, 0, got.stderr)
    assert.match(got.stdout, /^nfvs:\n {2}"1":\n {4}status: Idle/)
    // No state directory: the journal route answers 404, which proves the request reached it.
    const journal = await runCli(['journal'], env)
    assert.match(journal.stderr, /^spp-ctl journal: GET \/v1\/journal: 404: /)

    const nobody = `http://127.0.0.1:${await freePort()}/`
    const wins = await runCli(['topology', 'get', '--url', env.SPP_CTL_URL], {
      SPP_CTL_URL: nobody,
    })
    assert.is(wins.code, 0, wins.stderr)
    const away = await runCli(['topology', 'get'], { SPP_CTL_URL: nobody })
    assert.equal(
      [away.code, away.stderr.replace(/: [^:]*ECONNREFUSED.*\n$/, ': ECONNREFUSED\n')],
      [
        1,
        `spp-ctl topology: cannot reach the controller at ${nobody} (from $SPP_CTL_URL): ECONNREFUSED\n`,
      ],
    )
    const bad = await runCli(['topology', 'get'], { SPP_CTL_URL: 'ftp://x' })
    assert.equal(
      [bad.code, bad.stderr],
      [
        1,
        'spp-ctl topology: $SPP_CTL_URL: expected http://HOST:PORT, https://HOST:PORT or unix:PATH, got "ftp://x"\n',
      ],
    )
  }))

test('unix:PATH reaches the controller on its --api-socket: the local administrator, no token', () =>
  withDir((dir) => {
    const path = join(dir, 'api.sock')
    return withHarness(
      NFV,
      async (h) => {
        const tcp = await runCli([
          'topology',
          'get',
          '--url',
          `http://127.0.0.1:${h.controller.apiPort}`,
        ])
        assert.match(tcp.stderr, /401: A bearer token is needed/)
        const got = await runCli(['topology', 'get', '--url', `unix:${path}`])
        assert.is(got.code, 0, got.stderr)
        assert.match(got.stdout, /^nfvs:\n {2}"1":\n {4}status: Idle/)
        // A change over the socket, with the apply's progress (the event stream over it too).
        const file = join(dir, 'desired.yaml')
        await writeFile(file, 'nfvs: { "1": { status: Running } }\n')
        const applied = await runCli(['topology', 'apply', '-f', file], {
          SPP_CTL_URL: `unix:${path}`,
        })
        assert.is(applied.code, 0, applied.stderr)
        assert.match(applied.stdout, /done 1\/1 {2}start forwarding on nfv 1/)
        const gone = await runCli(['topology', 'get', '--url', `unix:${join(dir, 'none.sock')}`])
        assert.is(gone.code, 1)
        assert.match(
          gone.stderr,
          /^spp-ctl topology: cannot reach the controller at unix:.*none\.sock: /,
        )
      },
      {
        apiSocket: { path },
        clients: [{ name: 'ops', scope: 'write', digest: digestOf(newToken()) }],
      },
    )
  }))

test("topology's own words: an unknown option, an empty document", () =>
  withHarness(NFV, (h) =>
    withDir(async (dir) => {
      const url = ['--url', `http://127.0.0.1:${h.controller.apiPort}`]
      const unknown = await runCli(['topology', 'get', '--jsn', ...url])
      assert.equal(
        [unknown.code, unknown.stderr],
        [1, "spp-ctl topology: unknown option --jsn\nRun 'spp-ctl topology --help' for usage.\n"],
      )
      const empty = join(dir, 'empty.yaml')
      await writeFile(empty, '# nothing yet\n')
      const applied = await runCli(['topology', 'apply', '-f', empty, ...url])
      assert.equal([applied.code, applied.stdout], [1, ''])
      assert.is(
        applied.stderr,
        `spp-ctl topology: ${empty} is empty: a desired document names processes, as \`spp-ctl topology get\` prints\n`,
      )
    }),
  ))

test.run()
