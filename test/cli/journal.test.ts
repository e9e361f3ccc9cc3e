// `spp-ctl journal [--follow]` as a user runs it, against a served journal with entries written
// by store.journal() (the controller cannot be given a store yet).
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:net'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { digestOf, newToken, type Client } from '../../src/auth/clients.ts'
import { startSims } from '../../src/sim/start-sims.ts'
import { buildDist } from '../helpers/build.ts'
import { portsOf, runCli as runController } from '../helpers/cli-child.ts'
import { freePort } from '../helpers/free-port.ts'
import { entryAt, withJournalServer } from '../helpers/journal-server.ts'
import { afterControllerLine, runCli } from '../helpers/run-cli.ts'

const T0 = Date.UTC(2026, 0, 1, 12)
const MIN = 60_000
const READ = newToken()
const clients: Client[] = [{ name: 'dash', scope: 'read', digest: digestOf(READ) }]
const CLI = new URL('../../bin/spp-ctl.js', import.meta.url).pathname

test.before(buildDist)

const failed = {
  ...entryAt(T0 + 2 * MIN, 'apply 4k2j', ['nfv:1']),
  method: 'POST',
  path: '/v1/nfvs/1/ports',
  commands: [
    { line: 'add ring:0', outcome: 'ok' },
    { line: 'add ring:9', outcome: { error: 'COMMAND_REJECTED', message: 'no ring 9' } },
  ],
  status: 400,
}
/** A run of `spp-ctl journal --url URL ...`; its stderr without the line naming the controller. */
const journal = async (url: string, args: string[] = [], env?: Record<string, string>) =>
  afterControllerLine(await runCli(['journal', '--url', url, ...args], env), url)

test('a table, oldest first: the last N, filtered; --json gives the entries as the API does', () =>
  withJournalServer(async ({ url, store }) => {
    store!.journal(entryAt(T0 + 1 * MIN, 'ops', ['vf:2']))
    store!.journal(failed)
    store!.journal(entryAt(T0 + 3 * MIN, 'local', ['vf:2']))
    const all = await journal(url)
    assert.is(all.code, 0, all.stderr)
    assert.is(
      all.stdout,
      [
        'TIME                      BY          STATUS  REQUEST                           PROCESSES   COMMANDS',
        '2026-01-01T12:01:00.000Z  ops         204     PUT /v1/vfs/2/patches             vf:2        patch ring:0 phy:0',
        '2026-01-01T12:02:00.000Z  apply 4k2j  400     POST /v1/nfvs/1/ports             nfv:1       add ring:0; add ring:9 (COMMAND_REJECTED)',
        '2026-01-01T12:03:00.000Z  local       204     PUT /v1/vfs/2/patches             vf:2        patch ring:0 phy:0',
        '',
      ].join('\n'),
    )
    const some = await journal(url, ['--process', 'vf:2', '--limit', '1'])
    assert.equal(some.stdout.split('\n').slice(1), [
      '2026-01-01T12:03:00.000Z  local     204     PUT /v1/vfs/2/patches             vf:2        patch ring:0 phy:0',
      '',
    ])
    // The section spelling of a URL is read too, as every command reads a process.
    assert.equal(await journal(url, ['--process', 'vfs/2', '--limit', '1']), some)
    const bad = await journal(url, ['--process', 'vf-2'])
    assert.equal(
      [bad.code, bad.stderr],
      [
        1,
        'spp-ctl journal: --process takes a process as vf:2, nfv:1, mirror:3 or primary, got "vf-2"\n' +
          "Run 'spp-ctl journal --help' for usage.\n",
      ],
    )
    const byOps = await journal(url, ['--by', 'ops', '--since', '2026-01-01T12:00:00Z', '--json'])
    const lines = byOps.stdout.trim().split('\n')
    assert.is(lines.length, 1)
    const api = (await (await fetch(`${url}/v1/journal?by=ops`)).json()) as unknown[]
    assert.equal(JSON.parse(lines[0]!), api[0])
  }))

test("a refusal or a missing journal: the controller's text, exit 1; a token from the file or the environment", () =>
  withJournalServer(
    async ({ url, store }) => {
      store!.journal(entryAt(T0, 'ops', ['vf:2']))
      const none = await journal(url)
      assert.is(none.code, 1)
      assert.match(
        none.stderr,
        /^spp-ctl journal: GET \/v1\/journal: 401: A bearer token is needed/,
      )
      const env = await journal(url, [], { SPP_CTL_TOKEN: READ })
      assert.is(env.code, 0, env.stderr)
      const dir = await mkdtemp(join(tmpdir(), 'spp-journal-'))
      try {
        await writeFile(join(dir, 'token'), READ)
        const file = await journal(url, ['--token-file', join(dir, 'token')], {
          SPP_CTL_TOKEN: newToken(), // refused if it were used
        })
        assert.is(file.code, 0, file.stderr)
        assert.is(file.stdout, env.stdout)
        assert.not.ok((file.stdout + file.stderr + env.stderr).includes(READ.slice(0, 8)))
      } finally {
        await rm(dir, { recursive: true })
      }
      const bad = await journal(url, ['--limit', '0'], { SPP_CTL_TOKEN: READ })
      assert.is(bad.code, 1)
      assert.match(
        bad.stderr,
        /: 400: invalid key\(query\.limit\): 0 \(an integer from 1 to 1000\)/,
      )
    },
    { clients },
  ))

test('without a journal (--state-dir none): the 404 says why', () =>
  withJournalServer(
    async ({ url }) => {
      const r = await journal(url)
      assert.is(r.code, 1)
      assert.is(
        r.stderr,
        'spp-ctl journal: GET /v1/journal: 404: This controller keeps no journal: it was started with --state-dir none.\n',
      )
    },
    { journal: false },
  ))

test('--follow prints each new entry once, as the event stream tells it, an entry stamped a little earlier too', () =>
  withJournalServer(async ({ url, store, hub }) => {
    store!.journal(entryAt(T0 + 4 * MIN, 'ops', ['vf:2']))
    // As the controller does once an entry is durable (the CLI never polls here: --poll is long).
    const journaled = () => hub.publish('journal.entry', {})
    const child = spawn(process.execPath, [CLI, 'journal', '--url', url, '-f', '--poll', '600000'])
    let stdout = ''
    let stderr = ''
    const waiters: (() => void)[] = []
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text
      for (const wake of waiters.splice(0)) wake()
    })
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text))
    let closed = false
    const exited = new Promise((resolve) => child.on('close', resolve)).then(() => {
      closed = true
      for (const wake of waiters.splice(0)) wake()
    })
    const rows = () => stdout.split('\n').filter((l) => l.startsWith('2026-'))
    /** Until a row shows the entry made at `time`, or the command has ended. */
    const until = async (time: string) => {
      while (!closed && !rows().some((row) => row.startsWith(`2026-01-01T${time}`)))
        await new Promise<void>((wake) => waiters.push(wake))
    }
    try {
      await until('12:04')
      store!.journal(entryAt(T0 + 5 * MIN, 'local', ['nfv:1']))
      journaled()
      await until('12:05')
      // A clock stepped back: an entry older than the last one shown, written after it (and
      // printed in the same poll as the next, which is written in the same turn of the loop).
      store!.journal(entryAt(T0 + 4.5 * MIN, 'restore', ['mirror:3']))
      store!.journal(entryAt(T0 + 6 * MIN, 'ops', ['vf:2']))
      journaled()
      journaled()
      await until('12:06')
      const by = rows().map((row) => row.split(/ {2,}/)[1])
      assert.equal(by, ['ops', 'local', 'restore', 'ops'])
      assert.is(stdout.split('\n').filter((l) => l.startsWith('TIME')).length, 1, 'one header')
      assert.is(stderr, `controller ${url} (--url)\n`)
    } finally {
      child.kill()
      await exited
    }
  }))

/** A child's output, with a wait for text to appear in it (or the child to end). */
function watched(child: ChildProcess) {
  const text = { stdout: '', stderr: '' }
  const waiters = new Set<() => void>()
  let closed = false
  const wake = () => waiters.forEach((w) => w())
  for (const name of ['stdout', 'stderr'] as const)
    child[name]!.setEncoding('utf8').on('data', (chunk: string) => ((text[name] += chunk), wake()))
  const exited = once(child, 'close').then(() => ((closed = true), wake()))
  const until = async (name: 'stdout' | 'stderr', pattern: RegExp) => {
    while (!pattern.test(text[name])) {
      if (closed) throw new Error(`exited before ${pattern}: ${text.stderr}`)
      await new Promise<void>((w) => waiters.add(w)).finally(() => waiters.clear())
    }
  }
  return { text, until, exited }
}

test('--follow waits for a controller that goes away and goes on once it is back, saying so once', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'spp-journal-follow-'))
  const port = await freePort()
  const start = () =>
    runController(['-b', '127.0.0.1', '-p', '0', '-s', '0', '-a', String(port), '--state-dir', dir])
  const url = `http://127.0.0.1:${port}`
  const started: ReturnType<typeof start>[] = []
  const sims: Awaited<ReturnType<typeof startSims>> = []
  /** A controller on `port` with nfv 1 connected to it. */
  const controllerWithNfv = async () => {
    const controller = start()
    started.push(controller)
    const { primaryPort, secondaryPort } = await portsOf(controller)
    sims.push(...(await startSims([{ kind: 'nfv', clientId: 1 }], { primaryPort, secondaryPort })))
    await controller.waitFor((l) => l.msg === 'process identified')
    return controller
  }
  let follow: ChildProcess | undefined
  try {
    const first = await controllerWithNfv()
    follow = spawn(process.execPath, [CLI, 'journal', '--url', url, '-f'])
    const journal = watched(follow)
    await journal.until('stdout', /^TIME /)
    assert.is(
      (await fetch(`${url}/v1/nfvs/1/forward`, { method: 'PUT', body: '{"action":"start"}' }))
        .status,
      204,
    )
    await journal.until('stdout', /PUT \/v1\/nfvs\/1\/forward .* forward\n/)

    first.child.kill('SIGTERM')
    await first.exited
    sims.splice(0).forEach((sim) => sim.stop())
    await journal.until('stderr', /waiting for it to come back\n/)
    // Something on the port that drops every connection: the journal tries twice (two requests
    // a try), saying nothing more, before the controller is back.
    let tries = 0
    const dropped = new Promise<void>((enough) => {
      const dropper = createServer((socket) => {
        socket.destroy()
        if (++tries === 4) dropper.close(() => enough())
      }).listen(port, '127.0.0.1')
    })
    await dropped
    await controllerWithNfv()
    await journal.until('stderr', /is back\n/)
    assert.is(
      (await fetch(`${url}/v1/nfvs/1/forward`, { method: 'PUT', body: '{"action":"stop"}' }))
        .status,
      204,
    )
    await journal.until('stdout', /PUT \/v1\/nfvs\/1\/forward .* stop\n/)
    const [named, gone, back, ...rest] = journal.text.stderr.split('\n')
    assert.is(named, `controller ${url} (--url)`, 'once, first')
    assert.match(
      gone!,
      /^spp-ctl journal: cannot reach the controller at http:\S+: .*ECONNREFUSED.*; waiting for it to come back$/,
    )
    assert.equal([back, rest], [`spp-ctl journal: the controller at ${url} is back`, ['']])
    assert.is(journal.text.stdout.split('\n').filter((l) => l.startsWith('TIME')).length, 1)
  } finally {
    follow?.kill()
    sims.forEach((sim) => sim.stop())
    for (const controller of started) controller.child.kill('SIGKILL')
    await rm(dir, { recursive: true, force: true })
  }
})

test.run()
