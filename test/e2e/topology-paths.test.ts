// The paths, their verdicts and the rates pushed, over loopback, on simulated processes whose
// packets move by a clock the test moves (the status reads and the rates' timer too): the chain
// phy:0 -> nfv:1 -> ring:0 -> vf:2 fwd1 -> phy:1 with packets arriving on phy:0.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as v from 'valibot'
import { PathsDocument } from '../../src/topology/path-document.ts'
import type { Timer } from '../../src/topology/path-watch.ts'
import { captureLogs } from '../helpers/log-capture.ts'
import { commandsOf, withHarness, type Harness } from '../helpers/harness.ts'

const PROCESSES = [
  { kind: 'primary' as const },
  { kind: 'nfv' as const, clientId: 1 },
  { kind: 'vf' as const, clientId: 2 },
]
const NFV_HOP = 'nfv:1 phy:0>ring:0'
const VF_HOP = 'vf:2 fwd1 ring:0>phy:1'

/** The rates' timer as the test holds it: `fire()` runs the one waiting, as its time would. */
function testTimer() {
  const waiting: { ms: number; tick: () => void; cancelled: boolean }[] = []
  const timer: Timer = (ms, tick) => {
    const entry = { ms, tick, cancelled: false }
    waiting.push(entry)
    return () => void (entry.cancelled = true)
  }
  return {
    timer,
    waiting,
    /** The timer set last, if it still waits. */
    pending: () => waiting.filter((entry) => !entry.cancelled).at(-1),
    fire() {
      const entry = waiting.at(-1)
      if (!entry || entry.cancelled) throw new Error('no rates timer waits')
      entry.cancelled = true
      entry.tick()
    },
  }
}

type Clocked = { clock: { now: number }; timer: ReturnType<typeof testTimer> }

/**
 * A harness whose packets (20 000 a second on phy:0, vf 2 reading 5 000 a second), status reads
 * and rates' timer all go by the test's clock.
 */
function withTraffic(
  body: (h: Harness, c: Clocked) => Promise<void>,
  options: { readerPps?: number; log?: ReturnType<typeof captureLogs>['log'] } = {},
) {
  const clock = { now: 0 }
  const timer = testTimer()
  const traffic = {
    sources: { 'phy:0': 20_000 },
    readerPps: { 'vf:2': options.readerPps ?? 5000 },
    clock: () => clock.now,
  }
  return withHarness(PROCESSES, (h) => body(h, { clock, timer }), {
    statusClock: () => clock.now,
    ratesTimer: timer.timer,
    sim: { traffic },
    ...(options.log && { log: options.log }),
  })
}

async function configure(h: Harness, requests: [string, string, object?][]) {
  for (const [method, path, body] of requests) {
    const r = await h.api(method, path, body)
    assert.is(r.status, 204, `${method} ${path}: ${r.text}`)
  }
}
const NFV_CHAIN: [string, string, object?][] = [
  ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' }],
  ['PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:0' }],
  ['PUT', '/v1/nfvs/1/forward', { action: 'start' }],
]
const VF_CHAIN: [string, string, object?][] = [
  ['POST', '/v1/vfs/2/components', { name: 'fwd1', core: 2, type: 'forward' }],
  ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'ring:0', dir: 'rx' }],
  ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'phy:1', dir: 'tx' }],
]

const statuses = (h: Harness) =>
  commandsOf(h.sim('primary')).filter((line) => line === 'status').length
const hopOf = (document: PathsDocument, id: string) => document.hops.find((hop) => hop.id === id)!

async function paths(h: Harness) {
  const r = await h.api('GET', '/v1/topology/paths')
  assert.is(r.status, 200, r.text)
  assert.match(r.type!, /^application\/json/)
  return { document: v.parse(PathsDocument, r.json()), age: r.headers.get('x-status-age-ms') }
}

test('GET /v1/topology/paths: where packets go and where they are lost, with rates from two reads a second apart', () =>
  withTraffic(async (h, { clock }) => {
    await configure(h, [...NFV_CHAIN, ...VF_CHAIN])
    const first = await paths(h)
    assert.is(first.document.window_s, null, 'one read: no rate yet')
    assert.is(hopOf(first.document, VF_HOP).verdict.verdict, 'unknown')
    clock.now = 1000
    const { document, age } = await paths(h)
    assert.is(age, '0')
    assert.is(document.window_s, 1)
    assert.equal(document.paths[0]!.first, [NFV_HOP])
    const nfv = hopOf(document, NFV_HOP)
    assert.equal(nfv.by, { process: 'nfv:1', kind: 'patch', name: 'phy:0>ring:0', label: 'nfv:1' })
    assert.is(nfv.verdict.verdict, 'dropping')
    assert.is(nfv.verdict.reader, 'slower')
    assert.equal(nfv.verdict.readers, ['vf:2 fwd1'])
    assert.equal(nfv.rates.offered, { pps: 20_000, source: 'counted', counter: 'phy:0 rx' })
    assert.equal(nfv.rates.dropped.counter, 'ring:0 tx_drop')
    assert.ok(nfv.rates.dropped.pps! > 0)
    assert.equal(nfv.next, [VF_HOP])
    const vf = hopOf(document, VF_HOP)
    assert.is(vf.verdict.verdict, 'flowing')
    assert.equal([vf.rates.offered.source, vf.rates.offered.counter], ['inferred', 'ring:0 tx'])
    assert.is(vf.rates.offered.pps, nfv.rates.delivered.pps)
    assert.is(vf.end, 'leaves')
    assert.equal(document.problems, [NFV_HOP])
    // One read per request: the vf and the nfv are never asked for it.
    const vfStatuses = commandsOf(h.sim('vf 2')).filter((line) => line === 'status').length
    await paths(h)
    assert.is(commandsOf(h.sim('vf 2')).filter((line) => line === 'status').length, vfStatuses)
  }))

test('a verdict that changes is a path.verdict event on /v1/events and a log line', () => {
  const logs = captureLogs()
  return withTraffic(
    async (h, { clock }) => {
      const events = await openEvents(h, '/v1/events')
      try {
        await configure(h, NFV_CHAIN)
        await paths(h)
        clock.now = 1000
        await paths(h)
        const dropping = await events.next((e) => e.type === 'path.verdict')
        assert.is(dropping.id !== undefined, true)
        const data = dropping.data as Record<string, unknown>
        assert.equal([data.kind, data['client-id'], data.hop, data.was], ['nfv', 1, NFV_HOP, null])
        assert.equal((data.verdict as { verdict: string; reader: string }).reader, 'none')
        // A reader as fast as the source: nothing is dropped at ring:0 any more.
        await configure(h, VF_CHAIN)
        clock.now = 3000
        await paths(h)
        const changed = await events.next(
          (e) => e.type === 'path.verdict' && (e.data as { hop: string }).hop === NFV_HOP,
        )
        const now = changed.data as { verdict: { verdict: string }; was: string }
        assert.equal([now.verdict.verdict, now.was], ['flowing', 'dropping'])
        const lines = logs.lines.filter((line) => line.msg === 'path verdict changed')
        assert.equal(
          lines.filter((line) => line.hop === NFV_HOP).map((line) => [line.verdict, line.level]),
          [
            ['dropping', 40],
            ['flowing', 30],
          ],
        )
      } finally {
        events.close()
      }
    },
    { readerPps: 1_000_000_000, log: logs.log },
  )
})

test('a clear leaves the hops without rates for a read: no verdict is told for it, nor again after', () =>
  withTraffic(
    async (h, { clock }) => {
      const events = await openEvents(h, '/v1/events')
      try {
        await configure(h, NFV_CHAIN)
        await paths(h)
        clock.now = 1000
        await paths(h)
        await events.next((e) => e.type === 'path.verdict')
        assert.is((await h.api('DELETE', '/v1/primary/status')).status, 204)
        const cleared = await paths(h)
        assert.is(hopOf(cleared.document, NFV_HOP).verdict.verdict, 'unknown')
        clock.now = 2000
        const again = await paths(h)
        assert.is(hopOf(again.document, NFV_HOP).verdict.verdict, 'dropping')
        // A change of ours, told after all that: nothing else was told in between.
        await configure(h, [['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:1' }]])
        await events.next((e) => e.type === 'port.added')
        assert.equal(
          events.seen
            .filter((e) => e.type === 'path.verdict')
            .map((e) => (e.data as { was: unknown }).was),
          [null],
        )
      } finally {
        events.close()
      }
    },
    { readerPps: 0 },
  ))

test('GET /v1/topology carries the verdicts outside its ETag: a 304 may hide one that changed; it plans back', () =>
  withTraffic(async (h, { clock }) => {
    await configure(h, [...NFV_CHAIN, ...VF_CHAIN])
    const first = await h.api('GET', '/v1/topology')
    const etag = first.headers.get('etag')!
    const verdictsOf = (text: string) =>
      Object.fromEntries(
        (
          JSON.parse(text) as { verdicts: { hop: string; verdict: { verdict: string } }[] }
        ).verdicts.map((entry) => [entry.hop, entry.verdict.verdict]),
      )
    assert.equal(verdictsOf(first.text), { [NFV_HOP]: 'unknown', [VF_HOP]: 'unknown' })
    clock.now = 1000
    const hidden = await h.api('GET', '/v1/topology', undefined, { 'If-None-Match': etag })
    assert.is(hidden.status, 304, 'the counters and the verdicts moved, the configuration did not')
    const shown = await h.api('GET', '/v1/topology')
    assert.is(shown.headers.get('etag'), etag)
    assert.equal(verdictsOf(shown.text), { [NFV_HOP]: 'dropping', [VF_HOP]: 'flowing' })
    // The document as shown is a desired document: it plans back to nothing to do.
    const plan = await h.api('POST', '/v1/topology/plan', shown.json())
    assert.is(plan.status, 200, plan.text)
    assert.equal((plan.json() as { steps: unknown[] }).steps, [])
  }))

test('/v1/events?rates=1: a rates event per read, no id, never replayed; one read shared; nobody asking, nothing read', () =>
  withTraffic(async (h, { clock, timer }) => {
    await configure(h, [...NFV_CHAIN, ...VF_CHAIN])
    const before = statuses(h)
    const plain = await openEvents(h, '/v1/events')
    try {
      assert.is(timer.waiting.length, 0, 'a stream that does not ask for rates: no timer, no read')
      assert.is(statuses(h), before)
      const one = await openEvents(h, '/v1/events?rates=1')
      const first = await one.next((e) => e.type === 'rates')
      assert.is(first.id, undefined, 'no id')
      assert.is(statuses(h), before, 'the read the controller made at 0 (its handshake) is pushed')
      const document = v.parse(PathsDocument, first.data)
      assert.is(document.window_s, null)
      const two = await openEvents(h, '/v1/events?rates=1')
      // Both wait for the timer: a period (1 s, the status reads' bound) after the read.
      assert.is(timer.pending()!.ms, 1000)
      clock.now = 1000
      timer.fire()
      const [a, b] = await Promise.all([
        one.next((e) => e.type === 'rates'),
        two.next((e) => e.type === 'rates'),
      ])
      assert.is(statuses(h), before + 1, 'one read for both watchers')
      assert.is(b.text, a.text)
      const rates = v.parse(PathsDocument, a.data)
      assert.is(rates.window_s, 1)
      assert.is(hopOf(rates, NFV_HOP).verdict.verdict, 'dropping')
      // A reader within the bound shares that read.
      assert.is((await h.api('GET', '/v1/primary/status')).status, 200)
      assert.is(statuses(h), before + 1)
      // The events a client that comes back is replayed hold no rates.
      const replayed = await openEvents(h, '/v1/events', { 'Last-Event-ID': '0' })
      await configure(h, [['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:1' }]])
      await replayed.next((e) => e.type === 'port.added')
      assert.ok(replayed.seen.length > 1)
      assert.equal(
        replayed.seen.filter((e) => e.type === 'rates' || e.id === undefined),
        [],
      )
      replayed.close()
      // The plain stream never had one either.
      await plain.next((e) => e.type === 'port.added')
      assert.equal(
        plain.seen.filter((e) => e.type === 'rates'),
        [],
      )
      // Nobody asking: the timer is let go, nothing more is read.
      const gone = watchersDown(h)
      one.close()
      two.close()
      await gone
      assert.is(timer.pending(), undefined)
      clock.now = 10_000
      assert.is(statuses(h), before + 1)
    } finally {
      plain.close()
    }
  }))

test('/v1/events?rates=1: a tick a moment short of a period reads once the period is up, not a period later', () =>
  withTraffic(async (h, { clock, timer }) => {
    await configure(h, NFV_CHAIN)
    const stream = await openEvents(h, '/v1/events?rates=1')
    try {
      await stream.next((e) => e.type === 'rates')
      assert.is(timer.pending()!.ms, 1000)
      const before = statuses(h)
      // A clock that moves as it is read, as a real one does: the tick finds the read 999.9 ms
      // old, and by its next reading of the clock the period is up.
      let now = 999.7
      Object.defineProperty(clock, 'now', { configurable: true, get: () => (now += 0.2) })
      timer.fire()
      assert.is(statuses(h), before, 'not a period old yet: nothing read')
      const wait = timer.pending()!.ms
      assert.ok(wait < 1, `the next tick in ${wait} ms`)
      timer.fire()
      await stream.next((e) => e.type === 'rates')
      assert.is(statuses(h), before + 1)
    } finally {
      stream.close()
    }
  }))

test('/v1/events refuses a parameter it does not take, naming it, with nothing read', () =>
  withTraffic(async (h, { timer }) => {
    for (const query of ['rates=2', 'rates=1&rates=1', 'rate=1']) {
      const abort = new AbortController()
      const url = `http://127.0.0.1:${h.controller.apiPort}/v1/events?${query}`
      const r = await fetch(url, { signal: abort.signal })
      if (r.status !== 400) abort.abort() // a stream: it would never end
      assert.is(r.status, 400, query)
      assert.match(r.headers.get('content-type')!, /^text\/plain/)
      assert.match(await r.text(), query === 'rate=1' ? /rate/ : /rates/)
    }
    assert.is(timer.waiting.length, 0)
  }))

/** Resolves once no stream asks for rates any more. */
const watchersDown = (h: Harness) =>
  new Promise<void>((resolve) => {
    const stop = h.controller.hub.onRatesWatchers((watchers) => {
      if (watchers > 0) return
      stop()
      resolve()
    })
  })

type Event = { id: string | undefined; type: string; text: string; data: unknown }

/** An event stream over loopback: `next(match)` resolves with the first event to come that matches. */
async function openEvents(h: Harness, path: string, headers: Record<string, string> = {}) {
  const abort = new AbortController()
  const response = await fetch(`http://127.0.0.1:${h.controller.apiPort}${path}`, {
    signal: abort.signal,
    headers,
  })
  assert.is(response.status, 200, await (response.status === 200 ? '' : response.text()))
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  const seen: Event[] = []
  let read = 0
  let text = ''
  return {
    seen,
    async next(match: (event: Event) => boolean): Promise<Event> {
      // A failsafe, not a timing assertion: a missing event fails the test instead of hanging it.
      const failsafe = setTimeout(() => abort.abort(), 10_000)
      try {
        for (;;) {
          while (read < seen.length) {
            const event = seen[read++]!
            if (match(event)) return event
          }
          let end: number
          while ((end = text.indexOf('\n\n')) !== -1) {
            const block = text.slice(0, end)
            text = text.slice(end + 2)
            const type = /^event: (.*)$/m.exec(block)?.[1]
            const data = /^data: (.*)$/m.exec(block)?.[1]
            if (type === undefined || data === undefined) continue
            seen.push({
              id: /^id: (.*)$/m.exec(block)?.[1],
              type,
              text: data,
              data: JSON.parse(data) as unknown,
            })
          }
          if (read < seen.length) continue
          const { value, done } = await reader.read()
          if (done)
            throw new Error(`the event stream ended; seen: ${seen.map((e) => e.type).join(', ')}`)
          text += value
        }
      } finally {
        clearTimeout(failsafe)
      }
    },
    close: () => abort.abort(),
  }
}

test.run()
