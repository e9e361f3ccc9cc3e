// The simulated vf hangs, as spp_vf does, when a second classifier_mac starts on one core.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { VfModel } from '../../src/sim/vf-model.ts'

test('a second classifier_mac on one core gets no reply; another core takes it', () => {
  const vf = new VfModel()
  assert.ok(vf.handle('component start c1 2 classifier_mac').reply)
  assert.ok(vf.handle('component start c2 3 classifier_mac').reply)
  assert.equal(vf.handle('component start c3 2 classifier_mac'), { hang: true })
})

test.run()
