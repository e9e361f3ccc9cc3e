// GET /v1/events without node under the app (app.request): the stream goes through hono's streamSSE.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { fakeApp } from '../../helpers/fake-app.ts'

test('through app.request, streamSSE sends the stream: events.lost, the replay, what follows, the end', async () => {
  const { app, hub } = await fakeApp([])
  hub.publish('port.added', { port: 'ring:0' })
  // A Last-Event-ID the hub never gave: what it holds, after an events.lost.
  const response = await app.request('/v1/events', { headers: { 'Last-Event-ID': 'x' } })
  assert.is(response.status, 200)
  assert.is(response.headers.get('content-type'), 'text/event-stream')
  assert.is(response.headers.get('cache-control'), 'no-cache')
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  const read = async (until: (text: string) => boolean) => {
    let text = ''
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return { text, done }
      if (until((text += value))) return { text, done }
    }
  }
  // A failsafe, not a timing assertion: a missing event fails the test instead of hanging it.
  const failsafe = setTimeout(() => void reader.cancel(), 10_000)
  const first = await read((text) => text.includes('ring:0'))
  hub.publish('port.added', { port: 'ring:1' })
  const second = await read((text) => text.includes('ring:1'))
  hub.close() // ends every stream
  const rest = await read(() => false)
  clearTimeout(failsafe)
  assert.is(
    first.text + second.text + rest.text,
    'event: events.lost\ndata: {"since":"x","oldest":1}\n\n' +
      'id: 1\nevent: port.added\ndata: {"port":"ring:0"}\n\n' +
      'id: 2\nevent: port.added\ndata: {"port":"ring:1"}\n\n',
  )
  assert.ok(rest.done, 'ended')
})

test.run()
