// How answers word an nfv's status: the spec's Running/Idle as decoded, or the wire's running/idling.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { presentNfv, presentTopology } from '../../src/http/present.ts'
import type { NfvInfo } from '../../src/protocol/bodies.ts'
import type { TopologyDocument } from '../../src/topology/read-topology.ts'

const running: NfvInfo = { 'client-id': 1, status: 'Running', ports: ['phy:0'], patches: [] }
const idle: NfvInfo = { 'client-id': 2, status: 'Idle', ports: [], patches: [] }
const document: TopologyDocument = {
  primary: {},
  nfvs: { '1': running, '2': idle, '3': { error: 'no reply within 300 ms' } },
  vfs: {},
  mirrors: {},
}

test('spec words: the decoded object itself, so a shared reply is serialised once', () => {
  assert.is(presentNfv('spec')(running), running)
  assert.is(presentTopology('spec')(document), document)
})

test('wire words: Running → running, Idle → idling; the rest as it was, nothing changed in place', () => {
  const wire = presentNfv('wire')
  assert.equal(wire(running), { ...running, status: 'running' })
  assert.equal(wire(idle), { ...idle, status: 'idling' })
  assert.is(running.status, 'Running')
})

test('wire words in a topology: every nfv reworded, an unreadable one kept as its error', () => {
  assert.equal(presentTopology('wire')(document), {
    ...document,
    nfvs: {
      '1': { ...running, status: 'running' },
      '2': { ...idle, status: 'idling' },
      '3': { error: 'no reply within 300 ms' },
    },
  })
  assert.is(document.nfvs['1'], running, 'the document is not changed')
})

test.run()
