// All or nothing over loopback: a step the vf refuses undoes the steps done (every process's), the
// answer and the events say so; keep_partial keeps them; what cannot be undone drifts.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { SimProcess } from '../../src/sim/sim-process.ts'
import { withHarness, type Harness } from '../helpers/harness.ts'
import { withRemembering } from '../helpers/remember.ts'
import { watchEvents } from '../helpers/watch-events.ts'
import { configuration, PRIMARY_NFV_VF } from '../helpers/chain.ts'

/** The live configuration, as `topology get` prints it. */

/**
 * vf 2 runs f (forward, rx ring:1) and holds a classifier entry on ring:1 that it registered but
 * does not show (no classifier sends to ring:1 yet): an add of another there is refused.
 */
async function vfWithHiddenEntry(h: Harness) {
  for (const [method, path, body] of [
    ['POST', '/v1/vfs/2/components', { name: 'f', core: 3, type: 'forward' }],
    ['PUT', '/v1/vfs/2/components/f/ports', { action: 'attach', port: 'ring:1', dir: 'rx' }],
    [
      'PUT',
      '/v1/vfs/2/classifier_table',
      { action: 'add', type: 'mac', mac_address: 'default', port: 'ring:1' },
    ],
  ] as const)
    assert.is((await h.api(method, path, body)).status, 204, path)
}

/** nfv 1 gains a ring and a patch; vf 2 swaps f for a classifier whose entry it refuses (step 5). */
const REFUSED = {
  nfvs: {
    '1': { ports: ['phy:0', 'phy:1', 'ring:0'], patches: [{ src: 'phy:0', dst: 'ring:0' }] },
  },
  vfs: {
    '2': {
      components: [{ name: 'c', core: 2, type: 'classifier_mac', tx_port: [{ port: 'ring:1' }] }],
      classifier_table: [{ type: 'mac', value: '00:00:00:00:00:0A', port: 'ring:1' }],
    },
  },
}

type Step = { number: number; action: string; path: string }
type Failure = {
  failed: Step & { status: number; error: string }
  done: Step[]
  undone?: Step[]
  not_undone?: { process: string; reason: string }[]
}

test('a refused step undoes the steps done, in reverse, every process: the answer and events say so', () =>
  withHarness(PRIMARY_NFV_VF, async (h) => {
    await vfWithHiddenEntry(h)
    const before = await configuration(h)
    const events = watchEvents(h.controller.hub)
    try {
      const r = await h.api('POST', '/v1/topology/apply', REFUSED, { 'X-Request-Id': 'a1' })
      assert.is(r.status, 400, r.text)
      const { failed, done, undone, not_undone } = r.json() as Failure
      assert.equal([failed.number, failed.path], [5, '/v1/vfs/2/classifier_table'])
      assert.is(failed.error, 'command error: bad value(port)')
      assert.equal(
        done.map((s) => s.action),
        [
          'port.detach',
          'component.stop',
          'component.start',
          'port.attach',
          'port.add',
          'patch.set',
        ],
      )
      assert.equal(not_undone, [])
      // The nfv's patch and port go, c goes, f comes back with its port.
      const actions = undone!.map((s) => `${s.action} ${s.path}`)
      for (const action of [
        'patches.reset /v1/nfvs/1/patches',
        'port.del /v1/nfvs/1/ports',
        'port.detach /v1/vfs/2/components/c/ports',
        'component.stop /v1/vfs/2/components/c',
        'component.start /v1/vfs/2/components',
        'port.attach /v1/vfs/2/components/f/ports',
      ])
        assert.ok(actions.includes(action), `${action} in ${actions.join(', ')}`)
      assert.equal(await configuration(h), before)
      await events.until((e) => e.type === 'apply.undone', 'apply.undone')
      const told = events.seen.filter((e) => e.type.startsWith('apply.'))
      const at = (type: string) => told.findIndex((e) => e.type === type)
      assert.ok(at('apply.failed') < at('apply.undoing'), 'undoing after the failure')
      assert.ok(at('apply.undoing') < at('apply.undone'))
      assert.equal(told[at('apply.undoing')]!.data, {
        apply: 'a1',
        reason: 'failed',
        total: undone!.length,
      })
      const undoSteps = told.filter((e) => e.type === 'apply.step' && e.data.undo === true)
      assert.is(undoSteps.length, undone!.length)
      assert.ok(undoSteps.every((e) => e.data.apply === 'a1' && e.data.outcome === 'done'))
      assert.equal(told[at('apply.undone')]!.data.not_undone, [])
    } finally {
      events.stop()
    }
  }))

test('keep_partial=true leaves the steps done as they are, and undoes nothing', () =>
  withHarness(PRIMARY_NFV_VF, async (h) => {
    await vfWithHiddenEntry(h)
    const before = await configuration(h)
    const r = await h.api('POST', '/v1/topology/apply?keep_partial=true', REFUSED)
    assert.is(r.status, 400, r.text)
    const body = r.json() as Failure
    assert.is(body.done.length, 6)
    assert.is(body.undone, undefined)
    assert.is(body.not_undone, undefined)
    const after = await configuration(h)
    assert.not.equal(after, before)
    assert.equal(after.nfvs['1'], {
      status: 'Idle',
      ports: ['phy:0', 'phy:1', 'ring:0'],
      patches: [{ src: 'phy:0', dst: 'ring:0' }],
    })
    for (const [query, text] of [
      ['keep_partial=yes', /^invalid key\(query\.keep_partial\)/],
      ['confirm_within=0', /^invalid key\(query\.confirm_within\)/],
      ['confirm_within=86401', /^invalid key\(query\.confirm_within\)/],
      ['force=true', /^unknown key|not a parameter of an apply/],
    ] as const) {
      const bad = await h.api('POST', `/v1/topology/apply?${query}`, REFUSED)
      assert.is(bad.status, 400, query)
      assert.match(bad.text, text)
    }
  }))

/** Closes the vf's connection when it is sent a command that starts with `prefix`. */
function closeOn(vf: SimProcess, prefix: string) {
  const onCommand = (line: string) => {
    if (!line.startsWith(prefix)) return
    vf.off('command', onCommand)
    vf.faults = { closeAt: vf.received.length - 1 } // this very command
  }
  vf.on('command', onCommand)
}

test('a process that cannot be brought back is named, remembered as it was, and drifts until restored', () =>
  withRemembering(PRIMARY_NFV_VF, async (h) => {
    assert.is(
      (await h.api('POST', '/v1/vfs/2/components', { name: 'f', core: 3, type: 'forward' })).status,
      204,
    )
    const before = await configuration(h)
    const desired = {
      nfvs: { '1': { ports: ['phy:0', 'phy:1', 'ring:0'] } },
      vfs: { '2': { components: [{ name: 'g', core: 2, type: 'forward' }] } },
    }
    // The vf stops f, then its connection closes on the start of g: it is gone for the undo.
    const vf = h.sim('vf 2')
    closeOn(vf, 'component start g')
    const r = await h.api('POST', '/v1/topology/apply', desired)
    assert.is(r.status, 500, r.text)
    const { failed, undone, not_undone } = r.json() as Failure
    assert.is(failed.path, '/v1/vfs/2/components')
    assert.equal(
      undone!.map((s) => s.action),
      ['port.del'],
    )
    assert.equal(
      not_undone!.map((n) => n.process),
      ['vf:2'],
    )
    assert.match(
      not_undone![0]!.reason,
      /^vfs\.2: (no vf with client id 2 is connected|vf 2 could)/,
    )
    assert.equal((await configuration(h)).nfvs, before.nfvs)
    // Remembered as it was before: it drifts (not connected), and a fresh vf 2 is restored to it.
    const remembered = (await h.api('GET', '/v1/topology/desired')).json() as typeof before
    assert.equal(remembered.vfs['2'], before.vfs['2'])
    const drift = (await h.api('GET', '/v1/topology/drift')).json() as {
      vfs: Record<string, { refused?: { reason: string } }>
    }
    assert.match(drift.vfs['2']!.refused!.reason, /no vf with client id 2 is connected/)
    const restored = h.events.until((e) => e.type === 'restore.done', 'restore.done')
    await h.connect([{ kind: 'vf', clientId: 2 }])
    await restored
    assert.equal((await configuration(h)).vfs['2'], before.vfs['2'])
  }))

test.run()
