// Request bodies of the routes only 2020-era processes have (spp-protocol-2020 §10), checked strictly.
import * as v from 'valibot'

const INDEX = '(?:0|[1-9][0-9]{0,4})'
const portOf = (types: readonly string[], queue = false) =>
  v.pipe(
    v.string('expected a port id string TYPE:N'),
    v.regex(
      new RegExp(
        `^(?:(?:${types.join('|')}):${INDEX}${queue ? `|phy:${INDEX}(?:nq${INDEX})?` : ''})$`,
      ),
      `expected TYPE:N with TYPE one of ${[...(queue ? ['phy'] : []), ...types].join(', ')} and N a decimal integer without sign or leading zeros${queue ? ' (phy:NnqQ for queue Q)' : ''}`,
    ),
    v.check((id) => Number(/:(\d+)/.exec(id)?.[1]) <= 65535, 'port index must be 0 to 65535'),
  )

/**
 * primary `add`/`del`: the types the primary can create. `phy`, `tap` and anything unknown
 * would overwrite its port slot 0 and still answer `succeeded` (§2.4).
 */
export const PrimaryPort = portOf(['ring', 'vhost', 'pcap', 'nullpmd', 'memif', 'pipe'])
const RingPort = portOf(['ring'])
/** A primary patch names any port, physical ones with an optional queue. */
export const PrimaryPatchPort = portOf(
  ['ring', 'vhost', 'pcap', 'nullpmd', 'memif', 'pipe', 'tap'],
  true,
)

/** PUT /v1/primary/ports: a pipe is added with its rx and tx rings, and deleted by its id alone. */
export const PrimaryPortsBody = v.pipe(
  v.object({
    action: v.picklist(['add', 'del'], 'expected add or del'),
    port: PrimaryPort,
    rx: v.optional(RingPort),
    tx: v.optional(RingPort),
  }),
  v.forward(
    v.check(
      (b) => !(b.action === 'add' && b.port.startsWith('pipe:')) || (!!b.rx && !!b.tx),
      'expected ring:N: adding a pipe needs its rx and tx rings',
    ),
    ['rx'],
  ),
  v.forward(
    v.check(
      (b) =>
        (b.rx === undefined && b.tx === undefined) ||
        (b.action === 'add' && b.port.startsWith('pipe:')),
      'only adding a pipe takes rx and tx',
    ),
    ['rx'],
  ),
)
export type PrimaryPortsBody = v.InferOutput<typeof PrimaryPortsBody>

export const PrimaryPatchBody = v.object({ src: PrimaryPatchPort, dst: PrimaryPatchPort })

/** PUT /v1/pcaps/{id}/capture */
export const CaptureBody = v.object({
  action: v.picklist(['start', 'stop'], 'expected start or stop'),
})

/** A 19.11 nfv also creates `memif` ports (never `phy`, `tap` or `pipe`: §2.4). */
export const Nfv1911PortsBody = v.object({
  action: v.picklist(['add', 'del'], 'expected add or del'),
  port: portOf(['ring', 'vhost', 'pcap', 'nullpmd', 'memif']),
})
const NfvPatchPort = portOf(['ring', 'vhost', 'pcap', 'nullpmd', 'memif', 'tap'], true)
/** A 19.11 nfv patches queues of physical ports too (`phy:0nq1`). */
export const Nfv1911PatchBody = v.object({ src: NfvPatchPort, dst: NfvPatchPort })
