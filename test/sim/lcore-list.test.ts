import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parseLcoreList, parseLcoresFlag } from '../../src/sim/lcore-list.ts'

test('lcore lists as EAL takes them: numbers and ranges, sorted, once each', () => {
  assert.equal(parseLcoreList('0'), [0])
  assert.equal(parseLcoreList('3,1-2'), [1, 2, 3])
  assert.equal(parseLcoreList('1-5'), [1, 2, 3, 4, 5])
  assert.equal(parseLcoreList('1,1'), [1])
  for (const bad of ['', 'a', '3-1', '1,,2', '128', '-1', '1-'])
    assert.type(parseLcoreList(bad), 'string', bad)
})

test('--lcores names a kind or one process; a vf or mirror needs a worker lcore', () => {
  assert.equal(parseLcoresFlag('primary=0'), { target: 'primary', lcores: [0] })
  assert.equal(parseLcoresFlag('vf:2=1-3'), { target: 'vf:2', lcores: [1, 2, 3] })
  assert.equal(parseLcoresFlag('nfv=1'), { target: 'nfv', lcores: [1] })
  for (const bad of ['vf=1', 'mirror:3=2', 'router=1', 'vf', 'vf:x=1-2', 'primary=a'])
    assert.type(parseLcoresFlag(bad), 'string', bad)
})

test.run()
