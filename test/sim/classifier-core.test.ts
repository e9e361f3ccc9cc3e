// The simulated vf hangs, as spp_vf does, when a second classifier_mac starts on one core.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { withHarness } from '../helpers/harness.ts'

test('a second classifier_mac on one core gets no reply; another core takes it', () =>
  withHarness(
    [{ kind: 'vf', clientId: 2 }],
    async (h) => {
      const start = (name: string, core: number) =>
        h.api('POST', '/v1/vfs/2/components', { name, core, type: 'classifier_mac' })
      assert.is((await start('c1', 2)).status, 204)
      assert.is((await start('c2', 3)).status, 204)
      const hung = await start('c3', 2)
      assert.is(hung.status, 500)
      assert.match(hung.text, /no reply within 300 ms/)
    },
    { commandTimeoutMs: 300 },
  ))

test.run()
