import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { frameReader, type Framing } from '../../src/protocol/frames.ts'
import { cString } from '../../src/protocol/text.ts'

const pad = (text: string, frame: number) => {
  const bytes = Buffer.alloc(frame)
  bytes.write(text, 'latin1')
  return bytes
}
const NFV_ID = '{"results":[{"result":"success"}],"client_id":1,"process_type":"nfv"}'
const NFV_STATUS =
  '{"client-id":1,"status":"idling","master-lcore":1,"lcores":[1,2],"ports":["phy:0 nq 1"],"patches":[]}'

/** Feeds the stream split at `at` and returns each reply's text before its first NUL. */
function cut(framing: Framing, stream: Buffer, at: number) {
  const reader = frameReader(framing, 1 << 20)
  const texts: string[] = []
  for (const piece of [stream.subarray(0, at), stream.subarray(at)]) {
    const read = reader.push(piece)
    if (!read.ok) throw new Error(`split at ${at}: ${read.message}`)
    for (const frame of read.value) {
      const text = cString(frame)
      texts.push(text.ok ? text.value : '?')
    }
  }
  return { texts, frameBytes: reader.frameBytes, pending: reader.pending }
}
/** Every split in the first 2200 bytes (handshake and minimum frame), then every 97th. */
const splits = (length: number) =>
  [...Array(length + 1).keys()].filter((at) => at <= 2200 || at % 97 === 0 || at === length)

test('a 2020 nfv: JSON handshake padded to 32768, then a status, split anywhere', () => {
  const stream = Buffer.concat([pad(NFV_ID, 32768), pad(NFV_STATUS, 32768)])
  for (const at of splits(stream.length)) {
    const got = cut('detect', stream, at)
    assert.equal(got.texts, [NFV_ID, NFV_STATUS], `split at ${at}`)
    assert.is(got.frameBytes, 32768, `split at ${at}`)
  }
})

test('an 18.08.2 nfv: JSON handshake padded to 2048, then an echo with NULs inside', () => {
  const stream = Buffer.concat([pad(NFV_ID, 2048), pad('patch\0reset', 2048), pad('{"a":1}', 2048)])
  for (const at of splits(stream.length)) {
    const got = cut('detect', stream, at)
    assert.equal(got.texts, [NFV_ID, 'patch', '{"a":1}'], `split at ${at}`)
    assert.is(got.frameBytes, 2048, `split at ${at}`)
  }
})

test('an 18.11 nfv (decimal id) is padded from the first byte; 2048 is measured', () => {
  const stream = Buffer.concat([pad('1', 2048), pad('{"client-id":1}', 2048)])
  for (const at of splits(stream.length)) {
    const got = cut('detect', stream, at)
    assert.equal(got.texts, ['1', '{"client-id":1}'], `split at ${at}`)
    assert.is(got.frameBytes, 2048)
  }
})

test('a 2020 primary status longer than 2048 bytes waits for its NUL', () => {
  const status = `{"master-lcore":0,"lcores":[0],"phy_ports":[],"ring_ports":[${Array(200).fill('{"id":0,"rx":0,"rx_drop":0,"tx":0,"tx_drop":0}').join(',')}],"pipes":[]}`
  assert.ok(status.length > 8000)
  const stream = Buffer.concat([pad(status, 32768), pad('patch\0reset', 32768)])
  for (const at of splits(stream.length)) {
    const got = cut('padded', stream, at)
    assert.equal(got.texts, [status, 'patch'], `split at ${at}`)
    assert.is(got.frameBytes, 32768)
  }
})

test('a vf stays JSON: no NUL follows its handshake', () => {
  const id = '{ "results": [ { "result": "success" } ], "client_id": 2, "process_type": "vf" }'
  const stream = Buffer.from(id + id)
  for (const at of splits(stream.length)) {
    const got = cut('detect', stream, at)
    assert.equal(got.texts, [id, id])
    assert.is(got.frameBytes, undefined, 'never padded')
  }
})

test('the frame length is known once 32768 bytes of one reply and its padding are in', () => {
  const reader = frameReader('padded', 1 << 20)
  reader.push(pad('{"a":1}', 32768).subarray(0, 32767))
  assert.is(reader.frameBytes, undefined)
  reader.push(Buffer.alloc(1))
  assert.is(reader.frameBytes, 32768)
})

test('NULs beyond one frame are no padding: a protocol error', () => {
  const reader = frameReader('padded', 1 << 20)
  assert.ok(reader.push(Buffer.alloc(32768)).ok)
  assert.is(reader.push(Buffer.alloc(1)).ok, false)
  const after = frameReader('padded', 1 << 20)
  assert.is(after.push(Buffer.concat([pad('{"a":1}', 2048), Buffer.alloc(40000)])).ok, false)
})

test('a reply that came in one chunk is a view of that chunk, not a copy', () => {
  const reader = frameReader('padded', 1 << 20)
  const chunk = pad(NFV_STATUS, 2048)
  const read = reader.push(chunk)
  assert.ok(read.ok)
  const [frame] = read.ok ? read.value : []
  assert.is(frame?.buffer, chunk.buffer)
  assert.is(frame?.byteOffset, chunk.byteOffset)
})

test('padding cut into many chunks of NULs is skipped to the next reply, whatever the cuts', () => {
  const reader = frameReader('padded', 1 << 20)
  const stream = Buffer.concat([pad(NFV_STATUS, 32768), pad(NFV_ID, 32768)])
  const texts: string[] = []
  for (let at = 0; at < stream.length; at += 1000) {
    const read = reader.push(stream.subarray(at, at + 1000))
    assert.ok(read.ok)
    for (const frame of read.ok ? read.value : []) {
      const text = cString(frame)
      texts.push(text.ok ? text.value : '?')
    }
  }
  assert.equal(texts, [NFV_STATUS, NFV_ID])
  assert.is(reader.frameBytes, 32768)
})

test.run()
