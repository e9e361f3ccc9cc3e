// Controller memory while one event-stream client stops reading and many events are published
// (npx tsx bench/stalled-events.ts [--requests N] [--max-pending-events N] [--no-client]).
import { once } from 'node:events'
import { connect } from 'node:net'
import { parseArgs } from 'node:util'
import { startSims } from '../src/sim/start-sims.ts'
import { startControllerProcess } from './lib/controller-process.ts'

const { values } = parseArgs({
  options: {
    requests: { type: 'string' },
    'max-pending-events': { type: 'string' },
    'no-client': { type: 'boolean' }, // the same load without the stalled client, to compare
  },
})
const requests = Number(values.requests ?? 20_000)
const extra = values['max-pending-events']
  ? ['--max-pending-events', values['max-pending-events']]
  : []
const ctl = await startControllerProcess([...extra, '--log-level', 'warn'])
const sims = await startSims([{ kind: 'nfv', clientId: 1 }], {
  primaryPort: ctl.primaryPort,
  secondaryPort: ctl.secondaryPort,
})
const base = `http://127.0.0.1:${ctl.apiPort}`
// Registration follows the connection by a few ms: wait for it (start-up, not a measurement).
while ((await fetch(`${base}/v1/nfvs/1`)).status !== 200)
  await new Promise((resolve) => setTimeout(resolve, 20))

const stalled = values['no-client'] ? undefined : connect(ctl.apiPort, '127.0.0.1')
if (stalled) {
  stalled.write('GET /v1/events HTTP/1.1\r\nHost: x\r\n\r\n')
  await once(stalled, 'data')
  stalled.pause() // never reads again, until the load is over
}
const before = ctl.rssMiB()
const samples: string[] = []
let sent = 0
let done = 0
const worker = async () => {
  while (sent < requests) {
    const action = sent++ % 2 === 0 ? 'add' : 'del'
    const response = await fetch(`${base}/v1/nfvs/1/ports`, {
      method: 'PUT',
      body: JSON.stringify({ action, port: 'ring:0' }),
    })
    await response.arrayBuffer()
    if (++done % (requests / 5) === 0) samples.push(`${done}: ${ctl.rssMiB().toFixed(1)} MiB`)
  }
}
await Promise.all(Array.from({ length: 8 }, worker))
console.log(`stalled event-stream client: ${stalled ? 'yes' : 'no'}`)
console.log(`max pending events per client: ${extra[1] ?? 'default (256)'}`)
console.log(`requests (each one event): ${requests}`)
console.log(`RSS before: ${before.toFixed(1)} MiB; during: ${samples.join(', ')}`)
console.log(`RSS after: ${ctl.rssMiB().toFixed(1)} MiB; peak ${ctl.peakRssMiB().toFixed(1)} MiB`)
if (stalled) {
  // Read what the server had sent: a dropped stream ends there; a live one would go on.
  let text = ''
  stalled.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
  stalled.resume()
  const ended = await Promise.race([
    once(stalled, 'close').then(() => true),
    new Promise((resolve) => setTimeout(() => resolve(false), 5000)),
  ])
  const events = text.split('\nevent: ').length - 1
  console.log(`stalled client: ${events} events received, then ${ended ? 'dropped' : 'still open'}`)
  stalled.destroy()
}
for (const sim of sims) sim.stop()
await ctl.stop()
