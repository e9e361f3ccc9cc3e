// The floor of a command on the project's own stack: the least a controller built on it does per
// request. A hono app on @hono/node-server, the body read from node's stream and checked by a
// valibot schema, the command handed to one xstate actor that owns the wire connection and its
// one-at-a-time queue (the design the owner chose: one actor per process), and nothing else: no
// logs, metrics, events, auth, request ids or state directory. The actor takes its reply as its one
// event per command, as the controller's does. Usage: stack-command-server.js HTTP_PORT WIRE_PORT
// [STATE_DIR]; with a state directory, each PUT is remembered (lib/remember-change.ts) before its 204.
import { serve, type HttpBindings } from '@hono/node-server'
import { Hono } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import * as v from 'valibot'
import { createActor, setup } from 'xstate'
import { changeRememberer } from './lib/remember-change.ts'
import { acceptProcess, onFrames } from './lib/wire-side.ts'

const [httpPort, wirePort] = process.argv.slice(2, 4).map(Number)
const remember = changeRememberer(process.argv[4])
// For measuring each layer's share: STACK_WITHOUT=xstate,valibot leaves those out.
const without = new Set((process.env.STACK_WITHOUT ?? '').split(','))

const socket = await acceptProcess(wirePort!)

type Job = { line: string; done: (reply: Buffer) => void }
// Commands reach the socket without an event (written at once when nothing is in flight); each
// whole reply frame is the machine's one event, which settles the head of the queue and writes
// the next.
const machine = setup({
  types: { context: {} as { queue: Job[] }, events: {} as { type: 'reply'; frame: Buffer } },
}).createMachine({
  context: { queue: [] },
  initial: 'ready',
  states: {
    ready: {
      on: {
        reply: {
          // a plain action, not assign: the queue is the context's own array, changed in place
          actions: ({ context, event }) => {
            const job = context.queue.shift()!
            if (context.queue[0]) socket.write(context.queue[0].line)
            job.done(event.frame)
          },
        },
      },
    },
  },
})
const actor = createActor(machine).start()
const queue = actor.getSnapshot().context.queue
onFrames(socket, (frame) => {
  if (without.has('xstate')) {
    const job = queue.shift()!
    if (queue[0]) socket.write(queue[0].line)
    job.done(frame)
  } else actor.send({ type: 'reply', frame })
})
const ask = (line: string) =>
  new Promise<Buffer>((done) => {
    queue.push({ line, done })
    if (queue.length === 1) socket.write(line)
  })
await ask('_get_client_id')

const Patch = v.strictObject({ src: v.string(), dst: v.string() })
const app = new Hono<{ Bindings: HttpBindings }>()
app.get('/v1/nfvs/1', async (c) => {
  const reply = await ask('status')
  const end = reply.indexOf(0)
  return c.body(reply.subarray(0, end).toString(), 200, { 'content-type': 'application/json' })
})
// node's stream, read with listeners (an async iterator costs more; c.req.json() goes through a
// web stream and costs more still)
const text = (incoming: HttpBindings['incoming']) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => resolve(Buffer.concat(chunks).toString()))
  })
app.put('/v1/nfvs/1/patches', async (c) => {
  const json = JSON.parse(await text(c.env.incoming)) as { src: string; dst: string }
  const body = without.has('valibot') ? { success: true, output: json } : v.safeParse(Patch, json)
  if (!body.success) return c.text('invalid body', 400)
  const line = `patch ${body.output.src} ${body.output.dst}`
  await ask(line)
  await remember?.(line, body.output)
  // @hono/node-server's fast path, as the controller's 204 takes it (hono types a 204 as bodiless)
  return c.body('', 204 as ContentfulStatusCode)
})
serve({ fetch: app.fetch, port: httpPort, hostname: '127.0.0.1' }, () =>
  process.stdout.write('listening\n'),
)
