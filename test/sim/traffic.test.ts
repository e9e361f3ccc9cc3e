// The simulator's packets (src/sim/traffic.ts), model by model on one machine and a clock the test
// moves: what each kind of mover does with them, where SPP counts them, and when they move.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { Machine, type Attached } from '../../src/sim/machine.ts'
import { modelFor, type SimEra } from '../../src/sim/model-for.ts'
import { PrimaryModel } from '../../src/sim/primary-model.ts'
import type { TrafficOptions } from '../../src/sim/traffic.ts'

type Counters = { rx: number; tx: number; tx_drop: number }

/** One machine of simulated processes, its packets moving by `clock.now` (ms). */
function host(era: SimEra, traffic: Omit<TrafficOptions, 'clock'>) {
  const clock = { now: 0 }
  const machine = new Machine({ rings: 4, traffic: { ...traffic, clock: () => clock.now } })
  const start = (name: string, lcores?: number[]): Attached => {
    const [kind, id] = name.split(':') as ['primary' | 'nfv' | 'vf' | 'mirror', string?]
    const clientId = id === undefined ? undefined : Number(id)
    return machine.attach(name, modelFor(kind, { era, machine, clientId, lcores }))
  }
  const primary = start('primary', [0])
  /** Each command must succeed (a vf's or mirror's reply says so; an nfv's echoes it). */
  const say = (process: Attached, ...lines: string[]) => {
    for (const line of lines) {
      const reply = process.handle(line).reply?.toString('latin1') ?? ''
      assert.not.match(reply, /error|failed/, `${line}: ${reply}`)
    }
  }
  /** The primary's counters now, by port: `phy:0`, `ring:1`. */
  const counters = (): Record<string, Counters> => {
    const text = primary.handle('status').reply!.toString('latin1').replace(/\0+$/, '')
    const status = JSON.parse(text) as {
      phy_ports: (Counters & { id: number })[]
      ring_ports: (Counters & { id: number })[]
    }
    const pick = ({ rx, tx, tx_drop }: Counters) => ({ rx, tx, tx_drop })
    return Object.fromEntries([
      ...status.phy_ports.map((p): [string, Counters] => [`phy:${p.id}`, pick(p)]),
      ...status.ring_ports.map((r): [string, Counters] => [`ring:${r.id}`, pick(r)]),
    ])
  }
  /** How much each port's counters moved over `ms` more of the clock. */
  const over = (ms: number): Record<string, Counters> => {
    const before = counters()
    clock.now += ms
    const after = counters()
    return Object.fromEntries(
      Object.entries(after).map(([port, c]) => [
        port,
        {
          rx: c.rx - before[port]!.rx,
          tx: c.tx - before[port]!.tx,
          tx_drop: c.tx_drop - before[port]!.tx_drop,
        },
      ]),
    )
  }
  return { clock, machine, start, primary, say, counters, over }
}

const A = '52:54:00:00:00:0A'
const B = '52:54:00:00:00:0B'
const C = '52:54:00:00:00:0C'
const classifierType = (era: SimEra) => (era === '2020' ? 'classifier' : 'classifier_mac')
const ERAS: SimEra[] = ['18.11', '2020']

test('nothing moves until the clock does; phy rx counts only while an nfv polls the port', () => {
  const { start, say, counters, over } = host('18.11', { sources: { 'phy:0': 1000 } })
  const nfv = start('nfv:1')
  say(nfv, 'patch phy:0 phy:1')
  assert.equal(over(5000)['phy:0'], { rx: 0, tx: 0, tx_drop: 0 }, 'patched but Idle')
  say(nfv, 'forward')
  const first = counters()
  assert.equal(counters(), first, 'reads alone move nothing')
  const moved = over(2000)
  assert.equal(moved['phy:0'], { rx: 2000, tx: 0, tx_drop: 0 })
  assert.equal(moved['phy:1'], { rx: 0, tx: 2000, tx_drop: 0 }, 'what the nfv sends, it counts')
})

test('a change is worked out under what ran before it: packets of the time before a stop count', () => {
  const { clock, start, say, counters } = host('18.11', { sources: { 'phy:0': 1000 } })
  const nfv = start('nfv:1')
  say(nfv, 'add ring:0', 'patch phy:0 ring:0', 'forward')
  clock.now += 3000 // nobody looks
  say(nfv, 'stop')
  clock.now += 3000
  assert.equal(counters()['phy:0']!.rx, 3000)
  assert.equal(counters()['ring:0'], { rx: 0, tx: 127, tx_drop: 2873 })
})

test('a ring holds 127 packets: its reader that comes late takes them, then keeps up', () => {
  const { clock, start, say, counters, over } = host('18.11', { sources: { 'phy:0': 1000 } })
  const nfv = start('nfv:1')
  say(nfv, 'add ring:0', 'add ring:1', 'patch phy:0 ring:0', 'patch ring:1 phy:1', 'forward')
  const vf = start('vf:2')
  say(vf, 'component start fwd1 2 forward', 'port add ring:0 rx fwd1', 'port add ring:1 tx fwd1')
  assert.equal(over(1000)['ring:0'], { rx: 0, tx: 1000, tx_drop: 0 }, 'read as it comes')
  say(vf, 'component stop fwd1')
  assert.equal(over(1000)['ring:0'], { rx: 0, tx: 127, tx_drop: 873 })
  say(vf, 'component start fwd1 2 forward', 'port add ring:0 rx fwd1', 'port add ring:1 tx fwd1')
  clock.now += 1000
  // The 127 waiting packets went on too: ring:1's reader (nfv 1, counting) took them all.
  const { 'ring:0': ring0, 'ring:1': ring1 } = counters()
  assert.equal(ring0, { rx: 0, tx: 2127, tx_drop: 873 })
  assert.equal(ring1, { rx: 2127, tx: 0, tx_drop: 0 })
})

for (const era of ERAS)
  test(`${era}: a classifier sends each MAC to its entry's port, the rest to default or nowhere`, () => {
    const traffic = { sources: { 'phy:0': 3000 }, macs: [A, B, C] }
    const { start, say, over } = host(era, traffic)
    // nfv 1 reads the classifier's rings (and counts what it takes) and sends to phy:1.
    const nfv = start('nfv:1')
    say(nfv, 'add ring:0', 'add ring:1', 'add ring:2')
    say(nfv, 'patch ring:0 phy:1', 'patch ring:1 phy:1', 'patch ring:2 phy:1', 'forward')
    const vf = start('vf:2')
    say(vf, `component start cls 2 ${classifierType(era)}`, 'port add phy:0 rx cls')
    for (const ring of ['ring:0', 'ring:1', 'ring:2']) say(vf, `port add ${ring} tx cls`)
    say(vf, `classifier_table add mac ${A} ring:0`, `classifier_table add mac ${B} ring:1`)
    const taken = (moved: Record<string, Counters>) =>
      ['ring:0', 'ring:1', 'ring:2', 'phy:1'].map((port) =>
        port === 'phy:1' ? moved[port]!.tx : moved[port]!.rx,
      )
    // C matches no entry: dropped, counted nowhere (the vf counts nothing; the primary never saw it).
    assert.equal(taken(over(1000)), [1000, 1000, 0, 2000])
    say(vf, 'classifier_table add mac default ring:2')
    assert.equal(taken(over(1000)), [1000, 1000, 1000, 3000])
  })

for (const era of ERAS)
  test(`${era}: a mirror sends a copy to each of its two tx ports, and nothing with one`, () => {
    const { start, say, over } = host(era, { sources: { 'phy:0': 1000 } })
    const nfv = start('nfv:1')
    say(nfv, 'add ring:0', 'add ring:1', 'add ring:2')
    say(nfv, 'patch phy:0 ring:0', 'patch ring:1 phy:1', 'patch ring:2 phy:1', 'forward')
    const mirror = start('mirror:3')
    say(mirror, 'component start mr1 2 mirror', 'port add ring:0 rx mr1', 'port add ring:1 tx mr1')
    over(1000) // ring:0 fills: a mirror with one tx port does not run
    let moved = over(1000)
    assert.equal(moved['ring:0'], { rx: 0, tx: 0, tx_drop: 1000 })
    say(mirror, 'port add ring:2 tx mr1')
    over(1000) // the 127 waiting packets go first
    moved = over(1000)
    assert.equal(moved['ring:0'], { rx: 0, tx: 1000, tx_drop: 0 })
    assert.equal([moved['ring:1']!.rx, moved['ring:2']!.rx, moved['phy:1']!.tx], [1000, 1000, 2000])
  })

test('a merge sends every rx port to its one tx port', () => {
  const { start, say, over } = host('18.11', { sources: { 'phy:0': 1000, 'phy:1': 500 } })
  const nfv = start('nfv:1')
  say(nfv, 'add ring:0', 'add ring:1', 'add ring:2')
  say(nfv, 'patch phy:0 ring:0', 'patch phy:1 ring:1', 'patch ring:2 phy:0', 'forward')
  const vf = start('vf:2')
  say(vf, 'component start mg 2 merge', 'port add ring:0 rx mg', 'port add ring:1 rx mg')
  say(vf, 'port add ring:2 tx mg')
  const moved = over(1000)
  assert.equal(moved['ring:2'], { rx: 1500, tx: 0, tx_drop: 0 })
  assert.equal([moved['ring:0']!.tx_drop, moved['ring:1']!.tx_drop], [0, 0])
})

test("a 2020 primary's forwarder moves packets as an nfv's patches, to other processes, only while it runs", () => {
  const { machine, start, say, over } = host('2020', { sources: { 'phy:0': 1000 } })
  const primary = machine.attach(
    'primary',
    modelFor('primary', { era: '2020', machine, lcores: [0, 1] }),
  )
  const vf = start('vf:2')
  say(vf, 'component start fwd1 2 forward', 'port add ring:0 rx fwd1', 'port add phy:1 tx fwd1')
  say(primary, 'add ring:0', 'patch phy:0 ring:0')
  assert.equal(over(1000)['phy:0']!.rx, 0, 'patched, not forwarding')
  say(primary, 'forward')
  let moved = over(1000)
  assert.equal([moved['phy:0']!.rx, moved['ring:0']!.tx, moved['ring:0']!.tx_drop], [1000, 1000, 0])
  say(primary, 'stop')
  moved = over(1000)
  assert.equal([moved['phy:0']!.rx, moved['ring:0']!.tx], [0, 0])
  // On one lcore a primary has no forwarder thread: `forward` moves nothing.
  const alone = host('2020', { sources: { 'phy:0': 1000 } })
  alone.say(alone.primary, 'add ring:0', 'patch phy:0 ring:0', 'forward')
  assert.equal(alone.over(1000)['phy:0']!.rx, 0)
})

test('--reader-pps: a slow reader shows as tx at its pace beside drops; a slow nfv, as its rx', () => {
  const readerPps = { 'vf:2': 4000 }
  const { start, say, over } = host('18.11', { sources: { 'phy:0': 10_000 }, readerPps })
  const nfv = start('nfv:1')
  say(nfv, 'add ring:0', 'patch phy:0 ring:0', 'forward')
  const vf = start('vf:2')
  say(vf, 'component start fwd1 2 forward', 'port add ring:0 rx fwd1', 'port add phy:1 tx fwd1')
  over(1000) // ring:0 fills
  assert.equal(over(1000)['ring:0'], { rx: 0, tx: 4000, tx_drop: 6000 })
  const slow = host('18.11', { sources: { 'phy:0': 10_000 }, readerPps: { 'nfv:1': 2500 } })
  const slowNfv = slow.start('nfv:1')
  slow.say(slowNfv, 'patch phy:0 phy:1', 'forward')
  assert.equal(slow.over(1000)['phy:0']!.rx, 2500, 'the port gives it what it polls')
})

test("what an nfv sends to vhost:1 counts as ring 1's: SPP shares one entry per port number", () => {
  const { start, say, over } = host('18.11', { sources: { 'phy:0': 1000 } })
  const nfv = start('nfv:1')
  say(nfv, 'add vhost:1', 'patch phy:0 vhost:1', 'forward')
  assert.equal(over(1000)['ring:1'], { rx: 0, tx: 1000, tx_drop: 0 })
})

test('vlan edits: a tag added on the way in picks the classifier entry of that vid', () => {
  const { start, say, over } = host('18.11', { sources: { 'phy:0': 1000 }, macs: [A] })
  const nfv = start('nfv:1')
  say(nfv, 'add ring:0', 'add ring:1', 'patch ring:0 phy:1', 'patch ring:1 phy:1', 'forward')
  const vf = start('vf:2')
  say(vf, 'component start cls 2 classifier_mac', 'port add phy:0 rx cls add_vlantag 10 0')
  say(vf, 'port add ring:0 tx cls', 'port add ring:1 tx cls')
  say(vf, `classifier_table add mac ${A} ring:0`, `classifier_table add vlan 10 ${A} ring:1`)
  const moved = over(1000)
  assert.equal([moved['ring:0']!.rx, moved['ring:1']!.rx], [0, 1000])
})

test('a process that leaves moves nothing; a primary that starts zeroes the counters', () => {
  const { machine, start, say, counters, over } = host('18.11', { sources: { 'phy:0': 1000 } })
  const nfv = start('nfv:1')
  say(nfv, 'patch phy:0 phy:1', 'forward')
  assert.is(over(1000)['phy:0']!.rx, 1000)
  nfv.leave()
  assert.is(over(1000)['phy:0']!.rx, 0)
  assert.is(counters()['phy:0']!.rx, 1000)
  const again = machine.attach('primary', new PrimaryModel({ traffic: machine.traffic }))
  const text = again.handle('status').reply!.toString('latin1')
  assert.match(text, /"phy_ports": \[\{"id": 0, "eth": "[^"]+", "rx": 0,/)
})

test.run()
