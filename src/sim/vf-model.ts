import {
  errorReply,
  jsonArray,
  jsonObject,
  jsonString,
  parseCNumber,
  successReply,
  type Answer,
  type SimModel,
} from './wire.ts'

type Dir = 'rx' | 'tx'
type Vlan = { operation: 'none' | 'add' | 'del'; id: number; pcp: number }
type Component = {
  name: string
  type: string
  core: number
  pending: Record<Dir, string[]>
  applied: Record<Dir, string[]>
}
type Classified = { vid: number; mac: string }

const TYPES = { vf: ['classifier_mac', 'merge', 'forward'], mirror: ['mirror'] }
/** How many ports each component type may have per direction (checked when a change is applied). */
const SHAPES: Record<string, Record<Dir, number>> = {
  forward: { rx: 1, tx: 1 },
  merge: { rx: Infinity, tx: 1 },
  classifier_mac: { rx: Infinity, tx: Infinity },
  mirror: { rx: 1, tx: 2 },
}
const NO_VLAN: Vlan = { operation: 'none', id: 0, pcp: 0 }
const UNTAGGED = 4095
const DEFAULT_MAC = 'default'

/** Raised while decoding a command: the reply is this message and nothing has changed. */
class Rejected extends Error {}
const reject = (message: string): never => {
  throw new Rejected(message)
}

/**
 * spp_vf and spp_mirror: one decoder for both, the same rules, messages and reply bytes as the real
 * processes (../shared/spp-protocol.md 4.4 to 4.7), including their traps: a component started on
 * the main lcore hangs the process, and a ring the primary does not have breaks every later change.
 */
export class VfModel implements SimModel {
  readonly kind: 'vf' | 'mirror'
  readonly clientId: number
  readonly phy: number[]
  readonly cores: number[]
  readonly mainCore: number
  readonly components: Component[] = []
  readonly created = { vhost: new Set<number>(), ring: new Set<number>() }
  readonly vlans = new Map<string, Vlan>() // `${port} ${dir}`
  readonly classifier = new Map<string, Classified>() // by port
  #failedCreation = false
  readonly #rings: number

  constructor({
    kind = 'vf',
    clientId = 2,
    phyPorts = 2,
    cores = [2, 3, 4, 5],
    mainCore = 1,
    rings = 8,
  }: {
    kind?: 'vf' | 'mirror'
    clientId?: number
    phyPorts?: number
    cores?: number[]
    mainCore?: number
    rings?: number
  } = {}) {
    this.kind = kind
    this.clientId = clientId
    this.phy = Array.from({ length: phyPorts }, (_, n) => n)
    this.cores = cores
    this.mainCore = mainCore
    this.#rings = rings
  }

  isStatus = (line: string) => line.split(' ').filter(Boolean)[0] === 'status'

  handle(line: string): Answer {
    const tokens = line.split(' ').filter(Boolean)
    try {
      if (tokens.length > 8) reject('bad message format')
      const [command] = tokens
      const single = () => tokens.length === 1 || reject('bad message format')
      switch (command) {
        case '_get_client_id':
          single()
          return this.#json(
            successReply(
              ['client_id', String(this.clientId)],
              ['process_type', jsonString(this.kind)],
            ),
          )
        case 'status':
          single()
          return this.#json(successReply(['info', this.#info()]))
        case 'exit':
          single()
          return { exit: true } // no reply at all
        case 'component':
          return this.#component(tokens)
        case 'port':
          return this.#port(tokens)
        case 'classifier_table':
          return this.#classifierTable(tokens)
        default:
          return reject('bad value(command)')
      }
    } catch (error) {
      if (error instanceof Rejected) return this.#json(errorReply(error.message))
      throw error
    }
  }

  #json(text: string): Answer {
    return { reply: Buffer.from(text, 'latin1') }
  }

  #ok(): Answer {
    return this.#json(successReply())
  }

  /** Executes a decoded change; any failure is `error occur`, with no rollback of what was done. */
  #execute(change: () => void): Answer {
    if (this.#failedCreation) reject('error occur')
    change()
    this.#flush()
    return this.#ok()
  }

  #component(tokens: string[]): Answer {
    if (tokens.length < 3 || tokens.length > 5) reject('bad message format')
    const [, action, name = ''] = tokens
    if (action !== 'start' && action !== 'stop') return reject('bad value(action)')
    if (action === 'stop') {
      return this.#execute(() => {
        const index = this.components.findIndex((c) => c.name === name)
        if (index !== -1) this.components.splice(index, 1) // stopping an unknown name succeeds
      })
    }
    if (name.length > 110 || this.components.some((c) => c.name === name))
      reject('bad value(component name)')
    const core = parseCNumber(tokens[3])
    if (!(core >= 0 && core < 128)) reject('bad value(core)')
    const type = tokens[4] ?? ''
    if (!TYPES[this.kind].includes(type)) reject('bad value(component type)')
    if (this.components.some((c) => c.core === core && c.type !== type))
      reject('bad value(component type)')
    if (core === this.mainCore) return { hang: true } // waits forever for a worker that does not exist
    if (!this.cores.includes(core) || this.components.length >= 128) reject('error occur')
    // A second classifier on one core passes every check, then the process waits for it forever.
    if (
      type === 'classifier_mac' &&
      this.components.some((c) => c.core === core && c.type === type)
    )
      return { hang: true }
    return this.#execute(() =>
      this.components.push({
        name,
        type,
        core,
        pending: { rx: [], tx: [] },
        applied: { rx: [], tx: [] },
      }),
    )
  }

  #port(tokens: string[]): Answer {
    if (tokens.length < 5 || tokens.length > 8) reject('bad message format')
    const [, action, port = '', dir = '', name = '', vlanOperation, vid, pcp] = tokens
    if (action !== 'add' && action !== 'del') return reject('bad value(action)')
    const full = tokens.length === 8 // the add_vlantag form skips the "in use" checks
    if (!this.#parsePort(port)) reject('bad value(port)')
    const users = (d: Dir) => this.components.filter((c) => c.pending[d].includes(port))
    if (action === 'add' && !full && users('rx').length > 0 && users('tx').length > 0)
      reject('bad value(port)')
    if (dir !== 'rx' && dir !== 'tx') return reject('bad value(port rxtx)')
    if (action === 'add' && !full && users(dir).length > 0) reject('bad value(port rxtx)')
    const component =
      this.components.find((c) => c.name === name) ?? reject('bad value(component name)')
    let vlan: Vlan | undefined
    if (vlanOperation !== undefined) {
      if (vlanOperation === 'add_vlantag') {
        const id = parseCNumber(vid)
        if (!(id >= 0 && id <= 4095)) reject('bad value(port vid)')
        const priority = parseCNumber(pcp)
        if (!(priority >= 0 && priority <= 7)) reject('bad value(port pcp)')
        vlan = { operation: 'add', id, pcp: priority }
      } else if (vlanOperation === 'del_vlantag') {
        vlan = { operation: 'del', id: 0, pcp: 0 }
      } else {
        reject('bad value(port vlan operation)')
      }
    }
    const key = `${port} ${dir}`
    if (action === 'del') {
      return this.#execute(() => {
        this.vlans.delete(key)
        component.pending[dir] = component.pending[dir].filter((p) => p !== port)
      })
    }
    return this.#execute(() => {
      if (component.pending[dir].includes(port)) {
        if (this.vlans.get(key)?.operation !== 'add') reject('error occur')
        this.vlans.set(key, vlan!)
        return
      }
      if (vlan) this.vlans.set(key, vlan)
      if (component.pending[dir].length >= 32) reject('error occur')
      component.pending[dir].push(port)
    })
  }

  #classifierTable(tokens: string[]): Answer {
    if (tokens.length !== 5 && tokens.length !== 6) reject('bad message format')
    const [, action, type] = tokens
    if (action !== 'add' && action !== 'del') return reject('bad value(action)')
    if (type !== 'mac' && type !== 'vlan') return reject('bad value(type)')
    const withVid = tokens.length === 6
    const vid = type === 'mac' ? UNTAGGED : withVid ? parseCNumber(tokens[3]) : 0
    if (withVid && !(parseCNumber(tokens[3]) >= 0 && parseCNumber(tokens[3]) <= 4095))
      reject('bad value(vlan id)')
    const mac = this.#parseMac(tokens[withVid ? 4 : 3] ?? '')
    const port = tokens[withVid ? 5 : 4] ?? ''
    const entry = this.classifier.get(port)
    const known = this.#parsePort(port) && this.#isKnown(port)
    if (!known) reject('bad value(port)')
    if (action === 'add' && entry) reject('bad value(port)')
    if (action === 'del' && (entry?.vid !== vid || entry.mac !== mac)) reject('bad value(port)')
    return this.#execute(() => {
      if (action === 'add') this.classifier.set(port, { vid, mac })
      else this.classifier.delete(port)
    })
  }

  #parsePort(port: string): { type: 'phy' | 'vhost' | 'ring'; index: number } | undefined {
    const match = /^(phy|vhost|ring):(.+)$/.exec(port)
    const index = parseCNumber(match?.[2])
    return match && Number.isInteger(index)
      ? { type: match[1] as 'phy' | 'vhost' | 'ring', index }
      : undefined
  }

  #isKnown(port: string): boolean {
    const { type, index } = this.#parsePort(port)!
    return type === 'phy' ? this.phy.includes(index) : this.created[type].has(index)
  }

  #parseMac(text: string): string {
    if (text === DEFAULT_MAC) return DEFAULT_MAC
    const groups = text.split(':')
    if (groups.length !== 6 || !groups.every((g) => /^[0-9a-fA-F]{1,2}$/.test(g)))
      reject('bad value(mac address)')
    return groups.map((g) => g.toUpperCase().padStart(2, '0')).join(':')
  }

  /** Creates new devices, then hands each component whose shape is valid its pending port lists. */
  #flush() {
    for (const component of this.components) {
      for (const port of [...component.pending.rx, ...component.pending.tx]) {
        const { type, index } = this.#parsePort(port)!
        if (type === 'phy') continue
        if (type === 'ring' && index >= this.#rings) {
          this.#failedCreation = true // retried, and failing, at every later change
          reject('error occur')
        }
        this.created[type].add(index)
      }
    }
    let shapeError = false
    for (const component of this.components) {
      const shape = SHAPES[component.type]!
      if (component.pending.rx.length > shape.rx || component.pending.tx.length > shape.tx)
        shapeError = true
      else component.applied = { rx: [...component.pending.rx], tx: [...component.pending.tx] }
    }
    if (shapeError) reject('error occur')
  }

  #info(): string {
    const port = (dir: Dir) => (p: string) => {
      const vlan = this.vlans.get(`${p} ${dir}`) ?? NO_VLAN
      const vlanJson = jsonObject([
        ['operation', jsonString(vlan.operation)],
        ['id', String(vlan.id)],
        ['pcp', String(vlan.pcp)],
      ])
      return jsonObject([
        ['port', jsonString(p)],
        ['vlan', vlanJson],
      ])
    }
    const cores = this.cores.flatMap((core) => {
      const here = this.components.filter((c) => c.core === core)
      if (here.length === 0)
        return [
          jsonObject([
            ['core', String(core)],
            ['type', jsonString('unuse')],
          ]),
        ]
      return here.map((c) =>
        jsonObject([
          ['core', String(core)],
          ['name', jsonString(c.name)],
          ['type', jsonString(c.type)],
          [
            'rx_port',
            jsonArray(
              (c.type === 'classifier_mac' ? c.applied.rx.slice(0, 1) : c.applied.rx).map(
                port('rx'),
              ),
            ),
          ],
          ['tx_port', jsonArray(c.applied.tx.map(port('tx')))],
        ]),
      )
    })
    const numbers = (set: Iterable<number>) => jsonArray([...set].sort((a, b) => a - b).map(String))
    const members: [string, string][] = [
      ['client-id', String(this.clientId)],
      ['phy', numbers(this.phy)],
      ['vhost', numbers(this.created.vhost)],
      ['ring', numbers(this.created.ring)],
      ['core', jsonArray(cores)],
    ]
    if (this.kind === 'vf') members.push(['classifier_table', jsonArray(this.#classifierEntries())])
    return jsonObject(members)
  }

  /** Only entries on a tx port of a running classifier are shown, by vid, default entry first. */
  #classifierEntries(): string[] {
    return this.components
      .filter((c) => c.type === 'classifier_mac')
      .flatMap((c) =>
        c.applied.tx.flatMap((port) =>
          this.classifier.has(port) ? [{ port, ...this.classifier.get(port)! }] : [],
        ),
      )
      .sort(
        (a, b) => a.vid - b.vid || Number(b.mac === DEFAULT_MAC) - Number(a.mac === DEFAULT_MAC),
      )
      .map(({ port, vid, mac }) =>
        jsonObject([
          ['type', jsonString(vid === UNTAGGED ? 'mac' : 'vlan')],
          ['value', jsonString(vid === UNTAGGED ? mac : `${vid}/${mac}`)],
          ['port', jsonString(port)],
        ]),
      )
  }
}
