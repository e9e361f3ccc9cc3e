// How answers word an nfv's status: the spec's Running/Idle, or the process's own running/idling.
import type { NfvInfo } from '../protocol/bodies.ts'
import { WIRE_STATUS } from '../protocol/kinds/nfv.ts'
import type { TopologyDocument } from '../topology/read-topology.ts'

/** `spec` (default): Running/Idle as the REST spec says; `wire`: as SPP's controller answered. */
export type NfvStatusWords = 'spec' | 'wire'

/** Words an nfv's status; in `spec` words the same object (so a shared reply is serialised once). */
export const presentNfv = (words: NfvStatusWords) =>
  words === 'spec'
    ? (info: NfvInfo): object => info
    : (info: NfvInfo): object => ({ ...info, status: WIRE_STATUS[info.status] })

/** Words every nfv of a topology document. */
export function presentTopology(words: NfvStatusWords) {
  const nfv = presentNfv(words)
  return (document: TopologyDocument): object =>
    words === 'spec'
      ? document
      : {
          ...document,
          nfvs: Object.fromEntries(
            Object.entries(document.nfvs).map(([id, info]) => [
              id,
              'error' in info ? info : nfv(info),
            ]),
          ),
        }
}

/** How GET answers word nfv status, per the controller's `--nfv-status`. */
export type Presenters = {
  nfv: (info: NfvInfo) => object
  topology: (document: TopologyDocument) => object
}
export const presenters = (words: NfvStatusWords): Presenters => ({
  nfv: presentNfv(words),
  topology: presentTopology(words),
})
