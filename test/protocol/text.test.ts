// Untrusted reply text: C strings, strict UTF-8, JSON without exceptions, printable previews.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { cString, isRecord, parseJson, preview } from '../../src/protocol/text.ts'

test('a C string ends at the first NUL, or at the end of the frame', () => {
  assert.equal(cString(Buffer.from('12\0\0abc')), { ok: true, value: '12' })
  assert.equal(cString(Buffer.from('no nul')), { ok: true, value: 'no nul' })
  assert.equal(cString(Buffer.from([0])), { ok: true, value: '' })
})

test('bytes that are not UTF-8 are a typed failure', () => {
  assert.equal(cString(Buffer.from([0xff, 0xfe, 0])), {
    ok: false,
    code: 'BAD_REPLY',
    message: 'reply is not valid UTF-8',
  })
})

test('JSON that does not parse is a failure quoting a preview', () => {
  assert.equal(parseJson('{"a": [1]}'), { ok: true, value: { a: [1] } })
  assert.equal(parseJson('{"a"'), {
    ok: false,
    code: 'BAD_REPLY',
    message: 'reply is not valid JSON: "{\\"a\\""',
  })
})

test('a preview is quoted, escapes control characters and is cut with an ellipsis', () => {
  assert.is(preview('a\nb\0'), '"a\\nb\\u0000"')
  assert.is(preview('x'.repeat(81)), `"${'x'.repeat(80)}…"`)
  assert.is(preview('x'.repeat(80)), `"${'x'.repeat(80)}"`)
  assert.is(preview('abcdef', 3), '"abc…"')
})

test('a record is a plain object: not null, not an array', () => {
  assert.equal([{}, { a: 1 }, null, [], 'x', 1].map(isRecord), [
    true,
    true,
    false,
    false,
    false,
    false,
  ])
})

test.run()
