// The page's SSE parser (src/ui/event-stream.js) as input -> output tables, chunked every way.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { sseParser, type StreamMessage } from '../../src/ui/event-stream.js'

/** Feeds `chunks` to a fresh parser: the messages, and the parser after them. */
function parse(chunks: string[], lastId = '') {
  const messages: StreamMessage[] = []
  const parser = sseParser(lastId, (m) => messages.push(m))
  for (const chunk of chunks) parser.push(chunk)
  return { messages, lastId: parser.lastId, retryMs: parser.retryMs }
}

/** Every way of cutting `text` in two: a parser must not care where the network cut it. */
const cuts = (text: string) =>
  Array.from({ length: text.length + 1 }, (_, i) => [text.slice(0, i), text.slice(i)])

const STREAM =
  ': keep-alive\n\n' +
  'id: 7\nevent: patch.set\ndata: {"kind":"nfv","client-id":1}\n\n' +
  'event: events.lost\ndata: {"since":"3"}\r\n\r\n' +
  'id: 9\r\nevent: port.added\r\ndata: {"a":1}\r\r'

const EXPECTED: StreamMessage[] = [
  { type: 'patch.set', data: '{"kind":"nfv","client-id":1}', id: '7' },
  { type: 'events.lost', data: '{"since":"3"}', id: '7' },
  { type: 'port.added', data: '{"a":1}', id: '9' },
]

test("the controller's events, with LF, CRLF and CR line ends, however the chunks are cut", () => {
  for (const chunks of cuts(STREAM)) {
    const got = parse(chunks)
    assert.equal(got.messages, EXPECTED, JSON.stringify(chunks))
    assert.is(got.lastId, '9')
  }
  assert.equal(parse(STREAM.split('')).messages, EXPECTED, 'one character at a time')
})

test('comments and blocks without data dispatch nothing; an id alone still counts', () => {
  const got = parse([': hello\n\nid: 12\n\nevent: x\n\n'], '3')
  assert.equal(got.messages, [])
  assert.is(got.lastId, '12', 'what a reconnection sends as Last-Event-ID')
  assert.is(parse([': hello\n\n'], '3').lastId, '3', 'kept from the previous connection')
})

test('multi-line data joins with LF; no event name is "message"; a field without colon is empty', () => {
  const got = parse(['data: one\ndata:two\ndata\n\n'])
  assert.equal(got.messages, [{ type: 'message', data: 'one\ntwo\n', id: '' }])
})

test('an event cut off by the end of the stream is not dispatched', () => {
  assert.equal(parse(['event: a\ndata: 1\n']).messages, [])
  assert.equal(parse(['event: a\ndata: 1\n\n', 'event: b\ndata: 2']).messages.length, 1)
})

test('retry: sets the pause before reconnecting; an id with NUL is ignored', () => {
  assert.is(parse(['retry: 5000\n\n']).retryMs, 5000)
  assert.is(parse(['retry: soon\n\n']).retryMs, undefined)
  assert.is(parse(['id: a\0b\n\n'], '4').lastId, '4')
})

test.run()
