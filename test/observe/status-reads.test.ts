// Shared status reads against simulated processes, on a clock the test moves: how many commands
// each process receives for many readers, and what makes a read stale before its time.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { StatusReads } from '../../src/observe/status-reads.ts'
import { PRIMARY, processId } from '../../src/protocol/process-id.ts'
import { commandsOf, withHarness, type Harness } from '../helpers/harness.ts'

const statuses = (h: Harness, label: string) =>
  commandsOf(h.sim(label)).filter((line) => line === 'status').length

/** Shared reads over the harness's registry, at `clock.now`. */
function readsOf(h: Harness, maxAgeMs = 1000) {
  const clock = { now: 0 }
  const reads = new StatusReads(h.controller.registry, { maxAgeMs, now: () => clock.now })
  const read = (kind: 'primary' | 'nfv' | 'vf', clientId?: number) =>
    reads.read(h.controller.registry.find(kind === 'primary' ? PRIMARY : processId(kind, clientId)))
  return { clock, reads, read }
}

test('concurrent readers share one status read per process; within the bound it answers again', () =>
  withHarness(
    [{ kind: 'primary' }, { kind: 'nfv', clientId: 1 }, { kind: 'vf', clientId: 2 }],
    async (h) => {
      const { clock, read } = readsOf(h)
      const all = () =>
        Promise.all(
          Array.from({ length: 20 }, () => [read('primary'), read('nfv', 1), read('vf', 2)]).flat(),
        )
      const first = await all()
      assert.equal([statuses(h, 'primary'), statuses(h, 'nfv 1'), statuses(h, 'vf 2')], [1, 1, 1])
      assert.is(first[1]!.at, 0, 'answered at the clock of its reply')
      clock.now = 999
      const again = await all()
      assert.equal([statuses(h, 'primary'), statuses(h, 'nfv 1'), statuses(h, 'vf 2')], [1, 1, 1])
      assert.is(again[1], first[1], 'the same read')
      clock.now = 1000
      await all()
      assert.equal([statuses(h, 'primary'), statuses(h, 'nfv 1'), statuses(h, 'vf 2')], [2, 2, 2])
    },
  ))

test('a bound of 0 reads for every reader that comes after a read was answered', () =>
  withHarness([{ kind: 'nfv', clientId: 1 }], async (h) => {
    const { read } = readsOf(h, 0)
    await Promise.all([read('nfv', 1), read('nfv', 1)])
    await read('nfv', 1)
    assert.is(statuses(h, 'nfv 1'), 2)
  }))

test("a caller that needs a newer read than the bound gets one (the rates' tick); others share it", () =>
  withHarness([{ kind: 'primary' }], async (h) => {
    const { clock, reads, read } = readsOf(h)
    const primary = h.controller.registry.find(PRIMARY)
    const first = await read('primary')
    clock.now = 10
    const newer = await reads.read(primary, undefined, 0)
    assert.is(statuses(h, 'primary'), 2, 'read anew although the last read is within the bound')
    assert.is.not(newer, first)
    assert.is(await read('primary'), newer, 'the bound readers share the newer read')
    assert.is(statuses(h, 'primary'), 2)
  }))

test('a change to any process forgets every read: the next reader sees it at once', () =>
  withHarness(
    [
      { kind: 'nfv', clientId: 1 },
      { kind: 'nfv', clientId: 2 },
    ],
    async (h) => {
      const { read } = readsOf(h)
      await Promise.all([read('nfv', 1), read('nfv', 2)])
      const added = await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:3' })
      assert.is(added.status, 204)
      const after = await read('nfv', 1)
      assert.ok((after.body as { ports: string[] }).ports.includes('ring:3'))
      await read('nfv', 2)
      assert.equal([statuses(h, 'nfv 1'), statuses(h, 'nfv 2')], [2, 2])
    },
  ))

test('a read that shows nothing new keeps the body read before; a failure reaches every waiter', () =>
  withHarness(
    [
      { kind: 'nfv', clientId: 1 },
      { kind: 'nfv', clientId: 2 },
    ],
    async (h) => {
      const { clock, read } = readsOf(h)
      const first = await read('nfv', 1)
      clock.now = 1000
      await read('nfv', 2) // another nfv's reply between: the decoder's own memory has moved on
      const second = await read('nfv', 1)
      assert.is.not(second, first, 'read again')
      assert.is(second.at, 1000)
      assert.is(second.body, first.body, 'the same object: what was built from it stays good')
      h.sim('nfv 1').faults = { silentAt: commandsOf(h.sim('nfv 1')).length + 1 }
      clock.now = 2000
      const failed = await Promise.allSettled([read('nfv', 1), read('nfv', 1)])
      assert.equal(
        failed.map((f) => f.status === 'rejected' && /no reply/.test(String(f.reason))),
        [true, true],
      )
      assert.is(statuses(h, 'nfv 1'), 3)
    },
    { commandTimeoutMs: 300 },
  ))

test.run()
