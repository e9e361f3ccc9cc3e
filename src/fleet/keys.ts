// The fleet's keys in etcd and the schemas of their values: the only module that knows the layout.
import * as v from 'valibot'
import { parseDesired, type DesiredDocument } from '../topology/document.ts'
import type { TopologyDocument } from '../topology/read-topology.ts'

/** Where the keys live unless `--etcd-prefix` says otherwise. */
export const DEFAULT_PREFIX = '/spp-ctl/'
/** The alive key's lease: a host that stops renewing it is gone from the fleet this much later. */
export const ALIVE_TTL_SECONDS = 10

/** A host's name as a key segment: no slash, nothing a shell or a URL would need quoting for. */
export const HostName = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, 'expected a host name: letters, digits, . _ -'),
)

/** `hosts/NAME/alive`: how to reach the host's controller; bound to its lease. */
export const Alive = v.object({
  url: v.pipe(v.string(), v.url()),
  version: v.string(),
  started: v.pipe(v.string(), v.isoTimestamp()),
})
export type Alive = v.InferOutput<typeof Alive>

const Count = v.pipe(v.number(), v.integer(), v.minValue(0))
const Unreadable = v.object({ error: v.string() })
const Port = v.string()
// What the planner and the diff read of each process (see src/topology/plan-*.ts), kept loose.
const NfvLive = v.looseObject({
  status: v.string(),
  ports: v.array(Port),
  patches: v.array(v.object({ src: Port, dst: Port })),
})
const ComponentsLive = v.looseObject({
  ports: v.array(Port),
  components: v.array(v.looseObject({ core: v.number(), type: v.string() })),
})
const section = <T extends v.GenericSchema>(process: T) =>
  v.record(v.string(), v.union([Unreadable, process]))
/** The live topology as GET /v1/topology answers it, less the primary's counters. */
const ObservedTopology = v.object({
  primary: v.looseObject({
    phy_ports: v.optional(v.array(v.object({ id: Count, eth: v.string() }))),
    ring_ports: v.optional(v.array(v.object({ id: Count }))),
    error: v.optional(v.string()),
  }),
  nfvs: section(NfvLive),
  vfs: section(ComponentsLive),
  mirrors: section(ComponentsLive),
  pcaps: v.optional(v.record(v.string(), v.looseObject({}))),
})

/** How the host's controller is doing with one desired revision, for `fleet apply` to follow. */
export const ApplyProgress = v.object({
  /** The desired key's mod_revision this is about. */
  revision: Count,
  state: v.picklist(['applying', 'converged', 'refused', 'failed']),
  /** The plan's step count (0: already in sync). */
  total: Count,
  /** Each step finished so far, in order; the last one is the failed step when `failed`. */
  steps: v.array(v.object({ why: v.string(), ms: Count, outcome: v.picklist(['done', 'failed']) })),
  /** `refused`: the planner's refusal, nothing was sent. */
  refused: v.optional(v.object({ field: v.string(), reason: v.string() })),
  /** `failed`: the step a process refused and its answer. */
  failed: v.optional(
    v.object({
      number: Count,
      method: v.string(),
      path: v.string(),
      body: v.optional(v.record(v.string(), v.unknown())),
      why: v.string(),
      status: Count,
      error: v.string(),
    }),
  ),
})
export type ApplyProgress = v.InferOutput<typeof ApplyProgress>

/** `hosts/NAME/observed`: the host as its controller last saw it. */
export const Observed = v.object({
  /** The controller's API, also once its alive key has gone. */
  url: v.pipe(v.string(), v.url()),
  topology: ObservedTopology,
  eras: v.array(v.picklist(['18.11', '2020'])),
  /** Connected processes: `primary`, `nfv:1`, `vf:2`, ... */
  processes: v.array(v.string()),
  /** Steps that would bring the live state to the desired one (0: in sync). */
  drift: Count,
  updated: v.pipe(v.string(), v.isoTimestamp()),
  apply: v.optional(ApplyProgress),
})
export type Observed = v.InferOutput<typeof Observed>
/** What a controller hands the link; the link adds `url` and `updated` as it writes. */
export type ObservedInput = Omit<Observed, 'url' | 'updated'>

/** The live document as observed carries it: the primary keeps its port ids, not its counters. */
export function observedTopology(live: TopologyDocument): Observed['topology'] {
  const { primary, ...processes } = live
  const kept: Observed['topology']['primary'] =
    'error' in primary
      ? { error: String(primary.error) }
      : 'phy_ports' in primary
        ? {
            phy_ports: primary.phy_ports.map(({ id, eth }) => ({ id, eth })),
            ring_ports: primary.ring_ports.map(({ id }) => ({ id })),
          }
        : {}
  return { primary: kept, ...(processes as Omit<Observed['topology'], 'primary'>) }
}

/** A key under the prefix: which host, and which of its three values. */
export type KeyOf = { host: string; value: 'desired' | 'observed' | 'alive' }

/** The keys of one prefix (normalised to end in `/`). */
export function fleetKeys(prefix = DEFAULT_PREFIX) {
  const root = prefix.endsWith('/') ? prefix : `${prefix}/`
  const hosts = `${root}hosts/`
  return {
    /** Every host's keys start with this. */
    hosts,
    desired: (host: string) => `${hosts}${host}/desired`,
    observed: (host: string) => `${hosts}${host}/observed`,
    alive: (host: string) => `${hosts}${host}/alive`,
    /** Which host and value a key is, or undefined for anything else under the prefix. */
    parse(key: string): KeyOf | undefined {
      const match = /^([^/]+)\/(desired|observed|alive)$/.exec(key.slice(hosts.length))
      if (!key.startsWith(hosts) || !match) return undefined
      return { host: match[1]!, value: match[2] as KeyOf['value'] }
    },
  }
}
/** The keys of one prefix. */
export type FleetKeys = ReturnType<typeof fleetKeys>

/** A stored JSON value checked against its schema, or why it is not one. */
export function decodeValue<T extends v.GenericSchema>(
  schema: T,
  text: string,
): { ok: true; value: v.InferOutput<T> } | { ok: false; error: string } {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return { ok: false, error: 'not JSON' }
  }
  const parsed = v.safeParse(schema, json)
  if (parsed.success) return { ok: true, value: parsed.output }
  const issue = parsed.issues[0]
  const path = (issue.path ?? []).map((item) => String(item.key)).join('.')
  return { ok: false, error: `${path || 'value'}: ${issue.message}` }
}

/** `hosts/NAME/desired`: the schema plan/apply reads, stored as JSON. */
export function decodeDesired(
  text: string,
): { ok: true; value: DesiredDocument } | { ok: false; error: string } {
  const json = decodeValue(v.unknown(), text)
  if (!json.ok) return json
  try {
    return { ok: true, value: parseDesired(json.value) }
  } catch (error) {
    return { ok: false, error: (error as Error).message }
  }
}
