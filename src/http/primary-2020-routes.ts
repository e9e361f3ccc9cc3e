// The primary endpoints only a 2020-era primary has: ports, forwarder, patches, launch, flow rules.
import { Hono, type Context } from 'hono'
import * as v from 'valibot'
import type { Registry } from '../actors/registry.ts'
import { ControllerError } from '../errors.ts'
import { primary2020Commands as primary } from '../protocol/kinds/primary-2020.ts'
import { requireEra } from './era-guard.ts'
import { FlowBody, flowRuleWords } from './flow-body.ts'
import { json, noContent } from './json.ts'
import { LaunchBody, launchTokens } from './launch-body.ts'
import type { Processes } from './processes.ts'
import { ForwardBody } from './schemas.ts'
import { PrimaryPatchBody, PrimaryPortsBody } from './schemas-2020.ts'
import { check, readJson } from './validate.ts'

const Decimal = (max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^(?:0|[1-9][0-9]{0,9})$/, `expected a decimal integer 0 to ${max}`),
    v.transform(Number),
    v.maxValue(max, `expected a decimal integer 0 to ${max}`),
  )
const PortId = Decimal(255)
const RuleId = Decimal(0xffffffff)

/** The 2020 primary routes; an 18.11 primary gets 405 and nothing is sent. */
export function primary2020Routes(registry: Registry, processes: Processes) {
  /** The primary, once the body is known good and its era allows `what`. */
  const primary2020 = async (c: Context, what: string) => {
    const target = processes.primary()
    await requireEra(c, registry, processes, target, '2020', what)
    return target
  }
  /** Flow rules, pipe and memif ports came with 19.11, whose replies are padded to 32768 bytes. */
  const primary1911 = async (c: Context, what: string) => {
    const target = await primary2020(c, what)
    if (!(await processes.isRelease1911(c, target)))
      throw new ControllerError(
        'NOT_IN_RELEASE',
        `${what} is not supported by the release of the primary (SPP 2019, before 19.11); it needs SPP 19.11`,
      )
    return target
  }
  const portOf = (c: Context) => check(PortId, c.req.param('port_id'), 'port_id')
  return new Hono()
    .put('/primary/ports', async (c) => {
      const body = await readJson(c, PrimaryPortsBody)
      const { port, rx, tx } = body
      const newType = port.startsWith('pipe:') || port.startsWith('memif:')
      const what = newType ? `${port.split(':')[0]} ports` : 'PUT /v1/primary/ports'
      const target = await (newType ? primary1911 : primary2020)(c, what)
      const command =
        body.action === 'del'
          ? primary.delPort(port)
          : primary.addPort(port, rx && tx ? { rx, tx } : undefined)
      await processes.ask(c, target, command)
      return noContent(c)
    })
    .put('/primary/forward', async (c) => {
      const { action } = await readJson(c, ForwardBody)
      const target = await primary2020(c, 'PUT /v1/primary/forward')
      await processes.ask(c, target, action === 'start' ? primary.forward() : primary.stop())
      return noContent(c)
    })
    .put('/primary/patches', async (c) => {
      const { src, dst } = await readJson(c, PrimaryPatchBody)
      const target = await primary2020(c, 'PUT /v1/primary/patches')
      await processes.ask(c, target, primary.patch(src, dst))
      return noContent(c)
    })
    .delete('/primary/patches', async (c) => {
      const target = await primary2020(c, 'DELETE /v1/primary/patches')
      await processes.ask(c, target, primary.patchReset())
      return noContent(c)
    })
    .put('/primary/launch', async (c) => {
      const body = await readJson(c, LaunchBody)
      const target = await primary2020(c, 'PUT /v1/primary/launch')
      await processes.ask(c, target, primary.launch(launchTokens(body)))
      return noContent(c)
    })
    .post('/primary/flow_rules/port_id/:port_id/validate', async (c) => {
      const port = portOf(c)
      const body = await readJson(c, FlowBody)
      const target = await primary1911(c, 'flow rules')
      const words = `validate ${flowRuleWords(port, body)}`
      return json(c, await processes.ask(c, target, primary.flow(words)))
    })
    .post('/primary/flow_rules/port_id/:port_id', async (c) => {
      const port = portOf(c)
      const body = await readJson(c, FlowBody)
      const target = await primary1911(c, 'flow rules')
      const words = `create ${flowRuleWords(port, body)}`
      return json(c, await processes.ask(c, target, primary.flow(words)))
    })
    .delete('/primary/flow_rules/port_id/:port_id', async (c) => {
      const port = portOf(c)
      const target = await primary1911(c, 'flow rules')
      return json(c, await processes.ask(c, target, primary.flow(`destroy phy:${port} ALL`)))
    })
    .delete('/primary/flow_rules/:rule_id/port_id/:port_id', async (c) => {
      const rule = check(RuleId, c.req.param('rule_id'), 'rule_id')
      const port = portOf(c)
      const target = await primary1911(c, 'flow rules')
      return json(c, await processes.ask(c, target, primary.flow(`destroy phy:${port} ${rule}`)))
    })
}
