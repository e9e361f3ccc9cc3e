// A 2020 vf broken by a ring it could not create may send no status at all, as the real one did
// (test/fixtures/real-spp/real-8e72ea0-simcfg.jsonl): the controller survives it, as any silence.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { commandsOf, registrations, withHarness } from '../helpers/harness.ts'

// No primary connected: the controller cannot know the host's rings, so ring:4 reaches the vf.
const OPTIONS = { commandTimeoutMs: 400, sim: { era: '2020' as const, reconnect: true } }

test('a vf that never answers status: a 500, the connection dropped, the vf registered again once it reconnects', () =>
  withHarness(
    [{ kind: 'vf', clientId: 2 }],
    async (h) => {
      const ok = async (method: string, path: string, body?: unknown) =>
        assert.is((await h.api(method, path, body)).status, 204, `${method} ${path}`)
      const failed = async (method: string, path: string, body?: unknown) =>
        assert.is((await h.api(method, path, body)).status, 400, `${method} ${path}`)
      await ok('POST', '/v1/vfs/2/components', { name: 'cls1', core: 3, type: 'classifier' })
      await ok('PUT', '/v1/vfs/2/components/cls1/ports', {
        action: 'attach',
        port: 'phy:0',
        dir: 'rx',
      })
      // A ring beyond the host's 4: the vf fails it, and every change after it.
      const ring4 = { action: 'attach', port: 'ring:4', dir: 'tx' }
      await failed('PUT', '/v1/vfs/2/components/cls1/ports', ring4)
      await failed('DELETE', '/v1/vfs/2/components/cls1')
      // Its worker still runs cls1, whose record is gone: SPP cannot make the status, sends none.
      const back = registrations(h.controller, 1)
      const silent = await h.api('GET', '/v1/vfs/2')
      assert.is(silent.status, 500, silent.text)
      assert.match(silent.text, /no reply within 400 ms/)
      await back
      assert.is((await h.api('GET', '/v1/processes')).status, 200)
      assert.equal(commandsOf(h.sim('vf 2')).slice(-1), ['_get_client_id'])
    },
    OPTIONS,
  ))

test.run()
