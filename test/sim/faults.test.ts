import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parseFault } from '../../src/sim/faults.ts'

test('fault arguments of the spp-sim command', () => {
  assert.equal(parseFault('delay=200'), { delayMs: 200 })
  assert.equal(parseFault('silent-at=3'), { silentAt: 3 })
  assert.equal(parseFault('late-at=2:800'), { late: { at: 2, ms: 800 } })
  assert.equal(parseFault('silent-handshake'), { silentHandshake: true })
  for (const bad of ['delay', 'delay=-1', 'delay=x', 'late-at=2', 'nope=1', 'split=0'])
    assert.type(parseFault(bad), 'string', bad)
})

test.run()
