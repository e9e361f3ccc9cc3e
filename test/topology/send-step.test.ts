// One step of a plan sent through its process's handle: checked by the routes' own table (404, 400
// naming the field, then the command), remembered with its journal entry before it counts as done.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { ChangeLedger } from '../../src/actors/change-ledger.ts'
import { STATUS } from '../../src/http/errors.ts'
import { silentLogger } from '../../src/log/logger.ts'
import { fixedReply } from '../../src/sim/wire.ts'
import type { JournaledRequest } from '../../src/store/store.ts'
import { stepSender, type Remember } from '../../src/topology/send-step.ts'
import type { Step } from '../../src/topology/steps.ts'
import { fakeApp, type FakeProcess } from '../helpers/fake-app.ts'

const nfv: FakeProcess = {
  kind: 'nfv',
  clientId: 1,
  handshake: fixedReply('1'),
  answer: (line) =>
    fixedReply(
      line === 'status'
        ? '{"client-id":1,"status":"idling","ports":["phy:0"],"patches":[]}'
        : line.replaceAll(' ', '\0'),
    ),
}

const addPort = (port: string, action = 'port.add', clientId = 1): Step => ({
  method: 'PUT',
  path: `/v1/nfvs/${clientId}/ports`,
  body: { action: 'add', port },
  action,
  why: `add ${port}`,
  process: { kind: 'nfv', clientId },
})

/** A step sender over one scripted nfv; what it remembers is listed. */
async function sender(remember?: Remember) {
  const { registry, sent } = await fakeApp([nfv])
  const remembered: [string[], JournaledRequest, boolean][] = []
  const send = stepSender({
    registry,
    ledger: new ChangeLedger(registry),
    statusOf: (code) => STATUS[code],
    log: silentLogger(),
    remember:
      remember ??
      ((changes, request, restoring) => {
        remembered.push([changes.map((s) => s.line), request, restoring])
        return Promise.resolve()
      }),
  })
  return { send, remembered, sent: () => sent(0) }
}

test('a step is asked of its process and remembered as its cause, with the request it stands for', async () => {
  const { send, remembered, sent } = await sender()
  const cause = { requestId: 'r-1.1', by: 'restore', restoring: true }
  assert.equal(await send(addPort('ring:0'), cause), { ok: true, status: 204 })
  assert.equal(sent(), ['add ring:0'])
  assert.equal(remembered, [
    [
      ['add ring:0'],
      {
        by: 'restore',
        requestId: 'r-1.1',
        method: 'PUT',
        path: '/v1/nfvs/1/ports',
        body: { action: 'add', port: 'ring:0' },
        status: 204,
      },
      true,
    ],
  ])
})

test("a step is checked as a client's request: 404, then 400 naming the field; nothing sent or remembered", async () => {
  const { send, remembered, sent } = await sender()
  const cause = { requestId: 'a-1.1', by: 'apply a-1' }
  assert.equal(await send(addPort('ring:0', 'port.add', 9), cause), {
    ok: false,
    status: 404,
    code: 'PROCESS_NOT_FOUND',
    error: 'sec_id 9 not found.\nNo nfv with client id 9 is connected; connected: nfv:1',
  })
  const memif = await send(addPort('memif:0'), cause)
  assert.equal([memif.status, !memif.ok && memif.code], [400, 'INVALID_REQUEST'])
  assert.match(!memif.ok ? memif.error : '', /^invalid key\(port\): "memif:0" \(expected TYPE:N/)
  const other = await send(addPort('ring:0', 'port.del'), cause)
  assert.equal(
    [other.status, !other.ok && other.error],
    [400, 'a step of port.del whose body asks for port.add'],
  )
  assert.equal([sent(), remembered], [[], []])
})

test('a step whose change cannot be remembered fails (500 COMMIT_FAILED), never done', async () => {
  const { send, sent } = await sender(() => Promise.reject(new Error('disk full (test)')))
  assert.equal(await send(addPort('ring:0'), { requestId: 'a-2.1', by: 'apply a-2' }), {
    ok: false,
    status: 500,
    code: 'COMMIT_FAILED',
    error: 'the change was made, but could not be remembered: disk full (test)',
  })
  assert.equal(sent(), ['add ring:0'])
})

test.run()
