// @ts-check
// How the graph looks (cytoscape stylesheet): ports coloured by type, Idle patches dashed, edges
// that carry packets bold, a hop that drops red and one with another problem amber.

const PORT_COLOURS = {
  phy: '#2b6cb0',
  ring: '#2f855a',
  vhost: '#b7791f',
  pcap: '#805ad5',
  nullpmd: '#718096',
  other: '#1a202c',
}

/** A hop that drops (red, as the page's other drops) and one with another problem (amber). */
export const DROPPING = { edge: '#e53e3e', text: '#9b2c2c', problem: '#dd6b20' }

/** How many lines a label takes, wrapped at about 22 characters. @param {string} label */
const wrappedLines = (label) =>
  label.split('\n').reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / 22)), 0)

/** The cytoscape stylesheet of the topology graph (colours match style.css's legend). */
export const GRAPH_STYLE = [
  {
    selector: 'node',
    style: {
      label: 'data(label)',
      'font-size': 11,
      'text-wrap': 'wrap',
      'text-valign': 'center',
      'text-halign': 'center',
    },
  },
  ...Object.entries(PORT_COLOURS).map(([type, colour]) => ({
    selector: `node.port.${type}`,
    style: {
      'background-color': colour,
      color: '#fff',
      shape: 'round-rectangle',
      width: 64,
      height: 26,
    },
  })),
  {
    selector: 'node.process',
    style: {
      'background-color': '#edf2f7',
      'border-width': 1,
      'border-color': '#a0aec0',
      shape: 'round-rectangle',
      width: 110,
      height: 30,
    },
  },
  {
    selector: 'node.process.component-host',
    style: {
      'text-valign': 'top',
      'text-halign': 'center',
      'background-opacity': 0.4,
      padding: 12,
    },
  },
  { selector: 'node.process.Running', style: { 'border-color': '#2f855a', 'border-width': 2 } },
  {
    selector: 'node.process.error',
    style: { 'border-color': '#e53e3e', 'border-style': 'dashed' },
  },
  {
    selector: 'node.component',
    style: {
      'background-color': '#fff',
      'border-width': 1,
      'border-color': '#4a5568',
      shape: 'round-rectangle',
      width: 100,
      height: 36,
    },
  },
  {
    selector: 'edge',
    style: {
      label: 'data(label)',
      'font-size': 10,
      'text-wrap': 'wrap',
      'text-max-width': 130,
      'text-background-color': '#fff',
      'text-background-opacity': 0.85,
      'text-background-padding': 1,
      // above the line, not over it (a dropping edge's red must show): half the height of its
      // lines, wrapped at about 22 characters
      'text-margin-y': (/** @type {any} */ edge) =>
        -(wrappedLines(String(edge.data('label') ?? '')) * 6 + 3),
      width: 2,
      'line-color': '#4a5568',
      'target-arrow-color': '#4a5568',
      'target-arrow-shape': 'triangle',
      'curve-style': 'bezier',
    },
  },
  {
    selector: 'edge.patch.idle, edge.idle',
    style: { 'line-style': 'dashed', 'line-color': '#a0aec0', 'target-arrow-color': '#a0aec0' },
  },
  { selector: 'edge.flowing', style: { width: 3, 'font-weight': 'bold' } },
  {
    selector: 'edge.problem',
    style: {
      'line-color': DROPPING.problem,
      'target-arrow-color': DROPPING.problem,
      color: '#975a16',
    },
  },
  {
    selector: 'edge.dropping',
    style: {
      width: 4,
      'line-color': DROPPING.edge,
      'target-arrow-color': DROPPING.edge,
      color: DROPPING.text,
      'font-weight': 'bold',
    },
  },
]
