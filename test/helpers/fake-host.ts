// A fleet host without a controller: a real FleetLink whose apply callback plays an nfv's changes
// and writes observed as a controller would (plan, each step, converged / refused / failed).
import type { Etcd3 } from 'etcd3'
import { pino } from 'pino'
import { fleetKeys, observedTopology, type ApplyProgress } from '../../src/fleet/keys.ts'
import { createFleetLink, type DesiredUpdate, type FleetLink } from '../../src/fleet/link.ts'
import type { DesiredDocument } from '../../src/topology/document.ts'
import { plan, type Step } from '../../src/topology/plan.ts'
import { wantedNfv } from '../../src/topology/plan-nfv.ts'
import type { TopologyDocument } from '../../src/topology/read-topology.ts'
import type { NfvInfo } from '../../src/protocol/bodies.ts'
import { revisionNow, waitForKey } from './etcd.ts'

/** The topology every fake host starts with: a primary with four rings, nfv 1 idle on two phys. */
export const FAKE_LIVE = (): TopologyDocument => ({
  primary: {
    phy_ports: [0, 1].map((id) => ({ id, eth: `56:48:4f:12:34:0${id}`, rx: 0, tx: 0, tx_drop: 0 })),
    ring_ports: [0, 1, 2, 3].map((id) => ({ id, rx: 0, rx_drop: 0, tx: 0, tx_drop: 0 })),
  },
  nfvs: { 1: { 'client-id': 1, status: 'Idle', ports: ['phy:0', 'phy:1'], patches: [] } },
  vfs: {},
  mirrors: {},
})

export type FakeHost = {
  name: string
  link: FleetLink
  /** Every desired update handed over, in order. */
  applied: DesiredUpdate[]
  live(): TopologyDocument
  /** nfv 1 restarts empty (as FAKE_LIVE has it): the host drifts from its desired document. */
  restartNfv(): void
  close(options?: { revoke?: boolean }): Promise<void>
}

/** Starts host `name` on etcd; `fail` names a step the pretend process refuses, with its error. */
export async function startFakeHost(
  endpoint: string,
  name: string,
  { fail }: { fail?: (step: Step) => string | undefined } = {},
): Promise<FakeHost> {
  const live = FAKE_LIVE()
  let desired: DesiredDocument = {}
  const applied: DesiredUpdate[] = []
  let queue = Promise.resolve()
  const publish = (apply?: ApplyProgress) => {
    const drift = plan(live, desired)
    link.publishObserved({
      topology: observedTopology(live),
      eras: ['18.11'],
      processes: ['primary', ...Object.keys(live.nfvs).map((id) => `nfv:${id}`)],
      drift: drift.ok ? drift.plan.steps.length : 0,
      ...(apply && { apply }),
    })
  }
  async function apply(update: DesiredUpdate) {
    applied.push(update)
    desired = update.document
    const { revision } = update
    const result = plan(live, desired)
    if (!result.ok)
      return publish({ revision, state: 'refused', total: 0, steps: [], refused: result.refusal })
    const { steps } = result.plan
    const total = steps.length
    const done: ApplyProgress['steps'] = []
    publish({ revision, state: 'applying', total, steps: [] })
    for (const [i, step] of steps.entries()) {
      await new Promise(setImmediate) // each step in a turn of its own, as a REST request would be
      const error = fail?.(step)
      if (error !== undefined) {
        done.push({ why: step.why, ms: 0, outcome: 'failed' })
        const { method, path, body, why } = step
        const failed = { number: i + 1, method, path, body, why, status: 400, error }
        return publish({ revision, state: 'failed', total, steps: done, failed })
      }
      done.push({ why: step.why, ms: 0, outcome: 'done' })
      publish({ revision, state: 'applying', total, steps: [...done] })
    }
    for (const [id, wanted] of Object.entries(desired.nfvs ?? {})) {
      const state = live.nfvs[id] as NfvInfo
      const { ports, patches, status } = wantedNfv(id, state, wanted, {})
      live.nfvs[id] = { ...state, ports, patches, status }
    }
    publish({ revision, state: 'converged', total, steps: done })
  }
  const link = await createFleetLink({
    endpoints: [endpoint],
    host: name,
    url: `http://127.0.0.1:${7000 + name.charCodeAt(0)}`,
    version: '0.1.0',
    log: pino({ level: 'silent' }),
    onDesired: (update) => void (queue = queue.then(() => apply(update))),
  })
  publish()
  await link.ready
  return {
    name,
    link,
    applied,
    live: () => live,
    restartNfv() {
      live.nfvs['1'] = FAKE_LIVE().nfvs['1']!
      publish()
    },
    close: (options) => link.close(options),
  }
}

/** Starts fake hosts and resolves once each one's alive and observed keys are in etcd. */
export async function startFakeHosts(
  endpoint: string,
  client: Etcd3,
  names: string[],
  options: Parameters<typeof startFakeHost>[2] = {},
): Promise<FakeHost[]> {
  const keys = fleetKeys()
  const fromRevision = (await revisionNow(client)) + 1
  const hosts = await Promise.all(names.map((name) => startFakeHost(endpoint, name, options)))
  await Promise.all(
    names.flatMap((name) =>
      [keys.alive(name), keys.observed(name)].map((key) =>
        waitForKey(client, key, (e) => e.type === 'put', { fromRevision }),
      ),
    ),
  )
  return hosts
}
