// The 2020 primary model against spp-protocol-2020 §4 and the hazards of §2.4, byte for byte.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { Primary2020Model } from '../../../src/sim/era2020/primary.ts'
import { Machine } from '../../../src/sim/machine.ts'

const frame = (reply: Buffer | undefined) => {
  assert.is(reply?.length, 32768)
  return reply!.toString('latin1').replace(/\0+$/, '')
}
const ok = (command: string, extra = '') => `{"result":"succeeded","command":"${command}"${extra}}`
const failed = (command: string, extra = '') => `{"result":"failed","command":"${command}"${extra}}`
const PHY = (id: number, q = 1) =>
  `{"id":${id},"eth":"56:48:4f:53:54:0${id}","rx":0,"tx":0,"tx_drop":0,"nof_queues":{"rx":${q},"tx":${q}},"flow":[]}`
const RING = (id: number) => `{"id":${id},"rx":0,"rx_drop":0,"tx":0,"tx_drop":0}`

test('primary status is compact: master-lcore, lcores, forwarder, nof_queues, flow, pipes', () => {
  const primary = new Primary2020Model({ rings: 2 })
  primary.handle('add ring:0')
  primary.handle('patch phy:0 ring:0')
  assert.is(
    frame(primary.handle('status').reply),
    `{"master-lcore":0,"lcores":[0,1],"forwarder":{"status":"idling","ports":["phy:0","phy:1","ring:0"],"patches":[{"src":"phy:0","dst":"ring:0"}]},"phy_ports":[${PHY(0)},${PHY(1)}],"ring_ports":[${RING(0)},${RING(1)}],"pipes":[],"simulator":"spp-sim"}`,
  )
})

test('primary status without a forwarder thread has no forwarder member', () => {
  const primary = new Primary2020Model({ phyQueues: [2], rings: 1, lcores: [0] })
  assert.is(
    frame(primary.handle('status').reply),
    `{"master-lcore":0,"lcores":[0],"phy_ports":[${PHY(0, 2)}],"ring_ports":[${RING(0)}],"pipes":[],"simulator":"spp-sim"}`,
  )
})

test('primary answers each command with its JSON result or its echo, 32768 bytes each', () => {
  const primary = new Primary2020Model({ rings: 4 })
  const cases: [string, string][] = [
    ['clear', ok('clear')],
    ['forward', ok('forward')],
    ['stop', ok('stop')],
    ['launch 1 spp_nfv -l 1,2 --proc-type secondary -- -n 1 -s 127.0.0.1:6666', ok('launch')],
    ['add ring:1', ok('add', ',"port":"ring:1"')],
    ['add vhost:0', ok('add', ',"port":"vhost:0"')],
    ['add memif:0', ok('add', ',"port":"memif:0"')],
    ['add ring:7', failed('add', ',"port":"ring:7"')],
    ['add pipe:0 ring:2 ring:3', ok('add', ',"port":"pipe:0"')],
    ['add pipe:1 ring:2 ring:9', failed('add', ',"port":"pipe:1"')],
    ['del vhost:0', ok('del', ',"port":"vhost:0"')],
    ['del vhost:0', failed('del', ',"port":"vhost:0"')],
    ['patch phy:0nq0 ring:1', ok('patch', ',"ports":{"src":"phy:0","dst":"ring:1"}')],
    ['patch phy:0 vhost:5', failed('patch', ',"ports":{"src":"phy:0","dst":"vhost:5"}')],
    ['patch reset', 'patch\0reset'],
    ['patch phy:0', 'patch\0phy:0'],
    ['_get_client_id', '_get_client_id'],
    ['bogus 1', 'bogus\u00001'],
  ]
  for (const [line, expected] of cases) {
    const answer = primary.handle(line)
    assert.is(frame(answer.reply), expected, line)
    assert.not.ok(answer.exit, line)
  }
  assert.equal(primary.launched[0]?.name, 'spp_nfv')
  assert.ok(
    frame(primary.handle('status').reply).endsWith(
      '"pipes":[{"id":0,"rx":2,"tx":3}],"simulator":"spp-sim"}',
    ),
  )
})

test("primary: its forwarder's counters move only as time passes; clear zeroes them", () => {
  let now = 0
  const traffic = { sources: { 'phy:0': 1000 }, clock: () => now }
  const machine = new Machine({ rings: 1, traffic })
  const model = new Primary2020Model({ phyQueues: [1], rings: 1, traffic: machine.traffic })
  const primary = machine.attach('primary', model)
  for (const line of ['add ring:0', 'patch phy:0 ring:0', 'forward']) primary.handle(line)
  const counters = () => {
    const status = JSON.parse(frame(primary.handle('status').reply)) as {
      phy_ports: { rx: number; tx: number; tx_drop: number }[]
      ring_ports: { tx: number; tx_drop: number }[]
    }
    const [phy] = status.phy_ports
    const [ring] = status.ring_ports
    return [phy!.rx, phy!.tx, phy!.tx_drop, ring!.tx, ring!.tx_drop]
  }
  assert.equal(counters(), [0, 0, 0, 0, 0], 'no time has passed: no packet')
  assert.equal(counters(), [0, 0, 0, 0, 0], 'reads alone move nothing')
  now += 1000
  // Nothing reads ring:0: it takes 127 packets, then drops; a 2020 phy port's tx_drop is its own.
  assert.equal(counters(), [1000, 0, 0, 127, 873])
  primary.handle('clear')
  assert.ok(
    frame(primary.handle('status').reply).includes(`${PHY(0, 1)}],"ring_ports":[${RING(0)}]`),
  )
  primary.handle('stop')
  now += 1000
  assert.equal(counters(), [0, 0, 0, 0, 0], 'a stopped forwarder moves nothing')
})

test('primary add of a type it cannot create overwrites slot 0 and says succeeded', () => {
  const primary = new Primary2020Model()
  assert.is(frame(primary.handle('add tap:1').reply), ok('add', ',"port":"tap:1"'))
  assert.ok(frame(primary.handle('status').reply).includes('"ports":["udf","phy:1"]'))
  assert.is(frame(primary.handle('del phy:1').reply), ok('del', ',"port":"phy:1"'))
  assert.ok(frame(primary.handle('status').reply).includes('"ports":["phy:1"]'))
})

test('primary exit replies, then the process ends', () => {
  const answer = new Primary2020Model().handle('exit')
  assert.is(frame(answer.reply), ok('exit'))
  assert.ok(answer.exit)
})

test('inputs that make a 2020 primary terminate: an echo then the end, or no reply at all', () => {
  const cases: [string, string | undefined][] = [
    ['add ring0', 'add\0ring0'],
    ['add ring:x', 'add\0ring\0x'],
    ['del ring:1a', 'del\0ring\u00001a'],
    ['add phy:0nqx', 'add\0phy\u00000nqx'],
    ['add pipe:0 ring:x ring:1', 'add\0pipe\u00000\0ring\0x\0ring\u00001'],
    ['add ring:', undefined],
    ['add', undefined],
    ['del', undefined],
    ['   ', undefined],
    ['launch', undefined],
    ['patch phy:0 ring:x', undefined],
  ]
  for (const [line, echo] of cases) {
    const answer = new Primary2020Model().handle(line)
    assert.ok(answer.exit, line)
    assert.type(answer.crash, 'string', line)
    if (echo === undefined) assert.is(answer.reply, undefined, line)
    else assert.is(frame(answer.reply), echo, line)
  }
})

test.run()
