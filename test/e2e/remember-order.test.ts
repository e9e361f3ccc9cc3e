// Restores follow apply's order across processes (issue 42): each process is restored on its own
// as it reconnects, and a restore that would send into a ring waits for the restore of the process
// remembered to read it; if that one does not read it after all, the sender is not started.
import { once } from 'node:events'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { SimProcess } from '../../src/sim/sim-process.ts'
import { commandsOf } from '../helpers/harness.ts'
import { PRIMARY_NFV_VF } from '../helpers/chain.ts'
import { withRemembering, type Remembering } from '../helpers/remember.ts'
import { about } from '../helpers/watch-events.ts'

/** The chain of issue 42, by single requests: nfv 1 into ring:0, Running; vf 2's fwd1 reads it. */
const CHAIN: [string, string, object][] = [
  ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' }],
  ['PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:0' }],
  ['PUT', '/v1/nfvs/1/forward', { action: 'start' }],
  ['POST', '/v1/vfs/2/components', { name: 'fwd1', core: 2, type: 'forward' }],
  ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'phy:1', dir: 'tx' }],
  ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'ring:0', dir: 'rx' }],
]

async function configure(h: Remembering) {
  for (const [method, path, body] of CHAIN) {
    const r = await h.api(method, path, body)
    assert.is(r.status, 204, `${method} ${path}: ${r.text}`)
  }
}

/** Stops a process and waits until the controller saw it go. */
async function stop(h: Remembering, sim: SimProcess) {
  const removed = once(h.controller.registry, 'removed')
  sim.stop()
  await removed
}

/** Resolves once `sim` has received `line`. */
const received = (sim: SimProcess, line: string) =>
  new Promise<void>((resolve) => {
    if (sim.received.includes(line)) return resolve()
    const on = (got: string) => got === line && (sim.off('command', on), resolve())
    sim.on('command', on)
  })

const ended = (h: Remembering, type: string, process: string) =>
  h.events.until((e) => e.type === type && about(e, process), `${type} of ${process}`)

test('both restarted, the nfv is restored first but forwards into ring:0 only once the vf reads it', () =>
  withRemembering(
    PRIMARY_NFV_VF,
    async (h) => {
      await configure(h)
      // Both processes restart empty: the nfv connects first (it answers at once), the vf after.
      await stop(h, h.sim('vf 2'))
      const arrived: string[] = []
      const record = (name: string) => (line: string) =>
        line !== 'status' && arrived.push(`${name} ${line}`)
      const nfv = await h.restart(h.sim('nfv 1'))
      nfv.on('command', record('nfv:1'))
      arrived.push(
        ...commandsOf(nfv)
          .filter((c) => c !== 'status')
          .map((c) => `nfv:1 ${c}`),
      )
      await received(nfv, 'patch phy:0 ring:0')
      const [vf] = await h.connect([{ kind: 'vf', clientId: 2 }])
      vf!.on('command', record('vf:2'))
      arrived.push(
        ...commandsOf(vf!)
          .filter((c) => c !== 'status')
          .map((c) => `vf:2 ${c}`),
      )
      await ended(h, 'restore.done', 'vf:2')
      await ended(h, 'restore.done', 'nfv:1')
      assert.equal(arrived, [
        'nfv:1 add ring:0',
        'nfv:1 patch phy:0 ring:0',
        'vf:2 component start fwd1 2 forward',
        'vf:2 port add phy:1 tx fwd1',
        'vf:2 port add ring:0 rx fwd1',
        'nfv:1 forward',
      ])
    },
    { commandTimeoutMs: 5000 }, // how long the nfv's restore waits for the vf to connect
  ))

test("a reader whose restore is refused leaves the nfv's forward unsent; the nfv drifts", () =>
  withRemembering(
    PRIMARY_NFV_VF,
    async (h) => {
      await configure(h)
      await stop(h, h.sim('vf 2'))
      const nfv = await h.restart(h.sim('nfv 1'))
      await received(nfv, 'patch phy:0 ring:0')
      // The vf comes back on other cores: its restore is refused, it reads nothing.
      await h.connect([{ kind: 'vf', clientId: 2, cores: [3, 4] }])
      await ended(h, 'restore.failed', 'vf:2')
      const held = await ended(h, 'restore.failed', 'nfv:1')
      assert.match(
        String(held.data.error),
        /^not sent: start forwarding on nfv 1: Running is wanted: ring:0 is not read by/,
      )
      assert.is(held.data.number, 3)
      assert.equal(
        commandsOf(nfv).filter((c) => c !== 'status'),
        ['add ring:0', 'patch phy:0 ring:0'],
      )
      const drift = (await h.api('GET', '/v1/topology/drift')).json() as {
        nfvs: Record<string, { steps: { action: string }[] }>
      }
      assert.equal(
        drift.nfvs['1']!.steps.map((s) => s.action),
        ['forward.start'],
      )
    },
    { commandTimeoutMs: 5000 },
  ))

test('a reader that does not come back is waited for no longer than a connection takes', () =>
  withRemembering(
    PRIMARY_NFV_VF,
    async (h) => {
      await configure(h)
      await stop(h, h.sim('vf 2'))
      const nfv = await h.restart(h.sim('nfv 1'))
      await ended(h, 'restore.done', 'nfv:1')
      assert.equal(
        commandsOf(nfv).filter((c) => c !== 'status'),
        ['add ring:0', 'patch phy:0 ring:0', 'forward'],
      )
    },
    { commandTimeoutMs: 500 },
  ))

test('a chain of three restarted: each waits for the next, the last first', () =>
  withRemembering(
    [...PRIMARY_NFV_VF, { kind: 'mirror', clientId: 3 }],
    async (h) => {
      await configure(h)
      for (const [method, path, body] of [
        ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'detach', port: 'phy:1', dir: 'tx' }],
        ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'ring:1', dir: 'tx' }],
        ['POST', '/v1/mirrors/3/components', { name: 'mr1', core: 2, type: 'mirror' }],
        [
          'PUT',
          '/v1/mirrors/3/components/mr1/ports',
          { action: 'attach', port: 'vhost:0', dir: 'tx' },
        ],
        [
          'PUT',
          '/v1/mirrors/3/components/mr1/ports',
          { action: 'attach', port: 'ring:1', dir: 'rx' },
        ],
      ] as const) {
        const r = await h.api(method, path, body)
        assert.is(r.status, 204, `${method} ${path}: ${r.text}`)
      }
      // The mirror is gone; the vf comes back and waits for it; then the nfv comes back, and
      // waits for the vf, which itself waits.
      await stop(h, h.sim('mirror 3'))
      const arrived: string[] = []
      const record = (name: string, sim: SimProcess) => {
        arrived.push(
          ...commandsOf(sim)
            .filter((c) => c !== 'status')
            .map((c) => `${name} ${c}`),
        )
        sim.on('command', (line) => line !== 'status' && arrived.push(`${name} ${line}`))
      }
      const vf = await h.restart(h.sim('vf 2'))
      record('vf:2', vf)
      await received(vf, 'component start fwd1 2 forward')
      const nfv = await h.restart(h.sim('nfv 1'))
      record('nfv:1', nfv)
      await received(nfv, 'patch phy:0 ring:0')
      const [mirror] = await h.connect([{ kind: 'mirror', clientId: 3 }])
      record('mirror:3', mirror!)
      for (const process of ['mirror:3', 'vf:2', 'nfv:1']) await ended(h, 'restore.done', process)
      assert.equal(arrived, [
        'vf:2 component start fwd1 2 forward',
        'nfv:1 add ring:0',
        'nfv:1 patch phy:0 ring:0',
        'mirror:3 component start mr1 2 mirror',
        'mirror:3 port add vhost:0 tx mr1',
        'mirror:3 port add ring:1 rx mr1',
        'vf:2 port add ring:1 tx fwd1',
        'vf:2 port add ring:0 rx fwd1',
        'nfv:1 forward',
      ])
    },
    { commandTimeoutMs: 5000 },
  ))

test('two processes feeding each other in a loop, restarted together, are both restored', () =>
  withRemembering(
    PRIMARY_NFV_VF,
    async (h) => {
      for (const [method, path, body] of [
        ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' }],
        ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:1' }],
        ['PUT', '/v1/nfvs/1/patches', { src: 'ring:1', dst: 'ring:0' }],
        ['PUT', '/v1/nfvs/1/forward', { action: 'start' }],
        ['POST', '/v1/vfs/2/components', { name: 'fwd1', core: 2, type: 'forward' }],
        ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'ring:1', dir: 'tx' }],
        ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'ring:0', dir: 'rx' }],
      ] as const) {
        const r = await h.api(method, path, body)
        assert.is(r.status, 204, `${method} ${path}: ${r.text}`)
      }
      await stop(h, h.sim('vf 2'))
      const nfv = await h.restart(h.sim('nfv 1'))
      await received(nfv, 'patch ring:1 ring:0')
      await h.connect([{ kind: 'vf', clientId: 2 }])
      await ended(h, 'restore.done', 'vf:2')
      await ended(h, 'restore.done', 'nfv:1')
      assert.ok(nfv.received.includes('forward'))
    },
    { commandTimeoutMs: 5000 },
  ))

test.run()
