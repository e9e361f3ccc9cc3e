// The metrics' own logic with scripted connections: counters from the last primary read, queue depth.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { askOn } from '../../src/actors/process-handle.ts'
import { Registry } from '../../src/actors/registry.ts'
import { fail, ok } from '../../src/protocol/result.ts'
import { createMetrics } from '../../src/observe/metrics.ts'
import { nfvCommands as nfv } from '../../src/protocol/kinds/nfv.ts'
import { primaryCommands } from '../../src/protocol/kinds/primary.ts'
import { fixedReply } from '../../src/sim/wire.ts'
import { fakeConnection, flush } from '../helpers/fake-link.ts'

const STATUS = fixedReply(
  '{"phy_ports": [{"id": 0, "eth": "56:48:4f:53:54:00", "rx": 10, "tx": 7, "tx_drop": 2}], "ring_ports": [{"id": 1, "rx": 3, "rx_drop": 1, "tx": 4, "tx_drop": 5}]}',
)

/** The samples of a scrape whose name starts with `prefix`, as `name{labels} value` lines. */
const samples = async (metrics: ReturnType<typeof createMetrics>, prefix: string) =>
  (await metrics.render()).split('\n').filter((l) => l.startsWith(prefix))

function setup() {
  const registry = new Registry()
  const primary = fakeConnection('primary')
  primary.reply(STATUS) // the probe that identifies it
  registry.claim(primary.actor, { kind: 'primary' })
  return { registry, primary, metrics: createMetrics(registry) }
}

test('a scrape starts one refresh and shows nothing until a read has answered; then the counters', async () => {
  const { registry, primary, metrics } = setup()
  assert.equal(await samples(metrics, 'spp_port_'), [])
  assert.equal(await samples(metrics, 'spp_port_'), [])
  assert.equal(primary.written, ['status', 'status'], 'the probe, then one refresh')
  const { queueDepth } = registry.find({ kind: 'primary' }).describe()
  assert.is(queueDepth, 1, 'the refresh in flight, no second queued')
  primary.reply(STATUS)
  await flush()
  const lines = await samples(metrics, 'spp_port_')
  for (const line of [
    'spp_port_rx_packets_total{port="phy:0"} 10',
    'spp_port_rx_packets_total{port="ring:1"} 3',
    'spp_port_tx_packets_total{port="phy:0"} 7',
    'spp_port_tx_dropped_total{port="ring:1"} 5',
    'spp_port_rx_dropped_total{port="ring:1"} 1',
  ])
    assert.ok(lines.includes(line), `${line} in ${lines.join('\n')}`)
  assert.not.ok(lines.some((l) => l.startsWith('spp_port_rx_dropped_total{port="phy:0"}')))
  assert.ok(lines.some((l) => l.startsWith('spp_port_counters_age_seconds{process="primary"}')))
})

test('a clear zeroes the counters the metrics show, without another read', async () => {
  const { primary, metrics } = setup()
  void askOn(primary.actor, primaryCommands.status())
  primary.reply(STATUS)
  await flush()
  void askOn(primary.actor, primaryCommands.clear())
  primary.reply('clear')
  await flush()
  const lines = await samples(metrics, 'spp_port_rx_packets_total')
  assert.equal(lines, [
    'spp_port_rx_packets_total{port="phy:0"} 0',
    'spp_port_rx_packets_total{port="ring:1"} 0',
  ])
})

test('queue depth counts the command in flight and those waiting, per process', async () => {
  const { registry, metrics } = setup()
  const nfv1 = fakeConnection('secondary')
  nfv1.reply(fixedReply('1'))
  registry.claim(nfv1.actor, { kind: 'nfv', clientId: 1 })
  for (const command of [nfv.forward(), nfv.stop(), nfv.patchReset()]) void nfv1.ask(command)
  const lines = await samples(metrics, 'spp_command_queue_depth{')
  assert.ok(lines.includes('spp_command_queue_depth{process="nfv:1"} 3'), lines.join('\n'))
  assert.ok(lines.includes('spp_command_queue_depth{process="primary"} 0'), lines.join('\n'))
})

test('a failure counts under its code; a timeout also as a timeout of its kind', async () => {
  const { metrics } = setup()
  metrics.observeCommand('nfv', 'forward', ok(undefined), 0.001)
  metrics.observeCommand('nfv', 'forward', fail('x', 'REPLY_TIMEOUT'), 1)
  metrics.observeCommand('vf', 'component start', fail('x', 'COMMAND_REJECTED'), 0.002)
  const text = await metrics.render()
  for (const line of [
    'spp_command_duration_seconds_count{kind="nfv",command="forward"} 2',
    'spp_command_failures_total{kind="nfv",command="forward",error="REPLY_TIMEOUT"} 1',
    'spp_command_failures_total{kind="vf",command="component start",error="COMMAND_REJECTED"} 1',
    'spp_command_timeouts_total{kind="nfv"} 1',
  ])
    assert.ok(text.split('\n').includes(line), line)
})

test('the counters that alerts watch with increase() are there at 0 before the first event', async () => {
  const { metrics } = setup()
  const text = (await metrics.render()).split('\n')
  for (const line of [
    'spp_command_timeouts_total{kind="vf"} 0',
    'spp_connections_dropped_total{listener="api",reason="timeout"} 0',
    'spp_connections_dropped_total{listener="api",reason="evicted"} 0',
    'spp_connections_dropped_total{listener="api",reason="refused"} 0',
  ])
    assert.ok(text.includes(line), line)
})

test.run()
