// The listings' table: columns as wide as their widest cell, two spaces apart, nothing trailing.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { columns } from '../../src/cli/columns.ts'

test('each column as wide as its widest cell, two spaces apart, nothing after the last', () => {
  const rows = [
    ['HOST', 'STATE', 'URL'],
    ['a-much-longer-host', 'alive', 'http://a:7777'],
    ['b', 'unreachable', ''],
  ]
  assert.is(
    columns(rows),
    'HOST                STATE        URL\n' +
      'a-much-longer-host  alive        http://a:7777\n' +
      'b                   unreachable\n',
  )
})

test('a header alone is one line', () => {
  assert.is(columns([['NAME', 'SCOPE']]), 'NAME  SCOPE\n')
})

test.run()
