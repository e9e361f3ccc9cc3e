import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { commandsOf, withHarness } from '../helpers/harness.ts'

test('unknown URLs are 404 text/plain; client ids must be integers', () =>
  withHarness([{ kind: 'nfv', clientId: 1 }], async (h) => {
    for (const path of [
      '/v1',
      '/v1/foo',
      '/v2/processes',
      '/v1/nfvs/abc',
      '/v1/nfvs/1.0',
      '/v1/nfvs/01',
      '/v1/nfvs/1/',
      '/v1/nfvs/1/unknown',
      '/index.html', // / is the topology page
    ]) {
      const r = await h.api('GET', path)
      assert.is(r.status, 404, path)
      assert.match(r.type!, /^text\/plain/, path)
      assert.match(r.text, /^Not found: /, path)
    }
    assert.equal(commandsOf(h.sim('nfv 1')), [])
  }))

test('a client id that is not connected, or is of another kind, is a 404 naming it', () =>
  withHarness(
    [
      { kind: 'nfv', clientId: 1 },
      { kind: 'vf', clientId: 2 },
    ],
    async (h) => {
      for (const path of [
        '/v1/nfvs/5',
        '/v1/vfs/1',
        '/v1/mirrors/2',
        '/v1/nfvs/2',
        '/v1/nfvs/-1',
      ]) {
        const r = await h.api('GET', path)
        assert.is(r.status, 404, path)
        assert.match(r.text, /^sec_id -?\d+ not found\.$/)
      }
    },
  ))

test('an unknown client id is 404 whatever the body, even an invalid one', () =>
  withHarness([], async (h) => {
    const r = await h.api('PUT', '/v1/nfvs/3/ports', '{not json')
    assert.is(r.status, 404)
  }))

test('a known path with another method is 405 with an Allow header', () =>
  withHarness([{ kind: 'nfv', clientId: 1 }], async (h) => {
    const cases: [string, string, string][] = [
      ['POST', '/v1/processes', 'GET,HEAD'],
      ['PUT', '/v1/nfvs/1', 'GET,HEAD,DELETE'],
      ['GET', '/v1/nfvs/1/forward', 'PUT'],
      ['POST', '/v1/nfvs/1/patches', 'PUT,DELETE'],
      ['POST', '/v1/vfs/2', 'GET,HEAD,DELETE'],
      ['GET', '/v1/pcaps/2/capture', 'PUT'],
    ]
    for (const [method, path, allow] of cases) {
      const r = await h.api(method, path)
      assert.is(r.status, 405, `${method} ${path}`)
      assert.equal(
        r.headers.get('allow')!.split(',').sort(),
        allow.split(',').sort(),
        `${method} ${path}`,
      )
    }
    assert.equal(commandsOf(h.sim('nfv 1')), [])
  }))

test.run()
