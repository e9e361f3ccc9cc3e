// Revisions and rollback over loopback: a REST change and an apply make one revision each (who,
// what, summary, the document), readable with a read token; a rollback goes back to one as an
// apply would, and is itself a revision that says so.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { digestOf, newToken } from '../../src/auth/clients.ts'
import { configurationOf } from '../../src/topology/configuration.ts'
import type { TopologyDocument } from '../../src/topology/read-topology.ts'
import type { Harness } from '../helpers/harness.ts'
import { withRemembering } from '../helpers/remember.ts'
import { PRIMARY_NFV_VF } from '../helpers/chain.ts'

const WRITE = newToken()
const READ = newToken()
const clients = [
  { name: 'ops', scope: 'write' as const, digest: digestOf(WRITE) },
  { name: 'dash', scope: 'read' as const, digest: digestOf(READ) },
]
const as = (token: string, more: Record<string, string> = {}) => ({
  Authorization: `Bearer ${token}`,
  ...more,
})
const CHAIN = {
  nfvs: {
    '1': { ports: ['phy:0', 'phy:1', 'ring:0'], patches: [{ src: 'phy:0', dst: 'ring:0' }] },
  },
  vfs: {
    '2': {
      components: [
        { name: 'fwd1', core: 2, type: 'forward', rx_port: [{ port: 'ring:0' }] },
        { name: 'fwd2', core: 3, type: 'forward' },
      ],
    },
  },
}
type Revision = {
  rev: number
  time: string
  by: string
  request_id: string
  what: string
  to?: number
  summary: Record<string, number>
}

const read = async (h: Harness, path: string) => {
  const r = await h.api('GET', path, undefined, as(READ))
  assert.is(r.status, 200, `${path}: ${r.text}`)
  return r.json()
}
const configuration = async (h: Harness) =>
  configurationOf((await read(h, '/v1/topology')) as TopologyDocument)

test('a REST change and an apply make one revision each, with who, what, summary and document', () =>
  withRemembering(
    PRIMARY_NFV_VF,
    async (h) => {
      const fwd = { name: 'fwd9', core: 4, type: 'forward' }
      assert.is((await h.api('POST', '/v1/vfs/2/components', fwd, as(WRITE))).status, 204)
      const first = await read(h, '/v1/topology/desired')
      const planned = (await h.api('POST', '/v1/topology/plan', CHAIN, as(WRITE))).json() as {
        summary: object
      }
      const applied = await h.api(
        'POST',
        '/v1/topology/apply',
        CHAIN,
        as(WRITE, { 'X-Request-Id': 'ap-1' }),
      )
      assert.is(applied.status, 200, applied.text)
      const history = (await read(h, '/v1/topology/history')) as Revision[]
      assert.equal(
        history.map(({ rev, by, request_id, what, summary }) => ({
          rev,
          by,
          request_id,
          what,
          summary,
        })),
        [
          { rev: 2, by: 'ops', request_id: 'ap-1', what: 'apply', summary: planned.summary },
          {
            rev: 1,
            by: 'ops',
            request_id: history[1]!.request_id,
            what: 'change',
            summary: { 'component.start': 1 },
          },
        ],
      )
      assert.match(history[0]!.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      assert.equal(await read(h, '/v1/topology/history/1'), first)
      assert.equal(await read(h, '/v1/topology/history/2'), await read(h, '/v1/topology/desired'))
      assert.equal(
        ((await read(h, '/v1/topology/history?limit=1')) as Revision[]).map((r) => r.rev),
        [2],
      )
      for (const path of ['/v1/topology/history/3', '/v1/topology/history/x']) {
        const missing = await h.api('GET', path, undefined, as(READ))
        assert.is(missing.status, 404, path)
        assert.match(missing.text, /^no revision \w+ is kept\n$/)
      }
      const bad = await h.api('GET', '/v1/topology/history?limit=0', undefined, as(READ))
      assert.is(bad.status, 400)
      // Reading needs a token of scope read; rolling back, one of scope write.
      assert.is((await h.api('GET', '/v1/topology/history')).status, 401)
      const refused = await h.api('POST', '/v1/topology/rollback', { to: 1 }, as(READ))
      assert.is(refused.status, 403)
    },
    { clients },
  ))

test('a rollback applies the revision as apply does, If-Match and all, and is a revision of its own', () =>
  withRemembering(PRIMARY_NFV_VF, async (h) => {
    // Revisions 1 and 2: each process is remembered from its first change.
    const fwd = { name: 'fwd9', core: 4, type: 'forward' }
    assert.is((await h.api('POST', '/v1/vfs/2/components', fwd)).status, 204)
    assert.is((await h.api('PUT', '/v1/nfvs/1/forward', { action: 'start' })).status, 204)
    const at2 = await configuration(h)
    assert.is((await h.api('POST', '/v1/topology/apply', CHAIN)).status, 200)
    const applied = await configuration(h)
    assert.not.equal(applied, at2)

    const stale = await h.api('POST', '/v1/topology/rollback', { to: 2 }, { 'If-Match': '"x"' })
    assert.is(stale.status, 412)
    assert.equal(await configuration(h), applied)
    const missing = await h.api('POST', '/v1/topology/rollback', { to: 9 })
    assert.equal([missing.status, missing.text], [404, 'no revision 9 is kept\n'])
    const invalid = await h.api('POST', '/v1/topology/rollback', { to: 'one' })
    assert.is(invalid.status, 400)

    const etag = (await h.api('GET', '/v1/topology')).headers.get('etag')!
    const done = h.events.until((e) => e.type === 'apply.done' && e.data.apply === 'rb-1', 'done')
    const back = await h.api(
      'POST',
      '/v1/topology/rollback',
      { to: 2 },
      { 'If-Match': etag, 'X-Request-Id': 'rb-1' },
    )
    assert.is(back.status, 200, back.text)
    await done
    const steps = h.events.seen.filter((e) => e.type === 'apply.step' && e.data.apply === 'rb-1')
    assert.is(steps.length, (back.json() as { done: unknown[] }).done.length)
    assert.equal(await configuration(h), at2)
    const [newest] = (await (
      await h.api('GET', '/v1/topology/history?limit=1')
    ).json()) as Revision[]
    assert.equal(
      [newest!.rev, newest!.what, newest!.to, newest!.request_id],
      [4, 'rollback', 2, 'rb-1'],
    )
    assert.equal(
      (await h.api('GET', '/v1/topology/history/4')).json(),
      (await h.api('GET', '/v1/topology/history/2')).json(),
    )
    // Going back to where it is already: no step, no revision.
    const again = await h.api('POST', '/v1/topology/rollback', { to: 4 })
    assert.equal(again.json(), { done: [], summary: {}, ms: (again.json() as { ms: number }).ms })
    assert.is(((await h.api('GET', '/v1/topology/history')).json() as Revision[]).length, 4)
  }))

test('without a state directory there is no history to read or roll back to', async () => {
  const { withHarness } = await import('../helpers/harness.ts')
  await withHarness(PRIMARY_NFV_VF, async (h) => {
    for (const [method, path, body] of [
      ['GET', '/v1/topology/history', undefined],
      ['GET', '/v1/topology/history/1', undefined],
      ['POST', '/v1/topology/rollback', { to: 1 }],
    ] as const) {
      const r = await h.api(method, path, body)
      assert.is(r.status, 404, path)
      assert.match(r.text, /--state-dir none/)
    }
  })
})

test.run()
