import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { withHarness } from '../helpers/harness.ts'

const ALL = [
  { kind: 'primary' as const },
  { kind: 'nfv' as const, clientId: 1 },
  { kind: 'vf' as const, clientId: 2 },
  { kind: 'mirror' as const, clientId: 3 },
]

test('GET /v1/topology holds what each process answers on its own endpoint, keyed by client id', () =>
  withHarness(ALL, async (h) => {
    await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' })
    await h.api('PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:0' })
    const r = await h.api('GET', '/v1/topology')
    assert.is(r.status, 200)
    assert.match(r.type!, /^application\/json/)
    const doc = r.json() as Record<string, Record<string, unknown>>
    assert.equal(Object.keys(doc), ['primary', 'nfvs', 'vfs', 'mirrors', 'verdicts'])
    assert.equal(doc.nfvs, { '1': (await h.api('GET', '/v1/nfvs/1')).json() })
    assert.equal(doc.vfs, { '2': (await h.api('GET', '/v1/vfs/2')).json() })
    assert.equal(doc.mirrors, { '3': (await h.api('GET', '/v1/mirrors/3')).json() })
    assert.equal(Object.keys(doc.primary!), ['phy_ports', 'ring_ports', 'simulator'])
  }))

test('a kind with no process is an empty object; one status per process', () =>
  withHarness([{ kind: 'nfv', clientId: 4 }], async (h) => {
    const r = await h.api('GET', '/v1/topology')
    assert.equal(r.json(), {
      primary: {},
      nfvs: { '4': { 'client-id': 4, status: 'Idle', ports: ['phy:0', 'phy:1'], patches: [] } },
      vfs: {},
      mirrors: {},
      verdicts: [],
    })
    assert.equal(h.sim('nfv 4').received.slice(1), ['status'])
  }))

test('a process that does not answer in time is {"error": ...} and the answer is still 200', () =>
  withHarness(
    [
      { kind: 'nfv', clientId: 1 },
      { kind: 'nfv', clientId: 2 },
    ],
    async (h) => {
      h.sim('nfv 2').faults = { silentAt: 1 }
      const r = await h.api('GET', '/v1/topology')
      assert.is(r.status, 200)
      const doc = r.json() as { nfvs: Record<string, { status?: string; error?: string }> }
      assert.is(doc.nfvs['1']!.status, 'Idle')
      assert.match(doc.nfvs['2']!.error ?? '', /no reply within 300 ms/)
    },
    { commandTimeoutMs: 300 },
  ))

test.run()
