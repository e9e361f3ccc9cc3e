// spp_process_up from the registry's comings and goings and what the store remembers; and
// spp_command_queue_limit.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { ProcessHandle } from '../../src/actors/process-handle.ts'
import { Registry } from '../../src/actors/registry.ts'
import { processUp } from '../../src/observe/process-up.ts'
import { Registry as MetricsRegistry } from '../../src/observe/prom.ts'
import { queueLimit } from '../../src/observe/queue-limit.ts'
import type { ProcessKind } from '../../src/protocol/command.ts'
import { processId, type ProcessId } from '../../src/protocol/process-id.ts'
import { fixedReply } from '../../src/sim/wire.ts'
import { fakeConnection } from '../helpers/fake-link.ts'
import { startHarness } from '../helpers/harness.ts'

/** An identified process's registry entry, and its scripted link. */
function peer(kind: ProcessKind, clientId?: number) {
  const link = fakeConnection(kind === 'primary' ? 'primary' : 'secondary')
  if (kind !== 'primary') link.reply(fixedReply(String(clientId)))
  const entry = { connection: link.actor, id: processId(kind, clientId) }
  return { link, entry }
}

/** The samples of spp_process_up, sorted, as `process value`. */
async function upSamples(metrics: MetricsRegistry) {
  const text = await metrics.metrics()
  return [...text.matchAll(/^spp_process_up\{process="([^"]+)"\} (\d+)$/gm)]
    .map(([, process, value]) => `${process} ${value}`)
    .sort()
}

function setup(remembered: ProcessId[] = []) {
  const registry = new Registry()
  const metrics = new MetricsRegistry()
  processUp(registry, metrics, () => remembered)
  return { registry, metrics, remembered }
}

test('a connected process is 1; one that went is 0; one never seen nor remembered is absent', async () => {
  const { registry, metrics } = setup()
  assert.equal(await upSamples(metrics), [])
  const primary = peer('primary')
  const nfv = peer('nfv', 1)
  registry.claim(primary.entry.connection, primary.entry.id)
  registry.claim(nfv.entry.connection, nfv.entry.id)
  assert.equal(await upSamples(metrics), ['nfv:1 1', 'primary 1'])
  registry.unregister(nfv.entry.connection)
  assert.equal(await upSamples(metrics), ['nfv:1 0', 'primary 1'])
  const back = peer('nfv', 1)
  registry.claim(back.entry.connection, back.entry.id)
  assert.equal(await upSamples(metrics), ['nfv:1 1', 'primary 1'])
})

test('a remembered process is 0 before it ever connects, 1 while it is connected', async () => {
  const { registry, metrics } = setup([{ kind: 'vf', clientId: 2 }, { kind: 'primary' }])
  assert.equal(await upSamples(metrics), ['primary 0', 'vf:2 0'])
  const vf = peer('vf', 2)
  registry.claim(vf.entry.connection, vf.entry.id)
  assert.equal(await upSamples(metrics), ['primary 0', 'vf:2 1'])
})

test('a process forgotten after it went stays 0: the controller served it since it started', async () => {
  const { registry, metrics, remembered } = setup([{ kind: 'vf', clientId: 2 }])
  const vf = peer('vf', 2)
  registry.claim(vf.entry.connection, vf.entry.id)
  registry.unregister(vf.entry.connection)
  remembered.length = 0
  assert.equal(await upSamples(metrics), ['vf:2 0'])
})

test('an nfv that takes over a closed vf client id: the vf is 0, the nfv 1', async () => {
  const { registry, metrics } = setup()
  const vf = peer('vf', 2)
  registry.claim(vf.entry.connection, vf.entry.id)
  vf.link.close() // its listener has not unregistered it yet
  const nfv = peer('nfv', 2)
  registry.claim(nfv.entry.connection, nfv.entry.id)
  assert.equal(await upSamples(metrics), ['nfv:2 1', 'vf:2 0'])
  registry.unregister(vf.entry.connection) // late: it was replaced, not served
  assert.equal(await upSamples(metrics), ['nfv:2 1', 'vf:2 0'])
})

test('a replaced connection of the same process leaves it 1, even told late that the old went', async () => {
  const { registry, metrics } = setup()
  const old = peer('nfv', 1)
  let oldHandle: ProcessHandle | undefined
  registry.once('registered', (handle) => (oldHandle = handle))
  registry.claim(old.entry.connection, old.entry.id)
  old.link.close()
  const fresh = peer('nfv', 1)
  registry.claim(fresh.entry.connection, fresh.entry.id)
  registry.unregister(old.entry.connection)
  assert.equal(await upSamples(metrics), ['nfv:1 1'])
  registry.emit('removed', oldHandle!) // a registry that reports the replaced one as removed too
  assert.equal(await upSamples(metrics), ['nfv:1 1'])
})

test('spp_command_queue_limit is --max-queue', async () => {
  const metrics = new MetricsRegistry()
  queueLimit(metrics, 64)
  assert.match(await metrics.metrics(), /^spp_command_queue_limit 64$/m)
})

test('a controller started on a state directory shows a remembered process 0 until it connects', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spp-ctl-process-up-'))
  try {
    const before = await startHarness([{ kind: 'vf', clientId: 2 }], { stateDir: dir })
    try {
      const made = await before.api('POST', '/v1/vfs/2/components', {
        name: 'fwd1',
        core: 2,
        type: 'forward',
      })
      assert.is(made.status, 204, made.text)
    } finally {
      await before.close()
    }
    const after = await startHarness([{ kind: 'nfv', clientId: 1 }], { stateDir: dir })
    try {
      const text = (await after.api('GET', '/metrics')).text
      const lines = text.split('\n').filter((l) => l.startsWith('spp_process_up{'))
      assert.equal(lines.sort(), [
        'spp_process_up{process="nfv:1"} 1',
        'spp_process_up{process="vf:2"} 0',
      ])
    } finally {
      await after.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test.run()
