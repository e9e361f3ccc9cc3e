// The flow-rule bodies of a 2020 primary, checked and turned into a rule's words (spp-protocol-2020 §10.8).
import * as v from 'valibot'

// A pattern item or an action: a name and its words, e.g. `eth dst is 11:22:33:44:55:66`.
const Item = v.pipe(
  v.string('expected a string'),
  v.regex(
    /^[a-z_]+(?: [A-Za-z0-9_:.]+)*$/,
    'expected a name and its words (letters, digits, _ : .) one space apart',
  ),
)

/** POST /v1/primary/flow_rules/port_id/{port_id}[/validate] */
export const FlowBody = v.object({
  rule: v.object({
    group: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(0xffffffff))),
    priority: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(0xffffffff))),
    transfer: v.optional(v.boolean('expected true or false')),
    direction: v.picklist(['ingress', 'egress'], 'expected ingress or egress'),
    pattern: v.pipe(v.array(Item, 'expected a list of pattern items'), v.minLength(1)),
    actions: v.pipe(v.array(Item, 'expected a list of actions'), v.minLength(1)),
  }),
})
export type FlowBody = v.InferOutput<typeof FlowBody>

/** `phy:P [group N] [priority N] [transfer] DIR pattern … / end actions … / end` */
export function flowRuleWords(port: number, { rule }: FlowBody): string {
  const words = [`phy:${port}`]
  if (rule.group !== undefined) words.push('group', String(rule.group))
  if (rule.priority !== undefined) words.push('priority', String(rule.priority))
  if (rule.transfer) words.push('transfer')
  words.push(rule.direction, 'pattern', [...rule.pattern, 'end'].join(' / '))
  words.push('actions', [...rule.actions, 'end'].join(' / '))
  return words.join(' ')
}
