// @ts-check
// The fleet page: follows /v1/fleet/events (a whole snapshot per change) and draws one card per host.

/**
 * @typedef {{ host: string, alive: boolean, url: string | null, processes: string[],
 *   drift: number | null, eras: string[], updated: string | null }} HostRow
 * @typedef {{ etcd: 'up' | 'down', refused?: string, hosts: HostRow[] }} Snapshot
 */

const hostsBox = /** @type {HTMLElement} */ (document.getElementById('hosts'))
const goneList = /** @type {HTMLElement} */ (document.getElementById('gone'))
const connection = /** @type {HTMLElement} */ (document.getElementById('connection'))

/**
 * @param {string} tag
 * @param {Record<string, string>} attributes
 * @param {(Node | string)[]} children
 */
function element(tag, attributes = {}, children = []) {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value)
  node.append(...children)
  return node
}

/** Only http(s) links: a URL from etcd is data, never a script. @param {string | null} url */
const safeUrl = (url) => (url && /^https?:\/\//.test(url) ? url.replace(/\/+$/, '') : undefined)

/** @param {HostRow} row */
function card(row) {
  const url = safeUrl(row.url)
  const title = url
    ? element('a', { href: `${url}/`, 'data-topology': row.host }, [row.host])
    : row.host
  const drift =
    row.drift === null ? 'not reported' : row.drift === 0 ? 'in sync' : `${row.drift} steps`
  const facts = /** @type {[string, string][]} */ ([
    ['alive', row.alive ? 'yes' : 'no'],
    ['processes', row.processes.join(' ') || 'none'],
    ['drift', drift],
    ['era', row.eras.join(', ') || '-'],
    ['last update', row.updated ? new Date(row.updated).toLocaleString() : '-'],
  ])
  return element(
    'article',
    {
      class: 'host',
      'data-host': row.host,
      'data-alive': String(row.alive),
      ...(row.drift === null ? {} : { 'data-drift': String(row.drift) }),
    },
    [
      element('h3', {}, [title]),
      element(
        'dl',
        {},
        facts.flatMap(([name, value]) => [element('dt', {}, [name]), element('dd', {}, [value])]),
      ),
    ],
  )
}

/** @param {Snapshot} snapshot */
function render(snapshot) {
  const alive = snapshot.hosts.filter((row) => row.alive)
  hostsBox.replaceChildren(
    ...(alive.length ? alive.map(card) : [element('p', {}, ['No alive host.'])]),
  )
  goneList.replaceChildren(
    ...snapshot.hosts
      .filter((row) => !row.alive)
      .map((row) =>
        element('li', { 'data-gone': row.host }, [
          `${row.host} (last update ${row.updated ?? 'never'})`,
        ]),
      ),
  )
  const down = snapshot.etcd === 'down'
  // etcd's refusal is the server's one line (who, what, what to change): shown as it is.
  connection.dataset.connection = down ? (snapshot.refused ? 'etcd-refused' : 'etcd-down') : 'live'
  connection.textContent = down
    ? `${snapshot.refused ?? 'etcd unreachable'}: showing the last known state`
    : 'Live from etcd'
}

const events = new EventSource('/v1/fleet/events')
events.addEventListener('fleet', (event) =>
  render(JSON.parse(/** @type {MessageEvent} */ (event).data)),
)
events.addEventListener('error', () => {
  connection.dataset.connection = 'reconnecting'
  connection.textContent = 'Connection lost: reconnecting…'
})
