// The shipped rules and dashboard on a real Prometheus (Debian's), scraping a controller with a
// state directory and its simulated processes: a remembered process that goes fires
// SppProcessDown, its return resolves it, and every query of the dashboard evaluates.
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { testNeeding } from '../helpers/needs.ts'
import {
  pollUntil,
  prometheusMissing,
  startPrometheus,
  type Alert,
  type Prometheus,
} from '../helpers/prometheus.ts'
import { withRemembering } from '../helpers/remember.ts'

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8')
const RULES = read('../../contrib/prometheus/spp-ctl.rules.yml')
const dashboard = JSON.parse(read('../../contrib/grafana/spp-ctl.json')) as {
  panels: { type: string; title: string; targets?: { refId: string; expr: string }[] }[]
  templating: { list: { name: string; type: string; definition?: string }[] }
}

/**
 * The shipped rules with every `for:` cut to 1 s: SppProcessDown waits a minute, which a test need
 * not. Everything else (expressions, labels, annotations) is as shipped.
 */
const rulesForTest = RULES.replace(/^(\s+)for: \d+m$/gm, '$1for: 1s')

/** Grafana's variables, as the dashboard's "All" and a 1 s scrape make them. */
const VARIABLES: Record<string, string> = {
  instance: '.*',
  process: '.*',
  __rate_interval: '1m',
}
const substitute = (expr: string) =>
  expr.replace(/\$(\w+)/g, (whole, name: string) => {
    const value = VARIABLES[name]
    if (value === undefined) throw new Error(`no value for ${whole} in ${expr}`)
    return value
  })

const processDown = (alerts: Alert[], process: string) =>
  alerts.find((a) => a.labels.alertname === 'SppProcessDown' && a.labels.process === process)
const value = async (prometheus: Prometheus, expr: string) =>
  (await prometheus.query(expr))[0]?.value[1]

const SIMS = [
  { kind: 'primary' as const },
  { kind: 'nfv' as const, clientId: 1 },
  { kind: 'vf' as const, clientId: 2 },
  { kind: 'mirror' as const, clientId: 3 },
]

testNeeding(
  test,
  'a remembered process killed fires SppProcessDown, its return resolves it; every dashboard query evaluates',
  prometheusMissing,
  () =>
    withRemembering(SIMS, async (h) => {
      assert.ok(rulesForTest.includes('for: 1s') && !/for: \d+m/.test(rulesForTest))
      // vf 2 is remembered once a change to it is confirmed
      const made = await h.api('POST', '/v1/vfs/2/components', {
        name: 'fwd1',
        core: 2,
        type: 'forward',
      })
      assert.is(made.status, 204, made.text)
      const prometheus = await startPrometheus([`127.0.0.1:${h.controller.apiPort}`], rulesForTest)
      try {
        await pollUntil(
          'vf:2 up, as Prometheus scraped it',
          () => value(prometheus, 'spp_process_up{job="spp-ctl",process="vf:2"}'),
          (v) => v === '1',
        )

        const removed = once(h.controller.registry, 'removed')
        h.sim('vf 2').stop()
        await removed
        const alerts = await pollUntil(
          'SppProcessDown firing for vf:2',
          () => prometheus.alerts(),
          (all) => processDown(all, 'vf:2')?.state === 'firing',
        )
        const fired = processDown(alerts, 'vf:2')!
        assert.is(fired.labels.severity, 'critical')
        assert.equal(
          alerts.filter((a) => a.state === 'firing').map((a) => a.labels.alertname),
          ['SppProcessDown'],
          'nothing else fires on a healthy controller',
        )

        await h.connect([{ kind: 'vf', clientId: 2 }]) // it comes back empty and is restored
        await pollUntil(
          'SppProcessDown resolved',
          () => prometheus.alerts(),
          (all) => processDown(all, 'vf:2') === undefined,
        )
        assert.is(await value(prometheus, 'spp_process_up{process="vf:2"}'), '1')

        // The dashboard: its variables' label_values, then every panel's query.
        for (const variable of dashboard.templating.list.filter((v) => v.type === 'query')) {
          const [, metric, label] = /^label_values\((.+), (\w+)\)$/.exec(variable.definition!)!
          const values = await prometheus.api<string[]>(
            `/api/v1/label/${label}/values?match[]=${encodeURIComponent(substitute(metric!))}`,
          )
          assert.ok(values.length > 0, `${variable.name}: ${metric}`)
          if (variable.name === 'process')
            assert.equal(values.sort(), ['mirror:3', 'nfv:1', 'primary', 'vf:2'])
        }
        const queries = dashboard.panels.flatMap((p) =>
          (p.targets ?? []).map((t) => ({
            title: `${p.title} ${t.refId}`,
            expr: substitute(t.expr),
          })),
        )
        assert.ok(queries.length >= 20, `${queries.length} queries`)
        for (const { title, expr } of queries)
          await prometheus.query(expr).catch((error: Error) => {
            assert.unreachable(`${title}: ${expr}: ${error.message}`)
          })
        // The panels an operator looks at first have data (the recording rules included).
        for (const title of [
          'Processes connected (up) or missing (down) A',
          'Packets per second per port A',
          'Command latency (p50, p90, p99) A',
          'Commands per second A',
          'Drift per process A',
          'Restores by outcome A',
        ]) {
          const { expr } = queries.find((q) => q.title === title) ?? assert.unreachable(title)!
          await pollUntil(
            `data for ${title}`,
            () => prometheus.query(expr),
            (r) => r.length > 0,
          )
        }
      } finally {
        await prometheus.close()
      }
    }),
)

test.run()
