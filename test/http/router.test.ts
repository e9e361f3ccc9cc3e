// The app's router: RegExpRouter for every route it takes, and answers identical to TrieRouter's.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { Result } from 'hono/router'
import { TrieRouter } from 'hono/router/trie-router'
import { SplitRouter } from '../../src/http/router.ts'
import { fakeApp } from '../helpers/fake-app.ts'

const FLOW_RULE = '/v1/primary/flow_rules/:rule_id/port_id/:port_id'

/** Each matched route (its index) with its parameters, whatever the router's way of telling them. */
function matched(result: Result<number>) {
  const [found, stash] = result
  return found.map(([route, params]) => {
    const values = Object.entries(params as Record<string, number | string>).map(
      ([name, at]): [string, string | undefined] => [
        name,
        stash ? stash[at as number] : (at as string),
      ],
    )
    return [route, Object.fromEntries(values)] as const
  })
}

/** Paths to ask: each route's with its parameters filled in several ways, and near misses. */
function pathsOf(routes: string[]): string[] {
  const paths = new Set<string>(['/', '/v1', '/v1/', '/nowhere', '/v1/primary/flow_rules/'])
  for (const route of routes) {
    for (const value of ['1', '7', 'port_id', 'ring:0', 'x%20y']) {
      const path = route.replace(/:\w+(\{(?:[^{}]|\{[^{}]*\})*\})?/g, value).replace(/\*$/, 'a/b')
      for (const p of [path, `${path}/`, `${path}/extra`, path.slice(0, path.lastIndexOf('/'))])
        paths.add(p || '/')
    }
  }
  return [...paths]
}

test("the app's routes: RegExpRouter takes all but the flow-rule pair's second", async () => {
  const { app } = await fakeApp([])
  assert.instance(app.router, SplitRouter)
  const { fast, refused } = (app.router as SplitRouter<unknown>).split
  assert.equal(refused, [FLOW_RULE])
  assert.is(fast, app.routes.length - 1)
})

test('every request finds the same routes and parameters as with TrieRouter alone', async () => {
  const { app } = await fakeApp([])
  const split = new SplitRouter<number>()
  const trie = new TrieRouter<number>()
  for (const [i, { method, path }] of app.routes.entries()) {
    split.add(method, path, i)
    trie.add(method, path, i)
  }
  const paths = pathsOf(app.routes.map((r) => r.path))
  const found = new Set<number>()
  for (const method of ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'])
    for (const path of paths) {
      const want = matched(trie.match(method, path))
      assert.equal(matched(split.match(method, path)), want, `${method} ${path}`)
      for (const [i] of want) found.add(i)
    }
  assert.is(found.size, app.routes.length, 'every route was matched by some request')
})

test('a path under a refused route is matched by TrieRouter: both flow-rule DELETEs', () => {
  const router = new SplitRouter<string>()
  router.add('DELETE', '/v1/primary/flow_rules/port_id/:port_id', 'all of a port')
  router.add('DELETE', FLOW_RULE, 'one rule')
  router.add('GET', '/v1/nfvs/:client_id', 'nfv')
  const names = (method: string, path: string) =>
    matched(router.match(method, path) as unknown as Result<number>)
  assert.equal(names('DELETE', '/v1/primary/flow_rules/port_id/3'), [
    ['all of a port', { port_id: '3' }],
  ])
  assert.equal(names('DELETE', '/v1/primary/flow_rules/9/port_id/3'), [
    ['one rule', { rule_id: '9', port_id: '3' }],
  ])
  assert.equal(names('GET', '/v1/nfvs/2'), [['nfv', { client_id: '2' }]])
  assert.equal(router.split.refused, [FLOW_RULE])
})

test.run()
