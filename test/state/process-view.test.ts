// The primary's view after each command, and nextView's dispatch by kind: a typed failure, never a throw.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { PrimaryStatus } from '../../src/protocol/bodies.ts'
import { emptyView, nextView, type ProcessView } from '../../src/state/process-view.ts'

const status: PrimaryStatus = {
  phy_ports: [{ id: 0, eth: '56:48:4f:53:54:00', rx: 5, tx: 6, tx_drop: 1 }],
  ring_ports: [{ id: 0, rx: 7, rx_drop: 2, tx: 8, tx_drop: 3 }],
}
const zeroed: PrimaryStatus = {
  phy_ports: [{ id: 0, eth: '56:48:4f:53:54:00', rx: 0, tx: 0, tx_drop: 0 }],
  ring_ports: [{ id: 0, rx: 0, rx_drop: 0, tx: 0, tx_drop: 0 }],
}

test('a primary read keeps the status and when it was read', () => {
  assert.equal(
    nextView(
      emptyView('primary'),
      { kind: 'primary.read', status, shows: { release: '18.11' } as const },
      1234,
    ),
    {
      ok: true,
      value: { kind: 'primary', status, readAt: 1234 },
    },
  )
})

test('clear zeroes every counter and keeps the rest (ids, eth, when read)', () => {
  const view: ProcessView = { kind: 'primary', status, readAt: 1 }
  assert.equal(nextView(view, { kind: 'primary.clear' }, 99), {
    ok: true,
    value: { kind: 'primary', status: zeroed, readAt: 1 },
  })
  assert.is(status.phy_ports[0]!.rx, 5, 'the old status is not changed')
})

test('clear before any read: nothing to zero', () => {
  assert.equal(nextView(emptyView('primary'), { kind: 'primary.clear' }, 1), {
    ok: true,
    value: { kind: 'primary' },
  })
})

test('exit leaves every kind of view as it was', () => {
  for (const kind of ['primary', 'nfv', 'vf', 'mirror'] as const) {
    const view = emptyView(kind)
    assert.equal(nextView(view, { kind: 'exit' }, 1), { ok: true, value: view })
  }
})

test('each kind is dispatched to its own view', () => {
  assert.equal(nextView(emptyView('nfv'), { kind: 'nfv.forward' }, 1), {
    ok: true,
    value: { kind: 'nfv', status: 'Running' },
  })
  assert.equal(nextView(emptyView('mirror'), { kind: 'component.stop', name: 'x' }, 1), {
    ok: true,
    value: { kind: 'mirror' },
  })
})

test('an effect another kind of process has is an INTERNAL failure naming both', () => {
  const cases: [ProcessView, Parameters<typeof nextView>[1], string][] = [
    [emptyView('primary'), { kind: 'nfv.forward' }, 'a primary cannot nfv.forward'],
    [emptyView('nfv'), { kind: 'primary.clear' }, 'a nfv cannot primary.clear'],
    [emptyView('vf'), { kind: 'port.add', port: 'ring:0' }, 'a vf cannot port.add'],
    [
      emptyView('mirror'),
      { kind: 'classifier.add', type: 'mac', mac: 'default', port: 'ring:0' },
      'a mirror cannot classifier.add',
    ],
  ]
  for (const [view, effect, message] of cases) {
    assert.equal(nextView(view, effect, 1), { ok: false, code: 'INTERNAL', message })
  }
})

test.run()
