// The paths packets take, as GET /v1/topology/paths and the `rates` events show them: the schemas
// (for the OpenAPI document) and their types.
import * as v from 'valibot'

/** Where a number comes from: a counter SPP keeps, the hop before's, or nothing at all. */
export const RATE_SOURCES = ['counted', 'inferred', 'not counted'] as const

const Missing = v.pipe(
  v.picklist(['no-window', 'reset']),
  v.description(
    'why pps is null: no two reads of the counters a second apart yet, or the counter went down (cleared, or the primary restarted)',
  ),
)

/** Packets a second through one side of a hop, and the counter they come from. */
export const Rate = v.object({
  pps: v.pipe(
    v.nullable(v.number()),
    v.description('packets a second; null when not counted, or with `missing`'),
  ),
  source: v.pipe(
    v.picklist(RATE_SOURCES),
    v.description(
      'counted: from `counter`; inferred: taken from `counter`, the hop before (what enters a ring is what its one reader takes); not counted: SPP counts nothing here (pps null, never 0)',
    ),
  ),
  counter: v.pipe(
    v.nullable(v.string()),
    v.description(
      "the primary's counter, as `PORT NAME` (`ring:0 tx`); for `not counted`, the one that would count it; null where none could (a capture's file)",
    ),
  ),
  missing: v.optional(Missing),
  shared_by: v.optional(
    v.pipe(
      v.number(),
      v.description(
        'the counter counts this many hops together (readers of one port, writers into one ring)',
      ),
    ),
  ),
  note: v.optional(v.string()),
})
export type Rate = v.InferOutput<typeof Rate>

/** One counter of one of the primary's ports. */
export const PortCounter = v.object({
  value: v.pipe(v.number(), v.description('the count the newest read showed')),
  pps: v.nullable(v.number()),
  counted: v.pipe(
    v.boolean(),
    v.description(
      "false: still 0 and one SPP leaves at 0 for some moves (a ring's rx, a phy port's tx when a secondary sends): not counted (pps null), not 0",
    ),
  ),
  missing: v.optional(Missing),
  note: v.optional(v.string()),
})
export type PortCounter = v.InferOutput<typeof PortCounter>

/** The verdicts, in the order they are judged: the first that applies is a hop's. */
export const VERDICTS = [
  'dropping',
  'idle',
  'loop',
  'dead_end',
  'unknown',
  'flowing',
  'no_traffic',
  'not_counted',
] as const
export type VerdictName = (typeof VERDICTS)[number]
/** The verdicts that are something to put right. */
export const PROBLEMS: readonly VerdictName[] = ['dropping', 'idle', 'loop', 'dead_end']

/** What a hop does now. */
export const Verdict = v.object({
  verdict: v.pipe(
    v.picklist(VERDICTS),
    v.description(
      'dropping: drops grow now at `port`; idle: its mover, or every one before it, is stopped; loop: what it sends comes back to where it reads; dead_end: it sends into a ring nothing reads (drops not growing); unknown: no rates yet; flowing; no_traffic: nothing arrives; not_counted: SPP counts nothing of it nor of what comes before',
    ),
  ),
  problem: v.pipe(v.boolean(), v.description('dropping, idle, loop and dead_end are problems')),
  reason: v.string(),
  port: v.optional(
    v.pipe(v.string(), v.description('where packets are lost, or the ring a loop comes back to')),
  ),
  reader: v.optional(
    v.pipe(
      v.picklist(['none', 'stopped', 'slower']),
      v.description("dropping: the port's readers: none, all stopped, or slower than its writers"),
    ),
  ),
  readers: v.optional(v.array(v.string())),
  stopped: v.optional(
    v.pipe(v.array(v.string()), v.description('idle: the stopped movers, as `by.label`')),
  ),
})
export type Verdict = v.InferOutput<typeof Verdict>

/** What moves the packets of a hop. */
export const HopMover = v.object({
  process: v.pipe(v.string(), v.description('`nfv:1`, `vf:2`, `mirror:3`, `pcap:4`, `primary`')),
  kind: v.picklist(['patch', 'forward', 'merge', 'classifier', 'mirror', 'capture']),
  name: v.pipe(
    v.string(),
    v.description("a component's name, a patch's `SRC>DST`, a capture's role"),
  ),
  label: v.pipe(v.string(), v.description('`nfv:1` (a patch), `vf:2 fwd1`: as reasons name it')),
})
export type HopMover = v.InferOutput<typeof HopMover>

/** One move: from a port, by a patch or component, into the next port. */
export const Hop = v.object({
  id: v.pipe(v.string(), v.description('`LABEL FROM>TO`: stable while the configuration is')),
  from: v.string(),
  to: v.pipe(v.nullable(v.string()), v.description('null for a capture, which writes a file')),
  by: HopMover,
  state: v.picklist(['running', 'stopped']),
  table: v.optional(
    v.pipe(
      v.array(v.object({ type: v.string(), value: v.string(), port: v.string() })),
      v.description("a classifier's entries that send to `to`"),
    ),
  ),
  rates: v.object({
    offered: v.pipe(Rate, v.description('what it takes from `from`')),
    delivered: v.pipe(Rate, v.description('what it puts into `to`')),
    dropped: v.pipe(Rate, v.description('what `to` could not take')),
  }),
  verdict: Verdict,
  end: v.optional(
    v.pipe(
      v.picklist(['leaves', 'captured', 'unread']),
      v.description(
        'leaves: `to` is where packets leave (phy, vhost, pcap, nullpmd, ... tx); captured: to a file; unread: a ring (or deleted port) no SPP process reads',
      ),
    ),
  ),
  next: v.pipe(
    v.array(v.string()),
    v.description('the ids of the hops that read `to` (a ring): the tree goes on there'),
  ),
})
export type Hop = v.InferOutput<typeof Hop>

/** Where packets enter, and the first hops of the tree they follow. */
export const Path = v.object({
  entry: v.pipe(
    v.string(),
    v.description(
      'a phy port, a vhost, pcap, ... port a process reads, or a ring only an application writes',
    ),
  ),
  arriving: v.pipe(Rate, v.description('what enters there')),
  polled: v.pipe(v.boolean(), v.description('whether anything reads it (running or not)')),
  first: v.array(v.string()),
  verdict: v.pipe(
    v.nullable(v.picklist(VERDICTS)),
    v.description(
      'the worst of its hops (a problem first, then unknown, flowing, no_traffic); null without hops',
    ),
  ),
})
export type Path = v.InferOutput<typeof Path>

/** GET /v1/topology/paths, and the data of each `rates` event. */
export const PathsDocument = v.object({
  window_s: v.pipe(
    v.nullable(v.number()),
    v.description('seconds between the two reads of the counters the rates are taken over'),
  ),
  not_read: v.pipe(
    v.array(v.string()),
    v.description('processes whose configuration is not known yet: what they move is missing'),
  ),
  ports: v.pipe(
    v.record(v.string(), v.record(v.string(), PortCounter)),
    v.description('each port the primary counts (`phy:0`, `ring:0`), each of its counters'),
  ),
  paths: v.array(Path),
  hops: v.pipe(v.array(Hop), v.description("every hop once, in the configuration's order")),
  problems: v.pipe(
    v.array(v.string()),
    v.description('the ids of the hops whose verdict is a problem'),
  ),
})
export type PathsDocument = v.InferOutput<typeof PathsDocument>

/** A hop's verdict, as GET /v1/topology carries it. */
export const HopVerdict = v.object({
  hop: v.string(),
  from: v.string(),
  to: v.nullable(v.string()),
  by: HopMover,
  verdict: Verdict,
})
export type HopVerdict = v.InferOutput<typeof HopVerdict>
