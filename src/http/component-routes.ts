import { Hono, type Context } from 'hono'
import type { Registry } from '../actors/registry.ts'
import { mirrorCommands, vfCommands, type ComponentCommands } from '../protocol/vf.ts'
import {
  ClassifierBody,
  CLIENT_ID_SEGMENT,
  ComponentName,
  MirrorComponentBody,
  MirrorPortsBody,
  VfComponentBody,
  VfPortsBody,
} from './schemas.ts'
import { json } from './json.ts'
import { secondarySender } from './sender.ts'
import { check, readJson } from './validate.ts'

const ID = CLIENT_ID_SEGMENT

/** The endpoints vf and mirror share: status, components and their ports. */
function componentRoutes(
  registry: Registry,
  kind: 'vf' | 'mirror',
  commands: ComponentCommands,
  schemas: {
    component: typeof VfComponentBody
    ports: typeof VfPortsBody | typeof MirrorPortsBody
  },
) {
  const processOf = secondarySender(registry, kind)
  const name = (c: Context) => check(ComponentName, c.req.param('name'), 'name')
  return new Hono()
    .get(ID, async (c) => json(c, await processOf(c)(commands.status())))
    .post(`${ID}/components`, async (c) => {
      const send = processOf(c)
      const { name, core, type } = await readJson(c, schemas.component)
      await send(commands.componentStart(name, core, type))
      return c.body(null, 204)
    })
    .delete(`${ID}/components/:name`, async (c) => {
      const send = processOf(c)
      await send(commands.componentStop(name(c)))
      return c.body(null, 204)
    })
    .put(`${ID}/components/:name/ports`, async (c) => {
      const send = processOf(c)
      const component = name(c)
      const body = await readJson(c, schemas.ports)
      const vlan = 'vlan' in body ? (body.vlan ?? undefined) : undefined
      await send(
        body.action === 'attach'
          ? commands.portAdd(body.port, body.dir, component, vlan)
          : commands.portDel(body.port, body.dir, component),
      )
      return c.body(null, 204)
    })
}

/** /v1/vfs/{client_id}: components, ports with vlan, classifier table. */
export const vfRoutes = (registry: Registry) => {
  const vfOf = secondarySender(registry, 'vf')
  return componentRoutes(registry, 'vf', vfCommands, {
    component: VfComponentBody,
    ports: VfPortsBody,
  }).put(`${ID}/classifier_table`, async (c) => {
    const send = vfOf(c)
    const body = await readJson(c, ClassifierBody)
    await send(
      vfCommands.classifierTable(
        body.action,
        body.mac_address,
        body.port,
        body.type === 'vlan' ? body.vlan : undefined,
      ),
    )
    return c.body(null, 204)
  })
}

/** /v1/mirrors/{client_id}: components and their ports. */
export const mirrorRoutes = (registry: Registry) =>
  componentRoutes(registry, 'mirror', mirrorCommands, {
    component: MirrorComponentBody,
    ports: MirrorPortsBody,
  })
