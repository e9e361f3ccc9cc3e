// What a primary's status shows of its forwarder and pipes (spp-protocol-2020 §4.2, §9.2), read
// once for the configuration export, the planner and the diff.
import * as v from 'valibot'
import type { PrimaryStatus } from '../protocol/bodies.ts'
import { SPEC_STATUS } from '../protocol/kinds/nfv.ts'
import {
  CAPABILITIES,
  capsOf,
  firstLearnt,
  later,
  statusShows,
  type Capability,
  type Release,
} from '../protocol/release.ts'
import { fieldPath } from './document.ts'
import type { ForwarderState } from './plan-forwarder.ts'

const Index = v.pipe(v.number(), v.integer(), v.minValue(0))
const Shown = v.object({
  forwarder: v.optional(
    v.object({
      status: v.picklist(['running', 'idling']),
      ports: v.array(v.string()),
      patches: v.array(v.object({ src: v.string(), dst: v.string() })),
    }),
  ),
  pipes: v.optional(v.array(v.object({ id: Index, rx: Index, tx: Index }))),
})

/** A pipe port `pipe:id` of the primary, over two of its rings (by ring id). */
export type Pipe = { id: number; rx: number; tx: number }
/** A primary as the planner sees it: its release, its forwarder when its thread runs, its pipes. */
export type PrimaryShown = {
  release: Release
  has: (cap: Capability) => boolean
  /** Why its release cannot add a port that needs `cap`; undefined when it can. */
  lacks: (cap: Capability) => string | undefined
  forwarder?: ForwarderState
  pipes: Pipe[]
}

/** Whether a topology document's primary is a status read (not an error, not absent). */
export const isStatus = (primary: object): primary is PrimaryStatus => 'phy_ports' in primary

/** The forwarder (in the spec's words, without `udf`) and pipes of a primary's status. */
export function readPrimary(status: PrimaryStatus): PrimaryShown | { error: string } {
  const shown = v.safeParse(Shown, status)
  if (!shown.success)
    return { error: `its ${fieldPath(shown.issues[0])} is not as SPP 2020 shows it` }
  const { forwarder, pipes = [] } = shown.output
  // `pipes` came with 19.11 (§9.2); the status markers of release.ts stop at 19.08.
  const first = statusShows('primary', status).release
  const release = 'pipes' in status ? later(first, '19.11') : first
  const caps = capsOf(firstLearnt('primary', { release }))
  const has = (cap: Capability) => caps.has(cap)
  const lacks = (cap: Capability) =>
    has(cap)
      ? undefined
      : `${cap} ports need SPP ${CAPABILITIES[cap]}: the primary is SPP ${release}`
  if (!forwarder) return { release, has, lacks, pipes }
  const ports = forwarder.ports.filter((port) => port !== 'udf')
  const { patches } = forwarder
  return {
    release,
    has,
    lacks,
    pipes,
    forwarder: { status: SPEC_STATUS[forwarder.status], ports, patches },
  }
}
