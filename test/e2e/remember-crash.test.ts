// kill -9 of the controller (a child process) in the middle of 200 concurrent writes, restarts on
// the same state directory: every acknowledged write is remembered, the database is sound, intact
// processes cost only their status read, and a second controller on the directory is refused.
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { SimProcess } from '../../src/sim/sim-process.ts'
import { startSims } from '../../src/sim/start-sims.ts'
import { DATABASE_FILE } from '../../src/store/store.ts'
import { buildDist } from '../helpers/build.ts'
import { portsOf, runCli, type LogLine } from '../helpers/cli-child.ts'
import { withTempDir } from '../store/temp-dir.ts'

const NFVS = [1, 2, 3, 4]
const CHECKED = /^process (matches|drifts from) its remembered configuration$/
const checked = (l: LogLine) => CHECKED.test(l.msg)

test.before(buildDist)

test('kill -9 mid-writes: acknowledged writes remembered, the database sound; restarts cost nothing', () =>
  withTempDir(async (dir) => {
    const sims: SimProcess[] = []
    const flags = (ports: string[], restore: string) => [
      ...['-b', '127.0.0.1', ...ports, '--state-dir', dir, '--restore', restore],
    ]
    let cli = runCli(flags(['-p', '0', '-s', '0', '-a', '0'], 'on'))
    try {
      const { primaryPort, secondaryPort, apiPort } = await portsOf(cli)
      const specs = [
        { kind: 'primary' as const },
        ...NFVS.map((id) => ({ kind: 'nfv' as const, clientId: id })),
      ]
      sims.push(...(await startSims(specs, { primaryPort, secondaryPort, reconnect: true })))
      await cli.waitFor((l) => l.msg === 'process identified', specs.length)

      // 200 writes at once, 50 per nfv; SIGKILL once 100 are answered.
      const acknowledged = new Set<string>()
      const put = (id: number, port: string) =>
        fetch(`http://127.0.0.1:${apiPort}/v1/nfvs/${id}/ports`, {
          method: 'PUT',
          body: JSON.stringify({ action: 'add', port }),
        }).then(
          (r) => {
            assert.is(r.status, 204)
            acknowledged.add(`${id} ${port}`)
            if (acknowledged.size === 100) cli.child.kill('SIGKILL')
          },
          () => undefined, // cut by the kill
        )
      const writes = Array.from({ length: 50 }, (_, n) => NFVS.map((id) => put(id, `vhost:${n}`)))
      await Promise.all(writes.flat())
      assert.equal((await cli.exited)[1], 'SIGKILL')
      assert.ok(
        acknowledged.size >= 100 && acknowledged.size < 200,
        `${acknowledged.size} answered`,
      )
      const raw = new Database(join(dir, DATABASE_FILE)) // recovers the write-ahead log
      try {
        assert.is(raw.pragma('integrity_check', { simple: true }), 'ok')
      } finally {
        raw.close()
      }

      // Restarted, reporting only: every acknowledged write is remembered, nothing the processes
      // did not do, and a write journaled is a write remembered (one transaction).
      const ports = ['-p', String(primaryPort), '-s', String(secondaryPort), '-a', '0']
      cli = runCli(flags(ports, 'report'))
      let api = `http://127.0.0.1:${(await portsOf(cli)).apiPort}`
      await cli.waitFor(checked, NFVS.length)
      const get = async <T>(path: string) => (await (await fetch(api + path)).json()) as T
      const { nfvs } = await get<{ nfvs: Record<string, { ports: string[] }> }>(
        '/v1/topology/desired',
      )
      const remembered = new Set(NFVS.flatMap((id) => nfvs[id]!.ports.map((p) => `${id} ${p}`)))
      for (const write of acknowledged)
        assert.ok(remembered.has(write), `${write} was answered 204`)
      for (const id of NFVS) {
        const live = (await get<{ ports: string[] }>(`/v1/nfvs/${id}`)).ports
        assert.ok(
          nfvs[id]!.ports.every((p) => live.includes(p)),
          `nfv ${id}`,
        )
      }
      const journaled = new Database(join(dir, DATABASE_FILE), { readonly: true })
      try {
        const rows = journaled
          .prepare<[], { path: string; body: string }>('SELECT path, body FROM journal')
          .all()
        for (const { path, body } of rows) {
          const write = `${path.split('/')[3]} ${(JSON.parse(body) as { port: string }).port}`
          assert.ok(remembered.has(write), `${write} is journaled`)
        }
      } finally {
        journaled.close()
      }

      // Brought back to what is remembered, killed again with nothing in flight, restarted with
      // --restore on: intact processes cost their status read, and nothing else.
      assert.is((await fetch(`${api}/v1/topology/restore`, { method: 'POST' })).status, 200)
      cli.child.kill('SIGKILL')
      await cli.exited
      const before = sims.map((sim) => sim.received.length)
      cli = runCli(flags(ports, 'on'))
      api = `http://127.0.0.1:${(await portsOf(cli)).apiPort}`
      const lines = await cli.waitFor(checked, NFVS.length)
      assert.ok(lines.every((l) => l.msg === 'process matches its remembered configuration'))
      for (const [i, sim] of sims.entries())
        assert.equal(sim.received.slice(before[i]! + 1), ['status'], sim.label)

      // A second controller on the same directory: one line, exit status 1.
      const second = runCli([...flags(['-p', '0', '-s', '0', '-a', '0'], 'on')])
      assert.equal((await second.exited)[0], 1)
      assert.equal(second.stderr.length, 1, second.stderr.join('\n'))
      assert.match(
        second.stderr[0]!,
        /^spp-ctl: cannot start: state directory .* is in use by another spp-ctl$/,
      )
    } finally {
      for (const sim of sims) sim.stop()
      cli.child.kill('SIGKILL')
      await cli.exited
    }
  }))

test.run()
