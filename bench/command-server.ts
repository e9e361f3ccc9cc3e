// The floor of a command in node: a bare node:http server that, per request, sends one command to a
// simulated nfv and answers once its reply is in, with nothing else (no hono, no actor, no logs,
// no metrics, no checks). Usage: command-server.js HTTP_PORT WIRE_PORT; the simulator's nfv
// connects to WIRE_PORT as to a controller's secondary port. A third argument, a state directory:
// each PUT is remembered (lib/remember-change.ts) before its 204.
import { createServer as createHttpServer } from 'node:http'
import { changeRememberer } from './lib/remember-change.ts'
import { acceptProcess, onFrames } from './lib/wire-side.ts'

const [httpPort, wirePort] = process.argv.slice(2, 4).map(Number)
const remember = changeRememberer(process.argv[4])
const patch = { src: 'phy:0', dst: 'phy:1' }

const socket = await acceptProcess(wirePort!)

// One command in flight, the others queued, each answered by the next whole frame.
const waiting: { line: string; done: (reply: Buffer) => void }[] = []
onFrames(socket, (reply) => {
  const job = waiting.shift()!
  if (waiting[0]) socket.write(waiting[0].line)
  job.done(reply)
})
const ask = (line: string) =>
  new Promise<Buffer>((done) => {
    waiting.push({ line, done })
    if (waiting.length === 1) socket.write(line)
  })
await ask('_get_client_id')

createHttpServer((req, res) => {
  req.resume()
  req.on('end', () => {
    if (req.method === 'GET' && req.url === '/v1/nfvs/1') {
      void ask('status').then((reply) => {
        const end = reply.indexOf(0)
        res.writeHead(200, { 'content-type': 'application/json' }).end(reply.subarray(0, end))
      })
    } else if (req.method === 'PUT' && req.url === '/v1/nfvs/1/patches') {
      const line = 'patch phy:0 phy:1'
      void ask(line)
        .then(() => remember?.(line, patch))
        .then(() => res.writeHead(204).end())
    } else res.writeHead(404).end()
  })
}).listen(httpPort, '127.0.0.1', () => process.stdout.write('listening\n'))
