// The app's router: hono's default, and the REST spec's flow-rule routes it must tell apart.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { Result } from 'hono/router'
import { TrieRouter } from 'hono/router/trie-router'
import { ROUTES } from '../../src/http/routes/all.ts'
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

test("the app's router: hono's RegExpRouter for every path but a flow rule's", async () => {
  const { app } = await fakeApp([])
  assert.is(app.router.name, 'ApiRouter')
  // RegExpRouter's answer carries its parameters apart, in a stash; TrieRouter's has none.
  const [, stash] = app.router.match('PUT', '/v1/nfvs/1/patches')
  assert.ok(Array.isArray(stash), 'a RegExpRouter answer')
  assert.is(app.router.match('DELETE', '/v1/primary/flow_rules/port_id/3')[1], undefined)
  const put = await app.request('/v1/nfvs/1/patches', { method: 'PUT', body: '{}' })
  assert.is(put.status, 404, await put.text()) // no nfv 1 here: the route ran, and found none
})

test('every route is matched as TrieRouter (hono settled on it before) matches it', async () => {
  const { app } = await fakeApp([])
  const trie = new TrieRouter<unknown>()
  // As hono adds each route to its router: the handler with the route it was added with.
  for (const route of app.routes) trie.add(route.method, route.path, [route.handler, route])
  const found = (result: Result<unknown>) =>
    result[0].map(([handler, params]) => [
      handler,
      Object.fromEntries(
        Object.entries(params).map(([name, at]) => [
          name,
          result[1] ? result[1][at as number] : at,
        ]),
      ),
    ])
  for (const route of ROUTES) {
    const method = route.method.toUpperCase()
    const path = route.path.replace(/\{(\w+)\}/g, (_, name) =>
      name === 'client_id' ? '7' : `${name}-1`,
    )
    const ours = found(app.router.match(method, path))
    assert.ok(ours.length > 1, `${method} ${path}: middleware and its route`)
    assert.equal(ours, found(trie.match(method, path)), `${method} ${path}`)
  }
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
