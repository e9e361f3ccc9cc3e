// @ts-check
// The topology document as graph elements (cytoscape's shape), each edge with the rate its hops
// carry (the paths document's): pure, shared by the page and tests.
import { edgeRate } from './hops.js'

/**
 * @typedef {{ port: string, vlan?: { operation: string, id?: number, pcp?: number } }} PortObject
 * @typedef {{ core: number, type: string, name?: string, rx_port?: PortObject[], tx_port?: PortObject[] }} Component
 * @typedef {{ 'client-id': number, status: string, ports: string[], patches: { src: string, dst: string }[] }} Nfv
 * @typedef {{ 'client-id': number, ports: string[], components: Component[], classifier_table?: { type: string, value: string, port: string }[] }} Vf
 * @typedef {{ 'client-id': number, status: string, core: { core: number, role?: string, rx_port?: { port: string }[] }[] }} Pcap
 * @typedef {{ error: string }} Unreadable
 * @typedef {{
 *   primary: { phy_ports?: { id: number }[], ring_ports?: { id: number }[] } | Unreadable,
 *   nfvs: Record<string, Nfv | Unreadable>,
 *   vfs: Record<string, Vf | Unreadable>,
 *   mirrors: Record<string, Vf | Unreadable>,
 *   pcaps?: Record<string, Pcap | Unreadable>,
 * }} TopologyDocument
 * @typedef {{ id: string, label: string, parent?: string, [key: string]: unknown }} NodeData
 * @typedef {{ id: string, source: string, target: string, label: string, rate?: string, state?: string }} EdgeData
 * @typedef {{ group: 'nodes', data: NodeData, classes: string }} NodeElement
 * @typedef {{ group: 'edges', data: EdgeData, classes: string }} EdgeElement
 * @typedef {NodeElement | EdgeElement} Element
 */

/** Port types SPP knows, in the order the legend lists them. */
export const PORT_TYPES = ['phy', 'ring', 'vhost', 'pcap', 'nullpmd']

/** The sections of the document and the process kind each holds. */
export const SECTIONS = /** @type {const} */ ([
  ['nfvs', 'nfv'],
  ['vfs', 'vf'],
  ['mirrors', 'mirror'],
  ['pcaps', 'pcap'], // 2020-era processes only
])

/** @param {unknown} state @returns {state is Unreadable} */
export const isUnreadable = (state) =>
  typeof state === 'object' && state !== null && 'error' in state

/** The graph id of a port node: one per port, since processes share ports. */
export const portNodeId = (/** @type {string} */ port) => `port ${port}`

/** @param {PortObject['vlan']} vlan */
export const vlanLabel = (vlan) =>
  vlan === undefined || vlan.operation === 'none'
    ? ''
    : vlan.operation === 'add'
      ? `vlan add ${vlan.id} pcp ${vlan.pcp}`
      : `vlan ${vlan.operation}`

/**
 * The hops each edge carries, by the edge's id: a patch's edge carries its hop through; a
 * component's hop comes in by its rx edge and goes out by its tx edge (a capture's only comes in).
 * @param {import('./hops.js').Hop[]} hops
 * @returns {Map<string, import('./hops.js').Crossing[]>}
 */
export function hopsByEdge(hops) {
  /** @type {Map<string, import('./hops.js').Crossing[]>} */
  const edges = new Map()
  /** @param {string} id @param {import('./hops.js').Crossing} crossing */
  const add = (id, crossing) => edges.set(id, [...(edges.get(id) ?? []), crossing])
  for (const hop of hops) {
    const { process, kind, name } = hop.by
    if (kind === 'patch') add(`${process} ${hop.from} ${hop.to}`, { hop, side: 'through' })
    else if (kind === 'capture') add(`${process} rx ${hop.from}`, { hop, side: 'in' })
    else {
      add(`${process} ${name} rx ${hop.from}`, { hop, side: 'in' })
      if (hop.to !== null) add(`${process} ${name} tx ${hop.to}`, { hop, side: 'out' })
    }
  }
  return edges
}

/**
 * Nodes and edges for a topology document. Ids are stable (derived from names, never positions), so
 * the page can tell a structural change (ids added or removed) from a change of labels or classes.
 * With the paths, each edge's label ends with the rate it carries and, when it is a problem, why;
 * its class says how it is drawn (`dropping` in red).
 * @param {TopologyDocument} doc
 * @param {import('./hops.js').PathsDocument} [paths]
 * @returns {Element[]}
 */
export function toElements(doc, paths) {
  /** @type {Map<string, NodeElement>} */
  const ports = new Map()
  /** @type {Element[]} */
  const processes = []
  /** @type {EdgeElement[]} */
  const edges = []
  const port = (/** @type {string} */ id) => {
    const type = id.slice(0, id.indexOf(':'))
    if (!ports.has(id))
      ports.set(id, {
        group: 'nodes',
        data: { id: portNodeId(id), label: id, type },
        classes: `port ${PORT_TYPES.includes(type) ? type : 'other'}`,
      })
    return portNodeId(id)
  }
  if (!isUnreadable(doc.primary)) for (const p of doc.primary.phy_ports ?? []) port(`phy:${p.id}`)

  for (const [section, kind] of SECTIONS) {
    for (const [clientId, state] of Object.entries(doc[section] ?? {})) {
      const id = `${kind}:${clientId}`
      if (isUnreadable(state)) {
        processes.push(processNode(id, `${kind} ${clientId}: unreadable`, 'error'))
        continue
      }
      if (kind === 'nfv') {
        const nfv = /** @type {Nfv} */ (state)
        processes.push(processNode(id, `${kind} ${clientId} (${nfv.status})`, nfv.status))
        nfv.ports.forEach(port)
        for (const { src, dst } of nfv.patches)
          edges.push({
            group: 'edges',
            data: { id: `${id} ${src} ${dst}`, source: port(src), target: port(dst), label: id },
            classes: `patch ${nfv.status === 'Running' ? 'running' : 'idle'}`,
          })
        continue
      }
      if (kind === 'pcap') {
        // A pcap captures what its receiver reads: one wire from each port it captures.
        const pcap = /** @type {Pcap} */ (state)
        processes.push(processNode(id, `${kind} ${clientId} (${pcap.status})`, pcap.status))
        for (const c of pcap.core)
          for (const { port: p } of c.rx_port ?? [])
            edges.push(link(`${id} rx ${p}`, port(p), id, ['capture']))
        continue
      }
      // Only the ports its components use: a port it lists beside them (a ring it created, kept
      // after a detach or a rollback) carries nothing, and is listed apart in its section.
      const vf = /** @type {Vf} */ (state)
      processes.push(processNode(id, `${kind} ${clientId}`, 'component-host'))
      for (const c of vf.components) {
        if (c.name === undefined) continue // an unused core
        const node = `${id} ${c.name}`
        processes.push({
          group: 'nodes',
          data: { id: node, label: `${c.name}\n${c.type} core ${c.core}`, parent: id },
          classes: `component ${c.type}`,
        })
        const isClassifier = c.type === 'classifier_mac' || c.type === 'classifier' // 2020's word
        const classifier = isClassifier ? (vf.classifier_table ?? []) : []
        for (const { port: p, vlan } of c.rx_port ?? [])
          edges.push(link(`${node} rx ${p}`, port(p), node, [vlanLabel(vlan)]))
        for (const { port: p, vlan } of c.tx_port ?? []) {
          const entries = classifier.filter((e) => e.port === p).map((e) => `${e.type} ${e.value}`)
          edges.push(link(`${node} tx ${p}`, node, port(p), [vlanLabel(vlan), ...entries]))
        }
      }
    }
  }
  if (paths) {
    const crossings = hopsByEdge(paths.hops)
    for (const edge of edges) {
      const { rate, lines, state } = edgeRate(crossings.get(edge.data.id) ?? [])
      if (lines.length === 0) continue
      edge.data.label = [edge.data.label, ...lines].filter(Boolean).join('\n')
      edge.data.rate = rate
      edge.data.state = state
      edge.classes += ` ${state}`
    }
  }
  return [...ports.values(), ...processes, ...edges]
}

/**
 * The ports a vf or mirror lists that none of its components uses: a vf keeps the rings it
 * created after they are detached, as SPP's does. They are no part of the chain.
 * @param {Vf} vf
 * @returns {string[]}
 */
export function unusedPorts(vf) {
  const used = new Set(
    vf.components.flatMap((c) => [...(c.rx_port ?? []), ...(c.tx_port ?? [])].map((p) => p.port)),
  )
  return vf.ports.filter((port) => !used.has(port))
}

/** @returns {NodeElement} */
const processNode = (
  /** @type {string} */ id,
  /** @type {string} */ label,
  /** @type {string} */ state,
) => ({ group: 'nodes', data: { id, label }, classes: `process ${id.split(':')[0]} ${state}` })

/** @returns {EdgeElement} */
const link = (
  /** @type {string} */ id,
  /** @type {string} */ source,
  /** @type {string} */ target,
  /** @type {string[]} */ labels,
) => ({
  group: 'edges',
  data: { id, source, target, label: labels.filter(Boolean).join('\n') },
  classes: 'wire',
})

/** The ids of the elements, sorted: equal keys mean no layout is needed. */
export const structureKey = (/** @type {Element[]} */ elements) =>
  elements
    .map((e) => e.data.id)
    .sort()
    .join('\n')
