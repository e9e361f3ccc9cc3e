// The floor below the stack: node's own HTTP server answering the same bytes the controller
// answers, with no framework and no work. What a request costs node itself on this machine, at
// the pace it comes. Usage: node node-server.mjs PORT RESPONSES_JSON (GET only)
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const [port, file] = process.argv.slice(2)
const responses = JSON.parse(readFileSync(file!, 'utf8')) as Record<string, string>
const bodies = new Map(Object.entries(responses).map(([key, body]) => [key, Buffer.from(body)]))
createServer((req, res) => {
  const body = bodies.get(`${req.method} ${req.url}`)
  if (body === undefined) res.writeHead(404).end()
  else res.writeHead(200, { 'content-type': 'application/json' }).end(body)
}).listen(Number(port), '127.0.0.1', () => process.stdout.write('listening\n'))
