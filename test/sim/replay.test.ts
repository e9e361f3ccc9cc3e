// The simulator against real SPP: every command of test/fixtures/real-spp/*.jsonl, replayed in order
// over loopback against processes configured as the recorded ones were started, gets the reply the
// real process gave. Only the primary's port MACs and packet counters are normalised (the recorded
// hosts' values), and the one member a simulated primary's status adds to say that it is one (its
// last) is taken off; flow rules need no care: the recorded ports had no rte_flow, so the primary
// refused every rule, and the simulator plays such ports (`flowSupport: false`) in these replays.
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import type { Socket } from 'node:net'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { Machine } from '../../src/sim/machine.ts'
import type { SimEra } from '../../src/sim/model-for.ts'
import type { SimProcess } from '../../src/sim/sim-process.ts'
import { startSims, type SimSpec } from '../../src/sim/start-sims.ts'
import { listen } from '../helpers/stand-in.ts'

/** One line of a recording (test/fixtures/real-spp/README.md). */
type Exchange = {
  req: string | null
  proc: string
  command: string
  reply: string | null
  reply_bytes?: number
  closed_by?: string
}

/** How the recorded processes were started: the primary's rings, each process's EAL lcores. */
type Setup = {
  file: string
  era: SimEra
  rings: number
  lcores: { primary: number[]; nfv: number[]; vf: number[]; mirror: number[] }
}
const DEFAULT = { primary: [0], nfv: [1, 2], vf: [1, 2, 3], mirror: [1, 2] }
const SIMCFG = { primary: [0, 1], nfv: [1, 2], vf: [1, 2, 3, 4, 5], mirror: [1, 2, 3, 4, 5] }
const SETUPS: Setup[] = [
  { file: 'real-8e72ea0.jsonl', era: '2020', rings: 10, lcores: DEFAULT },
  { file: 'real-8e72ea0-simcfg.jsonl', era: '2020', rings: 4, lcores: SIMCFG },
  { file: 'real-d5c6c97.jsonl', era: '18.11', rings: 10, lcores: DEFAULT },
  { file: 'real-d5c6c97-simcfg.jsonl', era: '18.11', rings: 4, lcores: SIMCFG },
]

const fixture = (file: string): Exchange[] =>
  readFileSync(new URL(`../fixtures/real-spp/${file}`, import.meta.url), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Exchange)

/** The hosts' own values: a port's MAC, and the counters of traffic a net_null port never sees. */
const normalise = (text: string) =>
  text
    .replace(/("eth": ?")[0-9a-f]{2}(:[0-9a-f]{2}){5}"/g, '$1MAC"')
    .replace(/(?<!"nof_queues":\{(?:"rx":[0-9]+,)?)("(?:rx|tx|rx_drop|tx_drop)": ?)[0-9]+/g, '$10')

/** The member that ends a simulated primary's status (src/sim/primary-model.ts: SIMULATOR). */
const SIMULATOR = /, ?"simulator": ?"spp-sim"\}$/
const unsimulated = (text: string) => text.replace(SIMULATOR, '}')

/** One connection's bytes, read as the controller frames replies. */
class Peer {
  readonly socket: Socket
  #bytes = Buffer.alloc(0)
  #ended = false
  #wake: (() => void) | undefined
  constructor(socket: Socket) {
    this.socket = socket
    socket.on('data', (chunk: Buffer) => {
      this.#bytes = Buffer.concat([this.#bytes, chunk])
      this.#wake?.()
    })
    socket.on('close', () => {
      this.#ended = true
      this.#wake?.()
    })
  }
  get pending() {
    return this.#bytes.length
  }
  /** The next reply: `bytes` of a padded frame, or one JSON object; null if the peer closes first. */
  async reply(bytes: number | 'json'): Promise<Buffer | null> {
    for (;;) {
      const size = bytes === 'json' ? jsonLength(this.#bytes) : bytes
      if (size !== undefined && this.#bytes.length >= size) {
        const reply = this.#bytes.subarray(0, size)
        this.#bytes = this.#bytes.subarray(size)
        return reply
      }
      if (this.#ended) return null
      await new Promise<void>((resolve) => (this.#wake = resolve))
    }
  }
}

/** The length of the JSON object that starts `data`, once its braces balance. */
function jsonLength(data: Buffer): number | undefined {
  let depth = 0
  let quoted = false
  for (let at = 0; at < data.length; at++) {
    const c = data[at]
    if (quoted) quoted = c !== 0x22
    else if (c === 0x22) quoted = true
    else if (c === 0x7b) depth++
    else if (c === 0x7d && --depth === 0) return at + 1
  }
  return undefined
}

/** Where two replies part, with a little of what came before. */
function apart(real: string, sim: string | null): string {
  if (sim === null) return `  real ${real}\n  sim  (closed, no reply)`
  let at = 0
  while (at < real.length && real[at] === sim[at]) at++
  const from = Math.max(0, at - 60)
  return `  real …${real.slice(from, at + 120)}\n  sim  …${sim.slice(from, at + 120)}`
}

/** Replays one recording; returns every exchange whose reply differed, as text for the report. */
async function replay(setup: Setup): Promise<string[]> {
  const primaryPort = await listen()
  const secondaryPort = await listen()
  const sims = new Map<string, SimProcess>()
  const peers = new Map<string, Peer>()
  const differences: string[] = []
  try {
    // Started one by one, on one machine: as recorded, net_null ports (no rte_flow) and DPDK
    // 22.11's devices numbered across processes.
    const target = {
      primaryPort: primaryPort.port,
      secondaryPort: secondaryPort.port,
      era: setup.era,
      machine: new Machine({ rings: setup.rings, sharedPorts: true }),
      pollMs: 0,
      reconnect: true,
      flowSupport: false,
    }
    // One at a time, so that each accepted connection is known to be that process's.
    for (const proc of ['primary', 'nfv:1', 'vf:2', 'mirror:3']) {
      const [kind, id] = proc.split(':') as [keyof Setup['lcores'], string | undefined]
      const spec: SimSpec = { kind, lcores: setup.lcores[kind] }
      if (id !== undefined) spec.clientId = Number(id)
      const [sim] = await startSims([spec], target)
      sims.set(proc, sim!)
      const server = kind === 'primary' ? primaryPort : secondaryPort
      peers.set(proc, new Peer(await server.next()))
    }
    const padded = setup.era === '2020' ? 32768 : 2048
    for (const [n, exchange] of fixture(setup.file).entries()) {
      const { proc, command } = exchange
      const sim = sims.get(proc)!
      let peer = peers.get(proc)!
      if (peer.socket.destroyed) {
        // The controller hung up on it: a real secondary connects again, as the simulated one.
        const server = proc === 'primary' ? primaryPort : secondaryPort
        peers.set(proc, (peer = new Peer(await server.next())))
      }
      const where = `${setup.file} #${n} ${proc} ${JSON.stringify(command)}`
      if (exchange.reply === null) {
        // It never answered: the process says so when it reads the command, and the socket holds
        // nothing; then the controller closed the connection, as the recording says.
        const answered = once(sim, 'answered') as Promise<[string, Buffer | undefined]>
        peer.socket.write(command)
        const [, reply] = await answered
        if (reply !== undefined || peer.pending > 0)
          differences.push(`${where}: answered, the real process did not`)
        peer.socket.destroy()
        continue
      }
      const gone = command === 'exit' ? once(sim, 'disconnected') : undefined
      peer.socket.write(command)
      const json = proc.startsWith('vf') || proc.startsWith('mirror')
      const reply = await peer.reply(json ? 'json' : padded)
      const sent = reply?.toString('latin1').replace(/\0+$/, '') ?? null
      if (proc === 'primary' && command === 'status' && sent !== null && !SIMULATOR.test(sent))
        differences.push(`${where}: the status does not say it is the simulator's`)
      const text = sent && unsimulated(sent)
      if (text === null || normalise(text) !== normalise(exchange.reply))
        differences.push(`${where}:\n${apart(normalise(exchange.reply), text && normalise(text))}`)
      else if (reply!.length !== exchange.reply_bytes)
        differences.push(`${where}: ${reply!.length} bytes, real ${exchange.reply_bytes}`)
      if (gone) {
        // It closes, and stays gone: by the time the close is seen, the process has decided.
        await gone
        if (!sim.exited) differences.push(`${where}: the process did not exit`)
      }
    }
  } finally {
    for (const sim of sims.values()) sim.stop()
    for (const peer of peers.values()) peer.socket.destroy()
    primaryPort.server.close()
    secondaryPort.server.close()
  }
  return differences
}

for (const setup of SETUPS)
  test(`every reply of ${setup.file} (SPP ${setup.era}, -n ${setup.rings}) is the real one`, async () => {
    const differences = await replay(setup)
    assert.ok(differences.length === 0, `\n${differences.join('\n')}`)
  })

test('the recordings hold what the replays rely on: every process, a silence, exits', () => {
  const all = SETUPS.flatMap((setup) => fixture(setup.file))
  assert.ok(all.length > 300)
  assert.ok(all.some((exchange) => exchange.reply === null))
  for (const proc of ['primary', 'nfv:1', 'vf:2', 'mirror:3'])
    assert.ok(
      all.some((exchange) => exchange.proc === proc && exchange.command === 'exit'),
      proc,
    )
})

test.run()
