// /v1/primary/flow_rules: a 19.11 primary's flow rules (spp-protocol-2020 §4.7, §10.8).
import type { Context } from 'hono'
import * as v from 'valibot'
import { FlowReply } from '../../protocol/bodies.ts'
import type { Command } from '../../protocol/command.ts'
import { primaryCommands as primary } from '../../protocol/kinds/primary.ts'
import { json } from '../json.ts'
import type { Deps, Route } from '../route.ts'
import { check } from '../../requests/check.ts'
import { FlowBody, flowRuleWords } from '../../requests/flow-body.ts'
import { readJson } from '../validate.ts'

const Decimal = (max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^(?:0|[1-9][0-9]{0,9})$/, `expected a decimal integer 0 to ${max}`),
    v.transform(Number),
    v.maxValue(max, `expected a decimal integer 0 to ${max}`),
  )
const PortId = Decimal(255)
const RuleId = Decimal(0xffffffff)

const base = '/v1/primary/flow_rules'
const only = ' (SPP 19.11 primaries; 405 for older ones)'
const rule = {
  rule: {
    direction: 'ingress',
    pattern: ['eth dst is 11:22:33:44:55:66'],
    actions: ['queue index 1'],
  },
}
const errors = { 405: "The primary's release has no flow rules; nothing was sent" }

/** Sends the flow command `build` makes of the request, once the primary is known to take it. */
const flow =
  (build: (c: Context, port: number) => Command<FlowReply> | Promise<Command<FlowReply>>) =>
  async (c: Context, { processes }: Deps) => {
    const process = processes.find(c, 'primary')
    const port = check(PortId, c.req.param('port_id'), 'port_id')
    ;(await process.caps('flowRules')).require('flowRules', 'flow rules') // before the body
    return json(c, await process.ask(await build(c, port)))
  }

/** The flow-rule endpoints; each answers the primary's own reply, also when it says `error`. */
export const flowRoutes: Route[] = [
  {
    method: 'post',
    path: `${base}/port_id/{port_id}/validate`,
    summary: `Validate a flow rule${only}`,
    body: FlowBody,
    example: rule,
    success: FlowReply,
    command: true,
    errors,
    handle: flow(async (c, port) =>
      primary.flowValidate(flowRuleWords(port, await readJson(c, FlowBody))),
    ),
  },
  {
    method: 'post',
    path: `${base}/port_id/{port_id}`,
    summary: `Create a flow rule${only}`,
    body: FlowBody,
    example: rule,
    success: FlowReply,
    command: true,
    errors,
    handle: flow(async (c, port) =>
      primary.flowCreate(flowRuleWords(port, await readJson(c, FlowBody))),
    ),
  },
  {
    method: 'delete',
    path: `${base}/port_id/{port_id}`,
    summary: `Destroy every flow rule of a port${only}`,
    success: FlowReply,
    command: true,
    errors,
    handle: flow((_, port) => primary.flowDestroy(port, 'ALL')),
  },
  {
    method: 'delete',
    path: `${base}/{rule_id}/port_id/{port_id}`,
    summary: `Destroy a flow rule${only}`,
    success: FlowReply,
    command: true,
    errors,
    handle: flow((c, port) =>
      primary.flowDestroy(port, check(RuleId, c.req.param('rule_id'), 'rule_id')),
    ),
  },
]
