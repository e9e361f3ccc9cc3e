// spp-sim: simulated SPP processes that connect to a controller, from the command line.
import { parseArgs } from 'node:util'
import { FAULT_HELP, parseFault } from '../sim/faults.ts'
import type { Faults } from '../sim/faults.ts'
import { parseLcoresFlag } from '../sim/lcore-list.ts'
import type { SimSpec } from '../sim/start-sims.ts'
import { createSims } from '../sim/start-sims.ts'
import { READER_PPS, TRAFFIC_MACS } from '../sim/traffic.ts'
import { parseMacList, parseReaderFlag, parseTrafficFlag } from '../sim/traffic-flags.ts'

const HELP = `Usage: spp-sim [options]

Simulated SPP processes that connect to a controller and answer as spp_primary,
spp_nfv, spp_vf, spp_mirror (and, in 2020, spp_pcap) do, byte for byte.
Example: spp-sim --primary --nfv 1 --vf 2    or    spp-sim --era 2020 --primary --pcap 4

Options:
      --host ADDR        controller address (default 127.0.0.1)
  -p, --pri-port PORT    controller's primary port (default 5555)
  -s, --sec-port PORT    controller's secondary port (default 6666)
      --primary          a primary
      --nfv ID           an nfv with this client id (repeatable)
      --vf ID            a vf with this client id (repeatable)
      --mirror ID        a mirror with this client id (repeatable)
      --pcap ID          a pcap with this client id (repeatable; needs --era 2020)
      --era ERA          the SPP release to play: 18.11 (default) or 2020 (8e72ea0: JSON
                         results, 32768-byte primary/nfv replies, processes that exit on
                         a malformed port id)
      --poll-ms MS       vf/mirror/pcap read their socket once per MS, as SPP does
                         (default 1000 for 18.11; 0 for 2020, whose processes answer at once)
      --fault FAULT      misbehave (repeatable):
${FAULT_HELP}
  -h, --help             show this text

What differs between hosts:
  -n, --rings N          the primary's rings, ring:0 to ring:N-1 (its -n; default 4)
      --phy-ports N      physical ports, phy:0 to phy:N-1 (default 2)
      --lcores KIND=LIST the lcores of every process of a kind, or of one (KIND:ID=LIST), as
                         EAL's -l takes them, the main lcore first (repeatable). Defaults:
                         primary=0,1 (a primary of one lcore runs no forwarder), nfv=1,2,
                         vf=1-5 and mirror=1-5 (components on 2-5), pcap=1-3
      --no-rte-flow      phy ports whose driver has no rte_flow (2020: flow rules fail)
      --shared-ports     devices numbered across processes, as with DPDK 22.11: a 2020
                         primary's forwarder keeps a port it deletes, and no vf or mirror
                         can create a ring the primary holds
      --respawn          a process that exits (exit, a DELETE, a crash) starts again afresh;
                         without it, it stays gone, as SPP's processes do

Packets (the primary's counters follow them through what the processes are told to run):
      --traffic PORT=PPS packets a second arriving on a phy port, e.g. phy:0=20000
                         (repeatable); without it no packet arrives and every counter stays 0
      --reader-pps PROC=PPS
                         the most packets a second a process moves (PROC: primary, nfv:1,
                         vf:2, mirror:3; repeatable; default ${READER_PPS}): a slow reader
      --traffic-macs LIST
                         the destination MACs the packets carry, in equal shares (default
                         ${TRAFFIC_MACS.join(',')}): a vf's classifier sends each to its
                         entry's port and drops what matches no entry

Processes wait for their controller if it is not there yet, and reconnect when it closes their
connection, as SPP's do (again at once, then after 0.1 s, doubling up to every second).
Ctrl-C stops them.
`

const say = (line: string) => process.stderr.write(`spp-sim: ${line}\n`)
const fail = (message: string): never => {
  process.stderr.write(`spp-sim: ${message}\n\n${HELP}`)
  process.exit(2)
}
const number = (text: string, what: string, min: number, max: number) =>
  /^-?[0-9]+$/.test(text) && Number(text) >= min && Number(text) <= max
    ? Number(text)
    : fail(`${what} must be an integer from ${min} to ${max}`)

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        host: { type: 'string', default: '127.0.0.1' },
        'pri-port': { type: 'string', short: 'p', default: '5555' },
        'sec-port': { type: 'string', short: 's', default: '6666' },
        primary: { type: 'boolean' },
        nfv: { type: 'string', multiple: true, default: [] },
        vf: { type: 'string', multiple: true, default: [] },
        mirror: { type: 'string', multiple: true, default: [] },
        pcap: { type: 'string', multiple: true, default: [] },
        era: { type: 'string', default: '18.11' },
        'poll-ms': { type: 'string' },
        rings: { type: 'string', short: 'n', default: '4' },
        'phy-ports': { type: 'string', default: '2' },
        lcores: { type: 'string', multiple: true, default: [] },
        'no-rte-flow': { type: 'boolean' },
        'shared-ports': { type: 'boolean' },
        respawn: { type: 'boolean' },
        traffic: { type: 'string', multiple: true, default: [] },
        'reader-pps': { type: 'string', multiple: true, default: [] },
        'traffic-macs': { type: 'string' },
        fault: { type: 'string', multiple: true, default: [] },
        help: { type: 'boolean', short: 'h' },
      },
    })
  } catch (error) {
    return fail((error as Error).message)
  }
})()
if (values.help) {
  process.stdout.write(HELP)
  process.exit(0)
}

const lcores = new Map<string, number[]>()
for (const text of values.lcores) {
  const parsed = parseLcoresFlag(text)
  if (typeof parsed === 'string') fail(parsed)
  else lcores.set(parsed.target, parsed.lcores)
}
/** A process's lcores: its own `--lcores`, its kind's, or the default. */
const withLcores = (spec: SimSpec): SimSpec => {
  const own = lcores.get(`${spec.kind}:${spec.clientId}`) ?? lcores.get(spec.kind)
  return own ? { ...spec, lcores: own } : spec
}

const specs: SimSpec[] = [
  ...(values.primary ? [{ kind: 'primary' as const }] : []),
  ...values.nfv.map((id) => ({ kind: 'nfv' as const, clientId: number(id, '--nfv', 0, 65535) })),
  ...values.vf.map((id) => ({ kind: 'vf' as const, clientId: number(id, '--vf', -128, 127) })),
  ...values.mirror.map((id) => ({
    kind: 'mirror' as const,
    clientId: number(id, '--mirror', -128, 127),
  })),
  ...values.pcap.map((id) => ({
    kind: 'pcap' as const,
    clientId: number(id, '--pcap', -128, 127),
  })),
]
for (const target of lcores.keys()) {
  const [kind = '', id] = target.split(':')
  if (!specs.some((spec) => spec.kind === kind && (id === undefined || spec.clientId === +id)))
    fail(`--lcores ${target}: no such process is started`)
}
if (specs.length === 0)
  fail('name at least one process (--primary, --nfv ID, --vf ID, --mirror ID, --pcap ID)')
const era =
  values.era === '18.11' || values.era === '2020' ? values.era : fail('--era is 18.11 or 2020')
if (era === '18.11' && values.pcap.length > 0)
  fail('--pcap needs --era 2020 (spp_pcap came in 2019)')
const phyPorts = number(values['phy-ports'], '--phy-ports', 0, 32)
const sources: Record<string, number> = {}
for (const text of values.traffic) {
  const parsed = parseTrafficFlag(text, phyPorts)
  if (typeof parsed === 'string') fail(parsed)
  else if (parsed.port in sources) fail(`--traffic ${parsed.port}: given twice`)
  else sources[parsed.port] = parsed.pps
}
const readerPps: Record<string, number> = {}
for (const text of values['reader-pps']) {
  const parsed = parseReaderFlag(text)
  if (typeof parsed === 'string') fail(parsed)
  else if (parsed.process in readerPps) fail(`--reader-pps ${parsed.process}: given twice`)
  else readerPps[parsed.process] = parsed.pps
}
for (const name of Object.keys(readerPps)) {
  const [kind = '', id] = name.split(':')
  if (!specs.some((spec) => spec.kind === kind && (id === undefined || spec.clientId === +id)))
    fail(`--reader-pps ${name}: no such process is started`)
}
const macList = values['traffic-macs'] === undefined ? [] : parseMacList(values['traffic-macs'])
const macs = typeof macList === 'string' ? fail(macList) : macList

const faults: Faults = {}
for (const text of values.fault) {
  const parsed = parseFault(text)
  if (typeof parsed === 'string') fail(parsed)
  Object.assign(faults, parsed)
}

const sims = createSims(specs.map(withLcores), {
  host: values.host,
  rings: number(values.rings, '--rings', 1, 1024),
  phyQueues: Array.from({ length: phyPorts }, () => 1),
  traffic: { sources, readerPps, macs },
  flowSupport: !values['no-rte-flow'],
  sharedPorts: values['shared-ports'] ?? false,
  respawn: values.respawn ?? false,
  primaryPort: number(values['pri-port'], '--pri-port', 1, 65535),
  secondaryPort: number(values['sec-port'], '--sec-port', 1, 65535),
  era,
  pollMs: number(values['poll-ms'] ?? (era === '2020' ? '0' : '1000'), '--poll-ms', 0, 60_000),
  reconnect: true,
  faults,
})

// A controller that is not there (yet, or any more) is said once per address until one of its
// processes connects; every process keeps trying, as SPP's do.
const waiting = new Set<string>()
for (const sim of sims) {
  const address = `${sim.options.host ?? '127.0.0.1'}:${sim.options.port}`
  let connections = 0
  sim.on('unreachable', (error) => {
    if (waiting.has(address)) return
    waiting.add(address)
    const code = (error as NodeJS.ErrnoException).code
    const reason = code === 'ECONNREFUSED' ? 'connection refused' : error.message
    say(`waiting for the controller at ${address} (${reason}); trying again until it answers`)
  })
  sim.on('connected', () => {
    waiting.delete(address)
    say(`${sim.label} (${era}) ${connections++ === 0 ? 'connected' : 'connected again'}`)
  })
  sim.on('crashed', (reason) => say(`${sim.label} died: ${reason}`))
  sim.on('command', (line) => say(`${sim.label} <- ${JSON.stringify(line)}`))
  sim.on('disconnected', () => say(`${sim.label} disconnected`))
  sim.on('exited', () => say(`${sim.label} exited for good`))
  void sim.start() // with reconnect it never rejects: it connects, however long that takes
}
process.on('SIGINT', () => {
  for (const sim of sims) sim.stop()
  process.exit(0)
})
process.on('SIGTERM', () => process.emit('SIGINT'))
