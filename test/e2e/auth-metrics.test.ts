// spp_http_auth_refused_total over real sockets: each refusal counted by why, nothing else counted.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { digestOf, newToken, type Client } from '../../src/auth/clients.ts'
import { withHarness, type Harness } from '../helpers/harness.ts'

const WRITE = newToken()
const READ = newToken()
const clients: Client[] = [
  { name: 'ops', scope: 'write', digest: digestOf(WRITE) },
  { name: 'dash', scope: 'read', digest: digestOf(READ) },
]
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` })

/** The counter's value per code, as GET /metrics shows it. */
async function refused(h: Harness) {
  const { text } = await h.api('GET', '/metrics', undefined, bearer(READ))
  const counts: Record<string, number> = {}
  for (const [, code, value] of text.matchAll(
    /^spp_http_auth_refused_total\{code="(\w+)"\} (\d+)$/gm,
  ))
    counts[code!] = Number(value)
  return counts
}

test('each refusal is counted by its code; public pages, good tokens and apply steps are not', () =>
  withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    async (h) => {
      const zero = { TOKEN_MISSING: 0, TOKEN_UNKNOWN: 0, SCOPE_MISSING: 0 }
      assert.equal(await refused(h), zero, 'every series is there from the start')
      for (const headers of [
        undefined,
        undefined,
        bearer(newToken()),
        { Authorization: 'Basic x' },
      ])
        assert.is((await h.api('GET', '/v1/nfvs/1', undefined, headers)).status, 401)
      assert.is((await h.api('PUT', '/v1/nfvs/1/forward', {}, bearer(READ))).status, 403)
      assert.is((await h.api('GET', '/')).status, 200)
      assert.is((await h.api('GET', '/v1/nfvs/1', undefined, bearer(READ))).status, 200)
      const desired = { nfvs: { '1': { status: 'Running' } } }
      const applied = await h.api('POST', '/v1/topology/apply', desired, bearer(WRITE))
      assert.is(applied.status, 200, applied.text)
      assert.equal(await refused(h), { TOKEN_MISSING: 3, TOKEN_UNKNOWN: 1, SCOPE_MISSING: 1 })
    },
    { clients },
  ))

test('--allow-read-anonymous: a GET without a token is no refusal; a write without one is', () =>
  withHarness(
    [{ kind: 'nfv', clientId: 1 }],
    async (h) => {
      assert.is((await h.api('GET', '/v1/nfvs/1')).status, 200)
      assert.is((await h.api('PUT', '/v1/nfvs/1/forward', {})).status, 401)
      assert.equal(await refused(h), { TOKEN_MISSING: 1, TOKEN_UNKNOWN: 0, SCOPE_MISSING: 0 })
    },
    { clients, allowReadAnonymous: true },
  ))

test.run()
