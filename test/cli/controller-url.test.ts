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
const TOKEN = newToken()

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
    assert.match(journal.stderr, /\nspp-ctl journal: GET \/v1\/journal: 404: /)

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
        `controller ${nobody} (from $SPP_CTL_URL)\n` +
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

test('a client command says first on stderr which controller it talks to, and why that one', () =>
  withHarness(NFV, async (h) => {
    const url = `http://127.0.0.1:${h.controller.apiPort}`
    const other = `http://127.0.0.1:${await freePort()}`
    const first = (run: { stderr: string }) => run.stderr.split('\n')[0]
    // --url wins over $SPP_CTL_URL, which wins over the default; stdout is the output alone.
    const flag = await runCli(['topology', 'get', '--json', '--url', url], { SPP_CTL_URL: other })
    assert.is(flag.code, 0, flag.stderr)
    assert.is(flag.stderr, `controller ${url} (--url)\n`)
    assert.equal(Object.keys((JSON.parse(flag.stdout) as { nfvs: object }).nfvs), ['1'])
    const env = await runCli(['journal'], { SPP_CTL_URL: url })
    assert.is(first(env), `controller ${url} (from $SPP_CTL_URL)`)
    assert.match(env.stderr, /\nspp-ctl journal: GET \/v1\/journal: 404: /, 'it reached that one')
    // Nothing named: the default, said before the error of whatever is (or is not) there.
    const byDefault = await runCli(['topology', 'get'], { SPP_CTL_URL: '' })
    assert.is(first(byDefault), 'controller http://localhost:7777 (default)')
    // Once, however many requests the command makes (plan: a read, then the plan).
    const dir = await mkdtemp(join(tmpdir(), 'spp-url-'))
    try {
      const file = join(dir, 'chain.yaml')
      await writeFile(file, 'nfvs: { "1": { status: Running } }\n')
      const planned = await runCli(['topology', 'plan', '-f', file], { SPP_CTL_URL: url })
      assert.is(planned.stderr, `controller ${url} (from $SPP_CTL_URL)\n`)
      assert.match(planned.stdout, /start forwarding on nfv 1/)
      // --quiet leaves the line out; a mistake in the command line is said alone.
      const quiet = await runCli(['topology', 'plan', '-f', file, '--quiet', '--url', url])
      assert.equal([quiet.code, quiet.stderr], [0, ''])
      const wrong = await runCli(['topology', 'plan', '--url', url])
      assert.is(first(wrong), 'spp-ctl topology: plan needs -f FILE (- for stdin)')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }))

test('the client options are taken before the subcommand too: --url, --token-file, --quiet', () =>
  withDir((dir) =>
    withHarness(
      NFV,
      async (h) => {
        const url = `http://127.0.0.1:${h.controller.apiPort}`
        const file = join(dir, 'token')
        await writeFile(file, `${TOKEN}\n`, { mode: 0o600 })
        const before = await runCli(['--url', url, '--token-file', file, 'topology', 'get'])
        assert.is(before.code, 0, before.stderr)
        assert.is(before.stderr, `controller ${url} (--url)\n`)
        assert.match(before.stdout, /^nfvs:\n/)
        const inline = await runCli([`--url=${url}`, '--quiet', 'journal', '--token-file', file])
        assert.equal(
          [inline.code, inline.stderr.split('\n')[0]],
          [
            1,
            'spp-ctl journal: GET /v1/journal: 404: This controller keeps no journal: it was started with --state-dir none.',
          ],
        )
        // A command that takes no --url says so, rather than reading it as the daemon's.
        const fleet = await runCli(['--url', url, 'fleet', 'ls'])
        assert.equal(
          [fleet.code, fleet.stderr],
          [
            2,
            "spp-ctl: --url is an option of the client commands: spp-ctl --url ... topology|journal ...\nRun 'spp-ctl --help' for usage.\n",
          ],
        )
      },
      { clients: [{ name: 'ops', scope: 'write', digest: digestOf(TOKEN) }] },
    ),
  ))

test('a URL that answers something other than HTTP is said to be a process port, with the flag of the REST port', () =>
  withHarness(NFV, async (h) => {
    const url = `http://127.0.0.1:${h.controller.secondaryPort}`
    const got = await runCli(['topology', 'get', '--url', url])
    assert.is(got.code, 1)
    const [line, said, help, ...rest] = got.stderr.split('\n')
    assert.is(line, `controller ${url} (--url)`)
    assert.match(
      said!,
      `spp-ctl topology: cannot reach the controller at ${url}: it answers, but not in HTTP (`,
    )
    assert.is(
      help,
      "A process port answers so (spp-ctl's --pri-port, default 5555, and --sec-port, 6666): the REST API is on spp-ctl's --api-port (default 7777)",
    )
    assert.equal(rest, [''])
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
          /^controller unix:\S+none\.sock \(--url\)\nspp-ctl topology: cannot reach the controller at unix:.*none\.sock: /,
        )
      },
      {
        apiSocket: { path },
        clients: [{ name: 'ops', scope: 'write', digest: digestOf(newToken()) }],
      },
    )
  }))

test("topology's own words: an unknown option, an empty document, a file without -f", () =>
  withHarness(NFV, (h) =>
    withDir(async (dir) => {
      const url = ['--url', `http://127.0.0.1:${h.controller.apiPort}`]
      const unknown = await runCli(['topology', 'get', '--jsn', ...url])
      assert.equal(
        [unknown.code, unknown.stderr],
        [1, "spp-ctl topology: unknown option --jsn\nRun 'spp-ctl topology --help' for usage.\n"],
      )
      for (const [args, meant] of [
        [['plan', 'chain.yaml'], '-f chain.yaml'],
        [['apply', 'chain.yaml'], '-f chain.yaml'],
        [['rollback', '3'], '--to 3'],
      ] as const) {
        const alone = await runCli(['topology', ...args, ...url])
        assert.equal(
          [alone.code, alone.stderr],
          [
            1,
            `spp-ctl topology: unexpected argument ${args[1]}: did you mean ${meant}?\nRun 'spp-ctl topology --help' for usage.\n`,
          ],
        )
      }
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
