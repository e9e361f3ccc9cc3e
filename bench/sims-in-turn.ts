// Simulated 18.11 processes connected to a controller one after another, each once the one before
// was asked who it is, as processes started by hand arrive. SPP's own controller accepts its
// process ports with a backlog of one and identifies each connection before it accepts the next:
// processes that connect all at once (as `spp-sim` connects them) are left unidentified there.
// Usage: tsx bench/sims-in-turn.ts -p PORT -s PORT [--poll-ms MS] [--traffic PORT=PPS ...]
//        [--primary] [--nfv ID ...] [--vf ID ...] [--mirror ID ...]; prints `all connected` once
//        every process was asked.
// --poll-ms as spp-sim's: a vf and a mirror read their socket once per MS (default 1000, 18.11's).
// --traffic as spp-sim's (phy:0=20000): the processes then share one machine, whose packets move
// through what they run (without it, each plays alone, as before the simulator moved packets).
import { once } from 'node:events'
import { parseArgs } from 'node:util'
import { Machine } from '../src/sim/machine.ts'
import type { SimSpec } from '../src/sim/start-sims.ts'
import { startSims } from '../src/sim/start-sims.ts'
import { parseTrafficFlag } from '../src/sim/traffic-flags.ts'

const { values } = parseArgs({
  options: {
    'pri-port': { type: 'string', short: 'p' },
    'sec-port': { type: 'string', short: 's' },
    'poll-ms': { type: 'string', default: '1000' },
    traffic: { type: 'string', multiple: true, default: [] },
    primary: { type: 'boolean', default: false },
    nfv: { type: 'string', multiple: true, default: [] },
    vf: { type: 'string', multiple: true, default: [] },
    mirror: { type: 'string', multiple: true, default: [] },
  },
})
const specs: SimSpec[] = [
  ...(values.primary ? [{ kind: 'primary' as const }] : []),
  ...values.nfv.map((id) => ({ kind: 'nfv' as const, clientId: Number(id) })),
  ...values.vf.map((id) => ({ kind: 'vf' as const, clientId: Number(id) })),
  ...values.mirror.map((id) => ({ kind: 'mirror' as const, clientId: Number(id) })),
]
const sources: Record<string, number> = {}
for (const text of values.traffic) {
  const parsed = parseTrafficFlag(text, 2)
  if (typeof parsed === 'string') throw new Error(parsed)
  sources[parsed.port] = parsed.pps
}
const target = {
  primaryPort: Number(values['pri-port']),
  secondaryPort: Number(values['sec-port']),
  pollMs: Number(values['poll-ms']),
  reconnect: true,
  ...(values.traffic.length > 0 && { machine: new Machine({ traffic: { sources } }) }),
}
for (const spec of specs) {
  const [sim] = await startSims([spec], target)
  // A secondary is asked `_get_client_id` once accepted; a primary is asked nothing first.
  if (spec.kind !== 'primary') await once(sim!, 'command')
}
process.stdout.write('all connected\n')
