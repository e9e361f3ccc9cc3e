// The baseline: node:http answering the same bytes the controller answers, with no work at all.
// Usage: tsx bench/bare-server.ts PORT RESPONSES_JSON (a map "METHOD PATH" -> body, "" for 204).
import { createServer } from 'node:http'

const [port, file] = process.argv.slice(2)
const { readFileSync } = await import('node:fs')
const responses = new Map(
  Object.entries(JSON.parse(readFileSync(file!, 'utf8')) as Record<string, string>),
)
createServer((req, res) => {
  req.resume() // read and drop the body, as a server must
  req.on('end', () => {
    const body = responses.get(`${req.method} ${req.url}`)
    if (body === undefined) res.writeHead(404).end()
    else if (body === '') res.writeHead(204).end()
    else res.writeHead(200, { 'content-type': 'application/json' }).end(body)
  })
}).listen(Number(port), '127.0.0.1', () => process.stdout.write('listening\n'))
