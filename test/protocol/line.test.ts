// The last guard before the wire: which command lines may be written to a process.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { isSafeLine, MAX_LINE_BYTES } from '../../src/protocol/line.ts'

test('the last guard refuses lines that could split or smuggle tokens', () => {
  for (const line of [
    '',
    ' status',
    'status ',
    'a  b',
    'a\tb',
    'a\nb',
    'a\0b',
    'é',
    `a ${'x'.repeat(111)}`,
    'a b c d e f g h i',
    'x'.repeat(900),
  ]) {
    assert.is(isSafeLine(line), false, JSON.stringify(line))
  }
  for (const line of [
    'status',
    'port add ring:0 rx fw1 add_vlantag 100 3',
    'classifier_table del vlan 475 FA:16:3E:7D:CC:35 ring:0',
  ]) {
    assert.ok(isSafeLine(line), line)
  }
})

test('eight tokens of 110 characters is the most a line may hold', () => {
  const token = 'x'.repeat(110)
  assert.ok(isSafeLine(Array.from({ length: 8 }, () => token).join(' ')))
  assert.is(MAX_LINE_BYTES, 887)
})

test.run()
