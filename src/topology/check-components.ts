// What a vf or mirror would refuse in a desired state, found before any step (design note, 4.6).
import { specType } from '../protocol/release.ts'
import { noRing } from '../state/hazards.ts'
import { Refused, type Context } from './steps.ts'

type PortUse = { port: string }
type Listed =
  | { type: 'unuse' }
  | { name: string; core: number; type: string; rx_port: PortUse[]; tx_port: PortUse[] }

/** Ports per direction a component type can run with; `classifier_mac` uses its first rx only. */
const SHAPES: Record<string, { rx: number; tx: number }> = {
  forward: { rx: 1, tx: 1 },
  merge: { rx: Infinity, tx: 1 },
  classifier_mac: { rx: 1, tx: Infinity },
  mirror: { rx: 1, tx: 2 },
}

/** Refuses names, cores, port uses and shapes the process would refuse (or hang on). */
export function checkComponents(
  field: string,
  kind: string,
  listed: readonly Listed[],
  known: { workers: Set<number>; phy: Set<string>; context: Context },
): void {
  const names = new Set<string>()
  const coreTypes = new Map<number, string>()
  const classifierCores = new Set<number>()
  const used = { rx: new Map<string, string>(), tx: new Map<string, string>() }
  const process = `${kind} ${field.split('.')[1]}`
  listed.forEach((entry, i) => {
    if (!('name' in entry)) return
    const at = `${field}.components[${i}]`
    const { name, core } = entry
    const type = specType(entry.type) // 2020's `classifier` is the same type
    if (names.has(name)) throw new Refused(`${at}.name`, `duplicate component name ${name}`)
    names.add(name)
    if (!known.workers.has(core)) {
      const workers = [...known.workers].sort((a, b) => a - b).join(', ') || 'none'
      throw new Refused(
        `${at}.core`,
        `core ${core} is not a worker lcore of ${process} (workers: ${workers})`,
      )
    }
    const other = coreTypes.get(core)
    if (other !== undefined && other !== type)
      throw new Refused(`${at}.type`, `core ${core} already hosts ${other}: a core runs one type`)
    coreTypes.set(core, type)
    if (type === 'classifier_mac') {
      if (classifierCores.has(core))
        throw new Refused(`${at}.core`, `core ${core} already hosts a classifier_mac (at most one)`)
      classifierCores.add(core)
    }
    for (const dir of ['rx', 'tx'] as const) {
      const ports = entry[`${dir}_port`]
      const limit = SHAPES[type]![dir]
      if (ports.length > limit)
        throw new Refused(`${at}.${dir}_port`, `${type} takes at most ${limit} ${dir} port`)
      ports.forEach(({ port }, j) => {
        const portAt = `${at}.${dir}_port[${j}].port`
        const owner = used[dir].get(port)
        if (owner !== undefined)
          throw new Refused(
            portAt,
            `${port} is already ${dir} of ${owner}: one ${dir} use per port`,
          )
        used[dir].set(port, name)
        if (port.startsWith('phy:') && !known.phy.has(port))
          throw new Refused(portAt, `${process} has no ${port}`)
        const { rings } = known.context
        if (port.startsWith('ring:') && rings?.has(Number(port.slice(5))) === false)
          throw new Refused(portAt, `${noRing(port, rings)}; attaching it breaks ${process}`)
      })
    }
  })
}

/** Refuses entries the vf would not know, or would not show: only classifier tx ports carry one. */
export function checkClassifier(
  field: string,
  entries: readonly { port: string }[],
  classifierTx: Set<string>,
): void {
  const seen = new Set<string>()
  entries.forEach(({ port }, j) => {
    const at = `${field}.classifier_table[${j}].port`
    if (!classifierTx.has(port))
      throw new Refused(at, `${port} will not be a tx port of a classifier_mac component`)
    if (seen.has(port)) throw new Refused(at, `${port} already has an entry: one entry per port`)
    seen.add(port)
  })
}
