// What moves packets in a configuration, and between which ports: the one model that the paths,
// the apply's order and the plan's warnings read. Pure.
import { isClassifier } from '../protocol/release.ts'

/** How a mover moves packets: one port to another, several to one, by MAC, or copied to each tx. */
export type MoverKind = 'patch' | 'forward' | 'merge' | 'classifier' | 'mirror' | 'capture'

/** A classifier's entry: packets to `value` (a MAC, or `VID/MAC`) go to `port`. */
export type TableEntry = { type: string; value: string; port: string }

/**
 * One thing that moves packets: an nfv's patch, a 2020 primary forwarder's patch, a vf's or
 * mirror's component, or a pcap's capture. Ports are named as the process lists them (`ring:0`,
 * `phy:0`, a queue `phy:0 nq 1`, a 2020 primary's `pipe:1`).
 */
export type Mover = {
  /** The process: `nfv:1`, `vf:2`, `mirror:3`, `pcap:4`, `primary`. */
  process: string
  /** Its name within the process: a component's name, or a patch's `phy:0>ring:0`. */
  name: string
  kind: MoverKind
  /** The ports it polls. */
  reads: string[]
  /** The ports it sends into (none for a capture: it writes a file). */
  writes: string[]
  /**
   * Whether it moves packets now: a patch while its nfv or forwarder is Running, a component
   * always (a vf or mirror lists only the components it runs), a capture while its pcap runs.
   */
  running: boolean
  /** A classifier's table: where each destination goes (what matches no entry is dropped). */
  table?: TableEntry[]
}

type Unreadable = { error: string }
type PortUse = { port: string }
type Component = {
  name?: string | undefined
  type: string
  rx_port?: PortUse[] | undefined
  tx_port?: PortUse[] | undefined
}
type Patches = { status?: string | undefined; patches?: { src: string; dst: string }[] | undefined }
type Pcap = { status?: string; core?: { role?: string; rx_port?: PortUse[]; filename?: string }[] }

/**
 * The shape both a topology document (GET /v1/topology) and a desired document have, as far as
 * moving packets goes: patches and their Running/Idle, components and classifier tables, a pcap's
 * capture. A process that could not be read moves nothing that we know of.
 */
export type MovingParts = {
  primary?: { forwarder?: Patches | undefined } | Unreadable | object | undefined
  nfvs?: Record<string, Patches | Unreadable> | undefined
  vfs?:
    | Record<string, { components?: Component[]; classifier_table?: TableEntry[] } | Unreadable>
    | undefined
  mirrors?: Record<string, { components?: Component[] } | Unreadable> | undefined
  pcaps?: Record<string, Pcap | Unreadable> | undefined
}

/** Running in either wording: the spec's (`Running`) or the process's own (`running`). */
const isRunning = (status: string | undefined) => status === 'Running' || status === 'running'

const readable = <T extends object>(value: T | Unreadable | undefined): value is T =>
  value !== undefined && !('error' in value)

const patchMovers = (process: string, forwarder: Patches): Mover[] =>
  (forwarder.patches ?? []).map(({ src, dst }) => ({
    process,
    name: `${src}>${dst}`,
    kind: 'patch',
    reads: [src],
    writes: [dst],
    running: isRunning(forwarder.status),
  }))

function componentMovers(process: string, components: Component[], table: TableEntry[]): Mover[] {
  return components.flatMap(({ name, type, rx_port = [], tx_port = [] }): Mover[] => {
    if (name === undefined || type === 'unuse') return []
    const kind: MoverKind = isClassifier(type)
      ? 'classifier'
      : type === 'merge' || type === 'mirror'
        ? type
        : 'forward'
    const writes = tx_port.map((p) => p.port)
    const mover: Mover = {
      process,
      name,
      kind,
      reads: rx_port.map((p) => p.port),
      writes,
      running: true,
    }
    if (kind === 'classifier') mover.table = table.filter((entry) => writes.includes(entry.port))
    return [mover]
  })
}

/** Every mover of a document, in the document's order (the primary, nfvs, vfs, mirrors, pcaps). */
export function moversOf(document: MovingParts): Mover[] {
  const movers: Mover[] = []
  const { primary } = document
  if (primary !== undefined && 'forwarder' in primary && primary.forwarder !== undefined)
    movers.push(...patchMovers('primary', primary.forwarder))
  for (const [id, nfv] of Object.entries(document.nfvs ?? {}))
    if (readable(nfv)) movers.push(...patchMovers(`nfv:${id}`, nfv))
  for (const [id, vf] of Object.entries(document.vfs ?? {}))
    if (readable(vf))
      movers.push(...componentMovers(`vf:${id}`, vf.components ?? [], vf.classifier_table ?? []))
  for (const [id, mirror] of Object.entries(document.mirrors ?? {}))
    if (readable(mirror))
      movers.push(...componentMovers(`mirror:${id}`, mirror.components ?? [], []))
  for (const [id, pcap] of Object.entries(document.pcaps ?? {}))
    if (readable(pcap))
      for (const core of pcap.core ?? [])
        if (core.rx_port !== undefined && core.rx_port.length > 0)
          movers.push({
            process: `pcap:${id}`,
            name: core.role ?? 'receive',
            kind: 'capture',
            reads: core.rx_port.map((p) => p.port),
            writes: [],
            running: isRunning(pcap.status),
          })
  return movers
}

/** The device a listed port is: a queue `phy:0 nq 1` (or the wire's `phy:0nq1`) is `phy:0`. */
export const deviceOf = (port: string): string => /^[a-z]+:\d+/.exec(port)?.[0] ?? port

/** The movers that poll `port` (any queue of it). */
export const readersOf = (movers: readonly Mover[], port: string): Mover[] =>
  movers.filter((m) => m.reads.some((p) => deviceOf(p) === deviceOf(port)))

/** The movers that send into `port` (any queue of it). */
export const writersOf = (movers: readonly Mover[], port: string): Mover[] =>
  movers.filter((m) => m.writes.some((p) => deviceOf(p) === deviceOf(port)))
