// The nfv part of a plan: forwarding, ports and patches, in the order a real spp_nfv accepts.
import type { NfvInfo } from '../protocol/bodies.ts'
import type { DesiredNfv } from './document.ts'
import { wire } from '../protocol/tokens.ts'
import { Refused, type Context, type Phased, type Step } from './steps.ts'

type Patch = { src: string; dst: string }
const patchKey = ({ src, dst }: Patch) => `${src} ${dst}`
const isPhy = (port: string) => port.startsWith('phy:')

/** The nfv's wanted ports (phy included) and patches, checked; absent fields keep the live ones. */
export function wantedNfv(id: string, live: NfvInfo, wanted: DesiredNfv, context: Context) {
  const field = `nfvs.${id}`
  const livePorts = live.ports.filter((p) => p !== 'udf')
  const ports = wanted.ports ?? livePorts
  ports.forEach((port, i) => {
    const at = `${field}.ports[${i}]`
    if (isPhy(port) && !livePorts.includes(port))
      throw new Refused(at, `nfv ${id} has no ${port}: physical ports cannot be added`)
    const [type, index] = port.split(':')
    if (type === 'ring' && context.rings && !context.rings.has(Number(index)))
      throw new Refused(at, `the primary has no ${port}: nfv ${id} would not add it`)
    if (ports.indexOf(port) !== i) throw new Refused(at, `${port} is listed twice`)
  })
  const final = new Set([...livePorts.filter(isPhy), ...ports])
  const removed = livePorts.filter((p) => !isPhy(p) && !final.has(p))
  const patches =
    wanted.patches ??
    live.patches.filter(({ src, dst }) => !removed.includes(src) && !removed.includes(dst))
  patches.forEach(({ src, dst }, i) => {
    const at = `${field}.patches[${i}]`
    for (const [end, port] of [
      ['src', src],
      ['dst', dst],
    ] as const)
      if (!final.has(port))
        throw new Refused(`${at}.${end}`, `${port} will not be a port of nfv ${id}`)
    if (patches.findIndex((p) => p.src === src) !== i)
      throw new Refused(`${at}.src`, `${src} already has a destination: one patch per source`)
  })
  return { ports: [...final], removed, patches, status: wanted.status ?? live.status }
}

/** Steps for one nfv, each with its phase of the design note's order. */
export function planNfv(id: string, live: NfvInfo, wanted: DesiredNfv, context: Context): Phased[] {
  const want = wantedNfv(id, live, wanted, context)
  const base = `/v1/nfvs/${id}`
  const out: Phased[] = []
  const add = (phase: number, step: Step) => out.push({ phase, step })
  const liveKeys = new Set(live.patches.map(patchKey))
  const patchesChange =
    want.patches.length !== live.patches.length ||
    want.patches.some((p) => !liveKeys.has(patchKey(p)))
  const added = want.ports.filter((p) => !live.ports.includes(p))
  const running = live.status === 'Running'
  const stops = running && (patchesChange || want.removed.length > 0 || want.status === 'Idle')
  if (stops) {
    const why =
      want.status === 'Idle'
        ? 'Idle is wanted'
        : patchesChange
          ? 'patches change while forwarding'
          : 'deleting a port stops forwarding'
    add(4, forward(base, 'stop', `stop forwarding on nfv ${id}: ${why}`))
  }
  if (patchesChange && live.patches.length > 0)
    add(5, {
      method: 'DELETE',
      path: `${base}/patches`,
      action: 'patches.reset',
      why: `reset the patches of nfv ${id}: the set of patches changes (there is no single-patch delete)`,
    })
  for (const port of want.removed)
    add(6, nfvPort(base, 'del', port, `delete ${port} from nfv ${id}: not wanted`))
  for (const port of added) add(10, nfvPort(base, 'add', port, `add ${port} to nfv ${id}`))
  if (patchesChange)
    for (const { src, dst } of want.patches)
      add(10, {
        method: 'PUT',
        path: `${base}/patches`,
        body: { src: wire(src), dst: wire(dst) },
        action: 'patch.set',
        why: `patch ${src} -> ${dst} on nfv ${id}`,
      })
  // `del` stops forwarding even when the status was Idle before: restart whenever Running is wanted.
  if (want.status === 'Running' && (!running || stops))
    add(11, forward(base, 'start', `start forwarding on nfv ${id}: Running is wanted`))
  return out
}

const forward = (base: string, action: 'start' | 'stop', why: string): Step => ({
  method: 'PUT',
  path: `${base}/forward`,
  body: { action },
  action: `forward.${action}`,
  why,
})

const nfvPort = (base: string, action: 'add' | 'del', port: string, why: string): Step => ({
  method: 'PUT',
  path: `${base}/ports`,
  body: { action, port },
  action: `port.${action}`,
  why,
})
