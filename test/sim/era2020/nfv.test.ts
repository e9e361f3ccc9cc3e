// The 2020 nfv model against spp-protocol-2020 §3.2, §5 and the hazards of §2.4, byte for byte.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { Nfv2020Model } from '../../../src/sim/era2020/nfv.ts'

/** The reply text before its NUL padding, after checking the frame is exactly 32768 bytes. */
const frame = (reply: Buffer | undefined) => {
  assert.is(reply?.length, 32768)
  return reply!.toString('latin1').replace(/\0+$/, '')
}
const ok = (command: string, extra = '') => `{"result":"succeeded","command":"${command}"${extra}}`
const failed = (command: string, extra = '') => `{"result":"failed","command":"${command}"${extra}}`

test('nfv answers the handshake with 69 bytes of compact JSON and 32699 NULs', () => {
  const reply = new Nfv2020Model({ clientId: 1 }).handle('_get_client_id').reply!
  const json = '{"results":[{"result":"success"}],"client_id":1,"process_type":"nfv"}'
  assert.is(json.length, 69)
  assert.is(frame(reply), json)
  assert.ok(reply.subarray(69).every((byte) => byte === 0))
  assert.is(frame(new Nfv2020Model().handle('_get_client_id extra').reply), json)
})

test('nfv status is compact, with master-lcore and lcores, queues spelled with spaces', () => {
  const nfv = new Nfv2020Model({ clientId: 1, phyQueues: [1, 2] })
  const status = () => frame(nfv.handle('status').reply)
  assert.is(
    status(),
    '{"client-id":1,"status":"idling","master-lcore":1,"lcores":[1,2],"ports":["phy:0","phy:1 nq 0","phy:1 nq 1"],"patches":[]}',
  )
  nfv.handle('add ring:0')
  nfv.handle('patch phy:1nq1 ring:0')
  nfv.handle('forward')
  assert.is(
    status(),
    '{"client-id":1,"status":"running","master-lcore":1,"lcores":[1,2],"ports":["phy:0","phy:1 nq 0","phy:1 nq 1","ring:0"],"patches":[{"src":"phy:1 nq 1","dst":"ring:0"}]}',
  )
})

test('nfv answers every command with its JSON result or its echo, 32768 bytes each', () => {
  const nfv = new Nfv2020Model({ phyQueues: [1, 2], rings: 4 })
  const cases: [string, string][] = [
    ['forward', ok('forward')],
    ['stop', ok('stop')],
    ['add ring:0', ok('add', ',"port":"ring:0"')],
    ['add memif:1', ok('add', ',"port":"memif:1"')],
    ['add ring:9', failed('add', ',"port":"ring:9"')],
    ['add ring:0nq1', ok('add', ',"port":"ring:0"')], // rebuilt as %s:%d, the queue dropped
    ['del vhost:3', failed('del', ',"port":"vhost:3"')],
    ['del memif:1', ok('del', ',"port":"memif:1"')],
    ['patch phy:0 ring:0', ok('patch', ',"ports":{"src":"phy:0","dst":"ring:0"}')],
    ['patch phy:1nq1 ring:0', ok('patch', ',"ports":{"src":"phy:1nq1","dst":"ring:0"}')],
    ['patch phy:1nq2 ring:0', failed('patch', ',"ports":{"src":"phy:1nq2","dst":"ring:0"}')],
    ['patch phy:0 vhost:7', failed('patch', ',"ports":{"src":"phy:0","dst":"vhost:7"}')],
    ['patch reset', 'patch\0reset'],
    ['patch resetX', 'patch\0resetX'],
    ['patch', 'patch'],
    ['patch phy:0', 'patch\0phy:0'],
    ['_set_client_id 5', ok('_set_client_id')],
    ['_set_client_id x', failed('_set_client_id')],
    ['bogus  word', 'bogus\0 word'],
    ['   ', '   '],
  ]
  for (const [line, expected] of cases) {
    const answer = nfv.handle(line)
    assert.is(frame(answer.reply), expected, line)
    assert.not.ok(answer.exit, line)
  }
  assert.is(frame(nfv.handle('_get_client_id').reply).includes('"client_id":5'), true)
})

test('nfv add of a type it cannot create overwrites port slot 0 and says succeeded', () => {
  const nfv = new Nfv2020Model()
  assert.is(frame(nfv.handle('add phy:5').reply), ok('add', ',"port":"phy:5"'))
  assert.ok(frame(nfv.handle('status').reply).includes('"ports":["udf","phy:1"]'))
})

test('nfv patch resetX resets the patches too: only five characters are compared', () => {
  const nfv = new Nfv2020Model()
  nfv.handle('patch phy:0 phy:1')
  assert.ok(frame(nfv.handle('status').reply).includes('"patches":[{"src":"phy:0","dst":"phy:1"}]'))
  nfv.handle('patch resetX')
  assert.ok(frame(nfv.handle('status').reply).endsWith('"patches":[]}'))
})

test('nfv exit replies, then the process ends', () => {
  const answer = new Nfv2020Model().handle('exit')
  assert.is(frame(answer.reply), ok('exit'))
  assert.ok(answer.exit)
  assert.is(answer.crash, undefined)
})

test('inputs that make a 2020 nfv terminate: an echo then the end, or no reply at all', () => {
  const cases: [string, string | undefined][] = [
    ['add ring0', 'add\0ring0'],
    ['add ring:x', 'add\0ring\0x'],
    ['add ring:1a', 'add\0ring\u00001a'],
    ['add phy:0nqx', 'add\0phy\u00000nqx'],
    ['del ring:x', 'del\0ring\0x'],
    ['add ring:', undefined],
    ['add', undefined],
    ['del', undefined],
    ['del phy:0', undefined], // out of bounds in the forwarding table
    ['patch ring:x ring:0', undefined],
    ['_set_client_id', undefined],
  ]
  for (const [line, echo] of cases) {
    const answer = new Nfv2020Model().handle(line)
    assert.ok(answer.exit, line)
    assert.type(answer.crash, 'string', line)
    if (echo === undefined) assert.is(answer.reply, undefined, line)
    else assert.is(frame(answer.reply), echo, line)
  }
})

test.run()
