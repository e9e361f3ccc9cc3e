// The routes vf and mirror share: status, components and their ports, exit; with their OpenAPI rows.
import type { GenericSchema } from 'valibot'
import type { Command } from '../../protocol/command.ts'
import type { componentCommands } from '../../protocol/kinds/components.ts'
import { isClassifier } from '../../protocol/release.ts'
import { ComponentName, type Dir, type VlanTag } from '../../protocol/tokens.ts'
import { refuseMissingRing } from '../host-rings.ts'
import { json, noContent } from '../json.ts'
import { readFor } from '../processes.ts'
import type { Route } from '../route.ts'
import type { Has, mirrorPortsBody, vfPortsBody } from '../schemas.ts'
import { check, readJson } from '../validate.ts'

/** What the shared routes send; a mirror's `portAdd` never carries a vlan. */
type Commands<Info> = typeof componentCommands & {
  status(): Command<Info>
  portAdd(port: string, dir: Dir, component: string, vlan?: VlanTag): Command
}
type Rows = {
  info: GenericSchema
  component: GenericSchema<unknown, { name: string; core: number; type: string }>
  ports: (has?: Has) => ReturnType<typeof vfPortsBody> | ReturnType<typeof mirrorPortsBody>
  examples: { component: object; ports: object }
}

/** What a ring the primary lacks does to the process that is told to attach it. */
const UNCREATED = {
  vf: 'a vf that fails to create it fails every change after',
  mirror: 'a mirror that fails to create it fails every change after',
}

/** The endpoints vf and mirror share, for one kind. */
export function componentRoutes<Info extends object>(
  kind: 'vf' | 'mirror',
  commands: Commands<Info>,
  schemas: Rows,
): Route[] {
  const path = `/v1/${kind}s/{client_id}`
  return [
    {
      method: 'get',
      path,
      summary:
        kind === 'vf'
          ? "A vf's ports, components and classifier table"
          : "A mirror's ports and components",
      success: schemas.info,
      command: true,
      handle: async (c, { processes }) => json(c, await processes.status(c, kind)),
    },
    {
      method: 'post',
      path: `${path}/components`,
      summary: 'Start a component',
      body: schemas.component,
      example: schemas.examples.component,
      success: 204,
      command: true,
      // Checked against its worker lcores before it is sent (the main lcore would hang it): the
      // actor reads them first when they are not known yet (state/hazards.ts).
      handle: async (c, { processes }) => {
        const process = processes.find(c, kind)
        const { name, core, type } = await readJson(c, schemas.component)
        // One vocabulary for clients: either classifier word, sent as this vf's release spells it.
        const word = isClassifier(type) ? (await process.caps('classifierWord')).word(type) : type
        await process.ask(commands.componentStart(name, core, word))
        return noContent(c)
      },
    },
    {
      method: 'delete',
      path: `${path}/components/{name}`,
      summary: 'Stop a component',
      success: 204,
      command: true,
      handle: async (c, { processes }) => {
        const process = processes.find(c, kind)
        await process.ask(commands.componentStop(check(ComponentName, c.req.param('name'), 'name')))
        return noContent(c)
      },
    },
    {
      method: 'put',
      path: `${path}/components/{name}/ports`,
      summary: 'Attach or detach a port (queues of phy ports: SPP 19.11)',
      body: schemas.ports(),
      example: schemas.examples.ports,
      success: 204,
      command: true,
      handle: async (c, { processes, registry }) => {
        const process = processes.find(c, kind)
        const name = check(ComponentName, c.req.param('name'), 'name')
        const body = await readFor(c, process, schemas.ports, (b) => [['vfPort', b.port]])
        if (body.action === 'attach')
          await refuseMissingRing(c, registry, body.port, UNCREATED[kind])
        const vlan = 'vlan' in body ? (body.vlan ?? undefined) : undefined
        await process.ask(
          body.action === 'attach'
            ? commands.portAdd(body.port, body.dir, name, vlan)
            : commands.portDel(body.port, body.dir, name),
        )
        return noContent(c)
      },
    },
    {
      method: 'delete',
      path,
      summary: `Terminate the ${kind} (SPP 18.08.2 and later: an 18.11 ${kind} exits without a word, which cannot be told from a hang)`,
      success: 204,
      command: true,
      errors: { 405: `The ${kind}'s release does not answer exit; nothing was sent` },
      handle: async (c, { processes }) => {
        const process = processes.find(c, kind)
        const caps = await process.caps('exitReply')
        caps.require('exitReply', `DELETE /v1/${kind}s/{client_id}`)
        await process.ask(commands.exit())
        return noContent(c)
      },
    },
  ]
}
