// The primary in a desired document: a 2020 primary's forwarder and pipes (spp-protocol-2020 §4.2).
import * as v from 'valibot'
import { PORT_USES, portId, type PortUse } from '../protocol/tokens.ts'

// Shown by GET /v1/topology, never planned: counters, lcores, flow rules; an export's `error`.
const readOnly = v.optional(v.unknown())
// The forwarder's status names no queue (`phy:0`, never `phy:0 nq 1`), so neither does this.
const PrimaryPort = portId('primaryPatch', (cap) => cap !== 'phyQueues')
// Running/Idle as the spec words them; running/idling as the processes do (the primary always, an
// nfv under --nfv-status wire), as GET /v1/topology shows them: a document it exports plans back.
const WORDS = { Running: 'Running', Idle: 'Idle', running: 'Running', idling: 'Idle' } as const
/** A forwarder's wanted status, in either wording, read as Running or Idle. */
export const ForwarderStatus = v.pipe(
  v.picklist(Object.keys(WORDS) as (keyof typeof WORDS)[], 'expected Running or Idle'),
  v.transform((word) => WORDS[word]),
)
/** A pipe's id or one of its rings, as the status numbers them: bounded as their port ids are. */
const index = (use: PortUse, what: string) => {
  const { max } = PORT_USES[use]
  const message = `expected ${what}: an integer 0 to ${max}`
  return v.pipe(
    v.number(message),
    v.integer(message),
    v.minValue(0, message),
    v.maxValue(max, message),
  )
}
const Ring = index('ring', 'a ring id')

/** The desired primary: its forwarder's status, ports and patches, and its pipes, are planned. */
export const PrimaryDesired = v.strictObject(
  {
    error: readOnly,
    'master-lcore': readOnly,
    lcores: readOnly,
    phy_ports: readOnly,
    ring_ports: readOnly,
    simulator: readOnly, // a simulated primary's status says so (spp-sim): nothing to plan
    forwarder: v.optional(
      v.strictObject(
        {
          status: v.optional(ForwarderStatus),
          ports: v.optional(v.array(PrimaryPort, 'expected an array of port ids')),
          patches: v.optional(
            v.array(v.strictObject({ src: PrimaryPort, dst: PrimaryPort }), 'expected an array'),
          ),
        },
        'expected a forwarder object with status, ports, patches',
      ),
    ),
    pipes: v.optional(
      v.array(
        v.strictObject({ id: index('primaryPort', 'a pipe id'), rx: Ring, tx: Ring }),
        'expected an array of pipes {id, rx, tx}',
      ),
    ),
  },
  'expected a primary object with forwarder, pipes',
)
/** A 2020 primary's wanted forwarder (status, ports, patches) and pipes. */
export type DesiredPrimary = v.InferOutput<typeof PrimaryDesired>
