// `spp-ctl topology trace` and `check` as a user runs them: the real binary against the controller
// and simulated processes whose packets (20 000 a second on phy:0) and status reads go by the
// test's clock, over the recorded chain phy:0 -> nfv:1 -> ring:0 -> vf:2 fwd1 -> phy:1.
import { readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as v from 'valibot'
import { PathsDocument } from '../../../src/topology/path-document.ts'
import { buildDist } from '../../helpers/build.ts'
import { freePort } from '../../helpers/free-port.ts'
import { withHarness, type Harness } from '../../helpers/harness.ts'
import { runCli } from '../../helpers/run-cli.ts'

test.before(buildDist)

const PROCESSES = [
  { kind: 'primary' as const },
  { kind: 'nfv' as const, clientId: 1 },
  { kind: 'vf' as const, clientId: 2 },
]
const NFV_HOP = 'nfv:1 phy:0>ring:0'
const VF_HOP = 'vf:2 fwd1 ring:0>phy:1'
const CHAIN: [string, string, object][] = [
  ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' }],
  ['PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:0' }],
  ['PUT', '/v1/nfvs/1/forward', { action: 'start' }],
  ['POST', '/v1/vfs/2/components', { name: 'fwd1', core: 2, type: 'forward' }],
  ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'ring:0', dir: 'rx' }],
  ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'phy:1', dir: 'tx' }],
]

type Clock = { now: number }

/**
 * A harness whose packets and status reads go by `clock` (nothing moves until the test moves it),
 * vf 2 reading `readerPps` a second from its ports.
 */
function withTraffic(
  body: (h: Harness, clock: Clock) => Promise<void>,
  options: { readerPps?: number; statusMaxAgeMs?: number } = {},
) {
  const clock = { now: 0 }
  const traffic = {
    sources: { 'phy:0': 20_000 },
    readerPps: { 'vf:2': options.readerPps ?? 5000 },
    clock: () => clock.now,
  }
  return withHarness(PROCESSES, (h) => body(h, clock), {
    statusClock: () => clock.now,
    sim: { traffic },
    ...(options.statusMaxAgeMs !== undefined && { statusMaxAgeMs: options.statusMaxAgeMs }),
  })
}

async function configure(h: Harness, requests: [string, string, object][]) {
  for (const [method, path, body] of requests) {
    const r = await h.api(method, path, body)
    assert.is(r.status, 204, `${method} ${path}: ${r.text}`)
  }
  // Every process read once, so that none is `not read` (the commands would read it first).
  assert.is((await h.api('GET', '/v1/topology')).status, 200)
}

/** Two reads of the counters a second apart by the test's clock: the controller has rates. */
async function twoReads(h: Harness, clock: Clock) {
  assert.is((await h.api('GET', '/v1/topology/paths')).status, 200)
  clock.now += 1000
  assert.is((await h.api('GET', '/v1/topology/paths')).status, 200)
}

/** `spp-ctl topology ...args --url` the harness's controller. */
const topology = (h: Harness, ...args: string[]) =>
  runCli(['topology', ...args, '--url', `http://127.0.0.1:${h.controller.apiPort}`])

/** The controller line the client commands print first on stderr. */
const controllerLine = (h: Harness) =>
  `controller http://127.0.0.1:${h.controller.apiPort} (--url)\n`

/**
 * The text with every rate's number made N, and the rates' column two spaces wide: what the tree
 * looks like, whatever the rates.
 */
const shape = (text: string) =>
  text
    .replace(/\b\d+(\.\d+)? pps(?: {2,}(?=\S))?/g, (rate) =>
      rate.endsWith(' ') ? 'N pps  ' : 'N pps',
    )
    .replace(/not counted {2,}(?=\S)/g, 'not counted  ')

/**
 * The example of docs/packets.md after `<!-- NAME example: ... -->`: its command (the `$` line)
 * and what it prints, to the end of its fenced block.
 */
function docsExample(name: string) {
  const page = readFileSync(new URL('../../../docs/packets.md', import.meta.url), 'utf8')
  const start = page.indexOf(`<!-- ${name} example:`)
  assert.ok(start >= 0, `docs/packets.md has the ${name} example`)
  const [, command = '', printed = ''] =
    /^[^\n]*\n```\n\$ ([^\n]*)\n([\s\S]*?)```\n/.exec(page.slice(start)) ?? []
  return { command, printed }
}

/**
 * Moves the clock by `ms` once the first answer to GET /v1/topology/paths has been written: the
 * command's second read, if it makes one, is a read of its own, `ms` later.
 */
function afterFirstPathsRead(h: Harness, clock: Clock, ms: number) {
  let moved = false
  h.controller.httpServer.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url !== '/v1/topology/paths' || moved) return
    moved = true
    res.on('finish', () => void (clock.now += ms))
  })
}

/** Counts the requests for the paths the controller is asked from now on. */
function pathsRequests(h: Harness) {
  const counted = { n: 0 }
  h.controller.httpServer.on('request', (req: IncomingMessage) => {
    if (req.url === '/v1/topology/paths') counted.n++
  })
  return counted
}

test('trace prints the tree of the recorded chain: each hop with its mover, state, rates and verdict', () =>
  withTraffic(async (h, clock) => {
    await configure(h, CHAIN)
    await twoReads(h, clock)
    const requests = pathsRequests(h)
    const run = await topology(h, 'trace')
    assert.is(run.code, 0, run.stderr)
    assert.is(requests.n, 1, 'the rates the controller has are recent: no wait, no second read')
    assert.is(run.stderr, controllerLine(h))
    assert.is(
      shape(run.stdout),
      [
        "Rates over 1 s, between two reads of the primary's counters.",
        '',
        'phy:0: N pps arriving (phy:0 rx); DROPPING',
        '`-- nfv:1 patch: phy:0 -> ring:0 (running)',
        '    |   offered     N pps  phy:0 rx',
        '    |   delivered   N pps  ring:0 tx',
        '    |   dropped     N pps  ring:0 tx_drop',
        '    |   DROPPING    vf:2 fwd1 reads ring:0 slower than its writers send into it',
        '    `-- vf:2 fwd1 forward: ring:0 -> phy:1 (running; leaves the host)',
        '            offered     N pps  ring:0 tx, inferred: what enters ring:0 is what its one reader takes',
        '            delivered   N pps  ring:0 tx, inferred: what vf:2 fwd1 takes, it sends on',
        "            dropped     not counted  phy:1 tx_drop, 18.11 counts here what was lost downstream of the port, not what it failed to send: not this port's drops",
        '            flowing     packets pass ring:0>phy:1',
        '',
        'phy:1: nothing reads it',
        '',
      ].join('\n'),
    )
    // docs/packets.md shows this run.
    const example = docsExample('trace')
    assert.is(example.command, 'spp-ctl topology trace')
    assert.is(shape(example.printed), shape(run.stdout))
    // The numbers are the hops' rates: 20 000 a second arrive, the vf takes 5 000 of them.
    assert.match(run.stdout, /\n {4}\| {3}offered {5}20000 pps +phy:0 rx\n/)
    assert.match(run.stdout, /\n {12}offered {5}5\d{3}(\.\d)? pps/)
  }))

test('trace PORT: only the tree from PORT, or from a ring packets pass; a port nothing reads is refused', () =>
  withTraffic(async (h, clock) => {
    // A second tree: phy:1 into ring:1, which nothing reads.
    await configure(h, [
      ...CHAIN,
      ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:1' }],
      ['PUT', '/v1/nfvs/1/patches', { src: 'phy:1', dst: 'ring:1' }],
    ])
    await twoReads(h, clock)
    const all = await topology(h, 'trace')
    assert.match(all.stdout, /\nphy:0: .*\n/)
    assert.match(
      all.stdout,
      /\nphy:1: .*\n`-- nfv:1 patch: phy:1 -> ring:1 \(running; no SPP process reads it\)\n/,
    )

    const phy0 = await topology(h, 'trace', 'phy:0')
    assert.is(phy0.code, 0, phy0.stderr)
    assert.match(phy0.stdout, /\nphy:0: .*\n`-- nfv:1 patch: phy:0 -> ring:0 /)
    assert.match(phy0.stdout, /`-- vf:2 fwd1 forward: ring:0 -> phy:1 /)
    assert.not.match(phy0.stdout, /phy:1:|ring:1/)

    const ring0 = await topology(h, 'trace', 'ring:0')
    assert.is(ring0.code, 0, ring0.stderr)
    assert.match(
      ring0.stdout,
      /\nring:0: packets pass here \(they do not enter here\); from it:\n`-- vf:2 fwd1 forward: ring:0 -> phy:1 /,
    )
    assert.not.match(ring0.stdout, /nfv:1 patch/)

    const json = await topology(h, 'trace', 'phy:1', '--json')
    const document = v.parse(PathsDocument, JSON.parse(json.stdout))
    assert.equal(
      document.paths.map((p) => p.entry),
      ['phy:1'],
    )
    assert.equal(
      document.hops.map((hop) => hop.id),
      ['nfv:1 phy:1>ring:1'],
    )

    const none = await topology(h, 'trace', 'ring:3')
    assert.equal(
      [none.code, none.stdout, none.stderr.slice(controllerLine(h).length)],
      [
        1,
        '',
        'spp-ctl topology: nothing reads ring:3 and no packets enter there: they enter at phy:0, phy:1\n',
      ],
    )
    const bad = await topology(h, 'trace', 'phy-0')
    assert.is(bad.code, 1)
    assert.match(
      bad.stderr,
      /^spp-ctl topology: trace takes a port as phy:0 or ring:1, got phy-0\n/,
    )
    const two = await topology(h, 'trace', 'phy:0', 'phy:1')
    assert.is(two.code, 1)
    assert.match(two.stderr, /unexpected argument phy:1/)
  }))

test('check exits 2 with one line per problem hop (where, what, why, what to do); --json says the same', () =>
  withTraffic(async (h, clock) => {
    await configure(h, CHAIN)
    await twoReads(h, clock)
    const run = await topology(h, 'check')
    assert.is(run.code, 2, run.stderr)
    assert.is(run.stderr, controllerLine(h))
    assert.is(
      shape(run.stdout),
      'nfv:1 phy:0>ring:0: DROPPING N pps at ring:0: vf:2 fwd1 reads ring:0 slower than its writers send into it; ' +
        'vf:2 fwd1 cannot keep up: give it a core of its own, share the load with more readers, or send less into ring:0\n' +
        '1 problem (rates over 1 s); `spp-ctl topology trace` shows every path.\n',
    )

    // docs/packets.md shows this run, and its exit status.
    const example = docsExample('check')
    assert.is(example.command, 'spp-ctl topology check; echo "exit $?"')
    assert.is(shape(example.printed), `${shape(run.stdout)}exit 2\n`)

    const json = await topology(h, 'check', '--json', '--quiet')
    assert.is(json.code, 2)
    assert.is(json.stderr, '', '--quiet: nothing on stderr, and stdout is JSON alone')
    const found = JSON.parse(json.stdout) as {
      result: string
      window_s: number
      problems: { id: string; verdict: { verdict: string; port: string }; do: string }[]
      unknown: string[]
    }
    assert.equal([found.result, found.window_s, found.unknown], ['problems', 1, []])
    assert.equal(
      found.problems.map((p) => [p.id, p.verdict.verdict, p.verdict.port]),
      [[NFV_HOP, 'dropping', 'ring:0']],
    )
    assert.match(found.problems[0]!.do, /^vf:2 fwd1 cannot keep up/)

    // trace --json: the paths document as the API answers it, the controller line on stderr.
    const traced = await topology(h, 'trace', '--json')
    assert.is(traced.code, 0)
    assert.is(traced.stderr, controllerLine(h))
    const document = v.parse(PathsDocument, JSON.parse(traced.stdout))
    assert.equal(
      document.hops.map((hop) => [hop.id, hop.verdict.verdict]),
      [
        [NFV_HOP, 'dropping'],
        [VF_HOP, 'flowing'],
      ],
    )
  }))

test('check exits 0 when nothing is wrong: a reader as fast as the source', () =>
  withTraffic(
    async (h, clock) => {
      await configure(h, CHAIN)
      await twoReads(h, clock)
      const run = await topology(h, 'check')
      assert.is(run.code, 0, run.stderr)
      assert.is(run.stdout, 'No problems: 2 hops on 1 path (rates over 1 s).\n')
      const json = await topology(h, 'check', '--json')
      assert.is(json.code, 0)
      assert.equal(JSON.parse(json.stdout), {
        result: 'ok',
        window_s: 1,
        problems: [],
        unknown: [],
        not_read: [],
      })
    },
    { readerPps: 1_000_000_000 },
  ))

test('check and trace wait for a second read when the controller has none: right after the chain is built, check sees the drops', () =>
  withTraffic(async (h, clock) => {
    await configure(h, CHAIN)
    // The controller has read the counters once (no rates); the second read, a second later by
    // the test's clock, is the one the command makes after its --window.
    afterFirstPathsRead(h, clock, 1000)
    const requests = pathsRequests(h)
    const run = await topology(h, 'check', '--window', '1')
    assert.is(run.code, 2, run.stdout + run.stderr)
    assert.is(requests.n, 2)
    assert.match(run.stdout, /^nfv:1 phy:0>ring:0: DROPPING \d+(\.\d)? pps at ring:0: /)
    assert.match(run.stdout, /\n1 problem \(rates over 1 s\)/)
  }))

test('--window 0 never waits: without rates, trace says why and check could not tell (1)', () =>
  withTraffic(async (h) => {
    await configure(h, CHAIN)
    const run = await topology(h, 'trace', '--window', '0')
    assert.is(run.code, 0, run.stderr)
    assert.match(
      run.stdout,
      /^No rates: the controller has no two reads of the counters a second apart, and --window 0 does not wait for one\.\n/,
    )
    assert.match(run.stdout, /\n {4}\| {3}offered {5}no rate yet {2}phy:0 rx\n/)
    assert.match(
      run.stdout,
      /\n {4}\| {3}unknown {5}no two reads of the counters a second apart yet\n/,
    )
    const checked = await topology(h, 'check', '--window', '0', '--json')
    assert.is(checked.code, 1)
    const found = JSON.parse(checked.stdout) as { result: string; unknown: string[] }
    assert.equal([found.result, found.unknown], ['unknown', [NFV_HOP, VF_HOP]])
    assert.match(checked.stderr, /\nspp-ctl topology: could not tell: /)
  }))

test('check exits 1 when it could not tell: no second read within --window, or no controller', () =>
  withTraffic(
    async (h, clock) => {
      await configure(h, CHAIN)
      // Reads shared for a minute: the request after the wait is answered with the first read.
      afterFirstPathsRead(h, clock, 1500)
      const run = await topology(h, 'check', '--window', '1')
      assert.is(run.code, 1, run.stdout + run.stderr)
      assert.is(run.stdout, '')
      assert.is(
        run.stderr.slice(controllerLine(h).length),
        'spp-ctl topology: could not tell: no second read of the counters within 1 s: the controller answered with a read 1.5 s old (its --status-max-age is longer than --window; give a longer --window)\n',
      )
      const url = `http://127.0.0.1:${await freePort()}`
      for (const command of ['check', 'trace']) {
        const away = await runCli(['topology', command, '--url', url])
        assert.is(away.code, 1, command)
        assert.is(away.stdout, '', command)
        assert.match(away.stderr, /spp-ctl topology: cannot reach the controller at http:/, command)
      }
      const usage = await topology(h, 'check', '--window', 'soon')
      assert.equal(
        [usage.code, usage.stderr],
        [
          1,
          "spp-ctl topology: --window takes 90s, 5m or 1h30m, got soon\nRun 'spp-ctl topology --help' for usage.\n",
        ],
      )
    },
    { statusMaxAgeMs: 60_000 },
  ))

test('spp-ctl --help and topology --help name trace and check', async () => {
  const help = await runCli(['--help'])
  assert.match(help.stdout, /spp-ctl topology trace \[PORT\]\|check/)
  const topologyHelp = await runCli(['topology', '--help'])
  assert.match(topologyHelp.stdout, /\n {2}trace \[PORT\]\n/)
  assert.match(topologyHelp.stdout, /\n {2}check {5}/)
  assert.match(topologyHelp.stdout, /--window D/)
})

test.run()
