import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { frameReader } from '../../src/protocol/frames.ts'
import { SHORT_FRAME_BYTES as FIXED_REPLY_BYTES } from '../../src/protocol/release.ts'
import { fixedReply } from '../../src/sim/wire.ts'

const MAX = 1 << 20

/** Feeds bytes in the given pieces and returns every frame as text, or the error. */
function feed(framing: 'padded' | 'json' | 'detect', pieces: Buffer[], max = MAX) {
  const reader = frameReader(framing, max)
  const frames: string[] = []
  for (const piece of pieces) {
    const read = reader.push(piece)
    if (!read.ok) return { error: read.message, frames }
    frames.push(...read.value.map((f) => f.toString('latin1')))
  }
  return { frames, pending: reader.pending }
}
const splitAt = (bytes: Buffer, at: number) => [bytes.subarray(0, at), bytes.subarray(at)]

test('a fixed reply split at every possible place is one frame of 2048 bytes', () => {
  const reply = fixedReply('{"client-id":1}')
  for (let at = 0; at <= reply.length; at++) {
    const { frames } = feed('padded', splitAt(reply, at))
    assert.is(frames.length, 1, `split at ${at}`)
    assert.is(frames[0]!.length, FIXED_REPLY_BYTES)
  }
})

test('fixed replies merged into one chunk, with part of a third, give two frames and keep the rest', () => {
  const bytes = Buffer.concat([fixedReply('a'), fixedReply('b'), fixedReply('c').subarray(0, 100)])
  const result = feed('padded', [bytes])
  assert.equal(
    result.frames.map((f) => f[0]),
    ['a', 'b'],
  )
  assert.is(result.pending, 100)
})

test('a JSON reply split at every possible place is one frame', () => {
  const reply = Buffer.from(
    '{ "results": [ { "result": "success" } ], "info": { "a": [ {  }, "}{" ] } }',
  )
  for (let at = 0; at <= reply.length; at++) {
    const { frames, error } = feed('json', splitAt(reply, at))
    assert.is(error, undefined)
    assert.equal(frames, [reply.toString()], `split at ${at}`)
  }
})

test('a JSON reply over 4 KiB arriving one byte at a time is one frame', () => {
  const reply = Buffer.from(`{ "pad": "${'x'.repeat(9000)}", "n": { "m": 1 } }`)
  const pieces = [...reply].map((b) => Buffer.from([b]))
  const { frames } = feed('json', pieces)
  assert.equal(frames, [reply.toString()])
})

test('braces and escaped quotes inside JSON strings do not end a reply', () => {
  const reply = '{ "a": "}\\"}{", "b": 1 }'
  assert.equal(feed('json', [Buffer.from(reply + reply)]).frames, [reply, reply])
})

test('white space between JSON replies belongs to no reply', () => {
  assert.equal(feed('json', [Buffer.from(' {}\n { "a": 1 }  ')]).frames, ['{}', '{ "a": 1 }'])
})

test('bytes that cannot start a JSON reply are an error, not an exception', () => {
  const result = feed('json', [Buffer.from('garbage')])
  assert.match(result.error!, /not a JSON object/)
})

test('a JSON reply longer than the cap is an error once the cap is passed', () => {
  const result = feed('json', [Buffer.from('{ "a": "'), Buffer.alloc(5000, 'x')], 4096)
  assert.match(result.error!, /exceeds 4096 bytes/)
})

test('detect framing takes JSON for a reply starting with a brace, fixed otherwise, and keeps it', () => {
  const vf = Buffer.from('{ "client_id": 2 }')
  assert.equal(feed('detect', [vf, Buffer.from('{}')]).frames, [vf.toString(), '{}'])
  const nfv = feed('detect', [fixedReply('1'), fixedReply('{"client-id":1}')])
  assert.equal(
    nfv.frames.map((f) => f.length),
    [FIXED_REPLY_BYTES, FIXED_REPLY_BYTES],
  )
})

test.run()
