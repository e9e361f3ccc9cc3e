// kill -9 of the controller (a child process) while an apply waits for its confirmation: restarted
// on the same state directory, it undoes the apply at start and says so, and its processes are
// restored to what they were before the apply as they reconnect.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { SimProcess } from '../../src/sim/sim-process.ts'
import { startSims } from '../../src/sim/start-sims.ts'
import { configurationOf } from '../../src/topology/configuration.ts'
import type { TopologyDocument } from '../../src/topology/read-topology.ts'
import { buildDist } from '../helpers/build.ts'
import { portsOf, runCli, type LogLine } from '../helpers/cli-child.ts'
import { withTempDir } from '../store/temp-dir.ts'

const CHAIN = {
  nfvs: {
    '1': { ports: ['phy:0', 'phy:1', 'ring:0'], patches: [{ src: 'phy:0', dst: 'ring:0' }] },
  },
  vfs: { '2': { components: [{ name: 'fwd1', core: 2, type: 'forward' }] } },
}
const UNDONE = /^a confirmation was pending when the controller stopped: the apply is undone/

/** A failsafe, not a timing assertion: a line that never comes fails the test instead of hanging it. */
function failsafe<T>(waiting: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within 20 s`)), 20_000)
  })
  return Promise.race([waiting, late]).finally(() => clearTimeout(timer))
}

test.before(buildDist)

test('kill -9 with a confirmation pending: the restarted controller undoes the apply and says so', () =>
  withTempDir(async (dir) => {
    const sims: SimProcess[] = []
    const flags = (ports: string[]) => [
      ...['-b', '127.0.0.1', ...ports, '--state-dir', dir, '--restore', 'on'],
    ]
    let cli = runCli(flags(['-p', '0', '-s', '0', '-a', '0']))
    try {
      const { primaryPort, secondaryPort, apiPort } = await portsOf(cli)
      const specs = [
        { kind: 'primary' as const },
        { kind: 'nfv' as const, clientId: 1 },
        { kind: 'vf' as const, clientId: 2 },
      ]
      sims.push(...(await startSims(specs, { primaryPort, secondaryPort, reconnect: true })))
      await cli.waitFor((l) => l.msg === 'process identified', specs.length)
      let api = `http://127.0.0.1:${apiPort}`
      const topology = async () =>
        (await (await fetch(`${api}/v1/topology`)).json()) as TopologyDocument & {
          confirmation?: { apply: string }
        }
      const before = configurationOf(await topology())

      const applied = await fetch(`${api}/v1/topology/apply?confirm_within=3600`, {
        method: 'POST',
        body: JSON.stringify(CHAIN),
        headers: { 'X-Request-Id': 'never-confirmed' },
      })
      assert.is(applied.status, 200, await applied.text())
      assert.is((await topology()).confirmation?.apply, 'never-confirmed')
      const changed = configurationOf(await topology())
      assert.not.equal(changed, before)
      cli.child.kill('SIGKILL')
      assert.equal((await cli.exited)[1], 'SIGKILL')

      // Restarted on the same directory and ports: it says so at once, then each process is
      // restored as it reconnects.
      cli = runCli(flags(['-p', String(primaryPort), '-s', String(secondaryPort), '-a', '0']))
      api = `http://127.0.0.1:${(await portsOf(cli)).apiPort}`
      const [said] = await failsafe(
        cli.waitFor((l) => UNDONE.test(l.msg)),
        'line saying the apply is undone',
      )
      assert.equal(
        (said as LogLine & { apply: string; processes: string[] }).apply,
        'never-confirmed',
      )
      assert.equal((said as LogLine & { processes: string[] }).processes, ['nfv:1', 'vf:2'])
      const restored = await failsafe(
        cli.waitFor((l) => l.msg === 'restore done', 2),
        'restore of both processes',
      )
      assert.equal(restored.map((l) => l.process).sort(), ['nfv:1', 'vf:2'])
      const now = await topology()
      assert.equal(configurationOf(now), before)
      assert.is(now.confirmation, undefined)
      const [newest] = (await (await fetch(`${api}/v1/topology/history?limit=1`)).json()) as {
        what: string
      }[]
      assert.is(newest!.what, 'expired')
      const confirm = await fetch(`${api}/v1/topology/confirm`, { method: 'POST' })
      assert.is(confirm.status, 409, 'nothing is left to confirm')
    } finally {
      for (const sim of sims) sim.stop()
      cli.child.kill('SIGKILL')
      await cli.exited
    }
  }))

test.run()
