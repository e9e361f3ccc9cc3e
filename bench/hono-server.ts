// The baseline of our stack: a minimal hono app on @hono/node-server answering the same bytes the
// controller answers, with no work of its own. Usage: tsx bench/hono-server.ts PORT RESPONSES_JSON
import { readFileSync } from 'node:fs'
import { serve, type HttpBindings } from '@hono/node-server'
import { Hono } from 'hono'

const [port, file] = process.argv.slice(2)
const responses = JSON.parse(readFileSync(file!, 'utf8')) as Record<string, string>
const app = new Hono<{ Bindings: HttpBindings }>()
for (const [key, body] of Object.entries(responses)) {
  const [method, path] = key.split(' ') as [string, string]
  app.on(method, path, async (c) => {
    // Read the body from node's request stream, as the controller does (c.req.text() goes
    // through a web stream and is several times slower here).
    if (method !== 'GET') for await (const _ of c.env.incoming) void _
    return body === ''
      ? c.body(null, 204)
      : c.body(body, 200, { 'content-type': 'application/json' })
  })
}
serve({ fetch: app.fetch, port: Number(port), hostname: '127.0.0.1' }, () =>
  process.stdout.write('listening\n'),
)
