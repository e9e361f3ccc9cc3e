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
      // SPP's text first, word for word (its CLI and networking-spp read the status); then what
      // there is, on the next line.
      const connected = 'connected: nfv:1, vf:2\n'
      for (const [path, help] of [
        ['/v1/nfvs/5', 'No nfv with client id 5 is connected'],
        ['/v1/vfs/1', 'Client id 1 is nfv:1, not a vf (/v1/nfvs/1)'],
        ['/v1/mirrors/2', 'Client id 2 is vf:2, not a mirror (/v1/vfs/2)'],
        ['/v1/nfvs/2', 'Client id 2 is vf:2, not an nfv (/v1/vfs/2)'],
        ['/v1/nfvs/-1', 'No nfv with client id -1 is connected'],
      ] as const) {
        const r = await h.api('GET', path)
        assert.is(r.status, 404, path)
        const id = /-?\d+$/.exec(path)![0]
        assert.is(r.text, `sec_id ${id} not found.\n${help}; ${connected}`)
      }
      const primary = await h.api('GET', '/v1/primary/status')
      assert.is(primary.text, `primary not found.\nNo primary is connected; ${connected}`)
    },
  ))

test('every text/plain answer ends with a newline, so that curl ends its line', () =>
  withHarness([{ kind: 'nfv', clientId: 1 }], async (h) => {
    for (const [method, path, body, status] of [
      ['GET', '/v1/nowhere', undefined, 404],
      ['GET', '/v1/vfs/9', undefined, 404],
      ['PUT', '/v1/nfvs/1', undefined, 405],
      ['PUT', '/v1/nfvs/1/ports', { action: 'add' }, 400],
      ['PUT', '/v1/nfvs/1/ports', '{not json', 400],
      ['POST', '/v1/topology/plan', { nfvs: { '7': { status: 'Running' } } }, 422],
      ['GET', '/v1/journal', undefined, 404],
      ['PUT', '/v1/nfvs/1/ports', 'x'.repeat(64 * 1024 + 1), 413],
    ] as const) {
      const r = await h.api(method, path, body)
      assert.is(r.status, status, `${method} ${path}: ${r.text}`)
      assert.match(r.type!, /^text\/plain/, path)
      assert.match(r.text, /^[^\n]+(\n[^\n]+)*\n$/, `${method} ${path}: ${JSON.stringify(r.text)}`)
    }
    assert.is(
      (await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add' })).text,
      'key(port) required.\n',
    )
  }))

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
