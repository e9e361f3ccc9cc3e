// /v1/vfs and /v1/mirrors: status, components and their ports, the vf's classifier table.
import { Hono, type Context } from 'hono'
import * as v from 'valibot'
import { mirrorCommands, vfCommands, type ComponentCommands } from '../protocol/kinds/vf.ts'
import { classifierWordOf } from '../protocol/era.ts'
import { workerCores } from '../state/hazards.ts'
import { json, noContent } from './json.ts'
import type { Processes, Target } from './processes.ts'
import {
  ClassifierBody,
  CLIENT_ID_SEGMENT as ID,
  ComponentName,
  MirrorComponentBody,
  MirrorPortsBody,
  MirrorQueuePortsBody,
  VfComponentBody,
  VfPortsBody,
  VfQueuePortsBody,
} from './schemas.ts'
import { check, readJson } from './validate.ts'

type Schemas = {
  component: typeof VfComponentBody
  ports: typeof VfPortsBody | typeof MirrorPortsBody
  /** A 19.11 process's (string port indexes): queues of phy ports allowed. */
  queuePorts: typeof VfQueuePortsBody | typeof MirrorQueuePortsBody
}

const nameOf = (c: Context) => check(ComponentName, c.req.param('name'), 'name')

/** The endpoints vf and mirror share: status, components and their ports. */
function componentRoutes<Info extends object>(
  processes: Processes,
  kind: 'vf' | 'mirror',
  commands: ComponentCommands<Info>,
  schemas: Schemas,
) {
  // A component start is checked against the process's worker lcores (the main lcore would hang
  // it); when they are not known yet, they are read first.
  const knowCores = async (c: Context, target: Target) => {
    const view = processes.view(target)
    if (!view || !workerCores(view)) await processes.ask(c, target, commands.status())
  }
  return new Hono()
    .get(ID, async (c) =>
      json(c, await processes.ask(c, processes.secondary(c, kind), commands.status())),
    )
    .post(`${ID}/components`, async (c) => {
      const target = processes.secondary(c, kind)
      const { name, core, type } = await readJson(c, schemas.component)
      await knowCores(c, target)
      // One vocabulary for clients: either word, sent as this vf's release spells it.
      const word = type.startsWith('classifier')
        ? classifierWordOf(processes.profile(target))
        : type
      await processes.ask(c, target, commands.componentStart(name, core, word))
      return noContent(c)
    })
    .delete(`${ID}/components/:name`, async (c) => {
      const target = processes.secondary(c, kind)
      await processes.ask(c, target, commands.componentStop(nameOf(c)))
      return noContent(c)
    })
    .put(`${ID}/components/:name/ports`, async (c) => {
      const target = processes.secondary(c, kind)
      const name = nameOf(c)
      const raw = await readJson(c, v.looseObject({}))
      // A queue (phy:0nq1) exists for 19.11 processes only: their status lists string indexes.
      const queued = typeof raw.port === 'string' && /^phy:\d+nq/.test(raw.port)
      if (queued && processes.profile(target).era === undefined)
        await processes.ask(c, target, commands.status())
      const queues = queued && processes.profile(target).portIndexStrings === true
      const body = check(queues ? schemas.queuePorts : schemas.ports, raw)
      const vlan = 'vlan' in body ? (body.vlan ?? undefined) : undefined
      const command =
        body.action === 'attach'
          ? commands.portAdd(body.port, body.dir, name, vlan)
          : commands.portDel(body.port, body.dir, name)
      await processes.ask(c, target, command)
      return noContent(c)
    })
}

/** /v1/vfs/{client_id}: components, ports with vlan, classifier table. */
export const vfRoutes = (processes: Processes) =>
  componentRoutes(processes, 'vf', vfCommands, {
    component: VfComponentBody,
    ports: VfPortsBody,
    queuePorts: VfQueuePortsBody,
  }).put(`${ID}/classifier_table`, async (c) => {
    const target = processes.secondary(c, 'vf')
    const body = await readJson(c, ClassifierBody)
    const vlan = body.type === 'vlan' ? body.vlan : undefined
    await processes.ask(
      c,
      target,
      vfCommands.classifierTable(body.action, body.mac_address, body.port, vlan),
    )
    return noContent(c)
  })

/** /v1/mirrors/{client_id}: components and their ports. */
export const mirrorRoutes = (processes: Processes) =>
  componentRoutes(processes, 'mirror', mirrorCommands, {
    component: MirrorComponentBody,
    ports: MirrorPortsBody,
    queuePorts: MirrorQueuePortsBody,
  })
