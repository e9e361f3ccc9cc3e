// The 2020 primary's flow commands against spp-protocol-2020 §4.7: replies and rules in status.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { Primary2020Model } from '../../../src/sim/era2020/primary.ts'

const frame = (reply: Buffer | undefined) => {
  assert.is(reply?.length, 32768)
  return reply!.toString('latin1').replace(/\0+$/, '')
}
const RULE =
  'group 0 priority 0 transfer ingress pattern eth dst is 11:22:33:44:55:66 type mask 0xffff / end actions queue index 1 / of_pop_vlan / end'
const flowsOf = (primary: Primary2020Model, port: number) =>
  (JSON.parse(frame(primary.handle('status').reply)) as { phy_ports: { flow: unknown[] }[] })
    .phy_ports[port]!.flow

test('flow replies are spaced JSON, NUL-padded to 32768 bytes', () => {
  const primary = new Primary2020Model()
  const cases: [string, string][] = [
    [`flow validate phy:0 ${RULE}`, '{"result": "success", "message": "Flow rule validated"}'],
    [
      `flow create phy:0 ${RULE}`,
      '{"result": "success", "message": "Flow rule #0 created", "rule_id": "0"}',
    ],
    [
      `flow create phy:0 ${RULE}`,
      '{"result": "success", "message": "Flow rule #1 created", "rule_id": "1"}',
    ],
    ['flow destroy phy:0 1', '{"result": "success", "message": "Flow rule #1 destroyed"}'],
    ['flow destroy phy:0 3', '{"result": "error", "message": "Flow rule #3 not found"}'],
    ['flow destroy phy:5 0', '{"result": "error", "message": "Invalid port 5"}'],
    ['flow destroy phy:0 abc', '{"result": "success", "message": "Flow rule #0 destroyed"}'],
    ['flow destroy phy:0 ALL', '{"result": "success", "message": "Flow rule all destroyed"}'],
    [
      `flow create ring:0 ${RULE}`,
      '{"result": "error", "message": "Flow command invalid argument"}',
    ],
    [
      'flow create phy:0 ingress pattern ip / end actions end',
      '{"result": "error", "message": "Flow command invalid argument"}',
    ],
    ['flow list phy:0', '{"result": "error", "message": "Flow command invalid argument"}'],
    ['flow', '{"result": "error", "message": "Flow command invalid argument"}'],
  ]
  for (const [line, expected] of cases) assert.is(frame(primary.handle(line).reply), expected, line)
})

test('a rule id follows the most recently created surviving rule', () => {
  const primary = new Primary2020Model()
  for (let n = 0; n < 3; n++) primary.handle(`flow create phy:0 ${RULE}`)
  primary.handle('flow destroy phy:0 2')
  assert.ok(frame(primary.handle(`flow create phy:0 ${RULE}`).reply).includes('"rule_id": "2"'))
  primary.handle('flow destroy phy:0 0')
  assert.ok(frame(primary.handle(`flow create phy:0 ${RULE}`).reply).includes('"rule_id": "3"'))
  assert.equal(
    flowsOf(primary, 0).map((rule) => (rule as { rule_id: number }).rule_id),
    [1, 2, 3],
  )
})

test('rules appear compact in status, per phy port, fields as an x86 host prints them', () => {
  const primary = new Primary2020Model()
  primary.handle(`flow create phy:1 ${RULE}`)
  primary.handle(
    'flow create phy:1 egress pattern vlan vid is 100 / end actions of_set_vlan_vid vlan_vid 100 / of_push_vlan ethertype 0x8100 / of_set_vlan_pcp vlan_pcp 3 / jump group 2 / end',
  )
  const status = frame(primary.handle('status').reply)
  assert.ok(status.includes('"flow":[]},{"id":1'))
  assert.ok(
    status.includes(
      '"flow":[{"rule_id":0,"attr":{"group":0,"priority":0,"ingress":1,"egress":0,"transfer":1},"patterns":[{"type":"eth","spec":{"dst":"11:22:33:44:55:66","src":"00:00:00:00:00:00","type":"0x0000"},"last":null,"mask":{"dst":"FF:FF:FF:FF:FF:FF","src":"00:00:00:00:00:00","type":"0xffff"}}],"actions":[{"type":"queue","conf":{"index":1}},{"type":"of_pop_vlan","conf":null}]},' +
        '{"rule_id":1,"attr":{"group":0,"priority":0,"ingress":0,"egress":1,"transfer":0},"patterns":[{"type":"vlan","spec":{"tci":"0x6400","inner_type":"0x0000"},"last":null,"mask":{"tci":"0xff0f","inner_type":"0x0000"}}],"actions":[{"type":"of_set_vlan_vid","conf":{"vlan_vid":"0x6400"}},{"type":"of_push_vlan","conf":{"ethertype":"0x0081"}},{"type":"of_set_vlan_pcp","conf":{"vlan_pcp":"0x3"}},{"type":"jump","conf":{"group":2}}]}]',
    ),
    status,
  )
})

test('prefix N masks the top N bits of a field', () => {
  const primary = new Primary2020Model()
  primary.handle(
    'flow create phy:0 ingress pattern eth dst prefix 20 type prefix 4 / vlan vid prefix 4 / end actions end',
  )
  assert.ok(
    frame(primary.handle('status').reply).includes(
      '"patterns":[{"type":"eth","spec":null,"last":null,"mask":{"dst":"FF:FF:F0:00:00:00","src":"00:00:00:00:00:00","type":"0x00f0"}},{"type":"vlan","spec":null,"last":null,"mask":{"tci":"0x000f","inner_type":"0x0000"}}],"actions":[]',
    ),
  )
  const reply = primary.handle(
    'flow create phy:0 ingress pattern eth type prefix 17 / end actions end',
  )
  assert.is(frame(reply.reply), '{"result": "error", "message": "Flow command invalid argument"}')
})

test.run()
