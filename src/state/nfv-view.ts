// An nfv's view: forwarding status, ports and patches, kept as its status reply shows them.
import { unhandled, type EffectOf } from '../protocol/effects.ts'
import type { NfvInfo, NfvStatus } from '../protocol/bodies.ts'

type Patch = NfvInfo['patches'][number]
export type NfvView = { kind: 'nfv'; status?: NfvStatus; ports?: string[]; patches?: Patch[] }

function deletePort(view: NfvView, port: string): NfvView {
  const { ports, patches } = view
  const next: NfvView = { ...view, status: 'Idle' } // the process stops forwarding on every del
  if (ports) next.ports = ports.filter((p) => p !== port)
  if (patches) {
    // The process drops the patch from the port, and the first patch (by slot) into it.
    const into = patches.findIndex((p) => p.dst === port && p.src !== port)
    next.patches = patches.filter((p, i) => p.src !== port && i !== into)
  }
  return next
}

function setPatch(view: NfvView, src: string, dst: string): NfvView {
  const { ports, patches } = view
  if (!ports || !patches) return { ...view, patches: undefined } // unknown until the next read
  if (!ports.includes(src) || !ports.includes(dst)) return view // the process ignores it
  // Patches are kept in the order the process reports them, by the slot of their source port: a
  // source's patch is replaced where it is, or a new one put in its source's place.
  const at = patches.findIndex((p) => p.src === src)
  if (at >= 0 && patches[at]!.dst === dst) return view // the same patch again: nothing moved
  const next = [...patches]
  if (at >= 0) next[at] = { src, dst }
  else {
    const slot = ports.indexOf(src)
    const before = next.findIndex((p) => ports.indexOf(p.src) > slot)
    next.splice(before < 0 ? next.length : before, 0, { src, dst })
  }
  return { ...view, patches: next }
}

/** The nfv's view after a successful command. */
export function nextNfvView(view: NfvView, effect: EffectOf<'nfv'>): NfvView {
  switch (effect.kind) {
    case 'nfv.read': {
      const { status, ports, patches } = effect.info
      return { kind: 'nfv', status, ports, patches }
    }
    case 'nfv.forward':
      return { ...view, status: 'Running' }
    case 'nfv.stop':
      return { ...view, status: 'Idle' }
    case 'port.add':
      // A port the process could not create is not known here: the next read tells.
      return view.ports && !view.ports.includes(effect.port)
        ? { ...view, ports: [...view.ports, effect.port] }
        : view
    case 'port.del':
      return deletePort(view, effect.port)
    case 'patch.set':
      return setPatch(view, effect.src, effect.dst)
    case 'patch.reset':
      return { ...view, patches: [] }
    case 'exit':
      return view
    default:
      return unhandled(effect)
  }
}
