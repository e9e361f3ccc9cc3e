import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { nfvCommands as nfv } from '../../src/protocol/kinds/nfv.ts'
import { primaryCommands } from '../../src/protocol/kinds/primary.ts'
import { vfCommands } from '../../src/protocol/kinds/vf.ts'
import { createJob } from '../../src/actors/job.ts'
import { askOn } from '../../src/actors/process-handle.ts'
import type { Command } from '../../src/protocol/command.ts'
import { fixedReply } from '../../src/sim/wire.ts'
import { fakeConnection, flush } from '../helpers/fake-link.ts'

const NFV_STATUS = (status: string) =>
  fixedReply(`{"client-id":1,"status":"${status}","ports":[],"patches":[]}`)
const identifiedNfv = () => {
  const c = fakeConnection('secondary')
  c.reply(fixedReply('1'))
  return c
}

test('a secondary is asked _get_client_id first and identified from the reply', () => {
  const c = fakeConnection('secondary')
  assert.equal(c.written, ['_get_client_id'])
  assert.is(c.state(), 'identifying')
  c.reply(fixedReply('7'))
  assert.equal(c.identified, [
    { type: 'identified', id: { kind: 'nfv', clientId: 7 }, era: '18.11' },
  ])
  assert.equal(c.state(), 'ready')
})

const PRIMARY_STATUS = fixedReply('{"phy_ports": [], "ring_ports": []}')

test('the primary is probed with status and identified by a primary status reply', () => {
  const c = fakeConnection('primary')
  assert.equal(c.written, ['status'])
  assert.equal(c.identified, [])
  c.reply(PRIMARY_STATUS)
  assert.equal(c.identified, [{ type: 'identified', id: { kind: 'primary' }, era: '18.11' }])
})

test('a peer on the primary port that does not answer like a primary never becomes the primary', () => {
  const c = fakeConnection('primary')
  c.reply(fixedReply('1'))
  assert.equal(c.identified, [])
  assert.is(c.actor.getSnapshot().status, 'done')
})

test('a peer that never answers the handshake is dropped after the timeout', () => {
  const c = fakeConnection('secondary', 500)
  c.clock.increment(499)
  assert.is(c.actor.getSnapshot().status, 'active')
  c.clock.increment(1)
  assert.is(c.actor.getSnapshot().status, 'done')
  assert.match(c.actor.getSnapshot().context.closeReason ?? '', /no answer to _get_client_id/)
})

test('an undecodable handshake reply closes the connection', () => {
  const c = fakeConnection('secondary')
  c.reply(fixedReply('hello'))
  assert.is(c.actor.getSnapshot().status, 'done')
  assert.match(c.actor.getSnapshot().context.closeReason ?? '', /handshake failed/)
})

test('commands are queued and only one is in flight; each gets its own reply', async () => {
  const c = identifiedNfv()
  void c.ask(nfv.addPort('ring:0'))
  void c.ask(nfv.forward())
  void c.ask(nfv.status())
  assert.equal(c.written, ['_get_client_id', 'add ring:0'])
  c.reply(fixedReply('add\0ring\u00000'))
  assert.equal(c.written.slice(1), ['add ring:0', 'forward'])
  c.reply(fixedReply('forward'))
  assert.equal(c.written.slice(1), ['add ring:0', 'forward', 'status'])
  c.reply(NFV_STATUS('running'))
  await flush()
  assert.equal(c.outcomes, [
    'ok',
    'ok',
    'ok {"client-id":1,"status":"Running","ports":[],"patches":[]}',
  ])
})

test('Running/Idle is tracked from forward, stop, del and status', () => {
  const c = identifiedNfv()
  void c.ask(nfv.status()) // its ports known: a del is checked against them, not read first
  c.reply(NFV_STATUS('idling'))
  const status = () => {
    const { view } = c.actor.getSnapshot().context
    return view?.kind === 'nfv' ? view.status : undefined
  }
  void c.ask(nfv.forward())
  c.reply(fixedReply('forward'))
  assert.is(status(), 'Running')
  void c.ask(nfv.delPort('ring:0'))
  c.reply(fixedReply('del'))
  assert.is(status(), 'Idle')
  void c.ask(nfv.status())
  c.reply(NFV_STATUS('running'))
  assert.is(status(), 'Running')
})

test('a command without a reply fails with a timeout, and commands queued behind it are not sent', async () => {
  const c = identifiedNfv()
  void c.ask(nfv.status())
  void c.ask(nfv.forward())
  c.clock.increment(1000)
  await flush()
  assert.equal(c.written.slice(1), ['status'])
  assert.match(c.outcomes[0]!, /^REPLY_TIMEOUT no reply within 1000 ms/)
  assert.match(c.outcomes[1]!, /^PROCESS_UNRESPONSIVE not sent: nfv:1 did not answer/)
})

test('each command times out counted from when it was written, not from the one before it', async () => {
  const c = identifiedNfv()
  void c.ask(nfv.forward())
  c.clock.increment(600)
  void c.ask(nfv.stop())
  c.reply(fixedReply('forward')) // stop is written now, at 600
  c.clock.increment(999)
  await flush()
  assert.equal(c.outcomes, ['ok'])
  c.clock.increment(1)
  await flush()
  assert.match(c.outcomes[1]!, /^REPLY_TIMEOUT no reply within 1000 ms/)
})

test('every command and every reply is an event of the machine', async () => {
  const c = identifiedNfv()
  const rings = [0, 1, 2, 3, 4, 5].map((i) => `"ring:${i}"`).join(',')
  void c.ask(nfv.status()) // its ports known: a patch is checked against them, not read first
  c.reply(fixedReply(`{"client-id":1,"status":"idling","ports":[${rings}],"patches":[]}`))
  const sent = c.written.length
  const before = c.events.length
  for (let i = 0; i < 3; i++) void c.ask(nfv.patch('ring:0', `ring:${i + 1}`))
  assert.equal(c.written.slice(sent), ['patch ring:0 ring:1'], 'the first is written at once')
  assert.equal(c.events.slice(before), ['command', 'command', 'command'])
  for (let i = 0; i < 3; i++) c.reply(fixedReply('patch'))
  await flush()
  assert.equal(
    c.written.slice(sent),
    [0, 1, 2].map((i) => `patch ring:0 ring:${i + 1}`),
  )
  assert.equal(c.events.slice(before + 3), ['reply', 'reply', 'reply'])
  assert.equal(c.outcomes.slice(1), Array<string>(3).fill('ok'))
})

test('the states say what the connection is doing: identifying, idle, awaiting a reply, discarding a late one, closed', () => {
  const c = fakeConnection('secondary')
  assert.is(c.state(), 'identifying')
  c.reply(fixedReply('1'))
  assert.equal(c.state(), 'ready')
  void c.ask(nfv.status())
  assert.equal(c.state(), 'awaitingReply')
  c.clock.increment(1000)
  assert.is(c.state(), 'discardingLateReply')
  c.reply(NFV_STATUS('idling'))
  assert.equal(c.state(), 'ready')
  c.close()
  assert.is(c.state(), 'closed')
})

test('each settled command is emitted once, with the view before and after and who caused it', async () => {
  const c = identifiedNfv()
  const cause = { requestId: 'r-1', by: 'ops' }
  void askOn(c.actor, nfv.forward(), { cause })
  c.reply(fixedReply('forward'))
  await flush()
  const [settled] = c.settled
  assert.is(c.settled.length, 1)
  assert.equal(settled!.process, { kind: 'nfv', clientId: 1 })
  assert.is(settled!.line, 'forward')
  assert.equal(settled!.change, { kind: 'nfv.forward' })
  assert.ok(settled!.outcome.ok)
  assert.equal(settled!.before, { kind: 'nfv' })
  assert.equal(settled!.after, { kind: 'nfv', status: 'Running' })
  assert.is(settled!.cause, cause)
})

test('the context changes only by assign: a snapshot taken before a command is as it was', () => {
  const c = identifiedNfv()
  const before = c.actor.getSnapshot().context
  const { queue, view } = before
  void c.ask(nfv.forward())
  void c.ask(nfv.stop())
  c.reply(fixedReply('forward'))
  assert.is(before.queue, queue)
  assert.is(before.queue.length, 0)
  assert.is(before.view, view)
  assert.is(before.inFlight, undefined)
  const after = c.actor.getSnapshot().context
  assert.is.not(after, before)
  assert.is(after.inFlight?.job.line, 'stop')
})

test('a command asked by a listener while the connection closes is refused, never left in flight', async () => {
  const c = identifiedNfv()
  let asked = false
  c.actor.on('settled', () => {
    if (asked) return
    asked = true
    void c.ask(nfv.stop()) // heard as the connection closes
  })
  void c.ask(nfv.forward())
  c.close()
  await flush()
  assert.ok(asked)
  assert.equal(c.written.slice(1), ['forward'], 'stop was not written on the closing connection')
  assert.equal(c.outcomes.slice(1), ['CONNECTION_CLOSED the process has disconnected'])
})

test('a command event (the mailbox way in) is queued and written as ask does it', async () => {
  const c = identifiedNfv()
  const { job, promise } = createJob(nfv.forward())
  c.actor.send({ type: 'command', job })
  assert.equal(c.written.slice(1), ['forward'])
  c.reply(fixedReply('forward'))
  assert.is(await promise, undefined)
})

test('a reply is decoded once, however many requests wait for it and whatever follows it', async () => {
  const c = identifiedNfv()
  let decodes = 0
  const counted = <T>(command: Command<T>): Command<T> => ({
    ...command,
    decode: (frame) => (decodes++, command.decode(frame)),
  })
  const rings = fixedReply(
    '{"client-id":1,"status":"idling","ports":["ring:0","ring:1"],"patches":[]}',
  )
  const status = counted(nfv.status())
  void c.ask(counted(nfv.forward()))
  void c.ask(status)
  void c.ask(status) // joins the read: one reply, two requests
  c.reply(fixedReply('forward')) // the status waits behind it
  assert.is(decodes, 1, 'the change, as its reply came with a command waiting')
  c.reply(rings)
  assert.is(decodes, 2, 'the read, once for both requests')
  void c.ask(counted(nfv.patch('ring:0', 'ring:1'))) // checked against the view the read made
  c.reply(fixedReply('patch'))
  await flush()
  assert.is(decodes, 3, 'the patch, alone in the queue')
  assert.equal(c.written.slice(1), ['forward', 'status', 'patch ring:0 ring:1'])
  assert.equal(c.outcomes.length, 4)
  assert.is(c.settled.length, 3)
})

test('reads joining the queued read share one status', async () => {
  const c = identifiedNfv()
  void c.ask(nfv.forward())
  for (let i = 0; i < 5; i++) void c.ask(nfv.status())
  c.reply(fixedReply('forward'))
  c.reply(NFV_STATUS('running'))
  await flush()
  assert.equal(c.written.slice(1), ['forward', 'status'])
  assert.is(c.outcomes.length, 6)
  assert.is(c.settled.at(-1)!.joined, 4)
})

test('a late reply is discarded, never taken as the answer to the next command', async () => {
  const c = identifiedNfv()
  void c.ask(nfv.status())
  c.clock.increment(1000)
  void c.ask(nfv.status()) // queued while the late reply is awaited
  assert.equal(c.written.slice(1), ['status'])
  c.reply(NFV_STATUS('idling')) // the late answer to the first status
  assert.equal(c.written.slice(1), ['status', 'status'])
  c.reply(NFV_STATUS('running'))
  await flush()
  assert.is(c.outcomes.length, 2)
  assert.match(c.outcomes[1]!, /"status":"Running"/)
})

test('if the late reply never comes the connection is dropped; what waited is handed over, unsent', async () => {
  const c = identifiedNfv()
  void c.ask(nfv.status())
  c.clock.increment(1000)
  void c.ask(nfv.forward())
  c.clock.increment(1000)
  await flush()
  assert.is(c.actor.getSnapshot().status, 'done')
  assert.match(c.actor.getSnapshot().context.closeReason ?? '', /no reply to a timed-out command/)
  assert.equal(c.written.slice(1), ['status'])
  assert.equal(
    c.unsent.map((job) => job.line),
    ['forward'],
  )
  assert.is(c.outcomes.length, 1, 'the forward is not failed with the connection')
})

test('a disconnect fails the command in flight and hands over every queued one, unsent', async () => {
  const c = identifiedNfv()
  void c.ask(nfv.status())
  void c.ask(nfv.forward())
  c.close('socket error: ECONNRESET')
  await flush()
  assert.equal(c.outcomes, [
    'CONNECTION_CLOSED connection to nfv:1 closed: socket error: ECONNRESET',
  ])
  assert.equal(
    c.unsent.map((job) => job.line),
    ['forward'],
  )
  await c.ask(nfv.status())
  assert.match(c.outcomes[1]!, /^CONNECTION_CLOSED/)
})

test('a reply that arrives when no command was sent is a protocol error that drops the connection', () => {
  const c = identifiedNfv()
  c.reply(fixedReply('surprise'))
  assert.is(c.actor.getSnapshot().status, 'done')
  assert.match(c.actor.getSnapshot().context.closeReason ?? '', /reply without a command/)
})

test('exit: the reply is the last word, then the connection is closed by the controller', async () => {
  const c = fakeConnection('primary')
  c.reply(PRIMARY_STATUS)
  void c.ask(primaryCommands.exit())
  assert.equal(c.written, ['status', 'exit'])
  c.reply(fixedReply('exit'))
  await flush()
  assert.equal(c.outcomes, ['ok'])
  assert.is(c.actor.getSnapshot().status, 'done')
})

test('a vf rejection settles the command with the process message and keeps the connection', async () => {
  const c = fakeConnection('secondary')
  c.reply('{ "results": [ { "result": "success" } ], "client_id": 2, "process_type": "vf" }')
  void c.ask(vfCommands.portAdd('ring:0', 'rx', 'fw1'))
  c.reply(
    '{ "results": [ { "result": "error", "error_details": { "message": "bad value(component name)" } } ] }',
  )
  await flush()
  assert.equal(c.outcomes, ['COMMAND_REJECTED command error: bad value(component name)'])
  assert.equal(c.state(), 'ready')
})

test('a close event (replaced by a new connection) fails the command in flight and sends nothing more', async () => {
  const c = identifiedNfv()
  void c.ask(nfv.status())
  void c.ask(nfv.forward())
  c.actor.send({ type: 'close', reason: 'replaced by a new connection with the same identity' })
  await flush()
  assert.equal(c.written.slice(1), ['status'])
  assert.is(c.outcomes.length, 1)
  assert.match(c.outcomes[0]!, /replaced by a new connection/)
  assert.equal(
    c.unsent.map((job) => job.line),
    ['forward'],
  )
})

test('past --max-queue a command is refused at once and nothing is sent; a joining read is not', async () => {
  const c = fakeConnection('secondary', 1000, 2)
  c.reply(fixedReply('1'))
  void c.ask(nfv.forward()) // in flight
  void c.ask(nfv.stop())
  void c.ask(nfv.status())
  void c.ask(nfv.status()) // joins the queued status: no place taken
  void c.ask(nfv.patchReset()) // the queue holds 2: refused
  await flush()
  assert.equal(c.outcomes, ['QUEUE_FULL nfv:1 has 2 commands waiting: try again later'])
  for (const reply of [
    'forward',
    'stop',
    '{"client-id":1,"status":"idling","ports":[],"patches":[]}',
  ])
    c.reply(fixedReply(reply))
  assert.equal(c.written.slice(1), ['forward', 'stop', 'status'])
})

test('a command whose client has gone before it was written is never sent', async () => {
  const c = identifiedNfv()
  void c.ask(nfv.forward())
  const gone = new AbortController()
  void c.ask(nfv.stop(), gone.signal)
  void c.ask(nfv.patchReset())
  gone.abort()
  c.reply(fixedReply('forward'))
  c.reply(fixedReply('patch'))
  await flush()
  assert.equal(c.written.slice(1), ['forward', 'patch reset'])
})

test('a component start on a core the status did not list (the main lcore) is refused, unsent', async () => {
  const c = fakeConnection('secondary')
  c.reply('{ "results": [ { "result": "success" } ], "client_id": 2, "process_type": "vf" }')
  void c.ask(vfCommands.status())
  c.reply(VF_STATUS)
  void c.ask(vfCommands.componentStart('fw1', 1, 'forward'))
  void c.ask(vfCommands.componentStart('cls2', 2, 'classifier_mac'))
  await flush()
  assert.equal(c.written.slice(1), ['status'])
  assert.is(c.state(), 'ready', 'nothing in flight, no deadline running')
  assert.match(c.outcomes[1]!, /^INVALID_REQUEST invalid key\(core\): 1 \(not a worker lcore/)
  assert.match(
    c.outcomes[2]!,
    /^INVALID_REQUEST invalid key\(core\): 2 \(already runs a classifier_mac/,
  )
})

const VF_STATUS =
  '{ "results": [ { "result": "success" } ], "info": { "client-id": 2, "phy": [ 0 ], "vhost": [  ], "ring": [  ], "core": [ { "core": 2, "name": "cls", "type": "classifier_mac", "rx_port": [  ], "tx_port": [  ] }, { "core": 3, "type": "unuse" } ], "classifier_table": [  ] } }'

test('on a connection that has not read its status, a component start is checked after one read', async () => {
  const c = fakeConnection('secondary')
  c.reply('{ "results": [ { "result": "success" } ], "client_id": 2, "process_type": "vf" }')
  void c.ask(vfCommands.componentStart('fw1', 1, 'forward')) // as a command resent after a reconnect
  void c.ask(vfCommands.componentStart('fw2', 3, 'forward'))
  assert.equal(c.written.slice(1), ['status'], 'the cores are read before the start is sent')
  c.reply(VF_STATUS)
  await flush()
  assert.match(c.outcomes[0]!, /^INVALID_REQUEST invalid key\(core\): 1 \(not a worker lcore/)
  assert.equal(c.written.slice(1), ['status', 'component start fw2 3 forward'])
})

test.run()
