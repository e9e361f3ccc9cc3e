// The app's router: hono's default, and the REST spec's flow-rule routes it must tell apart.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { fakeApp } from '../helpers/fake-app.ts'

/** The parameters of every route (and middleware) a request matches. */
function paramsOf(app: Awaited<ReturnType<typeof fakeApp>>['app'], method: string, path: string) {
  const [found, stash] = app.router.match(method, path)
  return found.map(([, params]) =>
    Object.fromEntries(
      Object.entries(params as Record<string, number | string>).map(([name, at]) => [
        name,
        stash ? stash[at as number] : at,
      ]),
    ),
  )
}

test("hono's SmartRouter settles on TrieRouter: RegExpRouter refuses the flow-rule pair", async () => {
  const { app } = await fakeApp([])
  assert.is(app.router.name, 'SmartRouter')
  await app.request('/v1/processes')
  assert.is(app.router.name, 'SmartRouter + TrieRouter')
})

test('both flow-rule DELETEs find their own route and parameters', async () => {
  const { app } = await fakeApp([])
  const all = paramsOf(app, 'DELETE', '/v1/primary/flow_rules/port_id/3')
  assert.ok(
    all.some((p) => p.port_id === '3' && !('rule_id' in p)),
    JSON.stringify(all),
  )
  assert.not.ok(
    all.some((p) => 'rule_id' in p),
    JSON.stringify(all),
  )
  const one = paramsOf(app, 'DELETE', '/v1/primary/flow_rules/9/port_id/3')
  assert.ok(
    one.some((p) => p.rule_id === '9' && p.port_id === '3'),
    JSON.stringify(one),
  )
  assert.not.ok(
    one.some((p) => !('rule_id' in p) && 'port_id' in p),
    JSON.stringify(one),
  )
})

test.run()
