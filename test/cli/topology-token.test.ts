// `spp-ctl topology` against a controller with --auth-file: --token-file, SPP_CTL_TOKEN, refusals.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { stringify } from 'yaml'
import { digestOf, newToken, type Client } from '../../src/auth/clients.ts'
import { buildDist } from '../helpers/build.ts'
import { withHarness, type Harness } from '../helpers/harness.ts'
import { captureLogs } from '../helpers/log-capture.ts'
import { afterControllerLine, runCli, type CliRun } from '../helpers/run-cli.ts'

const WRITE = newToken()
const READ = newToken()
const STRANGER = newToken()
const clients: Client[] = [
  { name: 'ops', scope: 'write', digest: digestOf(WRITE) },
  { name: 'dash', scope: 'read', digest: digestOf(READ) },
]

test.before(buildDist)

/** Asserts no output holds any part of a token (six characters or more). */
function noToken(...runs: CliRun[]) {
  const printed = runs.map((r) => r.stdout + r.stderr).join('\n')
  for (const token of [WRITE, READ, STRANGER])
    for (let i = 0; i + 6 <= token.length; i++)
      assert.not.ok(printed.includes(token.slice(i, i + 6)), 'part of a token is printed')
}

async function withFiles(body: (dir: string) => Promise<void>) {
  const dir = await mkdtemp(join(tmpdir(), 'spp-token-'))
  try {
    await body(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

const urlOf = (h: Harness) => `http://127.0.0.1:${h.controller.apiPort}`
/** A run of `spp-ctl topology ... --url URL`; its stderr without the line naming the controller. */
const topology = async (h: Harness, args: string[], env?: Record<string, string>) =>
  afterControllerLine(await runCli(['topology', ...args, '--url', urlOf(h)], env), urlOf(h))

test("no token: the controller's 401 text, exit 1; SPP_CTL_TOKEN reads; a read token may not plan", () =>
  withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    (h) =>
      withFiles(async (dir) => {
        const none = await topology(h, ['get'])
        assert.is(none.code, 1)
        assert.is(none.stdout, '')
        assert.is(
          none.stderr,
          'spp-ctl topology: GET /v1/topology: 401: A bearer token is needed: send "Authorization: Bearer TOKEN" (spp-ctl auth add makes one).\n' +
            "spp-ctl's commands send the token of --token-file FILE, else of $SPP_CTL_TOKEN.\n",
        )
        const got = await topology(h, ['get'], { SPP_CTL_TOKEN: READ })
        assert.is(got.code, 0, got.stderr)
        assert.match(got.stdout, /nfvs:\n {2}"1":\n {4}status: Idle/)

        const file = join(dir, 'desired.yaml')
        await writeFile(file, stringify({ nfvs: { '1': { status: 'Running' } } }))
        const plan = await topology(h, ['plan', '-f', file], { SPP_CTL_TOKEN: READ })
        assert.is(plan.code, 1)
        assert.is(
          plan.stderr,
          'spp-ctl topology: POST /v1/topology/plan: 403: POST needs a token of scope write; the token of dash has scope read. (the token came from $SPP_CTL_TOKEN)\n',
        )
        const stranger = await topology(h, ['get'], { SPP_CTL_TOKEN: `${STRANGER}\n` })
        assert.is(stranger.code, 1)
        // Where the refused token came from: a stale variable is the usual cause.
        assert.is(
          stranger.stderr,
          'spp-ctl topology: GET /v1/topology: 401: The bearer token is not one this controller knows. (the token came from $SPP_CTL_TOKEN)\n',
        )
        noToken(none, got, plan, stranger)
      }),
    { clients },
  ))

test('--token-file wins over SPP_CTL_TOKEN, and apply sends it to the event stream too', async () => {
  const { log, lines } = captureLogs('debug') // the reads' request lines are debug
  await withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    (h) =>
      withFiles(async (dir) => {
        const token = join(dir, 'token')
        await writeFile(token, `${WRITE}\n`, { mode: 0o600 })
        const file = join(dir, 'desired.yaml')
        await writeFile(file, stringify({ nfvs: { '1': { status: 'Running' } } }))
        const env = { SPP_CTL_TOKEN: READ } // a read token could not plan: the file's is used
        const applied = await topology(h, ['apply', '-f', file, '--token-file', token], env)
        assert.is(applied.code, 0, applied.stderr)
        assert.match(applied.stdout, /done 1\/1 {2}start forwarding on nfv 1/)
        assert.ok(h.sim('nfv 1').received.includes('forward'))
        const who = (path: string) => lines.find((l) => l.path === path)?.who
        assert.equal(
          ['/v1/topology', '/v1/topology/plan', '/v1/events', '/v1/topology/apply'].map(who),
          ['ops', 'ops', 'ops', 'ops'],
        )
        noToken(applied)
      }),
    { clients, log },
  )
})

test('a --token-file others may read is used, with a warning; its refusal names the file', () =>
  withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    (h) =>
      withFiles(async (dir) => {
        const open = join(dir, 'token')
        await writeFile(open, `${READ}\n`, { mode: 0o644 })
        await chmod(open, 0o644) // whatever the umask
        const got = await runCli(['topology', 'get', '--token-file', open, '--url', urlOf(h)])
        assert.is(got.code, 0, got.stderr)
        assert.is(
          got.stderr,
          `controller ${urlOf(h)} (--url)\n` +
            `spp-ctl topology: warning: --token-file ${open} may be read by others (mode 0644): chmod 600 ${open}\n`,
        )
        const stranger = join(dir, 'stranger')
        await writeFile(stranger, STRANGER, { mode: 0o600 })
        const refused = await topology(h, ['get', '--token-file', stranger])
        assert.is(
          refused.stderr,
          `spp-ctl topology: GET /v1/topology: 401: The bearer token is not one this controller knows. (the token came from --token-file ${stranger})\n`,
        )
        noToken(got, refused)
      }),
    { clients },
  ))

test('a --token-file that cannot be read, or holds no token: why, never its content; nothing sent', async () => {
  const { log, lines } = captureLogs()
  await withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    (h) =>
      withFiles(async (dir) => {
        const missing = join(dir, 'missing')
        const gone = await topology(h, ['get', '--token-file', missing], { SPP_CTL_TOKEN: READ })
        assert.is(gone.code, 1)
        assert.match(gone.stderr, /^spp-ctl topology: cannot read --token-file .*missing: ENOENT/)
        const bad = join(dir, 'bad')
        await writeFile(bad, `token: ${READ}\n`)
        const wrong = await topology(h, ['get', '--token-file', bad])
        assert.is(
          wrong.stderr,
          `spp-ctl topology: --token-file ${bad} holds no token: one line of letters, digits and - . _ ~ + /\n`,
        )
        const empty = join(dir, 'empty')
        await writeFile(empty, '\n')
        const blank = await topology(h, ['get', '--token-file', empty])
        assert.is(blank.stderr, `spp-ctl topology: --token-file ${empty} is empty\n`)
        assert.equal([gone.code, wrong.code, blank.code], [1, 1, 1])
        noToken(gone, wrong, blank)
        assert.equal(
          lines.filter((l) => l.msg === 'http request'),
          [],
          'no request was made',
        )
      }),
    { clients, log },
  )
})

test.run()
