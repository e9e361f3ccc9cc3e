// The processes and the chain the topology tests (apply, undo, confirm, history, rollback) work on.
import { configurationOf } from '../../src/topology/configuration.ts'
import type { TopologyDocument } from '../../src/topology/read-topology.ts'
import type { Harness } from './harness.ts'

/** A primary, nfv 1 and vf 2. */
export const PRIMARY_NFV_VF = [
  { kind: 'primary' as const },
  { kind: 'nfv' as const, clientId: 1 },
  { kind: 'vf' as const, clientId: 2 },
]

/** A desired document over them: nfv 1 patched to a ring, vf 2 with one forwarder. */
export const CHAIN = {
  nfvs: {
    '1': { ports: ['phy:0', 'phy:1', 'ring:0'], patches: [{ src: 'phy:0', dst: 'ring:0' }] },
  },
  vfs: { '2': { components: [{ name: 'fwd1', core: 2, type: 'forward' }] } },
}

/** The live configuration, as GET /v1/topology shows it. */
export const configuration = async (h: Pick<Harness, 'api'>) =>
  configurationOf((await h.api('GET', '/v1/topology')).json() as TopologyDocument)
