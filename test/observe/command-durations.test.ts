// Command durations held back and handed to prom-client's histogram in batches.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { CommandDurations, MAX_PENDING } from '../../src/observe/command-durations.ts'
import { Histogram, Registry } from '../../src/observe/prom.ts'

/**
 * A histogram in a registry of its own, which hands the held durations over before each scrape,
 * as the controller's does (or, `flushed` false, never: what the histogram holds by itself).
 */
function setUp(flushed = true) {
  const registry = new Registry()
  const histogram = new Histogram({
    name: 'test_command_duration_seconds',
    help: 'test',
    labelNames: ['kind', 'command'],
    buckets: [0.001, 0.01],
    registers: [registry],
    collect: (): void => (flushed ? durations.flush() : undefined),
  })
  const durations: CommandDurations = new CommandDurations(histogram)
  const scrape = async () =>
    (await registry.metrics()).split('\n').filter((l) => /_(count|sum|bucket)/.test(l))
  const read = async () =>
    (await histogram.get()).values.map(
      (v) => `${v.metricName} ${JSON.stringify(v.labels)} ${v.value}`,
    )
  return { durations, scrape, read }
}

test('a scrape reads every duration added before it, in its buckets, sum and count', async () => {
  const { durations, scrape } = setUp()
  durations.add('nfv', 'patch', 0.0005)
  durations.add('nfv', 'patch', 0.005)
  durations.add('vf', 'status', 0.5)
  const lines = await scrape()
  for (const line of [
    'test_command_duration_seconds_bucket{le="0.001",kind="nfv",command="patch"} 1',
    'test_command_duration_seconds_bucket{le="0.01",kind="nfv",command="patch"} 2',
    'test_command_duration_seconds_sum{kind="nfv",command="patch"} 0.0055',
    'test_command_duration_seconds_count{kind="nfv",command="patch"} 2',
    'test_command_duration_seconds_bucket{le="+Inf",kind="vf",command="status"} 1',
    'test_command_duration_seconds_count{kind="vf",command="status"} 1',
  ])
    assert.ok(lines.includes(line), `${line}\nin\n${lines.join('\n')}`)
  // Handed over once: a second scrape counts them not twice.
  durations.add('nfv', 'patch', 0.02)
  assert.ok(
    (await scrape()).includes('test_command_duration_seconds_count{kind="nfv",command="patch"} 3'),
  )
})

test('a duration that is not a finite number is left out, and scrapes go on', async () => {
  const { durations, scrape } = setUp()
  durations.add('nfv', 'patch', NaN)
  durations.add('nfv', 'patch', Infinity)
  durations.add('nfv', 'patch', 0.002)
  assert.ok(
    (await scrape()).includes('test_command_duration_seconds_count{kind="nfv",command="patch"} 1'),
  )
})

test('a series holds back at most MAX_PENDING durations: the last of them hands all over', async () => {
  const { durations, read } = setUp(false)
  for (let i = 1; i < MAX_PENDING; i++) durations.add('nfv', 'patch', 0.0005)
  const count = async () =>
    (await read()).find((l) => l.startsWith('test_command_duration_seconds_count'))
  assert.is(await count(), undefined, 'nothing handed over yet')
  durations.add('nfv', 'patch', 0.0005)
  assert.is(
    await count(),
    `test_command_duration_seconds_count {"kind":"nfv","command":"patch"} ${MAX_PENDING}`,
  )
})

test.run()
