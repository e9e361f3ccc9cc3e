// Confirmed applies over loopback, the deadline on a test clock: one that expires is undone, one
// confirmed stays; one pending at a time, shown in GET /v1/topology, events and metrics; and the
// built CLI's --confirm-within and confirm.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { configurationOf } from '../../src/topology/configuration.ts'
import type { TopologyDocument } from '../../src/topology/read-topology.ts'
import { buildDist } from '../helpers/build.ts'
import type { Harness } from '../helpers/harness.ts'
import { withRemembering, type Remembering } from '../helpers/remember.ts'
import { runCli } from '../helpers/run-cli.ts'
import { testClock } from '../helpers/test-clock.ts'
import { CHAIN, PRIMARY_NFV_VF } from '../helpers/chain.ts'

test.before(buildDist)

type Shown = {
  apply: string
  by: string
  deadline: string
  seconds_left: number
  processes: string[]
}

const topology = async (h: Harness) =>
  (await h.api('GET', '/v1/topology')).json() as TopologyDocument & { confirmation?: Shown }
const configuration = async (h: Harness) => configurationOf(await topology(h))
/** A sample of GET /metrics, by its name and labels as written. */
const metric = async (h: Harness, sample: string) => {
  const line = (await h.api('GET', '/metrics')).text
    .split('\n')
    .find((l) => l.startsWith(`${sample} `))
  return line === undefined ? undefined : Number(line.slice(sample.length + 1))
}
const pendingKept = (h: Remembering) =>
  h.controller.services.memory!.store.meta('apply.confirmation')

test('an apply not confirmed in time is undone: shown until then, alone, in events and metrics', () => {
  const time = testClock()
  return withRemembering(
    PRIMARY_NFV_VF,
    async (h) => {
      const before = await configuration(h)
      const r = await h.api('POST', '/v1/topology/apply?confirm_within=300', CHAIN, {
        'X-Request-Id': 'c1',
      })
      assert.is(r.status, 200, r.text)
      const deadline = new Date(Date.UTC(2026, 0, 1) + 300_000).toISOString()
      const shown = { apply: 'c1', by: 'anonymous', deadline, seconds_left: 300 }
      const { confirmation } = r.json() as { confirmation: Shown }
      assert.equal({ ...confirmation, by: 'anonymous' }, { ...shown, processes: ['nfv:1', 'vf:2'] })
      assert.equal(
        time.timers.map((t) => t.ms),
        [300_000],
      )
      assert.equal((await topology(h)).confirmation, confirmation)
      assert.ok(pendingKept(h), 'kept in the state directory')
      assert.is(await metric(h, 'spp_apply_confirmation_pending'), 300)
      const pending = h.events.seen.find((e) => e.type === 'apply.confirm_pending')
      assert.equal(pending?.data, { apply: 'c1', by: confirmation.by, deadline, seconds: 300 })
      // One at a time: no other apply, no rollback, until it is confirmed or undone.
      for (const [path, body] of [
        ['/v1/topology/apply', { nfvs: { '1': { status: 'Running' } } }],
        ['/v1/topology/rollback', { to: 1 }],
      ] as const) {
        const refused = await h.api('POST', path, body)
        assert.is(refused.status, 409, path)
        assert.match(refused.text, /^apply c1 waits for its confirmation \(300 s left\)/)
      }
      const applied = await configuration(h)
      assert.not.equal(applied, before)

      const undone = h.events.until((e) => e.type === 'apply.undone', 'apply.undone')
      time.fire()
      assert.equal((await undone).data.reason, 'expired')
      assert.equal(await configuration(h), before)
      assert.is((await topology(h)).confirmation, undefined)
      assert.is(pendingKept(h), undefined)
      const types = h.events.seen.map((e) => e.type).filter((t) => t.startsWith('apply.'))
      assert.ok(types.indexOf('apply.expired') < types.indexOf('apply.undoing'))
      const late = await h.api('POST', '/v1/topology/confirm')
      assert.equal([late.status, late.text], [409, 'no apply waits for a confirmation\n'])
      const [newest] = (await h.api('GET', '/v1/topology/history?limit=1')).json() as {
        what: string
      }[]
      assert.is(newest!.what, 'expired')
      assert.is(await metric(h, 'spp_apply_confirmations_total{outcome="expired"}'), 1)
      assert.is(await metric(h, 'spp_apply_confirmation_pending'), 0)
      // A confirmed apply whose step fails is undone at once: nothing is left to confirm.
      // (vf 2 holds an entry on ring:1 it does not show: the add of another there is refused.)
      for (const [method, path, body] of [
        ['POST', '/v1/vfs/2/components', { name: 'f', core: 3, type: 'forward' }],
        ['PUT', '/v1/vfs/2/components/f/ports', { action: 'attach', port: 'ring:1', dir: 'rx' }],
        [
          'PUT',
          '/v1/vfs/2/classifier_table',
          { action: 'add', type: 'mac', mac_address: 'default', port: 'ring:1' },
        ],
      ] as const)
        assert.is((await h.api(method, path, body)).status, 204, path)
      const failing = {
        vfs: {
          '2': {
            components: [
              { name: 'c', core: 2, type: 'classifier_mac', tx_port: [{ port: 'ring:1' }] },
            ],
            classifier_table: [{ type: 'mac', value: '00:00:00:00:00:0A', port: 'ring:1' }],
          },
        },
      }
      const failed = await h.api('POST', '/v1/topology/apply?confirm_within=60', failing)
      assert.is(failed.status, 400, failed.text)
      assert.is((await topology(h)).confirmation, undefined)
      assert.is(pendingKept(h), undefined)
    },
    { clock: time.clock },
  )
})

test('an apply confirmed in time stays: its timer is cancelled, confirmed once', () => {
  const time = testClock()
  return withRemembering(
    PRIMARY_NFV_VF,
    async (h) => {
      const r = await h.api('POST', '/v1/topology/apply?confirm_within=60', CHAIN, {
        'X-Request-Id': 'c2',
      })
      assert.is(r.status, 200, r.text)
      const applied = await configuration(h)
      const confirmed = await h.api('POST', '/v1/topology/confirm')
      assert.equal([confirmed.status, confirmed.json()], [200, { apply: 'c2' }])
      assert.ok(time.timers[0]!.cancelled, 'the deadline is cancelled')
      assert.equal(h.events.seen.find((e) => e.type === 'apply.confirmed')?.data.apply, 'c2')
      assert.is((await topology(h)).confirmation, undefined)
      assert.is(pendingKept(h), undefined)
      assert.is((await h.api('POST', '/v1/topology/confirm')).status, 409)
      assert.equal(await configuration(h), applied)
      assert.is(await metric(h, 'spp_apply_confirmations_total{outcome="confirmed"}'), 1)
      // The next apply may come.
      const next = await h.api('POST', '/v1/topology/apply', {
        nfvs: { '1': { status: 'Running' } },
      })
      assert.is(next.status, 200, next.text)
    },
    { clock: time.clock },
  )
})

test('an apply with nothing to do waits for no confirmation: the next apply comes at once', () => {
  const time = testClock()
  return withRemembering(
    PRIMARY_NFV_VF,
    async (h) => {
      const r = await h.api('POST', '/v1/topology/apply?confirm_within=60', {})
      assert.is(r.status, 200, r.text)
      const answer = r.json() as { done: unknown[]; confirmation?: Shown }
      assert.equal([answer.done, answer.confirmation], [[], undefined])
      assert.equal(time.timers, [], 'no deadline')
      assert.is(pendingKept(h), undefined)
      assert.is((await topology(h)).confirmation, undefined)
      const next = await h.api('POST', '/v1/topology/apply', CHAIN)
      assert.is(next.status, 200, next.text)
    },
    { clock: time.clock },
  )
})

test('the CLI: apply --confirm-within says until when; one expires, one is confirmed with confirm', () => {
  const time = testClock()
  return withRemembering(
    PRIMARY_NFV_VF,
    async (h) => {
      const dir = await mkdtemp(join(tmpdir(), 'spp-confirm-'))
      try {
        const url = ['--url', `http://127.0.0.1:${h.controller.apiPort}`]
        const file = join(dir, 'chain.json')
        await writeFile(file, JSON.stringify(CHAIN))
        const before = await configuration(h)
        const apply = ['topology', 'apply', '-f', file, '--confirm-within', '1m30s', ...url]
        const first = await runCli(apply)
        assert.is(first.code, 0, first.stderr)
        assert.match(
          first.stdout,
          /Applied \d+ steps in \d+\.\d s\.\nIt is undone at 2026-01-01T00:01:30\.000Z \(in 90 s\) unless confirmed: spp-ctl topology confirm\n$/,
        )
        assert.equal(
          time.timers.map((t) => t.ms),
          [90_000],
        )
        const undone = h.events.until((e) => e.type === 'apply.undone', 'apply.undone')
        time.fire()
        await undone
        assert.equal(await configuration(h), before)

        const second = await runCli(apply)
        assert.is(second.code, 0, second.stderr)
        const confirmed = await runCli(['topology', 'confirm', ...url])
        assert.is(confirmed.code, 0, confirmed.stderr)
        assert.match(confirmed.stdout, /^Confirmed apply spp-ctl-[0-9a-f]+: it stays\.\n$/)
        assert.not.equal(await configuration(h), before)
        const again = await runCli(['topology', 'confirm', ...url])
        assert.is(again.code, 1)
        assert.match(again.stderr, /409: no apply waits for a confirmation/)
        const bad = await runCli([
          'topology',
          'apply',
          '-f',
          file,
          '--confirm-within',
          '5x',
          ...url,
        ])
        assert.equal(
          [bad.code, bad.stderr],
          [
            1,
            "spp-ctl topology: --confirm-within takes 90s, 5m or 1h30m, got 5x\nRun 'spp-ctl topology --help' for usage.\n",
          ],
        )
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    },
    { clock: time.clock },
  )
})

test.run()
