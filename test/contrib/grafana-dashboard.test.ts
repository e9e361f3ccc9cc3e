// contrib/grafana/spp-ctl.json: a Grafana dashboard whose queries name only metrics the controller
// exposes (or the rules record), on a chosen Prometheus data source, filtered by process.
import { readFileSync } from 'node:fs'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parse } from 'yaml'
import { withHarness } from '../helpers/harness.ts'

type Target = { refId: string; expr: string; datasource: { type: string; uid: string } }
type Panel = {
  id: number
  type: string
  title: string
  gridPos: { x: number; y: number; w: number; h: number }
  datasource?: { type: string; uid: string }
  targets?: Target[]
}
type Variable = { name: string; type: string; query: unknown; allValue?: string }
const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8')
const dashboard = JSON.parse(read('../../contrib/grafana/spp-ctl.json')) as {
  uid: string
  title: string
  panels: Panel[]
  templating: { list: Variable[] }
}
const rulesText = read('../../contrib/prometheus/spp-ctl.rules.yml')
const rules = parse(rulesText) as { groups: { rules: { record?: string; expr: string }[] }[] }
const panels = dashboard.panels.filter((p) => p.type !== 'row')
const exprs = panels.flatMap((p) => p.targets ?? []).map((t) => t.expr)
const DATASOURCE = { type: 'prometheus', uid: '${datasource}' }

test('a Prometheus data source variable, and controller and process variables from spp_process_up', () => {
  const byName = new Map(dashboard.templating.list.map((v) => [v.name, v]))
  assert.equal(
    { type: byName.get('datasource')?.type, query: byName.get('datasource')?.query },
    { type: 'datasource', query: 'prometheus' },
  )
  for (const name of ['instance', 'process']) {
    const variable = byName.get(name)
    assert.is(variable?.type, 'query', name)
    assert.match(JSON.stringify(variable?.query), /label_values\(spp_process_up/, name)
    assert.is(variable?.allValue, '.*', `${name}: All selects every value`)
  }
})

test('every panel queries the chosen data source and has a query; ids unique; panels do not overlap', () => {
  assert.ok(panels.length >= 12, `${panels.length} panels`)
  const ids = dashboard.panels.map((p) => p.id)
  assert.is(new Set(ids).size, ids.length)
  const cells = new Set<string>()
  for (const panel of dashboard.panels) {
    const { x, y, w, h } = panel.gridPos
    assert.ok(x >= 0 && x + w <= 24, `${panel.title} fits in 24 columns`)
    for (let row = y; row < y + h; row++)
      for (let col = x; col < x + w; col++) {
        assert.not.ok(
          cells.has(`${row} ${col}`),
          `${panel.title} overlaps another at ${row} ${col}`,
        )
        cells.add(`${row} ${col}`)
      }
    if (panel.type === 'row') continue
    assert.equal(panel.datasource, DATASOURCE, panel.title)
    assert.ok(panel.targets?.length, `${panel.title} has a query`)
    for (const target of panel.targets) {
      assert.equal(target.datasource, DATASOURCE, panel.title)
      assert.ok(target.expr.trim(), `${panel.title} ${target.refId}`)
    }
  }
  const titles = panels.map((p) => p.title.toLowerCase()).join('\n')
  for (const topic of ['processes', 'packets per second', 'drops', 'latency', 'failures', 'drift'])
    assert.match(titles, topic)
  for (const topic of ['restores', 'connections dropped', 'auth refusals'])
    assert.match(titles, topic)
  // The drops along the chains, from spp_packets_dropped_total (through its recording rule).
  assert.ok(
    exprs.some((e) => e.startsWith('port:spp_packets_dropped:rate1m{')),
    'a panel of the packets dropped by port and reader',
  )
})

test('the process-labelled panels follow the process variable', () => {
  for (const metric of ['spp_process_up', 'spp_command_queue_depth', 'spp_drift_steps']) {
    const uses = exprs.filter((e) => e.includes(`${metric}{`))
    assert.ok(uses.length, metric)
    for (const expr of uses) assert.match(expr, 'process=~"$process"', expr)
  }
})

/** The spp_ metric names the controller exposes, as a scrape of one with a state directory shows. */
async function exposedNames(): Promise<Set<string>> {
  const dir = mkdtempSync(join(tmpdir(), 'spp-ctl-dashboard-'))
  try {
    let text = ''
    await withHarness(
      [{ kind: 'primary' }, { kind: 'nfv', clientId: 1 }],
      async (h) => {
        await h.api('GET', '/v1/primary/status') // the port counters appear after a read
        await h.api('GET', '/metrics') // that starts one refresh; the next scrape shows it
        text = (await h.api('GET', '/metrics')).text
      },
      { stateDir: dir },
    )
    return new Set([...text.matchAll(/^# TYPE (spp_\w+) /gm)].map(([, name]) => name!))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

test('the rules and the dashboard name only metrics the controller exposes or the rules record', async () => {
  const exposed = await exposedNames()
  // spp_etcd_up is there only with --etcd (src/fleet/controller-link.ts)
  assert.match(read('../../src/fleet/controller-link.ts'), "name: 'spp_etcd_up'")
  exposed.add('spp_etcd_up')
  const recorded = new Set(rules.groups.flatMap((g) => g.rules.map((r) => r.record)))
  const ruleExprs = rules.groups.flatMap((g) => g.rules.map((r) => r.expr))
  const named = [
    ...[...exprs, ...ruleExprs].join('\n').matchAll(/\b[a-z_]*:?spp_[a-z_]+(?::\w+)?/g),
  ]
  const names = new Set(named.map(([name]) => name))
  assert.ok(names.size >= 20, [...names].join(' '))
  for (const name of names) {
    if (name.includes(':')) assert.ok(recorded.has(name), `${name} is recorded`)
    else {
      const base = name.replace(/_(bucket|count|sum)$/, '')
      assert.ok(exposed.has(base), `${name} is exposed (${[...exposed].join(' ')})`)
    }
  }
  assert.ok(exposed.has('spp_process_up') && exposed.has('spp_command_queue_limit'))
})

test.run()
