// The changes a client's request or a plan's step may ask of a process, by kind and action: the
// grammar of each body, the checks, and the command sent. The routes and the applier both ask
// through this one table, so a step is checked exactly as a client's request.
import type { GenericSchema } from 'valibot'
import type { ProcessHandle } from '../actors/process-handle.ts'
import type { Command } from '../protocol/command.ts'
import type { ProcessKind } from '../protocol/bodies.ts'
import { componentCommands } from '../protocol/kinds/components.ts'
import { mirrorCommands } from '../protocol/kinds/mirror.ts'
import { nfvCommands as nfv } from '../protocol/kinds/nfv.ts'
import { primaryCommands as primary } from '../protocol/kinds/primary.ts'
import { vfCommands } from '../protocol/kinds/vf.ts'
import { isClassifier, type Release } from '../protocol/release.ts'
import { portNeeds, type Dir, type VlanTag } from '../protocol/tokens.ts'
import { change, type Change } from './change.ts'
import { invalid } from './check.ts'
import { LaunchBody, launchTokens } from './launch-body.ts'
import { refuseMissingRing } from './rings.ts'
import {
  ClassifierBody,
  ForwardBody,
  type Has,
  MirrorComponentBody,
  mirrorPortsBody,
  nfvPatchBody,
  nfvPortsBody,
  PrimaryPatchBody,
  PrimaryPortsBody,
  VfComponentBody,
  vfPortsBody,
} from './schemas.ts'

const nfvChanges = {
  /** PUT /v1/nfvs/{id}/forward */
  forward: change({
    actions: ['forward.start', 'forward.stop'],
    body: () => ForwardBody,
    action: (b) => `forward.${b.action}`,
    send: ({ process }, b) => process.ask(b.action === 'start' ? nfv.forward() : nfv.stop()),
  }),
  /** PUT /v1/nfvs/{id}/ports: memif from 19.11. */
  ports: change({
    actions: ['port.add', 'port.del'],
    body: nfvPortsBody,
    ports: (b) => [['nfvPort', b.port]],
    action: (b) => `port.${b.action}`,
    async send(asking, { action, port }) {
      if (action === 'add') await refuseMissingRing(asking, port, 'the nfv would fail to add it')
      await asking.process.ask(action === 'add' ? nfv.addPort(port) : nfv.delPort(port))
    },
  }),
  /** PUT /v1/nfvs/{id}/patches: queues of phy ports from 19.11. */
  patch: change({
    actions: ['patch.set'],
    body: nfvPatchBody,
    ports: (b) => [
      ['nfvPatch', b.src],
      ['nfvPatch', b.dst],
    ],
    action: () => 'patch.set',
    send: ({ process }, { src, dst }) => process.ask(nfv.patch(src, dst)),
  }),
  /** DELETE /v1/nfvs/{id}/patches */
  reset: change({
    actions: ['patches.reset'],
    action: () => 'patches.reset',
    send: ({ process }) => process.ask(nfv.patchReset()),
  }),
}

/** 405 unless the primary takes the route; `added` is the release SPP's history adds it in. */
const since = (what: string, added: Release) => async (process: ProcessHandle) => {
  const caps = await process.caps('primaryRoutes')
  caps.require('primaryRoutes', what, added)
}

const primaryChanges = {
  /** PUT /v1/primary/forward */
  forward: change({
    actions: ['forward.start', 'forward.stop'],
    allowed: since('PUT /v1/primary/forward', '19.08'),
    body: () => ForwardBody,
    action: (b) => `forward.${b.action}`,
    send: ({ process }, b) =>
      process.ask(b.action === 'start' ? primary.forward() : primary.stop()),
  }),
  /** PUT /v1/primary/ports: a pipe is added with its rx and tx rings; pipe and memif from 19.11. */
  ports: change({
    actions: ['port.add', 'port.del'],
    allowed: since('PUT /v1/primary/ports', '18.08.4'),
    body: () => PrimaryPortsBody,
    action: (b) => `port.${b.action}`,
    async send(asking, { action, port, rx, tx }) {
      const { process } = asking
      const need = portNeeds('primaryPort', port)
      if (need)
        (await process.caps(need)).require(need, `${port.slice(0, port.indexOf(':'))} ports`)
      // Read first: what it lists now decides whether an add would corrupt it (state/hazards.ts).
      if (action === 'add') await process.ask(primary.status())
      // A pipe over a ring beyond its -n: the primary fails it, yet keeps the pipe listed.
      const failed = `the primary would fail to add ${port} and keep it listed`
      for (const [key, ring] of [
        ['rx', rx],
        ['tx', tx],
      ] as const)
        if (action === 'add' && ring) await refuseMissingRing(asking, ring, failed, key)
      const rings = rx && tx ? { rx, tx } : undefined
      await process.ask(action === 'del' ? primary.delPort(port) : primary.addPort(port, rings))
    },
  }),
  /** PUT /v1/primary/patches */
  patch: change({
    actions: ['patch.set'],
    allowed: since('PUT /v1/primary/patches', '19.08'),
    body: () => PrimaryPatchBody,
    action: () => 'patch.set',
    send: ({ process }, { src, dst }) => process.ask(primary.patch(src, dst)),
  }),
  /** DELETE /v1/primary/patches */
  reset: change({
    actions: ['patches.reset'],
    allowed: since('DELETE /v1/primary/patches', '19.08'),
    action: () => 'patches.reset',
    send: ({ process }) => process.ask(primary.patchReset()),
  }),
  /** PUT /v1/primary/launch */
  launch: change({
    actions: ['launch'],
    allowed: since('PUT /v1/primary/launch', '18.08.2'),
    body: () => LaunchBody,
    action: () => 'launch',
    send: ({ process }, body) => process.ask(primary.launch(launchTokens(body))),
  }),
}

/** What the component changes send; a mirror's `portAdd` never carries a vlan. */
type Commands = typeof componentCommands & {
  portAdd(port: string, dir: Dir, component: string, vlan?: VlanTag): Command
}

/** What a ring the primary lacks does to the process that is told to attach it. */
const UNCREATED = {
  vf: 'a vf that fails to create it fails every change after',
  mirror: 'a mirror that fails to create it fails every change after',
}

/** A port attached to or detached from a component (a mirror's never carries a vlan). */
type PortsBody =
  | { action: 'attach'; port: string; dir: Dir; vlan?: VlanTag | null }
  | { action: 'detach'; port: string; dir: Dir }
/** The bodies of a kind's component changes. */
type Schemas = {
  component: GenericSchema<unknown, { name: string; core: number; type: string }>
  ports: (has?: Has) => GenericSchema<unknown, PortsBody>
}

/** The changes vf and mirror share: components and their ports. */
function componentChanges(kind: 'vf' | 'mirror', commands: Commands, schemas: Schemas) {
  return {
    /** POST /v1/{kind}s/{id}/components */
    start: change({
      actions: ['component.start'],
      body: () => schemas.component,
      action: () => 'component.start',
      // Checked against its worker lcores before it is sent (the main lcore would hang it): the
      // actor reads them first when they are not known yet (state/hazards.ts).
      async send({ process }, { name, core, type }) {
        // One vocabulary for clients: either classifier word, sent as this vf's release spells it.
        const word = isClassifier(type) ? (await process.caps('classifierWord')).word(type) : type
        await process.ask(commands.componentStart(name, core, word))
      },
    }),
    /** DELETE /v1/{kind}s/{id}/components/{name} */
    stop: change({
      actions: ['component.stop'],
      component: true,
      action: () => 'component.stop',
      send: ({ process }, _, name) => process.ask(commands.componentStop(name)),
    }),
    /** PUT /v1/{kind}s/{id}/components/{name}/ports: queues of phy ports from 19.11. */
    ports: change({
      actions: ['port.attach', 'port.detach'],
      component: true,
      body: schemas.ports,
      ports: (b) => [['vfPort', b.port]],
      action: (b) => `port.${b.action}`,
      async send(asking, body, name) {
        if (body.action === 'attach') await refuseMissingRing(asking, body.port, UNCREATED[kind])
        const vlan = 'vlan' in body ? (body.vlan ?? undefined) : undefined
        await asking.process.ask(
          body.action === 'attach'
            ? commands.portAdd(body.port, body.dir, name, vlan)
            : commands.portDel(body.port, body.dir, name),
        )
      },
    }),
  }
}

const vfChanges = {
  ...componentChanges('vf', vfCommands, { component: VfComponentBody, ports: vfPortsBody }),
  /** PUT /v1/vfs/{id}/classifier_table */
  classifier: change({
    actions: ['classifier.add', 'classifier.del'],
    body: () => ClassifierBody,
    action: (b) => `classifier.${b.action}`,
    send: ({ process }, body) => {
      const vlan = body.type === 'vlan' ? body.vlan : undefined
      return process.ask(vfCommands.classifierTable(body.action, body.mac_address, body.port, vlan))
    },
  }),
}

const mirrorChanges = componentChanges('mirror', mirrorCommands, {
  component: MirrorComponentBody,
  ports: mirrorPortsBody,
})

/** Every change a plan or a client may ask, by the kind of process it is asked of. */
export const CHANGES = {
  nfv: nfvChanges,
  primary: primaryChanges,
  vf: vfChanges,
  mirror: mirrorChanges,
} satisfies Partial<Record<ProcessKind, Record<string, Change>>>

const byAction = new Map<string, Change>()
for (const [kind, changes] of Object.entries(CHANGES))
  for (const one of Object.values<Change>(changes))
    for (const action of one.actions) byAction.set(`${kind} ${action}`, one)

/** The change a step of this action asks of a process of this kind (400 if it has none). */
export function changeOf(kind: ProcessKind, action: string): Change {
  const found = byAction.get(`${kind} ${action}`)
  if (!found) throw invalid(`a ${kind} takes no ${action}`)
  return found
}
