// The 2020 primary's `status` reply text (spp-protocol-2020 §4.2): compact, members in SPP's order.
import { SIMULATOR, type PrimaryModel } from '../primary-model.ts'
import type { Rule } from './flow.ts'
import { renderRule } from './flow-render.ts'

/** What the status shows of a 2020 primary: its counters, lcores, forwarder, queues, flows, pipes. */
export type Primary2020State = {
  masterLcore: number
  lcores: number[]
  forwarder: boolean
  running: boolean
  queues: number[]
  slots: (string | undefined)[]
  patches: Map<number, number>
  pipes: { id: number; rx: number; tx: number }[]
  flows: Rule[][]
}

/** `{master-lcore,lcores[,forwarder],phy_ports,ring_ports,pipes}` (and `simulator`): forwarder only with its thread. */
export function renderStatus(
  primary: Primary2020State,
  { phy: phyPorts, rings }: ReturnType<PrimaryModel['counters']>,
): string {
  const lcores = `"master-lcore":${primary.masterLcore},"lcores":[${primary.lcores.join(',')}]`
  const ports = primary.slots.filter((port) => port !== undefined)
  const patches = [...primary.patches]
    .sort(([a], [b]) => a - b)
    .map(([src, dst]) => ({ src: primary.slots[src]!, dst: primary.slots[dst] ?? 'udf' }))
  const status = primary.running ? 'running' : 'idling'
  const forwarder = JSON.stringify({ status, ports, patches })
  const phy = phyPorts.map((p, i) => {
    const q = primary.queues[i] ?? 1
    const flow = (primary.flows[i] ?? []).map(renderRule).join(',')
    return `{"id":${p.id},"eth":"${p.eth}","rx":${p.rx},"tx":${p.tx},"tx_drop":${p.tx_drop},"nof_queues":{"rx":${q},"tx":${q}},"flow":[${flow}]}`
  })
  const ringText = rings.map((r) => JSON.stringify(r))
  const pipes = primary.pipes.map((pipe) => JSON.stringify(pipe))
  return `{${lcores}${primary.forwarder ? `,"forwarder":${forwarder}` : ''},"phy_ports":[${phy.join(',')}],"ring_ports":[${ringText.join(',')}],"pipes":[${pipes.join(',')}],${SIMULATOR.replace(': ', ':')}}`
}
