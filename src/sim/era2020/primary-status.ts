// The 2020 primary's `status` reply text (spp-protocol-2020 §4.2): compact, members in SPP's order.
import type { PrimaryModel } from '../primary-model.ts'
import type { Rule } from './flow.ts'
import { renderRule } from './flow-render.ts'

/** What the status shows of a 2020 primary: its counters, lcores, forwarder, queues, flows, pipes. */
export type Primary2020State = Pick<PrimaryModel, 'phy' | 'rings'> & {
  masterLcore: number
  lcores: number[]
  forwarder: boolean
  running: boolean
  queues: number[]
  slots: (string | undefined)[]
  patches: Map<string, string>
  pipes: Map<number, { rx: number; tx: number }>
  flows: Rule[][]
}

/** `{master-lcore,lcores[,forwarder],phy_ports,ring_ports,pipes}`: forwarder only with its thread. */
export function renderStatus(primary: Primary2020State): string {
  const lcores = `"master-lcore":${primary.masterLcore},"lcores":[${primary.lcores.join(',')}]`
  const ports = primary.slots.filter((port) => port !== undefined)
  const patches = ports.flatMap((src) => {
    const dst = primary.patches.get(src)
    return dst === undefined ? [] : [{ src, dst }]
  })
  const status = primary.running ? 'running' : 'idling'
  const forwarder = JSON.stringify({ status, ports, patches })
  const phy = primary.phy.map((p, i) => {
    const q = primary.queues[i] ?? 1
    const flow = (primary.flows[i] ?? []).map(renderRule).join(',')
    return `{"id":${p.id},"eth":"${p.eth}","rx":${p.rx},"tx":${p.tx},"tx_drop":${p.tx_drop},"nof_queues":{"rx":${q},"tx":${q}},"flow":[${flow}]}`
  })
  const rings = primary.rings.map((r) => JSON.stringify(r))
  const pipes = [...primary.pipes].map(([id, { rx, tx }]) => JSON.stringify({ id, rx, tx }))
  return `{${lcores}${primary.forwarder ? `,"forwarder":${forwarder}` : ''},"phy_ports":[${phy.join(',')}],"ring_ports":[${rings.join(',')}],"pipes":[${pipes.join(',')}]}`
}
