// A revision from etcd taken while a local change is remembered but not yet handed to the link (a
// request between its commit and its answer, or revisions queued behind a restore): merged, written.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { Registry } from '../../src/actors/registry.ts'
import { desiredSide, type DesiredSide } from '../../src/fleet/desired-side.ts'
import type { DesiredRevision } from '../../src/fleet/desired-sync.ts'
import { silentLogger } from '../../src/log/logger.ts'
import { EventHub } from '../../src/observe/event-hub.ts'
import { openStore, type Store } from '../../src/store/store.ts'
import type { DesiredDocument } from '../../src/topology/document.ts'
import { Memory } from '../../src/remember/memory.ts'
import type { Restorer } from '../../src/remember/restore.ts'

const NFV1 = { section: 'nfvs', clientId: 1 } as const
const nfv = (...ports: string[]) => ({
  status: 'Idle' as const,
  ports: ['phy:0', ...ports],
  patches: [],
})
// etcd's newer revision: nfv 1 as it was, nfv 2 added (the change of `fleet apply`).
const FLEET: DesiredDocument = { nfvs: { 1: nfv('ring:2'), 2: nfv('ring:1') } }
const portsOf = (document: DesiredDocument | undefined, id: number) =>
  (document?.nfvs?.[id] as { ports: string[] } | undefined)?.ports ?? []

type Side = { side: DesiredSide; store: Store; hub: EventHub; written: DesiredDocument[] }

/**
 * A side over a real store that remembers nfv 1 with ring:2 (what the link last wrote). Nothing is
 * connected, so a taken revision is remembered and converged at once, with no restore to run.
 * `written` collects what goes to the link, as the controller hands it over.
 */
async function withSide(body: (s: Side & { taken: () => Promise<void> }) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), 'spp-ctl-side-'))
  const store = openStore(dir)
  const hub = new EventHub()
  try {
    store.put(NFV1, nfv('ring:2'))
    const memory = new Memory(store, new Registry(), silentLogger())
    const side = desiredSide({
      ...{ memory, registry: new Registry(), hub, log: silentLogger(), mode: 'on' },
      ...{ restorer: {} as Restorer, key: '/spp-ctl/hosts/a/desired' },
    })
    const link: { seen: DesiredRevision | undefined } = { seen: undefined }
    const written: DesiredDocument[] = []
    const handOver = () => {
      const document = side.changed(link)
      if (document) written.push(document)
    }
    side.onUnsentMerged(handOver)
    let done = () => {}
    side.onChange(() => done())
    // Each take ends with its progress reported: resolves at the next report.
    const taken = () => new Promise<void>((resolve) => (done = resolve))
    await body({ side, store, hub, written, taken })
    handOver() // the request's answer: whatever is still unsent goes now
  } finally {
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

test('a change remembered here, not yet handed over, when a revision is taken: merged', () =>
  withSide(async ({ side, store, written, taken }) => {
    store.put(NFV1, nfv('ring:2', 'ring:0')) // the request's commit; its answer is not out yet
    const converged = taken()
    side.take({ document: FLEET, revision: 8, lost: [] })
    await converged
    side.changed({ seen: { document: FLEET, revision: 8 } }) // the answer: nothing new to add
    const remembered = store.remembered() as DesiredDocument
    assert.equal(portsOf(remembered, 1), ['phy:0', 'ring:2', 'ring:0'], 'the change is kept')
    assert.equal(portsOf(remembered, 2), ['phy:0', 'ring:1'], "etcd's revision is taken")
    assert.is(written.length, 1, 'the merged document goes to the link')
    assert.equal(portsOf(written[0], 1), ['phy:0', 'ring:2', 'ring:0'])
    assert.equal(portsOf(written[0], 2), ['phy:0', 'ring:1'])
  }))

test('a change answered while revisions wait to be taken: merged into the last, not before', () =>
  withSide(async ({ side, store, written, taken }) => {
    const converged = taken()
    side.take({ document: { nfvs: { 1: nfv('ring:2') } }, revision: 8, lost: [] })
    side.take({ document: FLEET, revision: 9, lost: [] })
    store.put(NFV1, nfv('ring:2', 'ring:0'))
    // The request's answer, while both revisions are queued: handed over now, it would be written
    // on revision 9, which the link has seen, without nfv 2: etcd's change overwritten blindly.
    const early = side.changed({ seen: { document: FLEET, revision: 9 } })
    assert.is(early, undefined, 'nothing handed over before the queued revisions are taken')
    await converged
    await taken()
    const remembered = store.remembered() as DesiredDocument
    assert.equal(portsOf(remembered, 1), ['phy:0', 'ring:2', 'ring:0'], 'the change is kept')
    assert.equal(portsOf(remembered, 2), ['phy:0', 'ring:1'], "etcd's revision is taken")
    assert.is(written.length, 1, 'the merged document goes to the link, once')
    assert.equal(portsOf(written[0], 2), ['phy:0', 'ring:1'])
    assert.equal(portsOf(written[0], 1), ['phy:0', 'ring:2', 'ring:0'])
  }))

test('the same process changed here and in etcd: etcd wins, the loss is reported', () =>
  withSide(async ({ side, store, hub, written, taken }) => {
    const events: unknown[] = []
    hub.subscribe({ push: (event) => events.push(event), close: () => undefined })
    store.put(NFV1, nfv('ring:2', 'ring:0'))
    const converged = taken()
    side.take({ document: { nfvs: { 1: nfv('ring:3') } }, revision: 8, lost: [] })
    await converged
    assert.equal(portsOf(store.remembered(), 1), ['phy:0', 'ring:3'])
    assert.equal(written, [], 'nothing of its own to write: etcd has it')
    assert.ok(JSON.stringify(events).includes('"processes":["nfvs/1"]'), JSON.stringify(events))
  }))

test.run()
