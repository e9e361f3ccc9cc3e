// POST /v1/topology/plan and /apply over loopback: progress events, ETag, 409, refusals, failures.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openEventStream, type StreamEvent } from '../../src/cli/sse-client.ts'
import type { SimProcess } from '../../src/sim/sim-process.ts'
import { commandsOf, withHarness, type Harness, type Reply } from '../helpers/harness.ts'
import { PRIMARY_NFV_VF } from '../helpers/chain.ts'

const CHAIN = {
  nfvs: {
    '1': { status: 'Running', ports: ['ring:0'], patches: [{ src: 'phy:0', dst: 'ring:0' }] },
  },
  vfs: {
    '2': {
      components: [
        {
          name: 'fwd1',
          core: 2,
          type: 'forward',
          rx_port: [{ port: 'ring:0' }],
          tx_port: [{ port: 'phy:1' }],
        },
      ],
    },
  },
}

/** The `apply.*` events of the stream until (and including) `apply.done` or `apply.failed`. */
async function applyEvents(h: Harness, signal: AbortSignal) {
  const stream = await openEventStream(`http://127.0.0.1:${h.controller.apiPort}`, signal)
  const all = (async () => {
    const seen: StreamEvent[] = []
    for await (const e of stream) {
      if (!e.event.startsWith('apply.')) continue
      seen.push(e)
      if (e.event !== 'apply.step') return seen
    }
    return seen
  })()
  all.catch(() => undefined) // a test that fails first aborts the stream: not a second failure
  return { all } // wrapped: awaiting this must not wait for the events
}

const withEvents = async <T>(h: Harness, body: (events: Promise<StreamEvent[]>) => Promise<T>) => {
  const abort = new AbortController()
  const failsafe = setTimeout(() => abort.abort(), 10_000) // fails a missing event, never times one
  try {
    return await body((await applyEvents(h, abort.signal)).all)
  } finally {
    clearTimeout(failsafe)
    abort.abort()
  }
}

test('plan lists the steps; apply runs them with an apply.step event each, then apply.done', () =>
  withHarness(PRIMARY_NFV_VF, async (h) => {
    const planned = await h.api('POST', '/v1/topology/plan', CHAIN)
    assert.is(planned.status, 200)
    const { steps, summary } = planned.json() as {
      steps: { path: string; why: string }[]
      summary: object
    }
    assert.is(steps.length, 6)
    assert.equal(summary, {
      'component.start': 1,
      'port.attach': 2,
      'port.add': 1,
      'patch.set': 1,
      'forward.start': 1,
    })
    assert.ok(steps.every((s) => s.why.length > 0))
    await withEvents(h, async (events) => {
      const applied = await h.api('POST', '/v1/topology/apply', CHAIN, {
        'X-Request-Id': 'my-apply',
      })
      assert.is(applied.status, 200, applied.text)
      const { done } = applied.json() as { done: { path: string; status: number }[] }
      assert.equal(
        done.map((s) => s.path),
        steps.map((s) => s.path),
      )
      // The vf's steps and the nfv's run side by side: one event per step, in any order between them.
      const seen = await events
      const byNumber = (a: StreamEvent, b: StreamEvent) =>
        Number(a.data.number ?? Infinity) - Number(b.data.number ?? Infinity)
      assert.equal(
        [...seen]
          .sort(byNumber)
          .map((e) => [e.event, e.data.number, e.data.total, e.data.outcome, e.data.apply]),
        [
          ...steps.map((_, i) => ['apply.step', i + 1, 6, 'done', 'my-apply']),
          ['apply.done', undefined, 6, undefined, 'my-apply'],
        ],
      )
      assert.is(seen.at(-1)!.event, 'apply.done')
      const order = (process: string) =>
        seen.filter((e) => e.data.process === process).map((e) => e.data.number)
      assert.equal(order('vf:2'), [1, 2, 3])
      assert.equal(order('nfv:1'), [4, 5, 6])
    })
    assert.equal(
      commandsOf(h.sim('vf 2')).filter((c) => c !== 'status'),
      ['component start fwd1 2 forward', 'port add phy:1 tx fwd1', 'port add ring:0 rx fwd1'],
    )
    const again = await h.api('POST', '/v1/topology/plan', CHAIN)
    assert.equal(again.json(), { steps: [], summary: {} })
    const exported = (await h.api('GET', '/v1/topology')).json()
    assert.equal((await h.api('POST', '/v1/topology/plan', exported)).json(), {
      steps: [],
      summary: {},
    })
  }))

test('the ETag ignores counters, changes with the configuration; a stale If-Match is 412, nothing sent', () => {
  // Packets arrive on phy:0 and move by the test's clock; every GET reads the primary afresh.
  let now = 0
  const traffic = { sources: { 'phy:0': 100 }, clock: () => now }
  return withHarness(
    PRIMARY_NFV_VF,
    async (h) => {
      await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' })
      await h.api('PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:0' })
      await h.api('PUT', '/v1/nfvs/1/forward', { action: 'start' })
      const first = await h.api('GET', '/v1/topology')
      const etag = first.headers.get('etag')!
      assert.match(etag, /^"[\w-]+"$/)
      now += 1000
      const second = await h.api('GET', '/v1/topology')
      const rx = (doc: Reply) =>
        (doc.json() as { primary: { phy_ports: { rx: number }[] } }).primary.phy_ports[0]!.rx
      assert.is(rx(second) - rx(first), 100, 'the counters grew')
      assert.is(second.headers.get('etag'), etag)
      const planned = await h.api('POST', '/v1/topology/plan', CHAIN)
      assert.is(planned.headers.get('etag'), etag)
      await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'vhost:0' })
      const sent = commandsOf(h.sim('nfv 1')).length
      const stale = await h.api('POST', '/v1/topology/apply', CHAIN, { 'If-Match': etag })
      assert.is(stale.status, 412)
      assert.match(stale.type!, /^text\/plain/)
      assert.equal(commandsOf(h.sim('nfv 1')).slice(sent), ['status'])
      const fresh = (await h.api('GET', '/v1/topology')).headers.get('etag')!
      assert.is.not(fresh, etag)
      const applied = await h.api('POST', '/v1/topology/apply', CHAIN, { 'If-Match': fresh })
      assert.is(applied.status, 200, applied.text)
    },
    { statusMaxAgeMs: 0, sim: { traffic } },
  )
})

test('a bad document is a 400 naming the field, a refused state a 422; nothing is sent', () =>
  withHarness(PRIMARY_NFV_VF, async (h) => {
    const bad = {
      vfs: {
        '2': {
          components: [{ name: 'a', core: 2, type: 'forward', tx_port: [{ port: 'ring:01' }] }],
        },
      },
    }
    for (const path of ['/v1/topology/plan', '/v1/topology/apply']) {
      const r = await h.api('POST', path, bad)
      assert.is(r.status, 400)
      assert.match(r.type!, /^text\/plain/)
      assert.match(r.text, /^invalid key\(vfs\.2\.components\[0\]\.tx_port\[0\]\.port\)/)
    }
    const refused = await h.api('POST', '/v1/topology/apply', {
      vfs: { '2': { components: [{ name: 'a', core: 9, type: 'forward' }] } },
    })
    assert.is(refused.status, 422)
    assert.match(
      refused.text,
      /^refused key\(vfs\.2\.components\[0\]\.core\): core 9 is not a worker lcore/,
    )
    for (const sim of h.sims)
      assert.ok(
        commandsOf(sim).every((c) => c === 'status'),
        sim.label,
      )
  }))

test('a step the process refuses: 400 naming the step, its error and the steps done; apply.failed', () =>
  withHarness(PRIMARY_NFV_VF, async (h) => {
    // An entry on a port that is no classifier tx port is registered but not shown by status.
    await h.api('POST', '/v1/vfs/2/components', { name: 'f', core: 3, type: 'forward' })
    await h.api('PUT', '/v1/vfs/2/components/f/ports', {
      action: 'attach',
      port: 'ring:1',
      dir: 'rx',
    })
    await h.api('PUT', '/v1/vfs/2/classifier_table', {
      action: 'add',
      type: 'mac',
      mac_address: 'default',
      port: 'ring:1',
    })
    const desired = {
      vfs: {
        '2': {
          components: [
            { name: 'c', core: 2, type: 'classifier_mac', tx_port: [{ port: 'ring:1' }] },
          ],
          classifier_table: [{ type: 'mac', value: '00:00:00:00:00:0A', port: 'ring:1' }],
        },
      },
    }
    await withEvents(h, async (events) => {
      const r = await h.api('POST', '/v1/topology/apply', desired)
      assert.is(r.status, 400)
      const body = r.json() as { failed: Record<string, unknown>; done: { action: string }[] }
      assert.equal(body.failed.number, 5)
      assert.equal(body.failed.path, '/v1/vfs/2/classifier_table')
      assert.equal(body.failed.status, 400)
      assert.equal(body.failed.error, 'command error: bad value(port)')
      assert.equal(
        body.done.map((s) => s.action),
        ['port.detach', 'component.stop', 'component.start', 'port.attach'],
      )
      const seen = await events
      assert.equal(
        seen.map((e) => [e.event, e.data.number, e.data.outcome]),
        [
          ['apply.step', 1, 'done'],
          ['apply.step', 2, 'done'],
          ['apply.step', 3, 'done'],
          ['apply.step', 4, 'done'],
          ['apply.step', 5, 'failed'],
          ['apply.failed', 5, undefined],
        ],
      )
    })
  }))

test('a second apply while one runs is 409; a silent process fails with 500, the others finish', () =>
  withHarness(
    PRIMARY_NFV_VF,
    async (h) => {
      const vf = h.sim('vf 2')
      vf.faults = { silentAt: 2 } // the handshake, the plan's status, then silence
      const stuck = new Promise<void>((resolve) => {
        const onCommand = (line: string) => {
          if (!line.startsWith('component start')) return
          vf.off('command', onCommand)
          resolve()
        }
        vf.on('command', onCommand)
      })
      await withEvents(h, async (events) => {
        const first = h.api('POST', '/v1/topology/apply', CHAIN)
        const seen = events
        await stuck // the first apply now waits for a reply that does not come
        const second = await h.api('POST', '/v1/topology/apply', CHAIN)
        assert.is(second.status, 409)
        assert.match(second.text, /already running/)
        const r = await first
        assert.is(r.status, 500)
        type Numbered = { number: number }
        const { failed, failures, done, skipped } = r.json() as {
          failed: Numbered & { error: string; code: string }
          failures: Numbered[]
          done: Numbered[]
          skipped: Numbered[]
        }
        assert.is(failed.number, 1)
        assert.match(failed.error, /no reply within 1000 ms/)
        assert.is(failed.code, 'REPLY_TIMEOUT')
        assert.equal(
          failures.map((f) => f.number),
          [1],
        )
        // The vf's other steps are skipped; the nfv's run to their end but its forward start,
        // which waited for the vf to read ring:0: never sent into a ring nobody reads.
        assert.equal(
          skipped.map((s) => s.number),
          [2, 3, 6],
        )
        assert.equal(
          done.map((s) => s.number),
          [4, 5],
        )
        assert.not.ok(commandsOf(h.sim('nfv 1')).includes('forward'))
        const told = await seen
        assert.equal(
          told.map((e) => e.event),
          ['apply.step', 'apply.step', 'apply.step', 'apply.failed'],
        )
        assert.equal(told.at(-1)!.data.failed, 1)
      })
    },
    { commandTimeoutMs: 1000 },
  ))

test("plan answers the order it will run (a waiting step's after) and warns of a ring nothing reads", () =>
  withHarness(PRIMARY_NFV_VF, async (h) => {
    const running = { ...CHAIN, nfvs: { '1': { ...CHAIN.nfvs['1'], status: 'Running' } } }
    const planned = (await h.api('POST', '/v1/topology/plan', running)).json() as {
      steps: { action: string; after?: unknown }[]
    }
    assert.equal(
      planned.steps.map((s) => [s.action, s.after]),
      [
        ['component.start', undefined],
        ['port.attach', undefined],
        ['port.attach', undefined],
        ['port.add', undefined],
        ['patch.set', undefined],
        [
          'forward.start',
          {
            steps: [1, 3],
            why: 'waits for the readers of ring:0 (vf:2 fwd1) to be attached and started',
          },
        ],
      ],
    )
    assert.not.ok('warnings' in planned)
    const alone = await h.api('POST', '/v1/topology/plan', { nfvs: running.nfvs })
    assert.is(alone.status, 200)
    assert.equal((alone.json() as { warnings: unknown }).warnings, [
      {
        port: 'ring:0',
        why: 'ring:0: nfv:1 patch phy:0 -> ring:0 sends into it and nothing reads it: what is sent there is dropped',
      },
    ])
    // Applied all the same; and a single REST request is never refused for it.
    assert.is((await h.api('POST', '/v1/topology/apply', { nfvs: running.nfvs })).status, 200)
    assert.is(
      (await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:1' })).status,
      204,
    )
    assert.is(
      (await h.api('PUT', '/v1/nfvs/1/patches', { src: 'phy:1', dst: 'ring:1' })).status,
      204,
    )
  }))

/** Resolves once `sim` has answered `line` (its reply written, or held). */
const answered = (sim: SimProcess, line: string) =>
  new Promise<void>((resolve) => {
    const on = (got: string) => got === line && (sim.off('answered', on), resolve())
    sim.on('answered', on)
  })
/** Holds `sim`'s replies from its reply to `line` on; resolves with the release. */
const holdFrom = (sim: SimProcess, line: string) =>
  new Promise<() => void>((resolve) => {
    const on = (got: string) => got === line && (sim.off('command', on), resolve(sim.hold()))
    sim.on('command', on)
  })

test("commands reach the processes in the schedule's order: the nfv forwards into ring:0 only once the vf reads it, and stops before the vf lets it go", () =>
  withHarness(
    PRIMARY_NFV_VF,
    async (h) => {
      const [nfv, vf] = [h.sim('nfv 1'), h.sim('vf 2')]
      const arrived: string[] = []
      for (const [name, sim] of [
        ['nfv:1', nfv],
        ['vf:2', vf],
      ] as const)
        sim.on('command', (line) => line !== 'status' && arrived.push(`${name} ${line}`))
      const running = structuredClone(CHAIN) as typeof CHAIN & { nfvs: { '1': { status: string } } }
      running.nfvs['1'].status = 'Running'

      // The vf is slow (SPP's reads its socket once a second): its first reply is held while the
      // nfv adds its port and sets its patch. A status read of the nfv, queued behind whatever
      // the apply sends it, shows that the forward start was not sent meanwhile.
      let release = holdFrom(vf, 'component start fwd1 2 forward')
      const applying = h.api('POST', '/v1/topology/apply', running)
      await answered(nfv, 'patch phy:0 ring:0')
      assert.is((await h.api('GET', '/v1/nfvs/1')).status, 200)
      assert.not.ok(arrived.includes('nfv:1 forward'), arrived.join('\n'))
      ;(await release)()
      assert.is((await applying).status, 200)
      const of = (name: string) => arrived.filter((a) => a.startsWith(name))
      assert.equal(of('vf:2'), [
        'vf:2 component start fwd1 2 forward',
        'vf:2 port add phy:1 tx fwd1',
        'vf:2 port add ring:0 rx fwd1',
      ])
      assert.equal(of('nfv:1'), ['nfv:1 add ring:0', 'nfv:1 patch phy:0 ring:0', 'nfv:1 forward'])
      assert.is(arrived.at(-1), 'nfv:1 forward') // after the vf's last: it reads ring:0

      // Tearing down: the nfv's stop is held; the vf does not let ring:0 go until it is answered.
      arrived.length = 0
      release = holdFrom(nfv, 'stop')
      const emptying = h.api('POST', '/v1/topology/apply', {
        nfvs: { '1': { status: 'Idle', ports: ['phy:0', 'phy:1'], patches: [] } },
        vfs: { '2': { components: [] } },
      })
      await answered(nfv, 'stop')
      assert.is((await h.api('GET', '/v1/vfs/2')).status, 200) // queued behind the vf's steps
      assert.equal(arrived, ['nfv:1 stop'])
      ;(await release)()
      assert.is((await emptying).status, 200)
      assert.equal(of('vf:2'), [
        'vf:2 port del ring:0 rx fwd1',
        'vf:2 port del phy:1 tx fwd1',
        'vf:2 component stop fwd1',
      ])
      assert.equal(of('nfv:1'), ['nfv:1 stop', 'nfv:1 patch reset', 'nfv:1 del ring:0'])
    },
    { statusMaxAgeMs: 0 }, // every read asks the process: the reads above are barriers
  ))

test.run()
