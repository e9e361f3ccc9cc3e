// The routes vf and mirror share: status, components and their ports, exit; with their OpenAPI rows.
import type { GenericSchema } from 'valibot'
import type { Command } from '../../protocol/command.ts'
import { CHANGES } from '../../requests/changes.ts'
import { json, noContent } from '../json.ts'
import type { Route } from '../route.ts'

/** What the shared routes send besides the changes: the status, and exit. */
type Commands<Info> = { status(): Command<Info>; exit(): Command }
type Rows = {
  info: GenericSchema
  examples: { component: object; ports: object }
}

/** The endpoints vf and mirror share, for one kind. */
export function componentRoutes<Info extends object>(
  kind: 'vf' | 'mirror',
  commands: Commands<Info>,
  schemas: Rows,
): Route[] {
  const path = `/v1/${kind}s/{client_id}`
  const { start, stop, ports } = CHANGES[kind]
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
      body: start.body!(),
      example: schemas.examples.component,
      success: 204,
      command: true,
      handle: (c, { processes }) => processes.change(c, kind, start),
    },
    {
      method: 'delete',
      path: `${path}/components/{name}`,
      summary: 'Stop a component',
      success: 204,
      command: true,
      handle: (c, { processes }) => processes.change(c, kind, stop),
    },
    {
      method: 'put',
      path: `${path}/components/{name}/ports`,
      summary: 'Attach or detach a port (queues of phy ports: SPP 19.11)',
      body: ports.body!(),
      example: schemas.examples.ports,
      success: 204,
      command: true,
      handle: (c, { processes }) => processes.change(c, kind, ports),
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
