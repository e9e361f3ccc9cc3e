import { once } from 'node:events'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { commandsOf, withHarness, type Harness } from '../helpers/harness.ts'

const SAMPLE =
  /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})? (-?(?:[0-9.]+(?:e[+-]?[0-9]+)?|\+Inf|NaN))$/

/** Parses Prometheus text format strictly: every line is a comment or a sample, or the test fails. */
async function scrape(h: Harness): Promise<Map<string, number>> {
  const r = await h.api('GET', '/metrics')
  assert.is(r.status, 200)
  assert.match(r.type!, /^text\/plain; version=0\.0\.4/)
  const samples = new Map<string, number>()
  for (const line of r.text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue
    const match = SAMPLE.exec(line)
    assert.ok(match, `not Prometheus text: ${JSON.stringify(line)}`)
    samples.set(`${match[1]}${match[2] ?? ''}`, Number(match[3]))
  }
  return samples
}

test('/metrics parses as Prometheus text and carries the counters of scripted traffic', () =>
  withHarness(
    [{ kind: 'primary' }, { kind: 'nfv', clientId: 1 }, { kind: 'vf', clientId: 2 }],
    async (h) => {
      for (let i = 0; i < 3; i++) await h.api('GET', '/v1/nfvs/1')
      await h.api('PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'phy:0' }) // 400, not sent
      await h.api('GET', '/v1/nfvs/9') // 404
      await h.api('POST', '/v1/vfs/2/components', { name: 'fw1', core: 2, type: 'forward' })
      await h.api('POST', '/v1/vfs/2/components', { name: 'mg1', core: 2, type: 'merge' }) // rejected by the vf
      h.sim('nfv 1').faults = { silentAt: 4 }
      await h.api('PUT', '/v1/nfvs/1/forward', { action: 'start' }) // times out
      const removed = once(h.controller.registry, 'removed')
      h.sim('vf 2').stop()
      await removed

      const m = await scrape(h)
      const get = (key: string) => m.get(key)
      assert.is(
        get('spp_http_requests_total{method="GET",route="/v1/nfvs/:client_id",status="200"}'),
        3,
      )
      assert.is(
        get('spp_http_requests_total{method="PUT",route="/v1/nfvs/:client_id/ports",status="400"}'),
        1,
      )
      assert.is(
        get('spp_http_requests_total{method="GET",route="/v1/nfvs/:client_id",status="404"}'),
        1,
      )
      assert.is(
        get(
          'spp_http_requests_total{method="PUT",route="/v1/nfvs/:client_id/forward",status="500"}',
        ),
        1,
      )
      assert.is(get('spp_command_duration_seconds_count{kind="nfv",command="status"}'), 3)
      assert.is(
        get(
          'spp_command_failures_total{kind="vf",command="component start",error="COMMAND_REJECTED"}',
        ),
        1,
      )
      assert.is(
        get('spp_command_failures_total{kind="nfv",command="forward",error="REPLY_TIMEOUT"}'),
        1,
      )
      assert.is(get('spp_command_timeouts_total{kind="nfv"}'), 1)
      assert.is(get('spp_process_disconnects_total{kind="vf"}'), 1)
      assert.is(get('spp_processes{kind="nfv",era="18.11"}'), 1)
      assert.is(get('spp_processes{kind="nfv",era="2020"}'), 0)
      assert.is(get('spp_processes{kind="vf",era="unknown"}'), 0)
      assert.is(get('spp_command_queue_depth{process="primary"}'), 0)
      await h.api('GET', '/v1/primary/status') // any read of the primary's status refreshes them
      const after = await scrape(h)
      assert.type(after.get('spp_port_rx_packets_total{port="phy:0"}'), 'number')
      assert.type(after.get('spp_port_counters_age_seconds{process="primary"}'), 'number')
      assert.type(after.get('spp_port_rx_dropped_total{port="ring:0"}'), 'number')
      assert.is(
        after.get('spp_port_rx_dropped_total{port="phy:0"}'),
        undefined,
        'physical ports have no rx drop counter',
      )
    },
    { commandTimeoutMs: 300, statusMaxAgeMs: 0 }, // each GET a status command of its own
  ))

test('a scrape never waits for the primary: counters come from its last read, which it refreshes', () =>
  withHarness([{ kind: 'primary' }], async (h) => {
    const sim = h.sim('primary')
    const release = sim.hold() // the primary hangs: it answers nothing until released
    const first = await scrape(h) // would never resolve if the scrape waited for the primary
    assert.is(first.get('spp_port_tx_packets_total{port="phy:1"}'), undefined, 'nothing read yet')
    assert.is(first.get('spp_port_counters_age_seconds{process="primary"}'), undefined)
    await scrape(h)
    assert.equal(commandsOf(sim), ['status'], 'one refresh at a time, started by the scrapes')
    const refreshed = new Promise((resolve) => {
      const stop = h.controller.registry.changes((done) => {
        if (done.process.kind !== 'primary') return
        stop()
        resolve(done)
      })
    })
    release()
    await refreshed
    const m = await scrape(h)
    assert.type(m.get('spp_port_tx_packets_total{port="phy:1"}'), 'number')
    assert.ok(m.get('spp_port_counters_age_seconds{process="primary"}')! >= 0)
  }))

test.run()
