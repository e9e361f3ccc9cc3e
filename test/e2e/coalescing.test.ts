import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { commandsOf, withHarness } from '../helpers/harness.ts'

test('64 concurrent status requests cost the process one status command, and all are answered', () =>
  withHarness(
    [
      { kind: 'nfv', clientId: 1 },
      { kind: 'vf', clientId: 2 },
    ],
    async (h) => {
      for (const [path, label] of [
        ['/v1/nfvs/1', 'nfv 1'],
        ['/v1/vfs/2', 'vf 2'],
      ] as const) {
        // Issued at once over the API's socket: the first read is sent, the other 63 share it.
        const responses = await Promise.all(Array.from({ length: 64 }, () => h.api('GET', path)))
        assert.equal([...new Set(responses.map((r) => r.status))], [200])
        assert.equal(commandsOf(h.sim(label)), ['status'])
      }
    },
  ))

test('a status that starts after a mutation has finished always sees it', () =>
  withHarness([{ kind: 'nfv', clientId: 1 }], async (h) => {
    const polling = Array.from({ length: 20 }, () => h.api('GET', '/v1/nfvs/1'))
    assert.is(
      (await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:3' })).status,
      204,
    )
    const after = await h.api('GET', '/v1/nfvs/1')
    assert.ok((after.json() as { ports: string[] }).ports.includes('ring:3'))
    for (const r of await Promise.all(polling)) assert.is(r.status, 200)
    const sent = commandsOf(h.sim('nfv 1'))
    assert.ok(
      sent.filter((c) => c === 'status').length < 21,
      `${sent.length} commands for 21 status requests`,
    )
  }))

test('GET /v1/processes never touches a process', () =>
  withHarness([{ kind: 'nfv', clientId: 1 }], async (h) => {
    await Promise.all(Array.from({ length: 50 }, () => h.api('GET', '/v1/processes')))
    assert.equal(commandsOf(h.sim('nfv 1')), [])
  }))

test.run()
