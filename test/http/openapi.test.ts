// GET /openapi.json (over a loopback socket) against the routes the app really has (both ways), and
// the files of the pages.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { Validator } from '@seriousme/openapi-schema-validator'
import { OPERATIONS } from '../../src/http/openapi.ts'
import { CONTENT_SECURITY_POLICY, UI_PATHS } from '../../src/http/ui-routes.ts'
import { withFakeApp, type ServedFakeApp } from '../helpers/fake-app.ts'

type Document = {
  openapi: string
  paths: Record<string, Record<string, Operation>>
}
type Operation = {
  parameters?: { name: string; in: string; schema: { type?: string } }[]
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> }
  responses: Record<string, unknown>
}
/** hono's `/v1/nfvs/:client_id{-?(?:0|...)}/ports` in OpenAPI's syntax: `/v1/nfvs/{client_id}/ports`. */
const openApiPath = (path: string) => path.replace(/:(\w+)(?:\{[^/]*\})?/g, '{$1}')
/** Static files of the pages: not operations (the pages themselves, / and /docs, are). */
const ASSETS = new Set(UI_PATHS.filter((path) => path !== '/' && path !== '/docs'))

/** Runs `body` with the app served, and its document as GET /openapi.json answers it. */
const withDocument = (body: (served: ServedFakeApp & { doc: Document }) => Promise<void> | void) =>
  withFakeApp([], async (served) => {
    const r = await served.request('GET', '/openapi.json')
    assert.is(r.status, 200)
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/)
    await body({ ...served, doc: JSON.parse(r.text) as Document })
  })

test('the document names every route the app serves, and only those', () =>
  withDocument(({ app, doc }) => {
    assert.is(doc.openapi, '3.1.0')
    const documented = Object.entries(doc.paths)
      .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`))
      .sort()
    const routes = app.routes
      .filter((route) => route.method !== 'ALL' && !ASSETS.has(route.path))
      .map((route) => `${route.method} ${openApiPath(route.path)}`)
    assert.equal(documented, [...new Set(routes)].sort())
    assert.is(documented.length, OPERATIONS.length)
  }))

test('the document is valid OpenAPI 3.1, checked by a validator of the official schema', () =>
  withDocument(async ({ doc }) => {
    const validator = new Validator()
    const result = await validator.validate(doc)
    const errors = result.errors ?? []
    const where =
      typeof errors === 'string' ? [errors] : errors.map((e) => `${e.instancePath}: ${e.message}`)
    assert.equal(where.slice(0, 5), [])
    assert.ok(result.valid)
    assert.is(validator.version, '3.1')
  }))

test('parameters, bodies and errors come from the schemas the routes validate with', () =>
  withDocument(({ doc }) => {
    const patch = doc.paths['/v1/nfvs/{client_id}/patches']!.put!
    assert.equal(patch.parameters, [
      {
        name: 'client_id',
        in: 'path',
        required: true,
        schema: { type: 'integer' },
        description: 'the client id of the process',
      },
    ])
    const body = patch.requestBody!.content['application/json']!.schema as {
      required: string[]
      properties: Record<string, { pattern: string }>
    }
    assert.equal(body.required, ['src', 'dst'])
    assert.match(body.properties.src!.pattern, /phy\|ring\|vhost\|pcap\|nullpmd/)
    assert.equal(Object.keys(patch.responses).sort(), ['204', '400', '404', '413', '500'])
    const name = doc.paths['/v1/vfs/{client_id}/components/{name}']!.delete!.parameters![1]!
    assert.equal([name.name, name.schema.type], ['name', 'string'])
    const nfv = doc.paths['/v1/nfvs/{client_id}']!.get!.responses['200'] as {
      content: { 'application/json': { schema: { properties: Record<string, unknown> } } }
    }
    assert.equal(Object.keys(nfv.content['application/json'].schema.properties), [
      'client-id',
      'status',
      'master-lcore',
      'lcores',
      'ports',
      'patches',
    ])
  }))

test('the undo routes: history with its limit and revision, rollback and apply with their query, confirm', () =>
  withDocument(({ doc }) => {
    const names = (operation: Operation) => operation.parameters!.map((p) => `${p.in} ${p.name}`)
    const topology = '/v1/topology'
    assert.equal(names(doc.paths[`${topology}/history`]!.get!), ['query limit'])
    const revision = doc.paths[`${topology}/history/{rev}`]!.get!
    assert.equal(names(revision), ['path rev'])
    assert.equal(Object.keys(revision.responses).sort(), ['200', '404'])
    for (const path of [`${topology}/apply`, `${topology}/rollback`])
      assert.equal(names(doc.paths[path]!.post!), ['query keep_partial', 'query confirm_within'])
    const rollback = doc.paths[`${topology}/rollback`]!.post!
    const body = rollback.requestBody!.content['application/json']!.schema
    assert.equal(body.required, ['to'])
    assert.equal(Object.keys(rollback.responses).sort(), [
      ...['200', '400', '404', '409', '412', '413', '422', '500'],
    ])
    assert.ok(doc.paths[`${topology}/confirm`]!.post!.responses['409'])
  }))

test('the pages and their files are served with a same-origin Content-Security-Policy', () =>
  withDocument(async ({ request }) => {
    assert.match(CONTENT_SECURITY_POLICY, /^default-src 'self';/)
    for (const path of UI_PATHS) {
      const r = await request('GET', path)
      assert.is(r.status, 200, path)
      assert.is(r.headers.get('content-security-policy'), CONTENT_SECURITY_POLICY, path)
      const type = r.headers.get('content-type') ?? ''
      assert.match(type, path.endsWith('css') ? /^text\/css/ : /^text\/(html|javascript)/, path)
    }
    for (const path of ['/ui/', '/ui/../package.json', '/ui/vendor/dagre.js', '/docs/index.html'])
      assert.is((await request('GET', path)).status, 404, path)
  }))

test.run()
