// The journal names who made each change: a token's client for a REST change, the apply (by its id)
// for the steps of `spp-ctl topology apply`, and `restore` for a restore; read through GET /v1/journal.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { stringify } from 'yaml'
import { digestOf, newToken, type Client } from '../../src/auth/clients.ts'
import { buildDist } from '../helpers/build.ts'
import { withRemembering, type Remembering } from '../helpers/remember.ts'
import { runCli } from '../helpers/run-cli.ts'
import { about } from '../helpers/watch-events.ts'

const WRITE = newToken()
const clients: Client[] = [{ name: 'ops', scope: 'write', digest: digestOf(WRITE) }]
const bearer = { Authorization: `Bearer ${WRITE}` }
type Entry = { by: string; method: string; path: string; status: number; processes: string[] }

test.before(buildDist)

const journal = async (h: Remembering, query = '') => {
  const r = await h.api('GET', `/v1/journal${query}`, undefined, bearer)
  assert.is(r.status, 200, r.text)
  return r.json() as Entry[]
}

test('the journal names the client of a REST change, the apply of a CLI apply, and a restore', () =>
  withRemembering(
    [{ kind: 'primary' }, { kind: 'nfv', clientId: 1 }],
    async (h) => {
      // A REST change, as SPP's CLI or a script makes it, with the token of ops.
      const put = await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' }, bearer)
      assert.is(put.status, 204, put.text)
      const [rest] = await journal(h, '?by=ops')
      assert.equal(
        [rest!.by, rest!.method, rest!.path, rest!.status, rest!.processes],
        ['ops', 'PUT', '/v1/nfvs/1/ports', 204, ['nfv:1']],
      )
      // Once durable, the change is told on the event stream (spp-ctl journal --follow waits on it).
      const told = h.events.seen.filter((e) => e.type === 'journal.entry')
      assert.equal(
        told.map(({ data }) => [data.by, data.method, data.path, data.status]),
        [['ops', 'PUT', '/v1/nfvs/1/ports', 204]],
      )

      // spp-ctl topology apply: each step is journaled by the apply that sent it.
      const dir = await mkdtemp(join(tmpdir(), 'spp-journal-'))
      try {
        const file = join(dir, 'desired.yaml')
        const desired = {
          nfvs: { '1': { status: 'Running', patches: [{ src: 'phy:0', dst: 'ring:0' }] } },
        }
        await writeFile(file, stringify(desired))
        const url = `http://127.0.0.1:${h.controller.apiPort}`
        const applied = await runCli(['topology', 'apply', '-f', file, '--url', url], {
          SPP_CTL_TOKEN: WRITE,
        })
        assert.is(applied.code, 0, applied.stderr)
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
      // Each step names the apply that sent it and who asked for it.
      const steps = (await journal(h)).filter((e) => e.by.startsWith('apply '))
      assert.equal(steps.map((e) => `${e.method} ${e.path} ${e.status}`).sort(), [
        'PUT /v1/nfvs/1/forward 204',
        'PUT /v1/nfvs/1/patches 204',
      ])
      assert.is(new Set(steps.map((e) => e.by)).size, 1, 'one apply sent both steps')
      assert.match(steps[0]!.by, /^apply spp-ctl-\w+ by ops$/)

      // The nfv restarts empty: the restore's steps are journaled as the restore's.
      await h.restart(h.sim('nfv 1'))
      await h.events.until((e) => e.type === 'restore.done' && about(e, 'nfv:1'), 'nfv:1')
      const restore = await journal(h, '?process=nfv:1')
      const byRestore = restore.filter((e) => e.by === 'restore' || e.by.startsWith('restore '))
      assert.ok(byRestore.length >= 3, JSON.stringify(restore.map((e) => e.by)))
      assert.ok(
        byRestore.some((e) => e.path === '/v1/nfvs/1/ports'),
        'the port is added back by the restore',
      )

      // A rollback says it was one, and who asked for it.
      const revisions = (await h.api('GET', '/v1/topology/history', undefined, bearer)).json() as {
        rev: number
      }[]
      const back = await h.api(
        'POST',
        '/v1/topology/rollback',
        { to: revisions.at(-1)!.rev },
        bearer,
      )
      assert.is(back.status, 200, back.text)
      const rolled = (await journal(h)).filter((e) => e.by.startsWith('rollback '))
      assert.ok(rolled.length > 0, 'the rollback sent steps')
      assert.match(rolled[0]!.by, /^rollback \S+ by ops$/)
    },
    { clients },
  ))

test('without authentication the journal names the peer that asked for an apply', () =>
  withRemembering([{ kind: 'nfv', clientId: 1 }], async (h) => {
    const applied = await h.api('POST', '/v1/topology/apply', {
      nfvs: { '1': { status: 'Running' } },
    })
    assert.is(applied.status, 200, applied.text)
    const entries = (await h.api('GET', '/v1/journal')).json() as Entry[]
    const step = entries.find((e) => e.path === '/v1/nfvs/1/forward')
    assert.match(step?.by ?? '', /^apply \S+ by anonymous 127\.0\.0\.1:\d+$/)
  }))

test.run()
