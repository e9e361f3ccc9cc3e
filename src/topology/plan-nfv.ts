// The nfv part of a plan: its forwarder (ports, patches, Running/Idle), as plan-forwarder plans it.
import type { NfvInfo } from '../protocol/bodies.ts'
import { processId } from '../protocol/process-id.ts'
import type { DesiredNfv } from './document.ts'
import { planForwarder, wantedForwarder, type Forwarder } from './plan-forwarder.ts'
import type { Context, Phased } from './steps.ts'

/** An nfv adds its ports with the other build-up steps of the secondaries (phase 10). */
const nfvForwarder = (id: string): Forwarder => ({
  field: `nfvs.${id}`,
  who: `nfv ${id}`,
  process: processId('nfv', Number(id)),
  base: `/v1/nfvs/${id}`,
  use: 'nfvPort',
  addPhase: 10,
})

/** The nfv's wanted ports (phy included) and patches, checked; absent fields keep the live ones. */
export const wantedNfv = (id: string, live: NfvInfo, wanted: DesiredNfv, context: Context) =>
  wantedForwarder(nfvForwarder(id), live, wanted, context)

/** Steps for one nfv, each with its phase of the design note's order. */
export function planNfv(id: string, live: NfvInfo, wanted: DesiredNfv, context: Context): Phased[] {
  const f = nfvForwarder(id)
  return planForwarder(f, live, wantedForwarder(f, live, wanted, context))
}
