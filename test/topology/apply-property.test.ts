// Property: from any valid live state to any valid desired one, no step is refused, the result is
// the desired state, and planning it again plans nothing (simulated vf, mirror, nfv over loopback).
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { componentsOf, entryOf, useText } from '../../src/topology/normalize.ts'
import type { TopologyDocument } from '../../src/topology/read-topology.ts'
import { withHarness, type Harness } from '../helpers/harness.ts'

const RUNS = Number(process.env.PROPERTY_RUNS ?? 200)
const VF_PORTS = ['phy:0', 'phy:1', 'ring:0', 'ring:1', 'ring:2', 'ring:3', 'vhost:0', 'vhost:1']
const NFV_PORTS = ['ring:0', 'ring:1', 'ring:2', 'ring:3', 'vhost:0', 'vhost:1', 'pcap:0']
const CORES = [2, 3, 4, 5]
const SHAPES: Record<string, { rx: number; tx: number }> = {
  forward: { rx: 1, tx: 1 },
  merge: { rx: 3, tx: 1 },
  classifier_mac: { rx: 1, tx: 3 },
  mirror: { rx: 1, tx: 2 },
}

const vlan = fc.oneof(
  fc.constant(undefined),
  fc.record({
    operation: fc.constant('add'),
    id: fc.integer({ max: 4095, min: 0 }),
    pcp: fc.nat(7),
  }),
  fc.constant({ operation: 'del' }),
)
const candidate = (types: string[]) =>
  fc.record({
    name: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
    core: fc.constantFrom(...CORES),
    type: fc.constantFrom(...types),
    rx: fc.shuffledSubarray(VF_PORTS, { maxLength: 3 }),
    tx: fc.shuffledSubarray(VF_PORTS, { maxLength: 3 }),
    vlans: fc.array(vlan, { minLength: 6, maxLength: 6 }),
  })
const entry = fc.option(
  fc.record({
    vid: fc.oneof(fc.constant(4095), fc.integer({ min: 0, max: 4094 })),
    mac: fc.constantFrom('default', 'aa:bb:cc:dd:ee:01', 'AA:BB:CC:DD:EE:02'),
  }),
)

type Candidate = { name: string; core: number; type: string; rx: string[]; tx: string[] }
/** Keeps what a valid state allows: unique names, one type per core, one use per port and dir. */
function components(candidates: (Candidate & { vlans: unknown[] })[], withVlan: boolean) {
  const names = new Set<string>()
  const coreTypes = new Map<number, string>()
  const used = { rx: new Set<string>(), tx: new Set<string>() }
  return candidates.flatMap(({ name, core, type: wanted, vlans, ...ports }) => {
    const type = coreTypes.get(core) ?? wanted
    if (names.has(name) || (type === 'classifier_mac' && coreTypes.has(core))) return []
    names.add(name)
    coreTypes.set(core, type)
    const uses = (dir: 'rx' | 'tx', offset: number) =>
      ports[dir]
        .filter((p) => !used[dir].has(p))
        .slice(0, SHAPES[type]![dir])
        .map((port, i) => {
          used[dir].add(port)
          const v = withVlan ? vlans[offset + i] : undefined
          return v === undefined ? { port } : { port, vlan: v }
        })
    return [{ name, core, type, rx_port: uses('rx', 0), tx_port: uses('tx', 3) }]
  })
}

const maybe = <T>(value: fc.Arbitrary<T>) => fc.option(value, { freq: 5, nil: undefined })
const state = fc
  .record({
    vf: maybe(fc.array(candidate(['forward', 'merge', 'classifier_mac']), { maxLength: 5 })),
    entries: maybe(fc.array(entry, { minLength: 8, maxLength: 8 })),
    mirror: maybe(fc.array(candidate(['mirror']), { maxLength: 4 })),
    status: maybe(fc.constantFrom('Running', 'Idle')),
    ports: maybe(fc.shuffledSubarray(NFV_PORTS)),
    patches: maybe(fc.array(fc.record({ src: fc.nat(8), dst: fc.nat(8) }), { maxLength: 5 })),
  })
  .map((raw) => {
    const vf: Record<string, unknown> = {}
    const vfComponents = components(raw.vf ?? [], true)
    if (raw.vf) vf.components = vfComponents
    if (raw.entries && raw.vf) {
      const classifierTx = vfComponents
        .filter((c) => c.type === 'classifier_mac')
        .flatMap((c) => c.tx_port.map((u) => u.port))
      vf.classifier_table = classifierTx.flatMap((port, i) => {
        const e = raw.entries![i]
        if (!e) return []
        return [
          e.vid === 4095
            ? { type: 'mac', value: e.mac, port }
            : { type: 'vlan', value: `${e.vid}/${e.mac}`, port },
        ]
      })
    }
    const nfv: Record<string, unknown> = {}
    if (raw.status) nfv.status = raw.status
    if (raw.ports) nfv.ports = raw.ports
    if (raw.patches && raw.ports) {
      const ends = ['phy:0', 'phy:1', ...raw.ports]
      const sources = new Set<string>()
      nfv.patches = raw.patches.flatMap(({ src, dst }) => {
        const s = ends[src % ends.length]!
        if (sources.has(s)) return []
        sources.add(s)
        return [{ src: s, dst: ends[dst % ends.length]! }]
      })
    }
    const mirror = raw.mirror ? { components: components(raw.mirror, false) } : {}
    return { nfvs: { '1': nfv }, vfs: { '2': vf }, mirrors: { '3': mirror } } as Generated
  })

const BASELINE = {
  nfvs: { '1': { status: 'Idle', ports: [], patches: [] } },
  vfs: { '2': { components: [], classifier_table: [] } },
  mirrors: { '3': { components: [] } },
}

type Patch = { src: string; dst: string }
type Listed = Parameters<typeof componentsOf>[0]
type Entry = { type: string; value: string; port: string }
/** What the generator makes: a desired document for nfv 1, vf 2 and mirror 3. */
type Generated = {
  nfvs: { '1': { status?: string; ports?: string[]; patches?: Patch[] } }
  vfs: { '2': { components?: Listed; classifier_table?: Entry[] } }
  mirrors: { '3': { components?: Listed } }
}

// The configuration as sets, so that list order (port numbering, attach order) never counts.
const comps = (list: Listed) =>
  componentsOf(list)
    .map((c) => ({ ...c, rx: c.rx.map(useText).sort(), tx: c.tx.map(useText).sort() }))
    .sort((a, b) => a.name.localeCompare(b.name))
const entries = (list: Entry[]) =>
  list
    .map(entryOf)
    .map((e) => `${e.port} ${e.vid} ${e.mac}`)
    .sort()
const patchKeys = (list: Patch[]) => list.map((p) => `${p.src}>${p.dst}`).sort()

function shape(doc: TopologyDocument) {
  const nfv = doc.nfvs['1'] as { status: string; ports: string[]; patches: Patch[] }
  const vf = doc.vfs['2'] as { components: Listed; classifier_table: Entry[] }
  const mirror = doc.mirrors['3'] as { components: Listed }
  return {
    nfv: {
      status: nfv.status,
      ports: nfv.ports.filter((p) => !p.startsWith('phy:')).sort(),
      patches: patchKeys(nfv.patches),
    },
    vf: comps(vf.components),
    classifier: entries(vf.classifier_table),
    mirror: comps(mirror.components),
  }
}

/** What the live state should be after applying `desired` onto `before`: absent fields kept. */
function expected(before: TopologyDocument, desired: Generated) {
  const want = shape(before)
  const nfv = desired.nfvs['1']
  const removed = nfv.ports ? want.nfv.ports.filter((p) => !nfv.ports!.includes(p)) : []
  if (nfv.status) want.nfv.status = nfv.status
  if (nfv.ports) want.nfv.ports = [...nfv.ports].sort()
  want.nfv.patches = nfv.patches
    ? patchKeys(nfv.patches)
    : want.nfv.patches.filter((p) => !removed.some((r) => p.split('>').includes(r)))
  const vf = desired.vfs['2']
  if (vf.components) want.vf = comps(vf.components)
  const tx = new Set(
    want.vf
      .filter((c) => c.type === 'classifier_mac')
      .flatMap((c) => c.tx.map((t) => t.split(' ')[0]!)),
  )
  want.classifier = vf.classifier_table
    ? entries(vf.classifier_table)
    : want.classifier.filter((e) => tx.has(e.split(' ')[0]!))
  const mirror = desired.mirrors['3']
  if (mirror.components) want.mirror = comps(mirror.components)
  return want
}

async function apply(h: Harness, desired: unknown) {
  const r = await h.api('POST', '/v1/topology/apply', desired)
  assert.is(r.status, 200, r.text)
}
const live = async (h: Harness) => (await h.api('GET', '/v1/topology')).json() as TopologyDocument

test(`${RUNS} random pairs of states: no refusal, the desired state reached, nothing left to plan`, () =>
  withHarness(
    [
      { kind: 'primary' },
      { kind: 'nfv', clientId: 1 },
      { kind: 'vf', clientId: 2 },
      { kind: 'mirror', clientId: 3 },
    ],
    async (h) => {
      await fc.assert(
        fc.asyncProperty(state, state, async (from, to) => {
          await apply(h, BASELINE)
          await apply(h, from)
          const before = await live(h)
          await apply(h, to)
          const after = await live(h)
          assert.equal(shape(after), expected(before, to))
          const again = await h.api('POST', '/v1/topology/plan', to)
          // Nothing left to do (a ring the state sends into unread is only a warning).
          const { steps, summary } = again.json() as { steps: unknown[]; summary: object }
          assert.equal({ steps, summary }, { steps: [], summary: {} })
        }),
        { numRuns: RUNS },
      )
    },
  ))

test.run()
