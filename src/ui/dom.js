// @ts-check
// The page's text: one section per process, with the data-* hooks tests use.
import { isUnreadable, unusedPorts, vlanLabel } from './graph.js'

/** @typedef {import('./graph.js').TopologyDocument} TopologyDocument */
/** @typedef {import('./graph.js').Nfv} Nfv */
/** @typedef {import('./graph.js').Vf} Vf */
/** @typedef {import('./graph.js').Pcap} Pcap */

/**
 * An element with attributes and children (strings become text nodes: nothing is parsed as HTML).
 * @param {string} tag
 * @param {Record<string, string>} attributes
 * @param {(Node | string)[]} children
 */
export function h(tag, attributes = {}, children = []) {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value)
  element.append(...children)
  return element
}

/** @param {string} title @param {HTMLElement[]} items */
const list = (title, items) =>
  items.length === 0 ? [] : [h('h4', {}, [title]), h('ul', {}, items)]

/** @param {string} id @param {string[]} ports */
const portList = (id, ports) =>
  list(
    'Ports',
    ports.map((port) => h('li', { 'data-port': port }, [port])),
  ).concat(ports.length === 0 ? [h('p', {}, [`${id} has no ports.`])] : [])

/** @param {string} id @param {Nfv} nfv */
function nfvBody(id, nfv) {
  return [
    h('p', {}, [`Status: ${nfv.status}`]),
    ...portList(id, nfv.ports),
    ...list(
      'Patches',
      nfv.patches.map(({ src, dst }) =>
        h('li', { 'data-patch': `${id} ${src} ${dst}` }, [`${src} → ${dst}`]),
      ),
    ),
  ]
}

/** @param {import('./graph.js').PortObject[] | undefined} ports */
const portsText = (ports) =>
  (ports ?? [])
    .map(({ port, vlan }) => (vlanLabel(vlan) ? `${port} (${vlanLabel(vlan)})` : port))
    .join(', ') || 'none'

/** @param {string} id @param {Vf} vf */
function componentBody(id, vf) {
  const components = vf.components.filter((c) => c.name !== undefined)
  const idle = vf.components.filter((c) => c.name === undefined).map((c) => c.core)
  const unused = unusedPorts(vf)
  return [
    ...portList(
      id,
      vf.ports.filter((port) => !unused.includes(port)),
    ),
    ...list(
      'Not used by any component',
      unused.map((port) => h('li', { 'data-unused-port': port }, [port])),
    ),
    ...list(
      'Components',
      components.map((c) =>
        h('li', { 'data-component': `${id} ${c.name}` }, [
          `${c.name} (${c.type}, core ${c.core}): rx ${portsText(c.rx_port)}; tx ${portsText(c.tx_port)}`,
        ]),
      ),
    ),
    ...(idle.length ? [h('p', {}, [`Unused cores: ${idle.join(', ')}`])] : []),
    ...list(
      'Classifier table',
      (vf.classifier_table ?? []).map((e) =>
        h('li', { 'data-classifier': `${id} ${e.value} ${e.port}` }, [
          `${e.type} ${e.value} → ${e.port}`,
        ]),
      ),
    ),
  ]
}

/**
 * The sections of every process in the document: primary first, then nfvs, vfs and mirrors.
 * @param {TopologyDocument} doc
 * @param {typeof import('./graph.js').SECTIONS} sections
 */
export function processSections(doc, sections) {
  const out = []
  if (!isUnreadable(doc.primary) && Object.keys(doc.primary).length > 0) {
    const phys = (doc.primary.phy_ports ?? []).map((p) => `phy:${p.id}`)
    const rings = (doc.primary.ring_ports ?? []).map((p) => `ring:${p.id}`)
    out.push(section('primary', 'primary', undefined, portList('primary', [...phys, ...rings])))
  } else if (isUnreadable(doc.primary)) {
    out.push(section('primary', 'primary', 'error', [h('p', {}, [doc.primary.error])]))
  }
  for (const [key, kind] of sections)
    for (const [clientId, state] of Object.entries(
      /** @type {Record<string, Nfv | Vf | Pcap | import('./graph.js').Unreadable>} */ (
        doc[key] ?? {}
      ),
    )) {
      const id = `${kind}:${clientId}`
      const title = `${kind} ${clientId}`
      if (isUnreadable(state))
        out.push(section(id, title, 'error', [h('p', {}, [`Unreadable: ${state.error}`])]))
      else if (kind === 'nfv') {
        const nfv = /** @type {Nfv} */ (state)
        out.push(section(id, title, nfv.status, nfvBody(id, nfv)))
      } else if (kind === 'pcap') {
        const pcap = /** @type {Pcap} */ (state)
        const captured = pcap.core.flatMap((c) => (c.rx_port ?? []).map((p) => p.port))
        out.push(section(id, title, pcap.status, portList(id, captured)))
      } else out.push(section(id, title, undefined, componentBody(id, /** @type {Vf} */ (state))))
    }
  return out
}

/** @param {string} id @param {string} title @param {string | undefined} status @param {HTMLElement[]} body */
function section(id, title, status, body) {
  const attributes = /** @type {Record<string, string>} */ ({ 'data-process': id })
  if (status !== undefined) attributes['data-status'] = status
  return h('section', attributes, [h('h3', {}, [status ? `${title} (${status})` : title]), ...body])
}
