// contrib/prometheus/spp-ctl.rules.yml: promtool checks it and runs its unit tests; every alert
// has a test that fires it, says what to do, and has its section in docs/observing.md.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parse } from 'yaml'
import { testNeeding } from '../helpers/needs.ts'
import { PROMTOOL, promtoolMissing } from '../helpers/prometheus.ts'

const run = promisify(execFile)
const dir = new URL('../../contrib/prometheus/', import.meta.url).pathname
const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8')

type Rule = { alert?: string; record?: string; annotations?: Record<string, string> }
const rules = parse(read('../../contrib/prometheus/spp-ctl.rules.yml')) as {
  groups: { rules: Rule[] }[]
}
const alerts = rules.groups.flatMap((g) => g.rules).filter((r) => r.alert !== undefined)
type AlertTest = { alertname: string; exp_alerts: unknown[] }
const unitTests = parse(read('../../contrib/prometheus/spp-ctl.rules.test.yml')) as {
  tests: { alert_rule_test?: AlertTest[] }[]
}

/** Runs promtool in contrib/prometheus/, where the test file names the rules; its output. */
async function promtool(...args: string[]) {
  try {
    const { stdout, stderr } = await run(PROMTOOL, args, { cwd: dir })
    return stdout + stderr
  } catch (error) {
    const { stdout, stderr } = error as { stdout: string; stderr: string }
    assert.unreachable(`promtool ${args.join(' ')} failed:\n${stdout}${stderr}`)
    throw error
  }
}

testNeeding(test, 'promtool check rules accepts the rules', promtoolMissing, async () => {
  assert.match(await promtool('check', 'rules', 'spp-ctl.rules.yml'), /SUCCESS: \d+ rules found/)
})

testNeeding(
  test,
  "promtool test rules: every alert's unit tests pass",
  promtoolMissing,
  async () => {
    assert.match(await promtool('test', 'rules', 'spp-ctl.rules.test.yml'), /SUCCESS/)
  },
)

test('every alert has a unit test that fires it and one where it stays quiet', () => {
  assert.ok(alerts.length >= 10, `${alerts.length} alerts`)
  const cases = unitTests.tests.flatMap((t) => t.alert_rule_test ?? [])
  for (const { alert } of alerts) {
    const mine = cases.filter((c) => c.alertname === alert)
    assert.ok(
      mine.some((c) => c.exp_alerts.length > 0),
      `a test where ${alert} fires`,
    )
    assert.ok(
      mine.some((c) => c.exp_alerts.length === 0),
      `a test where ${alert} does not`,
    )
  }
})

test('every alert says what happened and what to do, and links its section of docs/observing.md', () => {
  const docs = read('../../docs/observing.md')
  for (const { alert, annotations } of alerts) {
    assert.ok(annotations?.summary, `${alert}: a summary`)
    const anchor = alert!.toLowerCase()
    assert.match(annotations?.description ?? '', `docs/observing.md#${anchor}`, alert)
    assert.match(docs, new RegExp(`^#### ${alert}$`, 'm'), `${alert}: its section`)
  }
})

test.run()
