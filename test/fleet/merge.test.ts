// The reconnection rule as a table: base (last revision seen), local edits, etcd's newer revision.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { mergeDesired, sameDesired } from '../../src/fleet/merge.ts'
import type { DesiredDocument } from '../../src/topology/document.ts'

const nfv = (status: 'Running' | 'Idle', ...ports: string[]) => ({ status, ports })
const A = nfv('Idle', 'phy:0')
const B = nfv('Running', 'phy:0')
const C = nfv('Idle', 'phy:0', 'ring:0')
const doc = (nfvs: Record<string, object>) => ({ nfvs }) as DesiredDocument

// [what the row shows, base, local, etcd, merged, lost]
const TABLE: [
  string,
  DesiredDocument,
  DesiredDocument,
  DesiredDocument,
  DesiredDocument,
  string[],
][] = [
  ['nothing changed', doc({ 1: A }), doc({ 1: A }), doc({ 1: A }), doc({ 1: A }), []],
  ['changed here only: local', doc({ 1: A }), doc({ 1: B }), doc({ 1: A }), doc({ 1: B }), []],
  ['changed in etcd only: etcd', doc({ 1: A }), doc({ 1: A }), doc({ 1: B }), doc({ 1: B }), []],
  [
    'changed alike on both: no loss',
    doc({ 1: A }),
    doc({ 1: B }),
    doc({ 1: B }),
    doc({ 1: B }),
    [],
  ],
  [
    'changed differently on both: etcd wins, the local edit is lost and named',
    doc({ 1: A }),
    doc({ 1: B }),
    doc({ 1: C }),
    doc({ 1: C }),
    ['nfvs/1'],
  ],
  [
    'different processes changed on each side: both kept',
    doc({ 1: A, 2: A }),
    doc({ 1: B, 2: A }),
    doc({ 1: A, 2: C }),
    doc({ 1: B, 2: C }),
    [],
  ],
  ['added here: kept', doc({}), doc({ 1: A }), doc({}), doc({ 1: A }), []],
  ['added in etcd: taken', doc({}), doc({}), doc({ 3: C }), doc({ 3: C }), []],
  ['forgotten here, untouched in etcd: forgotten', doc({ 1: A }), doc({}), doc({ 1: A }), {}, []],
  [
    'forgotten here, changed in etcd: etcd wins',
    doc({ 1: A }),
    doc({}),
    doc({ 1: B }),
    doc({ 1: B }),
    ['nfvs/1'],
  ],
  ['changed here, deleted in etcd: etcd wins', doc({ 1: A }), doc({ 1: B }), {}, {}, ['nfvs/1']],
  [
    'no revision ever seen (base {}): etcd wins where both name a process differently',
    {},
    doc({ 1: A, 2: A }),
    doc({ 1: B }),
    doc({ 1: B, 2: A }),
    ['nfvs/1'],
  ],
]

for (const [name, base, local, etcd, merged, lost] of TABLE)
  test(`merge: ${name}`, () => {
    const result = mergeDesired(base, local, etcd)
    assert.ok(
      sameDesired(result.document, merged),
      `${JSON.stringify(result.document)} != ${JSON.stringify(merged)}`,
    )
    assert.equal(result.lost, lost)
  })

test('a vf and an nfv with the same id are different processes', () => {
  const base: DesiredDocument = { nfvs: { 2: A }, vfs: { 2: { components: [] } } }
  const local: DesiredDocument = { nfvs: { 2: B }, vfs: { 2: { components: [] } } }
  const etcd: DesiredDocument = { nfvs: { 2: A }, vfs: {} }
  const result = mergeDesired(base, local, etcd)
  assert.equal(result.document, { nfvs: { 2: B } })
  assert.equal(result.lost, [])
})

test('documents that differ only in key order or empty sections are the same', () => {
  assert.ok(
    sameDesired({ nfvs: { 1: { ports: ['phy:0'], status: 'Idle' } }, vfs: {} }, doc({ 1: A })),
  )
  assert.not.ok(sameDesired(doc({ 1: A }), doc({ 1: nfv('Idle', 'phy:1') })))
  assert.not.ok(
    sameDesired(
      doc({ 1: nfv('Idle', 'phy:0', 'phy:1') }),
      doc({ 1: nfv('Idle', 'phy:1', 'phy:0') }),
    ),
  )
})

test.run()
